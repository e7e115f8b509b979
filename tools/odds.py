"""Exact odds and house edge of every bet, computed through the firmware's own rules.

    python -m tools.odds baccarat --method 1 --commission A --decks 8 [--json]
    python -m tools.odds craps --field-12 2 [--json]

Each game's module (tools/odds_<game>.py) provides add_arguments(parser) and
run(args) -> exit status.
"""
import argparse
import sys

from tools.pipe import stdout_gone

GAMES = {
    "baccarat": "tools.odds_baccarat",
    "craps": "tools.odds_craps",
}


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    ap = argparse.ArgumentParser(prog="python -m tools.odds", description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="game", required=True, metavar="{%s}" % ",".join(GAMES))
    # Import only the game asked for: one game's module never stops another's tool.
    game = argv[0] if argv and argv[0] in GAMES else None
    for name in GAMES:
        p = sub.add_parser(name)
        if name == game:
            module = __import__(GAMES[name], fromlist=["run"])
            p.description = (module.__doc__ or "").strip().splitlines()[0]
            module.add_arguments(p)
    args = ap.parse_args(argv)
    try:
        return module.run(args)
    except ValueError as exc:
        print("odds: %s" % exc, file=sys.stderr)
        return 2
    except BrokenPipeError:             # the reader of stdout went away (| head): nobody is left to tell
        stdout_gone()
        return 0


if __name__ == "__main__":
    sys.exit(main())
