# What a running table keeps of its boot: the validated board description, the driver objects, the game.
#
# The modules that make them (firmware/board.py and its checks, firmware/hardware.py, firmware/game_setup.py)
# run only at boot and leave the heap after it (BOOT_ONLY below); these classes stay, with the objects made
# of them, so they live here, in a module that imports nothing of the firmware. So does the state of a settings
# change (ChangeState), whose modules are imported only when needed (CHANGE_ON_DEMAND), and the console's
# (ConsoleState: its own modules imported only while it is awake, CONSOLE_AWAKE).
import sys

# The modules a table runs only at boot: the boot's steps (boot_steps), the board file's validator (board,
# board_checks, board_ports, board_keypad), the hardware's bring-up, the table file's parse, the seal and
# program checks, the boot counter, the console's records read (console.opening), the firmware's version (the
# boot report's), what survives a reset read back (saved_state_read: the reset's cause too), a journal's files
# read back when it is opened (every journal is opened at boot: link.journal_read), the table journal's
# read-back and recovery (recovery_replay), a snapshot read back (snapshot_restore, and the game's own:
# games.GAME.restore), the game's setup and the refusal path.
# startup.boot() imports them where it uses them and releases them when it is done, so that a running board
# keeps none of their module objects, globals dicts, functions and classes (~7 KB of heap with the code in
# flash: docs/performance-log.md, "Memory kept"). Nothing kept may hold one of their functions, classes or
# globals (what the run keeps of them is in this module); a later path that needs one imports it again where
# it runs and calls release_boot_only() when it is done (the console's commands, a settings change read back
# or applied: its new controller restored from the old one's snapshot, the recovery at the end of the lamp
# test, a refusal).
BOOT_ONLY = ("firmware.boot_steps", "firmware.board", "firmware.board_checks", "firmware.board_ports",
             "firmware.board_keypad", "firmware.hardware", "firmware.table_config", "firmware.settings_seal",
             "firmware.program", "firmware.link.boot_counter", "firmware.version", "firmware.saved_state_read",
             "firmware.recovery_replay", "firmware.snapshot_restore", "firmware.games.baccarat.restore",
             "firmware.games.craps.restore", "firmware.games.omaha.restore", "firmware.game_setup",
             "firmware.boot_refusal", "firmware.console.opening", "firmware.link.journal_read")

# The console's command modules: the command table and each command's implementation. While the console is
# awake (CONSOLE_AWAKE below) it answers with firmware/console/shell.py's dispatch, editor.py, auth.py with the
# PIN record's check and audit.py (a login attempt is audited as it happens); a command's module is imported
# when its command runs (commands.py names each handler "module.function") and released when the line is
# done, with the table itself (~3.5 KB of heap with the code in flash: docs/performance-log.md, "Memory kept").
# A prompt (login's PIN, passwd's) holds its answer's function, and so its module, until the answer is
# typed; a lights or display test or a reboot that is due imports `checks` again each pass while it runs.
CONSOLE_ON_DEMAND = ("firmware.console.commands", "firmware.console.info", "firmware.console.checks",
                     "firmware.console.recall_cmd", "firmware.console.settings_cmd", "firmware.console.access",
                     "firmware.console.pins")


def release(names):
    """Forget the modules named (sys.modules and their package's attribute): once nothing else holds their
    objects, the collector frees them; the next import of one makes it anew."""
    for name in names:
        if name in sys.modules:
            del sys.modules[name]
        dot = name.rfind(".")
        package = sys.modules.get(name[:dot])
        if package is not None and hasattr(package, name[dot + 1:]):
            delattr(package, name[dot + 1:])


# A settings change's own modules: the staging, the read back and the boundary's check (settings_change) and
# the change applied (settings_swap). A table keeps the change's state (ChangeState below) and imports them when
# a settings command runs, at the first pass (a change committed before the reset read back), for a recovery
# that carries one and, while a change is pending, for the boundary's check each pass and a new shoe's events;
# released with BOOT_ONLY once no change is pending (~2 KB of heap with the code in flash).
CHANGE_ON_DEMAND = ("firmware.settings_swap", "firmware.settings_change")

# Game recall's reading side: the console's `recall N` and the host's RECALL (firmware/recall_answer.py).
# A table keeps each round at its end (firmware/round_recall.py, resident: every round) and an answer's
# state between passes; the reader is imported when one asks, released with `recall`'s line or once the
# host's answer is out (firmware/report.py).
RECALL_ON_DEMAND = ("firmware.recall_answer",)

# Craps' answer to the host's open_bets request (firmware/games/craps/open_bets.py): imported when asked,
# released once its report is made (firmware/games/craps/reports.py).
OPEN_BETS_ON_DEMAND = ("firmware.games.craps.open_bets",)

# The console itself, dormant while nobody uses it (docs/console.md, "Dormant"): its shell, line editor, login
# and audit log are imported when a byte is typed (and at the first pass, for the prompt and a settings change
# read back, and while a change is pending) and released when the technician is logged out and nothing is under
# way: no line half typed, no prompt, no test, no reboot, no change staged or pending (~2.7 KB of heap with the
# code in flash, with their objects: docs/console.md, "Dormant"). What must outlive them stays in ConsoleState
# below: the settings change, the login's counts and lockout, the audit log's and PIN record's journals, the
# errors and the passes' clock.
CONSOLE_AWAKE = ("firmware.console.shell", "firmware.console.editor", "firmware.console.auth",
                 "firmware.console.audit")


def release_boot_only(change_pending):
    """What every path that may import a boot-only module again calls when it is done: BOOT_ONLY released,
    and a settings change's own modules (CHANGE_ON_DEMAND) too unless a change is pending."""
    release(BOOT_ONLY)
    if not change_pending:
        release(CHANGE_ON_DEMAND)


class Board:
    """A validated board description. Attributes are plain data."""

    def __init__(self, name, data):
        self.name = name
        self.description = data.get("description", "")
        self.mcu = data["mcu"]
        # role -> {"uart", "tx", "rx", "baudrate"}, {"pio", "sm", "tx", "rx", "baudrate"} or {"usb": True}
        self.ports = data["ports"]
        self.buttons = sorted(data["buttons"].items())  # [(role, pin)], sorted for a stable index
        self.pixel_pin = data["pixels"]["pin"]
        self.pixel_count = data["pixels"]["count"]
        self.displays = data["displays"]      # {"i2c": {...}, "dealer": {...}, "result": {...}[, "scoreboard"]}
        self.watchdog_ms = data["watchdog"]["timeout_ms"]
        self.zones = data["zones"]            # layout -> zone -> [[first, last], ...]
        # {"rows": [pins], "cols": [pins], "keys": [[legend per column] per row]} or None
        self.keypad = data.get("keypad")
        # legend of each key index (row * columns + column, the KEY event's a); "" where no key is fitted
        self.keypad_keys = [legend for row in self.keypad["keys"] for legend in row] if self.keypad else []
        # The service jumper's pin (pull-up; jumper to ground at reset: service mode, the REPL open), or None
        self.service_pin = data.get("service_pin")
        # What only the bring-up reads is dropped after it (zones, keypad, displays' specs): firmware/hardware.py's
        # keep_layout and firmware/boot_steps.py's forget_bring_up (boot-only: their code is not kept either).

    def button_index(self, role):
        for i in range(len(self.buttons)):
            if self.buttons[i][0] == role:
                return i
        return -1

    def key_index(self, legend):
        """The keypad key index of `legend` (KEY's a), or -1 when this board's keypad has no such key."""
        for i in range(len(self.keypad_keys)):
            if legend and self.keypad_keys[i] == legend:
                return i
        return -1


class Hardware:
    """Driver objects of one board; missing optional parts are None, with faults listed."""

    def __init__(self):
        self.ports = {}       # role -> SerialLine (UART and PIO roles; a USB console too)
        self.uarts = {}       # role -> UART or PioUart object
        self.buttons = None
        self.keypad = None    # the dealer keypad (Keypad) when the board has one
        self.lights = None
        self.displays = {}    # role -> CharLCD ("dealer", "result") or SSD1306 ("scoreboard")
        self.watchdog = None
        self.service_mode = False   # the service jumper was fitted at reset (board.service_pin read low)
        self.faults = []      # (code, text, retry) found during bring-up: a display missing, and how to set it
                              # up once it answers (role, driver class, i2c, address, cols or width, rows or height)


class Game:
    """What boot hands the main loop for one game."""

    def __init__(self, table, screens):
        self.table = table
        self.screens = screens          # module with dealer_lines / result_lines
        self.devices = []               # framed device drivers, polled each pass (poll(elapsed_ms))
        self.scoreboard = None          # (Scoreboard, display) or None
        self.scoreboard_waited = False  # its draw waited a display pass (firmware/main.py, show_outputs)
        self.host_request = None        # parsed JSON host request -> (a, b) of its HOST event; ValueError
        self.rounds = None              # the game's recall module (firmware/games/GAME/recall.py)


class ChangeState:
    """The console's change of the table's settings as a table keeps it between commands and passes: staged ->
    pending (committed) -> applied. firmware/settings_change.py works on it (imported when needed: above)."""

    def __init__(self):
        self.staged = {}          # key -> value typed (checked with the rest), not committed
        self.pending = None       # the complete new settings, committed, waiting for the boundary
        self.ref = ""             # the pending change's approval reference
        self.changes = []         # [(key, old, new)] of the pending change
        self.announce = False     # settings_pending is reported at the start of the next pass
        self.refused = ""         # why the last boundary could not take it (tried again at the next)
        self.waiting = False      # refused at this boundary: wait until the table has left it
        self.loaded = False       # settings.pending read back (the first pass)
        self.held_shoe = None     # True: a new shoe held for the change, let in after it (settings_swap)
        self.letting_in = 0       # that shoe let go, its file on flash until the table has it (settings_change)

    def discard(self):
        """Drop the staged values (a logout's); how many there were."""
        had = len(self.staged)
        self.staged = {}
        return had


class ConsoleState:
    """ctx.console: the technician console as a table keeps it, awake (`shell`: firmware/console/shell.py's
    Console, which reads and writes its state here) or dormant (shell None: CONSOLE_AWAKE above). Anything else
    asked of it (a test's handle(), auth, log) is the shell's, woken for it."""

    def __init__(self, ctx):
        self.shell = None
        self.ctx = ctx
        self.port = ctx.hw.ports.get("console")
        self.change = ChangeState()   # set / commit: the settings change staged or pending (settings_change.py)
        self.errors = 0               # bad lines answered
        self.problems = []            # what the boot found wrong with the console's flash records
        self.clock_s = 0              # the login's clock (Console.auth_s): seconds since boot, and the ms of the next
        self.clock_ms = 0
        self.prompted = False         # the first prompt is out
        self.kept = None              # the shell's state while dormant (Console.keep_state); None: never awake yet

    def __getattr__(self, name):
        return getattr(self.wake(), name)

    def wake(self):
        """The shell, imported and made again from what is kept here if the console was dormant."""
        shell = self.shell
        if shell is None:
            from firmware.console.shell import Console
            shell = self.shell = Console(self)
        return shell

    def sleep(self):
        """Dormant: the shell keeps its state here and its modules leave the heap."""
        self.shell.keep_state()
        self.shell = None
        release(CONSOLE_AWAKE)

    def poll(self, elapsed_ms):
        """One pass: the clock; dormant, the console wakes for a byte typed, the first prompt or a settings
        change to read back or apply; awake, the shell's pass, and dormant again if nothing is under way."""
        self.clock_ms += elapsed_ms
        while self.clock_ms >= 1000:      # whole seconds kept apart: no int past 2**30 on a 31-bit port
            self.clock_ms -= 1000
            self.clock_s += 1
        shell = self.shell
        if shell is None:
            change = self.change
            port = self.port
            idle = change.loaded and change.pending is None and not change.letting_in
            if port is None:
                if idle:
                    return                # no console port: nothing to type, no prompt
            elif self.prompted and idle and not port.uart.any():
                return
            shell = self.wake()
        if shell.poll(elapsed_ms):
            self.sleep()

    def holds_displays(self):
        """True while a display test's pattern is shown (the output task does not redraw then)."""
        shell = self.shell
        return shell is not None and shell.display_hold_ms > 0
