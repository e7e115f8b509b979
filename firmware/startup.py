# Boot: load the board and table files, bring up drivers, build the run's Context and report the boot
# (firmware/main.py runs the table's event loop on it). The steps are firmware/boot_steps.py's, boot-only
# (parts.BOOT_ONLY): a running table keeps of this module the Context class and boot() itself.
import os

from firmware.compat import const
from firmware.console import Console
from firmware.events import EventQueue
from firmware.link import sender as sender_mod
from firmware.recovery import TableJournal, link_store
from firmware.report import Reporter
from firmware.round_recall import RoundRecall
from firmware.parts import BOOT_ONLY, release      # BOOT_ONLY: also read here by tests and benches

# copies of firmware.events (tests/host/test_const_copies.py)
_LINK_BACKLOG = const(18)
# copies of firmware.hardware (tests/host/test_const_copies.py)
_HOST_TXBUF = const(1024)      # bytes written per call at most: never a wait

# The reader port a game does not use (game_setup.READER_ROLE says which one it does).
_OTHER_READER = {"shoe": "dice", "dice": "shoe"}
# The host link (docs/host-link.md): frames the host has not acknowledged wait on flash with a RAM copy,
# 64 of HOST_SLOT bytes, the newest 16 of them in RAM (3.2 KB) and a 2 KB batch buffer; the alarm (LINK_BACKLOG) comes at 48. A frame carries
# at most HOST_PIECE bytes of a report (a longer one goes as PARTs): short frames get through a
# noisy line far more often than 500-byte ones (1 % of bytes hit: 20 % of 170-byte frames, 1 % of 500).
HOST_STORE_FRAMES = const(64)
HOST_PIECE = const(128)
HOST_SLOT = const(200)          # the longest frame of a HOST_PIECE payload: header at most 61, CRC and LF 10


class Context:
    """Everything the tasks and the console share for one run."""

    def __init__(self, board, config, hw, state_dir, fs=None, boot_number=1):
        self.board = board
        self.config = config
        self.hw = hw
        self.state_dir = state_dir
        self.fs = os if fs is None else fs    # rename/remove/stat in the state dir (tests fake them)
        self.saved_fault_code = 0             # what the pending-fault record on flash holds
        self.saved_fault_detail = 0
        from firmware.game_setup import READER_ROLE, build as build_game
        self.queue = EventQueue(32)
        game = build_game(board, config, hw, self.queue)
        self.game = game
        self.table = game.table
        self.button_names = [role for role, _ in board.buttons]
        self.sender = None
        self.host_noise = 0           # host lines refused as line noise (bad CRC, cut short): counted only
        self.host_asked = False       # this pass's host lines queued a HOST event (one a pass)
        uart = hw.uarts.get("host")
        store = None                  # unacknowledged frames on flash (firmware/link/journal_store.py)
        self.link_store = None
        if uart is not None:
            store = link_store(state_dir, self.fs, HOST_STORE_FRAMES, HOST_SLOT)
            self.link_store = store
            self.sender = sender_mod.Sender(uart, store, boot_number, previous=store.previous,
                                            on_alarm=self._link_alarm, budget=_HOST_TXBUF, piece=HOST_PIECE)
        self.journal = TableJournal(state_dir, self.fs, store)   # the table's events (firmware/recovery.py)
        self.reporter = Reporter(self.sender, config["table_id"], self.button_names)
        # Recall (issue 12): each round on flash after its report; `recall N` and the host's RECALL read it.
        self.recall = RoundRecall(state_dir, config["game"], fs if hasattr(fs, "open") else None, game.rounds)
        self.reporter.recall = self.recall
        self.recall.events = self.journal            # each round kept with its event's number,
        self.recall.defer = True                     # at the start of the pass after it (poll_inputs)
        self.journal.recall = self.recall
        self.journal.numbers_from(self.recall.last_event())
        self.bringup_faults = hw.faults
        self.crash_record = ""
        self.machine = None                   # boot() sets these three for the console
        self.reset_cause = -1
        self.table_path = ""
        self.host_time = None                 # (host's seconds, table uptime_s then) once the host sets it
        self.console = Console(self)
        self.console_port = hw.ports.get("console")
        self.host_port = hw.ports.get("host")
        self.reader_role = READER_ROLE[config["game"]]     # its framed device is in game.devices
        # The other game's reader port is watched when it has a UART of its own (where shoe and dice
        # share one, board_ports.SHAREABLE_PORTS, that UART is the game's own reader and there is nothing else).
        self.unused_role = _OTHER_READER[self.reader_role]
        self.unused_reader = None
        if hw.uarts.get(self.unused_role) is not hw.uarts.get(self.reader_role):
            self.unused_reader = hw.ports.get(self.unused_role)
        self.unexpected_lines = 0     # lines (garbage too) seen on the unused port; the first is a fault
        self.reporter.unused_role = self.unused_role
        self.program = "unverified"   # "verified", "unverified" (no program_dir: the simulator's source
                                      # tree) or "mismatch" (the table is held closed)
        self.program_problem = None   # (path, problem) when the program differs from its manifest
        self.program_dir = None       # where the deployed program lies ("" on the board), None: not deployed;
                                      # the console's `verify SEED` is firmware.program.verify(seed, program_dir)

    def _link_alarm(self, raised):
        """The sender's store crossed its alarm level: a table event, in order with the others."""
        # The store's count, not the sender's: a boot with a backlog on flash raises it while the Sender
        # is still being built (its pending frames flushed into the store).
        self.queue.put(_LINK_BACKLOG, 1 if raised else 0, self.link_store.count())


def boot(machine, neopixel, board_path="board.json", table_path="table.json", state_dir="", lcd_class=None,
         usb_console=None, fs=None, program_dir=None, board_name=None):
    """Load files and bring up the hardware; SettingsError if a file is wrong.

    fs: rename/remove/stat for the state dir (default os; tests pass a fake filesystem).
    program_dir: where the deployed program and its manifest.json lie ("" on the board: the boot
    stub passes it), checked before the table opens; None: not checked, and the boot report says
    "program": "unverified" (the simulator running the source tree).
    board_name: the board's name (the boot stub passes the one it was built for: the board file is
    /board.json there); None: its file name, e.g. "pico" for boards/pico.json.
    The modules of BOOT_ONLY (firmware/parts.py), firmware/boot_steps.py's among them, are released when
    it returns or raises.
    """
    try:
        from firmware.boot_steps import boot_table
        return boot_table(machine, neopixel, board_path, table_path, state_dir, lcd_class, usb_console, fs,
                          program_dir, board_name)
    finally:
        release(BOOT_ONLY)


