# The boot's steps (firmware/startup.py's boot() runs them, then releases this module with the rest of
# parts.BOOT_ONLY): the board and table files loaded, the hardware brought up, the run's Context built,
# what survives a reset read back, the program and the settings' seal checked, the boot reported.
import os

from firmware import board as board_mod, fault_kinds, settings_seal, table_config
from firmware.compat import kbd_intr
from firmware.console.opening import report_boot as console_report_boot
from firmware.errors import SettingsError
from firmware.statemachine import EventQueue
from firmware.game_setup import READER_ROLE, build as build_game, check_zone_names
from firmware.hardware import bring_up
from firmware.host_port import settings_digest
from firmware.link import sender as sender_mod
from firmware.link.boot_counter import next_boot
from firmware.link.journal_store import JournalStore
from firmware.parts import ConsoleState
from firmware.recovery import TableJournal
from firmware.recovery_replay import link_problem, refuse_recovery
from firmware.report import Reporter
from firmware.round_recall import RoundRecall
from firmware.saved_state_read import reset_cause_name, restore_fault, take_crash_record
from firmware.startup import Context
from firmware.version import FIRMWARE_VERSION

# copies of firmware.faults (tests/host/test_const_copies.py)
_BOOT_COUNTER_BAD = const(18)
_CRASHED = const(6)
_DISPLAY_MISSING = const(5)
_JOURNAL_BAD = const(20)
_PROGRAM_MISMATCH = const(19)
_SETTINGS_BAD = const(22)
# copies of firmware.boot_refusal (tests/host/test_const_copies.py)
_INTR_CTRL_C = const(3)
_INTR_OFF = const(-1)
# copies of firmware.events (tests/host/test_const_copies.py)
_FAULT = const(8)
# copies of firmware.hardware (tests/host/test_const_copies.py)
_HOST_TXBUF = const(1024)      # bytes a poll writes at most, when the port has sent all: never a wait
# copies of firmware.startup (tests/host/test_const_copies.py)
_HOST_PIECE = const(128)
_HOST_SLOT = const(200)
_HOST_STORE_FRAMES = const(64)
_HOST_BOOT_FRAMES = const(6)

# The reader port a game does not use (game_setup.READER_ROLE says which one it does).
_OTHER_READER = {"shoe": "dice", "dice": "shoe"}


def boot_table(machine, neopixel, board_path, table_path, state_dir, lcd_class, usb_console, fs, program_dir,
               board_name):
    """startup.boot()'s work (its arguments): the Context of a booted table; SettingsError if a file is wrong."""
    board = board_mod.load(board_path, board_name)
    config = table_config.load(table_path)
    role = READER_ROLE[config["game"]]
    if role not in board.ports:
        raise SettingsError("board %s has no %s port, which %s needs" % (board.name, role, config["game"]))
    check_zone_names(board, config["game"])
    hw = bring_up(board, config["game"], machine, neopixel, lcd_class, usb_console=usb_console)
    files = os if fs is None else fs
    boot_number, counter_problem = next_boot(state_dir, files)    # before any frame carries it
    ctx = make_context(board, config, hw, state_dir, fs, boot_number)
    forget_bring_up(board)        # the zones in the lights and the game now, the keypad in its driver
    close_repl(hw.service_mode)
    ctx.crash_record = take_crash_record(state_dir, ctx.fs)
    refuse_recovery(ctx.journal, ctx.crash_record)     # it crashed the last boot: not again
    if not ctx.journal.pending or ctx.journal.problem:
        restore_fault(ctx)       # queued first (older than anything found now); else the journal has it
    check_program(ctx, program_dir)
    seal_problem = settings_seal.check(state_dir, ctx.fs, table_path)
    if seal_problem and not ctx.table.closed_code:
        ctx.table.hold_closed(_SETTINGS_BAD)
    ctx.machine = machine
    ctx.reset_cause = reset_cause_name(machine)
    ctx.table_path = table_path
    ctx.reporter.emit("boot", {"board": board.name, "game": config["game"], "firmware": FIRMWARE_VERSION,
                               "settings": settings_digest(table_config.read(table_path)),
                               "reset_cause": ctx.reset_cause, "program": ctx.program,
                               "service_mode": hw.service_mode})
    if hw.service_mode:
        ctx.reporter.emit("service_mode", {"repl": "open", "pin": board.service_pin})
    report_recall(ctx.recall, ctx.reporter)
    console_report_boot(ctx.console.shell, ctx.reporter)
    ctx.console.sleep()                   # dormant until the first pass (firmware/parts.py, CONSOLE_AWAKE)
    report_found(ctx, boot_number, counter_problem, seal_problem)
    return ctx


def make_context(board, config, hw, state_dir, fs, boot_number):
    """The run's Context (firmware/startup.py): the queue, the game, the host link, the journal, the reports,
    recall and the console, for the board brought up (fs: rename/remove/stat in the state dir, None: os)."""
    ctx = Context()
    ctx.board = board
    ctx.config = config
    ctx.hw = hw
    ctx.state_dir = state_dir
    ctx.fs = os if fs is None else fs     # rename/remove/stat in the state dir (tests fake them)
    ctx.saved_fault_code = 0              # what the pending-fault record on flash holds
    ctx.saved_fault_detail = 0
    ctx.queue = EventQueue(32)
    game = build_game(board, config, hw, ctx.queue)
    ctx.game = game
    ctx.table = game.table
    ctx.button_names = [role for role, _ in board.buttons]
    ctx.sender = None
    ctx.host_noise = 0            # host lines refused as line noise (bad CRC, cut short): counted only
    ctx.host_asked = False        # this pass's host lines queued a HOST event (one a pass)
    uart = hw.uarts.get("host")
    store = None                  # unacknowledged frames on flash (firmware/link/journal_store.py)
    ctx.link_store = None
    if uart is not None:
        store = JournalStore(state_dir, ctx.fs, _HOST_STORE_FRAMES + _HOST_BOOT_FRAMES, _HOST_SLOT)   # on flash
        ctx.link_store = store
        ctx.sender = sender_mod.Sender(uart, store, boot_number, previous=store.previous,
                                        on_alarm=ctx._link_alarm, budget=_HOST_TXBUF, piece=_HOST_PIECE,
                                        boot_frames=_HOST_BOOT_FRAMES)
    ctx.journal = TableJournal(state_dir, ctx.fs, store)    # the table's events (firmware/recovery.py)
    ctx.reporter = Reporter(ctx.sender, config["table_id"], ctx.button_names)
    # Recall (issue 12): each round on flash after its report; `recall N` and the host's RECALL read it.
    ctx.recall = RoundRecall(state_dir, config["game"], fs if hasattr(fs, "open") else None, game.rounds)
    ctx.reporter.recall = ctx.recall
    ctx.recall.events = ctx.journal             # each round kept with its event's number,
    ctx.recall.defer = True                     # at the start of the pass after it (poll_inputs)
    ctx.journal.recall = ctx.recall
    ctx.journal.numbers_from(ctx.recall.last_event())
    ctx.bringup_faults = hw.faults
    ctx.crash_record = ""
    ctx.machine = None                    # boot() sets these three for the console
    ctx.reset_cause = -1
    ctx.table_path = ""
    ctx.console = ConsoleState(ctx)
    ctx.console.wake()                    # the audit log and PIN record read, the login's counts back
    ctx.console_port = hw.ports.get("console")
    ctx.host_port = hw.ports.get("host")
    ctx.reader_role = READER_ROLE[config["game"]]      # its framed device is in game.devices
    # The other game's reader port is watched when it has a UART of its own (where shoe and dice
    # share one, board_ports.SHAREABLE_PORTS, that UART is the game's own reader and there is nothing else).
    ctx.unused_role = _OTHER_READER[ctx.reader_role]
    ctx.unused_reader = None
    if hw.uarts.get(ctx.unused_role) is not hw.uarts.get(ctx.reader_role):
        ctx.unused_reader = hw.ports.get(ctx.unused_role)
    ctx.unexpected_lines = 0      # lines (garbage too) seen on the unused port; the first is a fault
    ctx.reporter.unused_role = ctx.unused_role
    ctx.program = "unverified"    # "verified", "unverified" (no program_dir: the simulator's source
                                  # tree) or "mismatch" (the table is held closed)
    ctx.program_problem = None    # (path, problem) when the program differs from its manifest
    ctx.program_dir = None        # where the deployed program lies ("" on the board), None: not deployed;
                                  # the console's `verify SEED` is firmware.program.verify(seed, program_dir)
    return ctx


def report_found(ctx, boot_number, counter_problem, seal_problem):
    """What the boot found wrong, after the boot report: each a fault report, most a FAULT event too."""
    if counter_problem:
        ctx.reporter.emit("fault", {"fault": fault_kinds.name(_BOOT_COUNTER_BAD), "text": counter_problem})
        ctx.queue.put(_FAULT, _BOOT_COUNTER_BAD, boot_number)
    if ctx.program_problem is not None:
        path, problem = ctx.program_problem
        ctx.reporter.emit("fault", {"fault": fault_kinds.name(_PROGRAM_MISMATCH), "file": path,
                                    "problem": problem})
    if seal_problem:
        ctx.reporter.emit("fault", {"fault": fault_kinds.name(_SETTINGS_BAD), "text": seal_problem})
    journal_problem = link_problem(ctx.journal)
    if journal_problem:           # the link store's flipped bits: the frames before them were kept
        ctx.reporter.emit("fault", {"fault": fault_kinds.name(_JOURNAL_BAD), "text": journal_problem[:120]})
        ctx.queue.put(_FAULT, _JOURNAL_BAD, 0)
    for code, text, retry in ctx.hw.faults:
        ctx.reporter.emit("fault", {"fault": code, "text": text})
        ctx.queue.put(_FAULT, _DISPLAY_MISSING, 0)
        from firmware.display_loss import missing_at_boot     # (a display missing: tried again while running)
        missing_at_boot(ctx, retry)
    if ctx.crash_record:
        last = ctx.crash_record.strip().splitlines()[-1]
        ctx.reporter.emit("crash_recorded", {"error": last})
        ctx.queue.put(_FAULT, _CRASHED, 0)


def close_repl(service_mode):
    """Ctrl-C on the USB console reaches Python only in service mode (the jumper fitted at reset)."""
    kbd_intr(_INTR_CTRL_C if service_mode else _INTR_OFF)


def check_program(ctx, program_dir):
    """Every deployed file against manifest.json; a difference holds the table closed (_PROGRAM_MISMATCH).

    The table never opens: it is FAULTED before its first event, and no acknowledgement lifts it.
    """
    if program_dir is None:
        return
    ctx.program_dir = program_dir
    from firmware import program
    problem = program.check(program_dir)
    if problem is None:
        ctx.program = "verified"
        return
    ctx.program = "mismatch"
    ctx.program_problem = problem
    ctx.table.hold_closed(_PROGRAM_MISMATCH)


def forget_bring_up(board):
    """Once the table is built, what only the bring-up read of `board`: the zone map lives on in the lights
    (their pixel ranges and names, which the console's `zones` reads) and the seat count in the game; the
    keypad's pins and legends in the keypad driver (keypad_keys stays: a settings change reads it; where the
    game reads no keypad, bring_up emptied it); of the displays the selftest reads their roles only. Kept, what was parsed from the board file would stay in
    the heap for the whole run (the zone map 2.3 KB for Craps' fourteen seats, the keypad 368 bytes, the
    displays' specs 0.2 KB)."""
    board.zones = None
    board.keypad = None
    board.displays = tuple(sorted(board.displays))    # the roles ("dealer", "i2c", ...), sorted


def report_recall(recall, reporter):
    """At boot: a damaged or unreadable recall (a RoundRecall's problem) is a fault report (the rounds it still
    has are served)."""
    if recall.problem:
        reporter.emit("fault", {"fault": "recall_damaged", "text": recall.problem})
