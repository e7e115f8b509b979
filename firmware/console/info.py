# The console's read-only commands: help, status, log, audit, settings, sensors, time, board, zones, crash, version.
#
# Nothing here changes the table or writes to flash; none needs a login.
from firmware import fault_kinds
from firmware.compat import native_arch
from firmware.jsonfile import number
from firmware.link.journal import JournalError
from firmware.version import FIRMWARE_VERSION as VERSION

# copies of firmware.events (tests/host/test_const_copies.py)
_CON_REFUSED = const(7)
_CON_USAGE = const(5)

AUDIT_SHOWN = 10          # `audit` without N
_AUDIT_MAX = 64


def help_(con, args):
    from firmware.console.commands import ORDER, TABLE
    if len(args) > 1:
        return con.error(_CON_USAGE, "usage: help [COMMAND]")
    if args:
        command = TABLE.get(args[0].lower())
        if command is None:
            return con.error(_CON_USAGE, "no command %r (type help)" % args[0])
        return ["usage: " + command.usage, "  " + command.help + (" (needs a technician login)" if command.login
                                                                   else "")]
    lines = ["commands (* needs a technician login):"]
    for name in ORDER:
        command = TABLE[name]
        lines.append("%s %-18s %s" % ("*" if command.login else " ", command.usage, command.help))
    return lines


def _progress(table):
    """The game's own count: rounds of the shoe, the shooter, hands."""
    shoe = getattr(table, "shoe", None)
    if shoe is not None and hasattr(shoe, "rounds"):
        return "round %d of this shoe" % shoe.rounds
    if hasattr(table, "shooter"):
        return "shooter %d, %d valid rolls" % (table.shooter, table.shooter_rolls)
    if hasattr(table, "hand_no"):
        return "hand %d" % table.hand_no
    return "no round in play"


def closes(ctx):
    """What closes the open alarm: the dealer display's action line, which offers only what does
    (tests/firmware/test_alarm_prompts.py); a table held closed is not opened by any button. (`status`, and
    a lamp check or lights test refused over the alarm: checks.py.)"""
    t = ctx.table
    if t.closed_code:
        return "the table stays closed (no button opens it): see the boot's reports"
    lines = ctx.game.screens.dealer_lines(t, ctx.config, ctx.button_names)
    return "the dealer display says %s" % (lines[-1] if lines and lines[-1] else "CONFIRM")


def _reset_cause(ctx):
    return ctx.reset_cause.lower()              # firmware.host_port.reset_cause_name: one word, as in the boot report


def _heap():
    try:
        import gc
        return "%d bytes" % gc.mem_free()
    except (ImportError, AttributeError):
        return "n/a"                        # CPython: no fixed heap


def status(con, args):
    if args:
        return con.error(_CON_USAGE, "usage: status")
    ctx = con.ctx
    t = ctx.table
    auth = con.auth
    lines = [
        "table %s  game %s  state %s" % (ctx.config["table_id"], ctx.config["game"], t.state_name()),
        _progress(t),
        "uptime %d s  reports sent %d" % (t.uptime_s, ctx.reporter.seq),
        "reset cause %s  heap free %s" % (_reset_cause(ctx), _heap()),
        "event queue overflows %d  outbox overflows %d" % (ctx.queue.overflows, t.outbox.overflows),
        "console errors %d" % con.keep.errors,
    ]
    for role in sorted(ctx.hw.ports):
        port = ctx.hw.ports[role]
        if role == "console" and con.editor is not None:
            lines.append("port console: %d too long, %d bytes ignored" % (con.editor.overlong, con.editor.ignored))
        else:
            lines.append("port %s: %d too long, %d cut short" % (role, port.overlong, port.partial))
    if ctx.unused_reader is not None:
        lines.append("lines on the unused %s port %d" % (ctx.unused_role, ctx.unexpected_lines))
    sender = ctx.sender
    if sender is not None:      # the link's own counts: a host that misses reports, a noisy line
        lines.append("host link: %d held, %d resent, %d replays, %d refused, %d noise" % (
            sender.held(), sender.retransmits, sender.replays, sender.refused_total, ctx.host_noise))
    if t.fault_code:
        if t.fault_restored:
            detail = "from before the reset"
        elif fault_kinds.has_evidence(t.fault_code):
            detail = "bytes %r" % t.evidence.text(t.fault_detail)
        else:
            detail = "detail %d" % t.fault_detail
        lines.append("fault %s (%s): %s" % (fault_kinds.name(t.fault_code), detail, closes(ctx)))
    for code, text, _ in ctx.bringup_faults:
        lines.append("bring-up fault %s: %s" % (code, text))
    if con.change.pending is not None:
        lines.append("settings change pending (ref %s): type settings" % con.change.ref)
    locked = auth.locked_for(con.auth_s())
    lines.append("technician logged in" if auth.logged_in else
                 "console locked for %d s" % locked if locked else "not logged in")
    return lines


def log(con, args):
    if args:
        return con.error(_CON_USAGE, "usage: log")
    recent = con.ctx.reporter.recent.last()
    if not recent:
        return ["no reports yet"]
    return ["%5d %s%s" % (seq, event, " " + fault if fault else "") for seq, event, fault in recent]


def audit(con, args):
    n = number(args[0]) if len(args) == 1 else AUDIT_SHOWN      # (None: no number, jsonfile.NUMBER_RULE)
    if len(args) > 1 or n is None or not 0 < n <= _AUDIT_MAX:
        return con.error(_CON_USAGE, "usage: audit [N] (N 1..%d)" % _AUDIT_MAX)
    if con.log is None:
        return [p for p in con.problems if p.startswith("audit log")] or ["audit log unavailable"]   # as found at boot
    try:
        entries = con.log.last(n)
    except (OSError, JournalError) as exc:     # flash failing: an answer, not a crash and a reset of the table
        return ["audit log unreadable (%s)" % exc]
    return entries or ["audit log empty"]


def settings(con, args):
    if args:
        return con.error(_CON_USAGE, "usage: settings")
    from firmware.console import settings_cmd           # (and settings_change: on demand, for this command only)
    from firmware.settings_change import show
    config = con.ctx.config
    lines = ["table %s  game %s" % (config["table_id"], config["game"])]
    for name, value in config["rules"].as_pairs():
        lines.append("  %-20s %s" % (name, show(value)))
    return lines + settings_cmd.lines(con)


def sensors(con, args):
    if args:
        return con.error(_CON_USAGE, "usage: sensors")
    lines = []
    for device in con.ctx.game.devices:
        source = device.source
        lines.append("%s: %d frames, %d crc errors, %d bad, %d lost, %d repeated, %d restarts, %d dropped" % (
            type(device).__name__.lower(), device.frames_ok, device.crc_errors, device.bad_frames, device.lost,
            device.duplicates, device.restarts, device.dropped_lines))
        if hasattr(source, "overlong"):
            lines.append("  line: %d too long, %d cut short" % (source.overlong, source.partial))
    return lines or ["no readers on this table"]


def time(con, args):
    if args:
        return con.error(_CON_USAGE, "usage: time")
    s = con.now_s()
    lines = ["uptime %d s (%dd %02d:%02d:%02d)" % (s, s // 86400, s // 3600 % 24, s // 60 % 60, s % 60)]
    sender = getattr(con.ctx, "sender", None)
    host = sender.host_time if sender is not None else None     # a Stamp the link's passes move on
    if host is None:
        lines.append("host time not set")
    else:
        unix_s = host.hi * 1000 + host.lo // 1000                  # (a Stamp: ms as hi * 10**6 + lo)
        lines.append("host time %d (Unix seconds, set by the host link's TIME)" % unix_s)
    return lines


def board(con, args):
    if args:
        return con.error(_CON_USAGE, "usage: board")
    b = con.ctx.board
    lines = ["board %s (%s): %s" % (b.name, b.mcu, b.description)]
    for role in sorted(b.ports):
        spec = b.ports[role]
        if "usb" in spec:
            lines.append("  %-7s USB" % role)
        elif "pio" in spec:
            lines.append("  %-7s PIO%d SM%d-%d tx=%d rx=%d %d baud" % (
                role, spec["pio"], spec["sm"], spec["sm"] + 1, spec["tx"], spec["rx"], spec["baudrate"]))
        else:
            lines.append("  %-7s UART%d tx=%d rx=%d %d baud" % (role, spec["uart"], spec["tx"], spec["rx"],
                                                                 spec["baudrate"]))
    lines.append(_native_line())
    return lines


# Which firmware modules of native code (@micropython.viper) this board runs, by name; each is taken at import
# where the port runs native code, else its plain fallback (firmware/link/crc32.py, games/omaha/hand_value.py):
# a build that left one out still plays, slower, and this line shows it.
_NATIVE_MODULES = (("firmware.link.crc32_viper", "link CRC"), ("firmware.games.omaha.hand_value_viper", "Omaha showdown"))
_ARCH_NAMES = {2: "x64", 4: "armv6m", 10: "xtensawin"}     # MP_NATIVE_ARCH_* (sys.implementation._mpy >> 10)


def _native_line():
    import sys
    arch = native_arch()
    if not arch:
        return "native code: none (this runtime runs bytecode only: the plain CRC and showdown)"
    loaded = [label for module, label in _NATIVE_MODULES if module in sys.modules]
    return "native code (%s): %s" % (_ARCH_NAMES.get(arch, "arch %d" % arch), ", ".join(loaded) or "none loaded")


def zones(con, args):
    if args:
        return con.error(_CON_USAGE, "usage: zones")
    return [" ".join(con.ctx.table.lights.names)]


def crash(con, args):
    if args:
        return con.error(_CON_USAGE, "usage: crash")
    record = con.ctx.crash_record
    return record.splitlines() if record else ["no crash recorded"]


def verify(con, args):
    """verify SEED: HMAC-SHA256 keyed by SEED over every deployed firmware file in manifest order
    (firmware.program.verify), what `python -m tools.verify --board NAME --seed SEED` gives over the
    build a lab holds (docs/build-deploy.md, "Program verification")."""
    if len(args) != 1:
        return con.error(_CON_USAGE, "usage: verify SEED")
    program_dir = con.ctx.program_dir
    if program_dir is None:
        return con.error(_CON_REFUSED, "no deployed program to verify (the simulator runs the source tree: "
                                      "python -m hostsim --deployed)")
    from firmware import program
    try:
        return ["verify " + program.verify(args[0], program_dir)]
    except (program.ManifestError, OSError) as exc:
        return con.error(_CON_REFUSED, "cannot verify: %s" % exc)


def version(con, args):
    if args:
        return con.error(_CON_USAGE, "usage: version")
    return ["table firmware " + VERSION]
