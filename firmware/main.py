# Boot: load the board and table files, bring up drivers, run the table's event loop.
#
#   from firmware.main import run; run()      # the board's /main.py (written by tools/build)
#
# On an unhandled exception the traceback is recorded in crash.log and the
# board resets; the next boot reports the crash and holds the table in FAULT
# until the dealer acknowledges it.
import asyncio
import sys

from firmware import board as board_mod
from firmware import faults, readers, screens, table_config
from firmware.compat import const, format_exception, sleep_ms_async, ticks_diff, ticks_ms
from firmware.console import Console
from firmware.errors import SettingsError
from firmware.events import EventQueue, FAULT, TICK
from firmware.hardware import bring_up, open_port
from firmware.report import Reporter
from firmware.table import Table

POLL_MS = const(10)       # inputs, dispatch and watchdog feed
OUTPUT_MS = const(20)     # host reports and lights
DISPLAY_MS = const(100)   # LCD refresh at most this often
CRASH_LOG = "crash.log"
CRASH_PREVIOUS = "crash.prev"
CRASH_LOG_MAX = 2048
# Which reader port each game takes its input from.
READER_ROLE = {"baccarat": "shoe", "omaha": "shoe", "craps": "dice"}


class Context:
    """Everything the tasks and the console share for one run."""

    def __init__(self, board, config, hw, state_dir):
        self.board = board
        self.config = config
        self.hw = hw
        self.state_dir = state_dir
        self.queue = EventQueue(32)
        confirm = board.button_index("confirm")
        self.table = Table(hw.lights, confirm)
        self.button_names = [role for role, _ in board.buttons]
        self.reporter = Reporter(hw.ports.get("host"), config["table_id"], self.button_names)
        self.bringup_faults = hw.faults
        self.crash_record = ""
        self.console = Console(self)
        self.console_port = hw.ports.get("console")
        self.reader_role = READER_ROLE[config["game"]]
        self.reader = hw.ports.get(self.reader_role)
        self.reader_event = readers.card_event if self.reader_role == "shoe" else readers.dice_event


def _path(state_dir, name):
    return name if not state_dir else state_dir + "/" + name


def record_crash(exc, state_dir=""):
    """Append the traceback to crash.log (bounded), for the next boot to report."""
    text = format_exception(exc)
    try:
        try:
            with open(_path(state_dir, CRASH_LOG)) as f:
                old = f.read()
        except OSError:
            old = ""
        text = (old + text)[-CRASH_LOG_MAX:]
        with open(_path(state_dir, CRASH_LOG), "w") as f:
            f.write(text)
    except OSError:
        pass                      # a full or read-only filesystem must not stop the reset
    return text


def _take_crash_record(state_dir):
    try:
        with open(_path(state_dir, CRASH_LOG)) as f:
            text = f.read()
    except OSError:
        return ""
    try:
        import os
        os.rename(_path(state_dir, CRASH_LOG), _path(state_dir, CRASH_PREVIOUS))
    except OSError:
        pass
    return text


def boot(machine, neopixel, board_path="board.json", table_path="table.json", state_dir="", lcd_class=None,
         usb_console=None):
    """Load files and bring up the hardware; SettingsError if a file is wrong."""
    board = board_mod.load(board_path)
    config = table_config.load(table_path)
    role = READER_ROLE[config["game"]]
    if role not in board.ports:
        raise SettingsError("board %s has no %s port, which %s needs" % (board.name, role, config["game"]))
    hw = bring_up(board, config["game"], machine, neopixel, lcd_class, usb_console=usb_console)
    ctx = Context(board, config, hw, state_dir)
    ctx.crash_record = _take_crash_record(state_dir)
    reset_cause = machine.reset_cause() if hasattr(machine, "reset_cause") else -1
    ctx.reporter.emit("boot", {"board": board.name, "game": config["game"], "reset_cause": reset_cause})
    for code, text in hw.faults:
        ctx.reporter.emit("fault", {"fault": code, "text": text})
        ctx.queue.put(FAULT, faults.DISPLAY_MISSING, 0)
    if ctx.crash_record:
        last = ctx.crash_record.strip().splitlines()[-1]
        ctx.reporter.emit("crash_recorded", {"error": last})
        ctx.queue.put(FAULT, faults.CRASHED, 0)
    return ctx


def report_refusal(machine, board_path, table_path, error):
    """Send {"event": "boot_refused", "error": ...} to the host, if the board file tells where it is.

    The board file may be the one refused: its ports.host section alone is
    enough. Returns the line sent, or None when the host port is unknown.
    """
    try:
        name, data = board_mod.read(board_path)
        spec = board_mod.host_port(name, data)
    except SettingsError as exc:
        reason = "" if str(exc) == str(error) else ": " + str(exc)   # the refusal itself was just printed
        print("boot: no report to the host: the board file gives no valid host port%s" % reason)
        return None
    try:
        port = open_port(machine, spec)
    except (OSError, ValueError) as exc:      # the UART itself failed: the console line is all there is
        print("boot: no report to the host: its UART %d failed (%s)" % (spec["uart"], exc))
        return None
    reporter = Reporter(port, table_config.table_id(table_path), ())
    return reporter.emit("boot_refused", {"error": str(error)})


def poll_inputs(ctx, elapsed_ms):
    """One pass over every input, then dispatch what was queued (run to completion)."""
    queue = ctx.queue
    queue.put(TICK, elapsed_ms)
    ctx.hw.buttons.poll(queue)
    reader = ctx.reader
    if reader is not None:
        overlong = reader.overlong
        line = reader.poll()
        if reader.overlong != overlong:         # the dropped line came before this one
            queue.put(FAULT, faults.LINE_TOO_LONG, 0)
        if line is not None:
            kind, a, b = ctx.reader_event(line)
            queue.put(kind, a, b)
    port = ctx.console_port
    if port is not None:
        line = port.poll()
        if line is not None:
            for reply in ctx.console.handle(line):
                port.write_line(reply)
    overflows = queue.overflows
    table = ctx.table
    while queue.get():
        table.dispatch(queue.kind, queue.a, queue.b)
    if queue.overflows != overflows:
        table.dispatch(FAULT, faults.QUEUE_FULL, queue.overflows - overflows)
    if ctx.hw.watchdog is not None:
        ctx.hw.watchdog.feed()


def refresh_outputs(ctx, draw_displays):
    ctx.reporter.drain(ctx.table)
    ctx.hw.lights.show()
    table = ctx.table
    if draw_displays and table.display_dirty:
        table.display_dirty = False
        displays = ctx.hw.displays
        if "dealer" in displays:
            displays["dealer"].show(screens.dealer_lines(table, ctx.config, ctx.button_names))
        if "result" in displays:
            displays["result"].show(screens.result_lines(table, ctx.config, ctx.button_names))


async def input_task(ctx):
    last = ticks_ms()
    while True:
        now = ticks_ms()
        poll_inputs(ctx, ticks_diff(now, last))
        last = now
        await sleep_ms_async(POLL_MS)


async def output_task(ctx):
    last_draw = ticks_ms()
    while True:
        now = ticks_ms()
        draw = ticks_diff(now, last_draw) >= DISPLAY_MS
        if draw:
            last_draw = now
        refresh_outputs(ctx, draw)
        await sleep_ms_async(OUTPUT_MS)


async def serve(ctx, extra_tasks=()):
    """Run the table; extra_tasks are coroutine functions of ctx run alongside (the simulator's view)."""
    tasks = [input_task(ctx), output_task(ctx)]
    for task in extra_tasks:
        tasks.append(task(ctx))
    await asyncio.gather(*tasks)


def run(board_path="board.json", table_path="table.json", state_dir="", machine=None, neopixel=None,
        extra_tasks=()):
    """The board's entry point. Returns only if a file is wrong (to the REPL)."""
    if machine is None:
        import machine
    if neopixel is None:
        import neopixel
    try:
        ctx = boot(machine, neopixel, board_path, table_path, state_dir)
    except SettingsError as exc:
        print("boot: %s" % exc)
        print("boot: fix the file (mpremote edit / make deploy) and reset; the table stays closed")
        report_refusal(machine, board_path, table_path, exc)
        return 1
    try:
        asyncio.run(serve(ctx, extra_tasks))
    except KeyboardInterrupt:
        raise
    except Exception as exc:      # any fault in the loop: record it, then restart cleanly
        record_crash(exc, state_dir)
        sys.stdout.write("fatal: %s; resetting\n" % exc)
        machine.reset()
    return 0
