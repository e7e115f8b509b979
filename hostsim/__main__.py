"""make sim: the table firmware running on the simulated board, in this terminal.

    python -m hostsim [--game baccarat|craps|omaha] [--table FILE] [--board sim]
                      [--no-demo] [--no-ui] [--seconds N]

Every serial port of the board is a pseudo-terminal whose path is printed:
attach `picocom -b 115200 PATH` to the console port to type commands or to the
host port to read the reports; send card codes ("Kh", "Td up") or dice ("3 4",
"noroll off_table") to the shoe/dice port a whole line at a time, as a reader
does, with `cat > PATH` (a reader line that pauses mid-way is dropped as
`partial_line`, so keystroke-at-a-time terminals do not suit those ports).
Keys in this terminal press the dealer buttons: d deal, c confirm, v void,
s shoe change; q or Ctrl-C quits.
"""
import argparse
import asyncio
import collections
import json
import os
import select
import sys

from firmware import board as board_mod
from firmware import table_config
from firmware.errors import SettingsError

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KEYS = {"d": "deal", "c": "confirm", "v": "void", "s": "shoe_change", "u": "undo", "m": "menu"}
DEMO_EVERY_MS = 1500
PRESS_MS = 120


class Quit(BaseException):
    """Ends the simulation; a BaseException so the firmware's crash recovery lets it through."""


class HostTap:
    """Keeps the last host reports for the view without taking them from a pty client."""

    def __init__(self, endpoint, keep=8):
        self.lines = collections.deque(maxlen=keep)
        self.unprinted = []
        self._partial = b""
        endpoint.taps.append(self.seen)

    def seen(self, data):
        self._partial += bytes(data)
        while b"\n" in self._partial:
            line, self._partial = self._partial.split(b"\n", 1)
            text = line.decode(errors="replace").rstrip("\r")
            self.lines.append(text)
            self.unprinted.append(text)


class Sim:
    def __init__(self, args, board_data, board, game):
        from hostsim import hardware
        from hostsim.clock import VirtualClock

        self.args = args
        self.board_data = board_data
        self.board = board
        self.game = game
        self.hw = hardware.install(clock=VirtualClock(realtime=True), ports="loopback" if args.no_pty else "pty",
                                   board=board_data)
        self.tap = HostTap(self.hw.port("host"))
        self.reader_role = "dice" if game == "craps" else "shoe"
        self.shoe = None
        self.dice = None
        self.pressed = {}           # pin -> release time
        self.stop_at = None if args.seconds is None else self.hw.clock.now_ms() + int(args.seconds * 1000)

    def port_lines(self):
        return ["%-8s %s" % (role, path or "(loopback)") for role, _, path in self.hw.port_paths()]

    def demo_line(self):
        if self.reader_role == "shoe":
            from hostsim.shoe import SimShoe
            if self.shoe is None or self.shoe.cut_card_out:
                self.shoe = SimShoe(decks=8, seed=self.args.seed)
            return self.shoe.next_code() + "\n"
        from hostsim.dice import SimDice
        if self.dice is None:
            self.dice = SimDice(seed=self.args.seed)
        d1, d2 = self.dice.faces()
        return "%d %d\n" % (d1, d2)

    def press(self, role):
        index = self.board.button_index(role)
        if index < 0:
            return
        pin = self.board.buttons[index][1]
        self.hw.pin(pin).press()
        self.pressed[pin] = self.hw.clock.now_ms() + PRESS_MS

    def release_due(self):
        now = self.hw.clock.now_ms()
        for pin, due in list(self.pressed.items()):
            if now >= due:
                self.hw.pin(pin).release()
                del self.pressed[pin]

    def read_keys(self):
        if not self.interactive:
            return
        while select.select([sys.stdin], [], [], 0)[0]:
            ch = os.read(sys.stdin.fileno(), 1).decode(errors="ignore").lower()
            if ch in ("q", "\x03"):
                raise Quit()
            if ch in KEYS:
                self.press(KEYS[ch])

    def view(self):
        from rich.console import Group
        from rich.panel import Panel
        from rich.text import Text
        from hostsim.view import render

        reports = Text("\n".join(self.tap.lines) or "(none yet)", overflow="ellipsis", no_wrap=True)
        keys = "keys: " + "  ".join("%s %s" % (k, v) for k, v in KEYS.items()) + "  q quit"
        return Group(render(self.hw, self.board_data, self.game),
                     Panel(reports, title="host reports (latest last)"), Text(keys, style="dim"))

    async def task(self, ctx):
        """Runs beside the firmware: demo input, keys, button releases, watchdog, the view."""
        next_demo = self.hw.clock.now_ms() + DEMO_EVERY_MS
        live = None
        if not self.args.no_ui:
            from rich.live import Live
            live = Live(self.view(), refresh_per_second=10, transient=False)
            live.start()
        try:
            while True:
                now = self.hw.clock.now_ms()
                if self.args.demo and now >= next_demo:
                    next_demo = now + DEMO_EVERY_MS
                    self.hw.port(self.reader_role).feed(self.demo_line())
                self.read_keys()
                self.release_due()
                self.hw.run_timers()
                self.hw.check_watchdog()
                if live is not None:
                    live.update(self.view())
                else:
                    for line in self.tap.unprinted:
                        print("host:", line, flush=True)
                    del self.tap.unprinted[:]
                if self.stop_at is not None and now >= self.stop_at:
                    raise Quit()
                await asyncio.sleep(0.05)
        finally:
            if live is not None:
                live.stop()


def _load(args):
    board_path = os.path.join(REPO, "boards", args.board + ".json")
    table_path = args.table or os.path.join(REPO, "boards", "tables", "sim-%s.json" % args.game)
    board = board_mod.load(board_path)
    config = table_config.load(table_path)
    with open(board_path) as f:
        board_data = json.load(f)
    return board_path, table_path, board_data, board, config


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m hostsim", description=__doc__.splitlines()[0])
    ap.add_argument("--board", default="sim")
    ap.add_argument("--game", default="baccarat", choices=table_config.GAMES)
    ap.add_argument("--table", help="table settings file (default boards/tables/sim-GAME.json)")
    ap.add_argument("--no-demo", dest="demo", action="store_false", help="do not deal cards/dice by itself")
    ap.add_argument("--no-ui", action="store_true", help="plain output instead of the live view")
    ap.add_argument("--no-pty", action="store_true", help="in-memory ports (no pseudo-terminals)")
    ap.add_argument("--seconds", type=float, help="stop after this many seconds")
    ap.add_argument("--seed", type=int, help="seed of the demo shoe/dice")
    ap.add_argument("--state-dir", default=os.path.join(REPO, "build", "sim-state"),
                    help="where the simulated flash keeps crash.log (default build/sim-state)")
    args = ap.parse_args(argv)
    try:
        board_path, table_path, board_data, board, config = _load(args)
    except SettingsError as exc:
        print("sim: %s" % exc, file=sys.stderr)
        return 2
    os.makedirs(args.state_dir, exist_ok=True)
    from firmware import main as firmware_main
    from hostsim.hardware import SimReset

    sim = Sim(args, board_data, board, config["game"])
    sim.interactive = sys.stdin.isatty() and not args.no_ui
    print("table %s (%s) on board %s; serial ports:" % (config["table_id"], config["game"], board.name))
    for line in sim.port_lines():
        print("  " + line)
    saved_tty = None
    if sim.interactive:
        import termios
        import tty
        saved_tty = termios.tcgetattr(sys.stdin)
        tty.setcbreak(sys.stdin.fileno())
    import machine
    import neopixel
    try:
        while True:
            try:
                status = firmware_main.run(board_path, table_path, args.state_dir, machine, neopixel,
                                           extra_tasks=(sim.task,))
                return status
            except SimReset as reset:
                print("sim: %s; booting again" % reset, flush=True)
                sim.hw.reboot(reset.cause)
    except (KeyboardInterrupt, Quit):
        print("\nsim: stopped", flush=True)
        return 0
    finally:
        if saved_tty is not None:
            import termios
            termios.tcsetattr(sys.stdin, termios.TCSADRAIN, saved_tty)
        from hostsim import hardware
        hardware.uninstall()


if __name__ == "__main__":
    sys.exit(main())
