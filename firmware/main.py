# The board's entry point: boot (firmware/startup.py), then the table's event loop, input and output passes.
#
#   from firmware.main import run; run()      # the board's /main.py (written by tools/build)
#
# On an unhandled exception the traceback is recorded in crash.log and the
# board resets; the next boot reports the crash and holds the table in FAULT
# until the dealer acknowledges it. A boot that raises (not a refused file: a
# flash refusing writes, a part failing) records it the same way, reports
# boot_refused and stays closed like a refused file: main.py never ends in
# the REPL without the service jumper.
import asyncio
import sys

from firmware import screens as core_screens
from firmware.compat import sleep_ms_async, ticks_diff, ticks_ms
from firmware.errors import SettingsError
from firmware.host_port import read_host
from firmware.parts import release_boot_only
from firmware.saved_state import keep_fault, record_crash
from firmware.startup import boot

# copies of firmware.events (tests/host/test_const_copies.py)
_BETS = const(13)
_BETS_FAULT = const(14)
_BUTTON = const(2)
_FAULT = const(8)
_SHOE = const(12)
_TICK = const(1)
# copies of firmware.faults (tests/host/test_const_copies.py)
_JOURNAL_NEARLY_FULL = const(23)
_QUEUE_FULL = const(4)
_SETTINGS_BAD = const(22)
_UNEXPECTED_INPUT = const(8)

POLL_MS = const(10)       # inputs, dispatch and watchdog feed
OUTPUT_MS = const(20)     # host reports and lights
DISPLAY_MS = const(100)   # LCD refresh at most this often
PROBE_MS = const(1000)    # each display asked this often whether it is there and still set up
_DISPLAY_ROLES = ("dealer", "result", "scoreboard")


def poll_inputs(ctx, elapsed_ms):
    """One pass over every input, then dispatch what was queued (run to completion)."""
    if ctx.recall.waiting is not None:              # (as _dispatch asks: no call a pass without one)
        ctx.recall.keep_waiting()                   # the last pass's round: out of the result's pass
    queue = ctx.queue
    queue.put(_TICK, elapsed_ms)
    ctx.hw.buttons.poll(queue)
    if ctx.hw.keypad is not None:
        ctx.hw.keypad.poll(queue)
    for device in ctx.game.devices:
        device.poll(elapsed_ms)
    if ctx.host_port is not None:
        read_host(ctx, elapsed_ms)
    if ctx.unused_reader is not None:
        _watch_unused_reader(ctx, elapsed_ms)
    ctx.console.poll(elapsed_ms)                    # typed bytes, through its line editor
    overflows = queue.overflows
    while queue.get():
        _dispatch(ctx, queue.kind, queue.a, queue.b)
        if ctx.recall.waiting is not None:
            # A round ended: it is made and kept (a flash write) at the next pass's start, before the events
            # queued behind it, which wait there: one taken off the queue first and lost at a power cut during
            # that write would leave no trace, neither queued nor journalled (docs/journal.md, "Recall").
            break
    if ctx.journal.due:
        # The lamp test ended in this pass: the table journal's recovery, here and not nested in the dispatch
        # that ended it (two frames less under the let-in, the table's deepest C stack: docs/performance-log.md).
        from firmware.recovery_replay import recover     # boot-only (parts.BOOT_ONLY): once a boot
        try:
            recover(ctx.journal, ctx, _report, _dispatch)
        finally:
            release_boot_only(ctx.console.change.pending is not None)   # it, and the restore's
    if queue.overflows != overflows:
        _dispatch(ctx, _FAULT, _QUEUE_FULL, queue.overflows - overflows)
    if ctx.hw.watchdog is not None:
        ctx.hw.watchdog.feed()


def _dispatch(ctx, kind, a, b):
    """One event: on flash first (firmware/recovery.py), then the table acts, then its reports go out."""
    if (kind == _SHOE or kind == _BUTTON) and ctx.console.change.pending is not None:
        from firmware.settings_swap import new_shoe_first
        if new_shoe_first(ctx, kind, a, b, _dispatch):
            return                # a new shoe during an alarm: held until the change has applied
    table = ctx.table
    journal = ctx.journal
    if ctx.recall.waiting is not None:
        ctx.recall.keep_waiting()  # a round this pass ended: made and kept before this event changes the table
    if kind == _BETS:
        if ctx.sender is not None:            # (after keep_waiting: its recall_unsaved fault takes room)
            table.link_room = ctx.sender.room()   # what the reading's reports may take now (journalled with it)
        if journal.refuses_readings():
            # No room in the table journal to keep it (a long alarm): refused whole, and journalled as
            # such (b: its id), so a replay refuses it too (docs/journal.md, "Full").
            kind, a, b = _BETS_FAULT, _JOURNAL_NEARLY_FULL, a
    if not journal.before(table, kind, a, b):
        return                    # waits for the recovery at the end of the boot's lamp test
    table.dispatch(kind, a, b)
    if kind == _TICK:
        journal.after_tick(table)
    if len(table.outbox):
        _report(ctx)              # at once: a report reads the controller's state of this very event
    journal.after(ctx)


def _watch_unused_reader(ctx, elapsed_ms):
    """Input on the reader port this game does not use: counted; the first line is a fault, with its bytes."""
    port = ctx.unused_reader
    line = port.poll(elapsed_ms)
    if line is None and not port.fault:
        return
    ctx.unexpected_lines += 1
    if ctx.unexpected_lines == 1:
        evidence = ctx.table.evidence
        handle = evidence.keep(line) if line is not None else evidence.keep(port.buf, 0, port.fault_len)
        ctx.queue.put(_FAULT, _UNEXPECTED_INPUT, handle)




def _report(ctx):
    keep_fault(ctx)               # saved before it is reported: a reported fault survives a reset
    ctx.reporter.drain(ctx.table)     # numbered frames in the link store's RAM; on flash and out: send_reports()


def refresh_outputs(ctx, draw_displays, elapsed_ms=OUTPUT_MS):
    """One output pass, elapsed_ms after the previous one: the table's answer (reports made, lights,
    displays), then the host link (the reports on flash, then out)."""
    show_outputs(ctx, draw_displays)
    lost = ctx.lost_displays
    if lost is not None:                          # a display stopped answering: tried again now and then
        lost.poll(ctx, elapsed_ms)
    wait = ctx.probe_wait_ms - elapsed_ms
    if wait <= 0:
        wait = PROBE_MS
        probe_displays(ctx)
    ctx.probe_wait_ms = wait
    send_reports(ctx, elapsed_ms)


def probe_displays(ctx):
    """Each display asked whether it is there and still set up (a byte read or a no-op command: nothing
    allocated), between its writes: a cable pulled is noticed within a second, not at the display's next
    change (the scoreboard's: the next result, mid-round), and one reseated between two writes (its
    controller powered up blank and not set up: a dark or garbled display the table never noticed) is set up
    again and drawn whole (firmware/display_loss.py). Each answer is asked twice before the table acts on it:
    one glitch on the bus (noise, a failed read) is not a cable out, whose alarm would hold the game (the cards
    read meanwhile discarded). Not over a display test's pattern."""
    if ctx.console.holds_displays():
        return
    displays = ctx.hw.displays
    for role in _DISPLAY_ROLES:
        driver = displays.get(role)
        if driver is None:
            continue
        try:
            try:
                restarted = driver.lost_setup()
            except OSError:
                restarted = driver.lost_setup()             # once more at once: still no answer, it is out
            if restarted:
                restarted = driver.lost_setup()             # and lost its setup: so it says twice
        except OSError as exc:
            from firmware.display_loss import lose           # (asked twice, no answer: set up again in 5 s)
            lose(ctx, role, exc)
            continue
        if restarted:
            from firmware.display_loss import set_up_again      # (at the first such display only)
            set_up_again(ctx, role, driver)


def send_reports(ctx, elapsed_ms):
    """The host link's turn, after the lights and displays (issue 14): the frames made since the last
    turn written to flash in one record (a flash program on a board: the dealer's answer does not wait
    for it), then out on the host port as far as the window and the UART's buffer allow. A power cut
    before the write loses no report: the table journal holds their events, replayed at boot."""
    if ctx.sender is not None:
        ctx.sender.poll(elapsed_ms)


def show_outputs(ctx, draw_displays):
    """The reports the table queued outside an event made; the lights; the displays when draw_displays (the
    scoreboard a display pass after the LCDs when both changed)."""
    _report(ctx)
    ctx.hw.lights.show()
    table = ctx.table
    if not draw_displays or ctx.console.holds_displays():
        return
    answered = table.display_dirty
    if answered:
        table.display_dirty = False
        displays = ctx.hw.displays
        lcd = displays.get("dealer")          # (one look-up a display, not `in` and then [])
        if lcd is not None:
            try:
                lcd.show(_dealer_lines(ctx))
            except OSError as exc:
                display_lost(ctx, "dealer", exc)
        lcd = displays.get("result")
        if lcd is not None:
            try:
                lcd.show(ctx.game.screens.result_lines(table, ctx.config, ctx.button_names))
            except OSError as exc:
                display_lost(ctx, "result", exc)
    game = ctx.game
    scoreboard = game.scoreboard
    if scoreboard is not None and table.scoreboard_dirty:
        if answered and not game.scoreboard_waited:
            # The LCDs answered in this pass: the scoreboard, a history, waits for the next display pass, so
            # that its changes (up to its whole 1 KB picture on the I2C bus, ~23 ms at 400 kHz) hold back neither
            # the pass the dealer waits for nor the host's frames after it (issue 14). Once: LCDs busy every pass
            # do not starve it.
            game.scoreboard_waited = True
            return
        game.scoreboard_waited = False
        table.scoreboard_dirty = False
        scoreboard[0].draw(table.roads)
        try:
            scoreboard[0].show()              # what the draw painted (a window a part), not the whole picture
        except OSError as exc:
            display_lost(ctx, "scoreboard", exc)


def display_lost(ctx, role, exc):
    """A display's write raised (a loose cable, noise on the I2C bus): never an exception out of the loop,
    which reset the table mid-round. Set up again at once: one glitch is a display drawn whole again
    (`display_restarted`, no alarm); no answer to that either, it is left out, named to the host,
    display_missing raised, and tried again until it answers (firmware/display_loss.py)."""
    from firmware.display_loss import set_up_again        # (at the first loss only: no heap before)
    set_up_again(ctx, role, ctx.hw.displays[role])


def _dealer_lines(ctx):
    """The game's dealer screen; a table held closed says why instead; service mode is shown over it."""
    table = ctx.table
    if table.closed_code and ctx.program_problem is not None:
        lines = core_screens.closed_lines(table, ctx.config, ctx.program_problem[0].split("/")[-1])
    elif table.closed_code == _SETTINGS_BAD:
        lines = core_screens.closed_lines(table, ctx.config, ctx.table_path.split("/")[-1])
    else:
        lines = ctx.game.screens.dealer_lines(table, ctx.config, ctx.button_names)
    if ctx.console.change.pending is not None:                  # a settings change waits for its boundary
        lines = core_screens.pending_banner(lines, table)
    if ctx.hw.service_mode:
        lines = core_screens.service_banner(lines, table)
    return lines


async def input_task(ctx):
    last = ticks_ms()
    while True:
        now = ticks_ms()
        poll_inputs(ctx, ticks_diff(now, last))
        last = now
        await sleep_ms_async(POLL_MS)


async def output_task(ctx):
    last_draw = last = ticks_ms()
    while True:
        now = ticks_ms()
        draw = ticks_diff(now, last_draw) >= DISPLAY_MS
        if draw:
            last_draw = now
        refresh_outputs(ctx, draw, ticks_diff(now, last))
        last = now
        await sleep_ms_async(OUTPUT_MS)


async def serve(ctx, extra_tasks=()):
    """Run the table; extra_tasks are coroutine functions of ctx run alongside (the simulator's view)."""
    tasks = [input_task(ctx), output_task(ctx)]
    for task in extra_tasks:
        tasks.append(task(ctx))
    await asyncio.gather(*tasks)


def run(board_path="board.json", table_path="table.json", state_dir="", machine=None, neopixel=None,
        extra_tasks=(), usb_console=None, program_dir=None, closed=False, board_name=None):
    """The board's entry point. Returns only if the boot refused a file or failed (to the REPL, in service
    mode).

    usb_console, program_dir, board_name: passed to boot() (the simulator gives its own console endpoint;
    the board's boot stub passes program_dir="": its program is checked against /manifest.json, and
    the name of the board it was built for).
    closed: True from the board's boot stub: after a refused file the REPL opens only with the
    service jumper fitted; without it the board idles with Ctrl-C off (a function: called once in
    place of that endless idle, for tests).
    """
    if machine is None:
        import machine
    if neopixel is None:
        import neopixel
    try:
        ctx = boot(machine, neopixel, board_path, table_path, state_dir, usb_console=usb_console,
                   program_dir=program_dir, board_name=board_name)
    except SettingsError as exc:
        print("boot: %s" % exc)
        print("boot: fix the file (mpremote edit / make deploy) and reset; the table stays closed")
        return _stay_closed(machine, board_path, table_path, exc, state_dir, closed, board_name)
    except Exception as exc:      # the boot itself failed (a flash that refuses writes, a part that raised):
        failed = "boot failed: %s: %s" % (type(exc).__name__, exc)
        try:                      # never main.py's end, which would leave the REPL open
            record_crash(exc, state_dir)
        except Exception:         # noqa: the record failing too (a MemoryError again): the report still goes
            pass
        print("%s; the table stays closed (the traceback in crash.log); reset to try again" % failed)
        return _stay_closed(machine, board_path, table_path, failed, state_dir, closed, board_name)
    try:
        asyncio.run(serve(ctx, extra_tasks))
    except KeyboardInterrupt:
        raise
    except Exception as exc:      # any fault in the loop: record it, then restart cleanly
        try:
            record_crash(exc, state_dir, ctx.fs, ctx.journal.crash_note())
            sys.stdout.write("fatal: %s; resetting\n" % exc)
        except Exception:         # noqa: the record failing too (a MemoryError again): never main.py's end
            pass
        machine.reset()
    return 0


def _stay_closed(machine, board_path, table_path, error, state_dir, closed, board_name):
    """A boot that did not open the table: boot_refused to the host (if the board file says where it is),
    then the REPL open only with the service jumper fitted (closed: the boot stub's). Returns 1."""
    from firmware.boot_refusal import report_refusal, stay_closed     # boot-only: parts.BOOT_ONLY
    from firmware.parts import release_boot_only
    try:
        try:
            report_refusal(machine, board_path, table_path, error, state_dir, board_name)
        except Exception as exc:  # noqa: a report that cannot go (the heap, the port): closed all the same
            print("boot: no report to the host: %s" % exc)
        if closed:
            stay_closed(machine, board_path, closed)
    finally:
        release_boot_only(False)
    return 1
