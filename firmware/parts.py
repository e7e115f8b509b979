# What a running table keeps of its boot: the validated board description, the driver objects, the game.
#
# The modules that make them (firmware/board.py and its checks, firmware/hardware.py, firmware/game_setup.py)
# run only at boot and leave the heap after it (firmware/startup.py, BOOT_ONLY); these classes stay, with
# the objects made of them, so they live here, in a module that imports nothing.


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

    def keep_layout(self, layout):
        """Forget every other layout's zone map: a booted table reads only its own (bring-up's lights,
        the seat count), and each map parsed from the board file keeps 1.5-3 KB of heap."""
        self.zones = {layout: self.zones[layout]} if layout in self.zones else {}

    def forget_zones(self):
        """Once the table is built: its zone map lives on in the lights (their pixel ranges and names,
        which the console's `zones` reads) and the seat count in the game; kept, the map parsed from
        the board file would stay in the heap for the whole run (2.3 KB for Craps' fourteen seats)."""
        self.zones = None

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
        self.faults = []      # (code, text) found during bring-up


class Game:
    """What boot hands the main loop for one game."""

    def __init__(self, table, screens):
        self.table = table
        self.screens = screens          # module with dealer_lines / result_lines
        self.devices = []               # framed device drivers, polled each pass (poll(elapsed_ms))
        self.scoreboard = None          # (Scoreboard, display) or None
        self.host_request = None        # parsed JSON host request -> (a, b) of its HOST event; ValueError
        self.rounds = None              # the game's recall module (firmware/games/GAME/recall.py)
