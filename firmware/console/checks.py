# The console's checks: lamp, lights test, display test, selftest, and reboot.
#
# Lamps go through the table's lamp check (LAMP events on the queue: the state
# machine lights them, reports them, and refuses them over a fault's alarm).
# The lights test walks every zone one WALK_STEP_MS at a time from step(),
# which the shell calls every pass; the display test holds its pattern for
# _DISPLAY_TEST_MS while the output task leaves the displays alone.
from firmware import fault_kinds
from firmware import table as table_mod

# copies of firmware.events (tests/host/test_const_copies.py)
_CON_NO_ZONE = const(6)
_CON_REFUSED = const(7)
_CON_USAGE = const(5)
_LAMP = const(9)
_LAMP_ALL = const(-1)
_LAMP_CHECK_END = const(-2)

WALK_STEP_MS = const(500)
_DISPLAY_TEST_MS = const(3000)


def _refusal(con, what):
    table = con.ctx.table
    if table.state == table_mod.FAULTED:
        from firmware.console.info import closes     # (on demand, as every console command module)
        # What closes it, as `status` says (until stop 72: CONFIRM, for every alarm, a closed table's too)
        why = "the table is in FAULT until the alarm is closed: %s" % closes(con.ctx)
    else:
        why = "the table is %s" % table.state_name()
    return con.error(_CON_REFUSED, "%s refused: %s" % (what, why))


def lamp(con, args):
    if len(args) != 1:
        return con.error(_CON_USAGE, "usage: lamp ZONE|all|off")
    table = con.ctx.table
    target = args[0].lower()
    if target == "all":
        zone = _LAMP_ALL
    elif target == "off":
        zone = _LAMP_CHECK_END
    else:
        zone = table.lights.index(target)
        if zone < 0:
            return con.error(_CON_NO_ZONE, "no zone %r in this layout (type zones)" % target)
    if zone != _LAMP_CHECK_END and not table.accepts_lamp_check():
        return _refusal(con, "lamp check")
    failed = con.record()
    if failed:
        return failed
    if zone == _LAMP_CHECK_END:
        con.walk = -1
    if not con.ctx.queue.put(_LAMP, zone):
        return ["error: event queue full, lamp command dropped (try again)"]
    return ["ok"]


def lights_test(con, args):
    if args != ["test"]:
        return con.error(_CON_USAGE, "usage: lights test")
    table = con.ctx.table
    if not table.accepts_lamp_check():
        return _refusal(con, "lights test")
    if not table.lights.names:
        return ["no zones in this layout"]
    failed = con.record()
    if failed:
        return failed
    con.walk = 0
    con.walk_ms = 0
    con.ctx.queue.put(_LAMP, 0)
    return ["lights test: %d zones, %d ms each (Ctrl-C stops it)" % (len(table.lights.names), WALK_STEP_MS)]


def stop_walk(con, why):
    """End the lights test (Ctrl-C): the reply line."""
    con.walk = -1
    con.end_lamp_check()
    return [why]


def step(con, elapsed_ms):
    """The shell's every pass: the lights walk, the display test's hold, a reboot that is due."""
    if con.walk >= 0:
        _walk(con, elapsed_ms)
    if con.display_hold_ms > 0:
        con.display_hold_ms -= elapsed_ms
        if con.display_hold_ms <= 0:
            _displays_back(con)
    if con.reboot_due:
        _reboot_now(con)


def _walk(con, elapsed_ms):
    table = con.ctx.table
    if not table.accepts_lamp_check():
        con.walk = -1
        con.say(["lights test stopped: the table is %s" % table.state_name()])
        return
    con.walk_ms += elapsed_ms
    if con.walk_ms < WALK_STEP_MS:
        return
    nxt = con.walk + 1
    if nxt >= len(table.lights.names):
        if con.end_lamp_check():
            con.walk = -1
            con.say(["lights test done"])
        return
    if con.ctx.queue.put(_LAMP, nxt):        # a full queue: tried again next pass
        con.walk = nxt
        con.walk_ms = 0


def display_test(con, args):
    if args != ["test"]:
        return con.error(_CON_USAGE, "usage: display test")
    failed = con.record()
    if failed:
        return failed
    lines = []
    displays = con.ctx.hw.displays
    for role in sorted(con.ctx.board.displays):
        if role == "i2c":
            continue
        display = displays.get(role)
        if display is None:                       # missing at boot, or stopped answering since: selftest says which
            lines.append("%s: missing (no pattern: see selftest)" % role)
            continue
        try:
            if hasattr(display, "fill"):          # the scoreboard OLED: every pixel on
                display.fill(1)
                display.show()
            else:
                display.show(_pattern(role, getattr(display, "cols", 20), getattr(display, "rows", 4)))
            lines.append("%s: test pattern for %d s" % (role, _DISPLAY_TEST_MS // 1000))
        except OSError as exc:
            lines.append("%s: no answer (%s)" % (role, exc))
    con.display_hold_ms = _DISPLAY_TEST_MS
    return lines or ["no displays"]


def _pattern(role, cols, rows):
    text = ("%s display test" % role).upper()
    digits = "0123456789" * (cols // 10 + 1)
    out = [text[:cols]]
    for y in range(1, rows):
        out.append(digits[y:y + cols] if y % 2 else "#" * cols)
    return out


def _displays_back(con):
    ctx = con.ctx
    con.display_hold_ms = 0
    ctx.table.display_dirty = True
    oled = ctx.hw.displays.get("scoreboard")
    if oled is not None:
        if ctx.game.scoreboard is not None:
            ctx.game.scoreboard[0].forget()      # the test pattern is on it: the whole picture again
            ctx.table.scoreboard_dirty = True
        else:
            try:
                oled.fill(0)
                oled.show()
            except OSError:
                pass                             # selftest says so


def reboot(con, args):
    if args:
        return con.error(_CON_USAGE, "usage: reboot")
    if con.ctx.machine is None:
        return con.error(_CON_REFUSED, "reboot refused: no machine module")
    failed = con.record()
    if failed:
        return failed
    con.reboot_due = True
    return ["rebooting once the reports are out"]


def _reboot_now(con):
    ctx = con.ctx
    # This pass's TICK is all that may wait: every earlier event has been dispatched and reported.
    if len(ctx.table.outbox) or len(ctx.queue) > 1:
        return
    con.reboot_due = False
    # The reports are numbered in the link store's RAM; the output pass keeps them on flash and writes them out.
    # An input pass may come first: kept and written here (the command's own report among them), they go out
    # before the next boot's, under their numbers (until stop 72 the next boot made them again from the table
    # journal, after its boot report).
    ctx.reporter.durable()
    ctx.machine.reset()


def selftest(con, args):
    if args:
        return con.error(_CON_USAGE, "usage: selftest")
    lines = []
    _check_displays(con.ctx, lines)
    _check_queues(con.ctx, lines)
    _check_records(con, lines)
    _check_settings(con.ctx, lines)
    bad = [line for line in lines if not line.endswith(": ok")]
    lines.append("selftest: %s" % ("ok" if not bad else "%d problem%s" % (len(bad), "s" if len(bad) > 1 else "")))
    return lines


def _check_displays(ctx, lines):
    for role in sorted(ctx.board.displays):
        if role == "i2c":
            continue
        display = ctx.hw.displays.get(role)
        if display is None:
            lost = ctx.lost_displays
            if lost is not None and role in lost.roles():
                lines.append("display %s: missing (stopped answering: tried again every 5 s)" % role)
            else:
                lines.append("display %s: missing (not answering since boot: tried again every 5 s)" % role)
            continue
        i2c = getattr(display, "i2c", None)
        try:
            answers = not hasattr(i2c, "scan") or display.addr in i2c.scan()   # a bus that cannot scan: trusted
        except OSError as exc:
            lines.append("display %s: bus error (%s)" % (role, exc))
            continue
        lines.append("display %s: ok" % role if answers else "display %s: no answer at %d" % (role, display.addr))


def _check_queues(ctx, lines):
    queue, outbox = ctx.queue, ctx.table.outbox
    lines.append("event queue %d of %d, %d overflows: %s" % (
        len(queue), queue.size, queue.overflows, "ok" if not queue.overflows else "lost events"))
    lines.append("outbox %d of %d, %d overflows: %s" % (
        len(outbox), outbox.size, outbox.overflows, "ok" if not outbox.overflows else "lost reports"))


def _check_records(con, lines):
    for problem in con.problems:
        lines.append("flash: %s" % problem)
    if con.log is not None:
        try:
            con.log.last(1)
            lines.append("audit log, %d entries: ok" % con.log.count)
        except Exception as exc:              # noqa: any failure to read is the finding
            lines.append("audit log: unreadable (%s)" % exc)
    pins = con.pins
    lines.append("technician PIN: ok" if pins is not None and pins.provisioned
                 else "technician PIN: %s" % (pins.problem if pins is not None else "unavailable"))
    code = con.ctx.table.fault_code
    lines.append("alarm: ok" if not code else "alarm: %s open" % fault_kinds.name(code))


def _check_settings(ctx, lines):
    path = ctx.table_path
    if not path:
        lines.append("settings: no table file known")
        return
    try:
        from firmware import table_config     # boot-only (firmware/parts.py, BOOT_ONLY): imported when used
        data = table_config.load(path)
    except Exception as exc:                  # noqa: SettingsError, OSError: the finding either way
        lines.append("settings: %s" % exc)
        return
    running = ctx.config
    if data["game"] != running["game"] or data["rules"].as_pairs() != running["rules"].as_pairs():
        lines.append("settings: table file differs from the settings running since boot")
    else:
        lines.append("settings %s: ok" % path.split("/")[-1])
