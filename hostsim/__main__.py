"""make sim: the table firmware running on the simulated board, in this terminal.

    python -m hostsim [--game baccarat|craps|omaha] [--table FILE] [--board NAME|FILE]
                      [--no-demo] [--no-ui] [--no-pty] [--seconds N] [--speed X] [--seed N]
                      [--snapshot FILE.png] [--players N] [--deployed [DIR]]
    python -m hostsim --headless --rounds N [--seed S] [--game baccarat|craps|omaha] [--board NAME|FILE]
                      [--table FILE] [--snapshot FILE.png] [--players N]

Every serial port of the board (UARTs, and a USB console) is a pseudo-terminal
whose path is printed: attach `picocom -b 115200 PATH` to the console port to
type commands or to the host port to read the reports. A Baccarat table's shoe
and bet reader ports, and a Craps table's dice and bet reader ports, speak
CRC-checked frames (docs/protocol.md), as does an Omaha table's shoe: script
them with `python -m tools.replay`. Keys in this terminal press the dealer
buttons the board has
(the legend lists them); q or Ctrl-C quits. At a Baccarat table a dealer deals
the shoe (a card every 1.5 s of virtual time) and bettors put chips on the bet
reader before each round; 1, 2, 3 make the next card unreadable, pull two cards
at once, or garble its frame (the dealer corrects it after 3 s); o shows the
scoreboard in place of the LCDs. At a Craps table a stickman throws seeded fair
dice (a throw every 2.5 s), now and then an invalid throw or a cocked die, and
bettors put legal bets on the bet reader before each roll; 1 makes the next
throw invalid, 2 cocks a die; the puck is shown under the reports. At an Omaha
table a dealer keys the players' buy-ins (STACK) and each hand (NEW) on the
dealer keypad, deals every hand from a freshly shuffled deck through the shoe
and keys the --players emulated players' actions (default 6: seeded, always
legal, all-ins and side pots now and then); broke players buy in again. With
--no-demo at an Omaha table the terminal's keys type on the keypad instead
(the legend lists them). --snapshot
writes the scoreboard's picture as a PNG at exit.

--deployed [DIR] (default build/sim, made by `make build BOARD=sim`) runs the
simulated board as a deployed one: its board file is DIR/board.json and at
boot the firmware checks every file of DIR against DIR/manifest.json, as a
board checks its flash (a difference holds the table closed: program_mismatch),
and `verify SEED` on the console is computed over DIR, equal to
`python -m tools.verify --board sim --seed SEED`. CPython runs the source tree
(it cannot run .mpy), so the build must have been made from these sources:
a stale build is refused. Without --deployed the check is skipped and the boot
report says "program": "unverified".

--headless plays N Baccarat rounds with the same dealer and bettors on the
virtual clock as fast as the CPU allows (a card every 250 ms of virtual time),
then prints one JSON summary line: rounds, results by winner, demo and void
rounds, alarms (fault reports), reports, virtual_s, wall_s, rounds_per_s.
--game craps plays N shooters' turns instead (a shooter's turn ends when the
dice pass on) with the stickman and bettors below, a throw every 200 ms of
virtual time, and its summary counts shooters, throws, no_rolls, points_made,
seven_outs, bets_placed, bets_refused, alarms, reports, throws_per_s; it exits
1 on any alarm or refused bet. --game omaha plays N hands (the dealer and
players above, keys 150 ms apart) and counts hands, showdowns, won_by_folds,
void, side_pots, all_ins, rake, bought_in, stacks, chips_conserved (stacks +
rake == bought in), refusals, alarms, results_missing, mismatches (a report
that differs from the engine's copy of the hand), unanswered, hands_per_s; it
exits 1 on any alarm, refusal, mismatch, missing result, unanswered entry or
chips not conserved.

Exit status: 0 stopped (--headless: every round played, no alarm), 1 the
simulator itself failed (a host-side error, never recorded as a firmware crash;
--headless: an alarm was reported or the run stopped early), 2 a file is wrong,
the board cannot run the game, --snapshot on a board without a scoreboard, or an
option's value out of range (--seconds, --speed: a number > 0).
"""
import argparse
import json
import math
import os
import sys

from firmware import board as board_mod
from firmware import table_config
from firmware.errors import SettingsError
from hostsim.flash import state_dir_problem
from hostsim.sim import HostError, Quit, Sim, unsupported

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIM_STATE = os.path.join(REPO, "build", "sim-state")     # the live simulator's flash by default: a folder a game


def _board_path(name):
    """A board name (boards/NAME.json) or a path to a board file."""
    if name.endswith(".json") or os.sep in name:
        return name
    return os.path.join(REPO, "boards", name + ".json")


def deployed_build(folder):
    """The board file of a deployed build folder made from this source tree; SettingsError if it is not one.

    The simulator runs the source tree (CPython cannot run .mpy), so a build made from other
    sources would verify while other code runs: every source the manifest names must be unchanged.
    """
    import hashlib
    manifest_path = os.path.join(folder, "manifest.json")
    try:
        with open(manifest_path, encoding="utf-8") as f:
            entries = json.load(f)["files"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise SettingsError("--deployed %s: no build there (%s): %s" % (folder, exc, _make_build(folder, None)))
    for entry in entries:
        source = entry.get("source") if isinstance(entry, dict) else None
        if source is None:
            continue
        try:
            with open(os.path.join(REPO, source), "rb") as f:
                same = hashlib.sha256(f.read()).hexdigest() == entry.get("source_sha256")
        except OSError:
            same = False
        if not same:
            raise SettingsError("--deployed %s: built from other sources (%s changed since): %s"
                                % (folder, source, _make_build(folder, manifest_board(manifest_path))))
    return os.path.join(folder, "board.json")


def manifest_board(manifest_path):
    try:
        with open(manifest_path, encoding="utf-8") as f:
            return json.load(f)["board"]
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _make_build(folder, board):
    """The command that builds `folder` again: make build for build/<board>, else tools.build --out."""
    board = board or os.path.basename(os.path.normpath(folder)) or "sim"
    parent = os.path.dirname(os.path.abspath(folder))
    if parent == os.path.join(REPO, "build"):
        return "run make build BOARD=%s" % board
    return "run python -m tools.build --board %s --out %s" % (board, parent)


def deployed_board_name(folder):
    """The board a deployed build was made for (its manifest's "board", which its boot stub passes)."""
    return manifest_board(os.path.join(folder, "manifest.json"))


def _check(args):
    """(board_path, table_path) after loading both; SettingsError if a file is wrong or the pair cannot run."""
    board_path = _board_path(args.board) if args.deployed is None else deployed_build(args.deployed)
    table_path = args.table or os.path.join(REPO, "boards", "tables", "sim-%s.json" % args.game)
    board = board_mod.load(board_path)
    config = table_config.load(table_path)
    reason = unsupported(board, config["game"])
    if reason is not None:
        raise SettingsError(reason)
    if config["game"] != "omaha":
        if args.players is not None:         # (it was taken and ignored: no players key a Baccarat or Craps table)
            raise SettingsError("--players is for an Omaha table (its emulated players); this table plays %s"
                                % config["game"])
    else:
        from hostsim.omaha_dealer import PLAYERS, most_players
        if args.players is None:
            args.players = PLAYERS
        top = most_players(config["rules"])
        if not 2 <= args.players <= top:
            raise SettingsError("--players must be 2..%d at this Omaha table (%d seats, one deck), got %d"
                                % (top, config["rules"].seats, args.players))
    return board_path, table_path


def _parser():
    ap = argparse.ArgumentParser(prog="python -m hostsim", description=__doc__.splitlines()[0],
                                 epilog=__doc__.split("\n\n", 2)[2], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--board", default="sim", help="board name in boards/ or a board file (default sim)")
    ap.add_argument("--game", default="baccarat", choices=table_config.GAMES)
    ap.add_argument("--table", help="table settings file (default boards/tables/sim-GAME.json)")
    ap.add_argument("--no-demo", dest="demo", action="store_false", help="do not deal cards/dice by itself")
    ap.add_argument("--no-ui", action="store_true", help="plain output instead of the live view")
    ap.add_argument("--no-pty", action="store_true", help="in-memory ports (no pseudo-terminals)")
    ap.add_argument("--seconds", type=float, help="stop after this many virtual seconds")
    ap.add_argument("--speed", type=float, default=1.0, help="virtual time runs this many times real time")
    ap.add_argument("--seed", type=int, help="seed of the demo shoe/dice, the bettors and the fault details")
    ap.add_argument("--state-dir", help="where the simulated flash keeps crash.log (default build/sim-state/GAME; "
                                        "--headless: a fresh temporary directory)")
    ap.add_argument("--snapshot", metavar="FILE.png", help="at exit, write the scoreboard OLED's picture as a PNG")
    ap.add_argument("--headless", action="store_true",
                    help="no view, no ptys: play --rounds Baccarat rounds (Craps: shooters, Omaha: hands) as fast "
                         "as possible, print a summary; exit 1 if any alarm (Craps: or refused bet; Omaha: or "
                         "refusal, mismatch, chips not conserved) was reported")
    ap.add_argument("--rounds", type=int, default=100,
                    help="--headless: rounds (Craps: shooters, Omaha: hands) to play (default 100)")
    ap.add_argument("--deployed", nargs="?", const=os.path.join(REPO, "build", "sim"), metavar="DIR",
                    help="run as the deployed build DIR (default build/sim): its board.json, its files checked "
                         "against its manifest at boot")
    ap.add_argument("--players", type=int, default=None,
                    help="Omaha: emulated players at the table (2 .. min(seats, 11), default 6)")
    return ap


def _stdout_gone():
    """Point fd 1 at /dev/null so the interpreter's last flush cannot fail again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


def _host_failed(error):
    """One clear line for a host-side failure; the status main() returns."""
    if isinstance(error, BrokenPipeError):
        _stdout_gone()
        print("sim: stdout was closed (%s); stopped. Host side only: nothing recorded in crash.log" % error,
              file=sys.stderr)
        return 0
    import traceback
    traceback.print_exception(type(error), error, error.__traceback__, file=sys.stderr)
    print("sim: host-side error in the simulator (%s: %s), not a firmware crash; stopped"
          % (type(error).__name__, error), file=sys.stderr)
    return 1


def main(argv=None):
    args = _parser().parse_args(argv)
    for option, value in (("--speed", args.speed), ("--seconds", args.seconds)):
        if value is not None and not (math.isfinite(value) and value > 0):   # nan, inf: a traceback later
            print("sim: %s must be a number > 0, got %s" % (option, value), file=sys.stderr)
            return 2
    try:
        board_path, table_path = _check(args)
    except SettingsError as exc:
        print("sim: %s" % exc, file=sys.stderr)
        return 2
    if args.snapshot is not None and not os.path.isdir(os.path.dirname(os.path.abspath(args.snapshot))):
        print("sim: --snapshot: no directory for %s" % args.snapshot, file=sys.stderr)
        return 2
    problem = state_dir_problem(args.state_dir) if args.state_dir is not None else None
    if problem is not None:
        print("sim: --state-dir %s: %s" % (args.state_dir, problem), file=sys.stderr)
        return 2
    if args.headless:
        return _headless(args, board_path, table_path)
    if args.state_dir is None:
        # A folder a game: one game's journal on the flash of another is refused at boot (journal_bad), as
        # on a board, so `make sim` after `make sim SIM_ARGS="--game craps"` booted into that alarm.
        args.state_dir = os.path.join(SIM_STATE, table_config.load(table_path)["game"])
    os.makedirs(args.state_dir, exist_ok=True)
    interactive = sys.stdin.isatty()        # the dealer keys, live view or plain output
    try:
        return _run(args, board_path, table_path, interactive)
    except BrokenPipeError as exc:       # printing outside the firmware's loop
        return _host_failed(exc)


def _headless(args, board_path, table_path):
    """--headless: the summary line and its exit status (hostsim.autoplay)."""
    import shutil
    import tempfile
    from hostsim.autoplay import headless

    game = table_config.load(table_path)["game"]
    if game == "craps":
        from hostsim.craps_autoplay import headless
    elif game == "omaha":
        import functools
        from hostsim.omaha_autoplay import headless
        headless = functools.partial(headless, players=args.players)
    if args.rounds < 1:
        print("sim: --rounds must be >= 1", file=sys.stderr)
        return 2
    state_dir = args.state_dir or tempfile.mkdtemp(prefix="sim-headless-")
    try:
        os.makedirs(state_dir, exist_ok=True)
        return headless(board_path, table_path, state_dir, args.rounds, args.seed, args.snapshot)
    except BrokenPipeError as exc:
        return _host_failed(exc)
    finally:
        if args.state_dir is None:
            shutil.rmtree(state_dir, ignore_errors=True)


def _run(args, board_path, table_path, interactive):
    from hostsim.oled import find_oled

    sim = Sim(board_path, table_path, args.state_dir, ports="loopback" if args.no_pty else "pty",
              ui=not args.no_ui, demo=args.demo, seconds=args.seconds, seed=args.seed, speed=args.speed,
              keys=interactive, players=args.players, program_dir=args.deployed,
              board_name=None if args.deployed is None else deployed_board_name(args.deployed))
    saved_tty = None
    if args.snapshot is not None and find_oled(sim.hw) is None:
        sim.close()
        print("sim: --snapshot: board %s has no scoreboard display" % sim.board.name, file=sys.stderr)
        return 2
    try:
        print("table %s (%s) on board %s; serial ports:" % (sim.config["table_id"], sim.game, sim.board.name))
        for line in sim.port_lines():
            print("  " + line)
        sys.stdout.flush()
        if interactive:
            import termios
            import tty
            saved_tty = termios.tcgetattr(sys.stdin)
            tty.setcbreak(sys.stdin.fileno())
        try:
            status = sim.run()
            return 2 if status else 0        # the firmware refused a file at boot (it printed why)
        except (KeyboardInterrupt, Quit):
            print("\nsim: stopped", flush=True)
            return 0
        except HostError as exc:
            return _host_failed(exc.error)
    finally:
        if saved_tty is not None:
            import termios
            termios.tcsetattr(sys.stdin, termios.TCSADRAIN, saved_tty)
        if args.snapshot is not None:
            find_oled(sim.hw).to_png(args.snapshot)
            print("sim: scoreboard snapshot written to %s" % args.snapshot, file=sys.stderr)
        sim.close()


if __name__ == "__main__":
    sys.exit(main())
