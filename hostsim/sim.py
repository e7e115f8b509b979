# The simulator around the unchanged firmware: the simulated dealer, dealer keys, the live view, resets, host errors.
#
# Everything the table's equipment sends goes through one host-side device
# layer, hostsim.table_io.TableIO: at a Baccarat table hostsim.dealer's Dealer
# deals the shoe and places the bettors' chips through it (and injects the
# faults of the keys 1-3); at a Craps table hostsim.stickman's Stickman throws
# the dice and places the bettors' chips (and injects the invalid throws and
# cocked dice of the keys 1-2); at an Omaha table hostsim.omaha_dealer's
# OmahaDealer keys the buy-ins, hands and the emulated players' actions on the
# dealer keypad and deals the cards through the shoe; the dealer keys press the
# board's buttons through it.
#
# Sim(board_path, table_path, state_dir, ...).run() boots firmware.main.run()
# on the simulated board until it stops: Quit (q, Ctrl-C, --seconds elapsed),
# or HostError when the simulator's own host side fails. Both are
# BaseExceptions, so the firmware's `except Exception` crash recovery lets them
# through: only a firmware exception is recorded in crash.log.
import asyncio
import collections
import logging
import os
import select
import sys

from firmware import board as board_mod
from firmware import table_config
from firmware.game_setup import seat_count
from firmware.game_setup import READER_ROLE
from hostsim import keypad as sim_keypad
from hostsim import stickman
from hostsim.flash import table_on_flash
from hostsim.dealer import FAULT_KEYS, LIVE_PACE, Dealer
from hostsim.table_io import KEY_GAP_MS, TableIO

# Keys of this terminal -> the dealer button they press (shown only if the board has the button).
KEYS = (("d", "deal"), ("c", "confirm"), ("v", "void"), ("s", "shoe_change"), ("u", "undo"), ("m", "menu"))
QUIT_KEYS = ("q", "\x03")
SCOREBOARD_KEY = "o"      # the live view: the scoreboard in place of the LCDs, and back (hostsim.screen)
CABLE_KEY = "l"           # the dealer LCD's cable pulled, and reseated (the firmware: firmware/display_loss.py)
STEP_S = 0.05             # the host task's period (real time at --speed 1; shorter when faster)
MIN_STEP_S = 0.005        # ... but never below this much real time
VIEW_EVERY_MS = 100       # live view refresh (real time)


class Quit(BaseException):
    """Ends the simulation; a BaseException so the firmware's crash recovery lets it through."""


class HostError(BaseException):
    """The simulator's own host side failed (its view, its output, its dealer): not a firmware crash.

    The host task runs inside the firmware's asyncio loop, so an ordinary
    exception there would look like a firmware fault and be recorded in
    crash.log; raised as this BaseException it passes the firmware's
    `except Exception` recovery untouched. `.error` is the original exception.
    """

    def __init__(self, error):
        BaseException.__init__(self, "%s: %s" % (type(error).__name__, error))
        self.error = error


def unsupported(board, game):
    """Why `board` (a firmware.board.Board) cannot run `game`, or None when it can.

    A game is supported when the board has its reader port and a zone map for its layout.
    """
    role = READER_ROLE[game]
    if role not in board.ports:
        return "board %s has no %s port, which %s needs" % (board.name, role, game)
    if game not in board.zones:
        return "board %s has no zone map for the %s layout" % (board.name, game)
    return None


def board_keys(board, taken=()):
    """[(key, button role)] of the buttons this board has; a key in `taken` (the keypad's) moves to its capital."""
    return [(key.upper() if key in taken else key, role) for key, role in KEYS if board.button_index(role) >= 0]


class HostTap:
    """The simulator's host: reads the host-link frames the firmware writes (tools.host.HostClient),
    acknowledges them back into the board's host port, and keeps the last reports for the view.
    A pty client (python -m tools.host PTY) sees the same frames."""

    def __init__(self, endpoint, keep=32):
        from tools.host import HostClient

        self.lines = collections.deque(maxlen=keep)
        self.unprinted = []
        self.undealt = []           # lines the dealer has not seen yet (taken in the host task, not here)
        self.endpoint = endpoint
        self.client = HostClient(raw=True)
        endpoint.taps.append(self.seen)

    def link_boot(self):
        """The firmware's boot counter in the newest frame taken in order (None before the first)."""
        expected = self.client.expected
        return expected[0] if expected is not None else None

    def seen(self, data):
        reports, reply = self.client.feed(bytes(data))
        if reply:
            self.endpoint.feed(reply)
        for text in reports:
            self.lines.append(text)
            self.unprinted.append(text)
            self.undealt.append(text)


# Plain output's line when the table holds an alarm only a person closes (Sim._say_waiting).
WAITING_KEYS = "sim: the table holds an alarm (a report above names it) for a person to close: c confirm or v void"
WAITING_NO_KEYS = ("sim: the table holds an alarm (a report above names it) for a person to close, and no keyboard is "
                   "read here (stdin is no terminal): run in a terminal to close it with c (confirm) or v (void)")


class Sim:
    """One simulated table: the board's hardware installed, the firmware booted (again after each reset).

    ports: "pty" or "loopback"; ui: the live view (else host reports are
    printed as "host: {...}" lines to `out`); demo: the simulated dealer runs
    the table (False, --no-demo: nobody does, the person at the terminal drives it);
    seconds: stop after this much virtual time; speed: virtual time runs this
    many times faster than real time; keys: read dealer keys from stdin.
    """

    def __init__(self, board_path, table_path, state_dir, ports="pty", ui=False, demo=True, seconds=None,
                 seed=None, speed=1.0, keys=False, out=None, players=None, program_dir=None, board_name=None):
        from hostsim import hardware
        from hostsim.clock import VirtualClock

        self.board_path = board_path
        self.table_path = table_on_flash(table_path, state_dir)     # a settings change rewrites the copy
        self.state_dir = state_dir
        self.program_dir = program_dir      # the deployed build (--deployed) the firmware checks at boot, or None
        self.board_name = board_name        # a deployed build's board (its boot stub names it), or None
        self.board = board_mod.load(board_path, board_name)
        self.config = table_config.load(table_path)
        self.game = self.config["game"]
        self.ui = ui
        # [(terminal key, legend)]: the person at the terminal keys the keypad, unless the simulated dealer
        # does (an Omaha table with its simulated dealer): one dealer a table, or two people's entries would mix.
        self.keypad_keys = sim_keypad.terminal_keys(self.board, self.game) if not (demo and self.game == "omaha") \
            else []
        self.keys = board_keys(self.board, [key for key, _ in self.keypad_keys])
        self.typed = collections.deque()    # keypad legends typed, pressed one after the other (press_typed)
        self._next_key_ms = 0
        self.read_stdin = keys
        self.out = out if out is not None else sys.stdout
        self.hw = hardware.install(clock=VirtualClock(realtime=True, scale=speed), ports=ports, board=self.board)
        # The dealer's steps stay about STEP_S of virtual time apart when the clock runs faster. (The
        # firmware's own passes are 10 ms of real time apart: above a few times real time its timing,
        # such as the 150 ms double-pull window, gets coarse.)
        self.step_s = max(MIN_STEP_S, STEP_S / speed)
        self.io = TableIO(self.hw, self.board)
        self.dealer = None          # Baccarat: the dealer and the bettors; Craps: the stickman and the bettors;
                                    # Omaha: the dealer and the players (`players` of them, default 6)
        self.fault_keys = ()
        rules = self.config["rules"]
        if demo and self.game == "baccarat":
            self.dealer = Dealer(self.io, rules, seat_count(self.board, "baccarat"), seed=seed, pace=LIVE_PACE)
            self.fault_keys = FAULT_KEYS
        elif demo and self.game == "craps":
            self.dealer = stickman.Stickman(self.io, rules, rules.seats, seed=seed, pace=stickman.LIVE_PACE)
            self.fault_keys = stickman.FAULT_KEYS
        elif demo and self.game == "omaha":
            from hostsim import omaha_dealer
            self.dealer = omaha_dealer.OmahaDealer(self.io, rules, players or omaha_dealer.PLAYERS, seed=seed,
                                                   pace=omaha_dealer.live_pace(speed))
        self.scoreboard_key = SCOREBOARD_KEY if self.game == "baccarat" else ""    # the roads are Baccarat's
        self.cable_key = CABLE_KEY if "dealer" in self.io.display_roles() else ""
        self.show_scoreboard = False    # the live view shows the scoreboard in place of the LCDs
        self.tap = HostTap(self.hw.port("host"))
        self.stop_at = None if seconds is None else self.hw.clock.now_ms() + int(seconds * 1000)
        self.live = None
        self._next_view = 0.0
        self._waiting = False       # plain output: the dealer waits for a person to close an alarm (said once)

    def close(self):
        from hostsim import hardware

        hardware.uninstall()

    def port_lines(self):
        return ["%-9s %s" % (role, path or "(loopback)") for role, _, path in self.hw.port_paths()]

    # -- firmware side: what the board does; exceptions here are the firmware's ----------------
    def run(self):
        """Boot the firmware until Quit or HostError; a firmware crash resets the board and boots it again."""
        import machine
        import neopixel
        from firmware import main as firmware_main
        from hostsim.hardware import SimReset
        from hostsim.usb import UsbConsole

        _quiet_handled_resets(SimReset)
        while True:
            usb = UsbConsole() if self.hw.usb is not None else None
            try:
                return firmware_main.run(self.board_path, self.table_path, self.state_dir, machine, neopixel,
                                         extra_tasks=(self.task,), usb_console=usb, program_dir=self.program_dir,
                                         board_name=self.board_name)
            except SimReset as reset:
                self._host(self.say, "sim: %s; booting again" % reset)
                self.hw.reboot(reset.cause)

    def press(self, role):
        """A short press of the board's button `role` (none: nothing), released by release_due()."""
        if self.board.button_index(role) >= 0:
            self.io.press(role)             # may run the firmware's pin IRQ handler

    def release_due(self):
        self.io.release_due()

    def press_typed(self, now):
        """The next typed keypad key, once the last one is released and its release debounced."""
        if self.typed and not self.io.holding() and now >= self._next_key_ms:
            hold = self.io.press_key(self.typed.popleft())
            self._next_key_ms = now + hold + KEY_GAP_MS

    async def task(self, ctx):
        """Runs beside the firmware: the dealer, keys, button releases, timers, watchdog, the view."""
        self._host(self._start_view)
        try:
            while True:
                now = self.hw.clock.now_ms()
                self._host(self._deal, now)
                for role in self._host(self._read_keys):
                    self.press(role)
                self.release_due()
                self._host(self.press_typed, now)
                self.hw.run_timers()
                self.hw.run_pio()
                self.hw.check_watchdog()
                self._host(self._show)
                if self.stop_at is not None and now >= self.stop_at:
                    raise Quit()
                await asyncio.sleep(self.step_s)
        finally:
            self._stop_view()

    # -- host side: the simulator's own work; an exception here is a HostError ----------------
    @staticmethod
    def _host(step, *args):
        try:
            return step(*args)
        except Exception as exc:
            raise HostError(exc) from exc

    def say(self, text):
        if self.live is not None:
            self.live.console.print(text)
        else:
            print(text, file=self.out, flush=True)

    def _deal(self, now):
        """The dealer follows the reports the firmware sent since the last step, then does what is due."""
        if self.dealer is None:
            return
        from hostsim.autoplay import parse

        lines, self.tap.undealt = self.tap.undealt, []
        for line in lines:
            self.dealer.on_report(parse(line))
        self.dealer.tick(now)

    def _read_keys(self):
        if not self.read_stdin:
            return ()
        roles = []
        keys = dict(self.keys)
        keypad = dict(self.keypad_keys)
        faults = dict((key, fault) for key, fault, _ in self.fault_keys)
        while select.select([sys.stdin], [], [], 0)[0]:
            data = os.read(sys.stdin.fileno(), 1)
            if not data:
                break
            raw = data.decode(errors="ignore")
            raw = sim_keypad.ALIASES.get(raw, raw)
            ch = raw.lower()
            if ch in QUIT_KEYS:
                raise Quit()
            if raw in keys:
                roles.append(keys[raw])
            elif raw in keypad:
                self.typed.append(keypad[raw])
            elif ch in keys:
                roles.append(keys[ch])
            elif ch in faults:
                self.dealer.inject(faults[ch])
            elif ch == self.scoreboard_key:
                self.show_scoreboard = not self.show_scoreboard
            elif ch == self.cable_key:
                self.pull_or_reseat("dealer")
        return roles

    def pull_or_reseat(self, role):
        """The display's cable pulled, or reseated: the firmware raises display_missing within a second (its
        probe), and takes it back within 5 s of the reseat (display_back)."""
        if role in self.io.unplugged():
            self.io.plug(role)
        else:
            self.io.unplug(role)

    def screen(self):
        from hostsim.screen import Screen

        return Screen(self)

    def _start_view(self):
        if self.ui:
            from rich.console import Console
            from rich.live import Live

            self.live = Live(self.screen(), console=Console(file=self.out), auto_refresh=False,
                             transient=False, vertical_overflow="crop")
            self.live.start(refresh=True)

    def _show(self):
        if self.live is not None:
            import time
            now = time.monotonic()
            if now >= self._next_view:
                self._next_view = now + VIEW_EVERY_MS / 1000.0
                self.live.refresh()
            return
        for line in self.tap.unprinted:
            print("host:", line, file=self.out)
        del self.tap.unprinted[:]
        self._say_waiting()
        self.out.flush()

    def _say_waiting(self):
        """Plain output: one line when the demo's dealer starts waiting for a person to close the table's alarm
        (the live view has it in its status line), or the table would seem to stop for no reason (e.g. an alarm
        at boot, `reset_in_round`, after a run stopped mid-round on the same --state-dir)."""
        waiting = self.dealer is not None and self.dealer.waits_for_person()
        if waiting and not self._waiting:
            print(WAITING_KEYS if self.read_stdin else WAITING_NO_KEYS, file=self.out)
        self._waiting = waiting

    def _stop_view(self):
        live, self.live = self.live, None
        if live is not None:
            try:
                live.stop()
            except OSError:
                pass        # the terminal is gone (e.g. a closed pipe): nothing left to restore


class _HandledResets(logging.Filter):
    """asyncio logs a SimReset left on the firmware's serve() task ("Task exception was never retrieved",
    with 40 lines of traceback) after run() has taken it and booted the board again: drop that record."""

    def __init__(self, reset_type):
        logging.Filter.__init__(self)
        self.reset_type = reset_type

    def filter(self, record):
        exc = record.exc_info[1] if record.exc_info else None
        return not isinstance(exc, self.reset_type)


def _quiet_handled_resets(reset_type):
    log = logging.getLogger("asyncio")
    if not any(isinstance(f, _HandledResets) for f in log.filters):
        log.addFilter(_HandledResets(reset_type))
