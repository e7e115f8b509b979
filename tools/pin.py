"""Provision the technician PIN: its salted hash into a state dir (the board's flash, or the simulator's).

    python -m tools.pin --state-dir DIR           # asks for the PIN twice (not shown)
    python -m tools.pin --state-dir DIR --stdin   # one PIN line on stdin (scripts, tests)

Writes pins.0 in DIR (firmware/console/pins.py: a checked record holding a
random salt and sha256(salt + PIN); the PIN itself is never written). For a
board, provision a local folder and copy the file to the board's root:

    python -m tools.pin --state-dir build/pin && mpremote cp build/pin/pins.0 :pins.0

For the simulator, give the same folder to `python -m hostsim --state-dir DIR`
or `python -m tools.replay --state-dir DIR`. A table with no PIN refuses every
login: there is no default PIN. docs/console.md, "PIN".
"""
import argparse
import getpass
import os
import sys

from firmware.console.pins import check_pin, provision


def main(argv=None, stdin=None, stderr=None, ask=getpass.getpass):
    stdin = stdin if stdin is not None else sys.stdin
    stderr = stderr if stderr is not None else sys.stderr
    ap = argparse.ArgumentParser(prog="python -m tools.pin", description=__doc__.splitlines()[0])
    ap.add_argument("--state-dir", required=True, help="folder to write pins.0 into (created if missing)")
    ap.add_argument("--stdin", action="store_true", help="read the PIN from stdin instead of asking twice")
    args = ap.parse_args(argv)
    if args.stdin:
        pin = stdin.readline().strip()
    else:
        try:
            pin = ask("technician PIN: ")
            again = ask("again: ")
        except (EOFError, KeyboardInterrupt):      # stdin closed (no terminal: use --stdin), or Ctrl-C
            print("\npin: no PIN typed; nothing written", file=stderr)
            return 2
        if again != pin:
            print("pin: the two PINs differ; nothing written", file=stderr)
            return 2
    problem = check_pin(pin)
    if problem is not None:
        print("pin: %s; nothing written" % problem, file=stderr)
        return 2
    try:
        os.makedirs(args.state_dir, exist_ok=True)
        provision(args.state_dir, pin)
    except OSError as exc:
        print("pin: %s: %s; nothing written" % (args.state_dir, exc.strerror or exc), file=stderr)
        return 2
    print("pin: %s written" % os.path.join(args.state_dir, "pins.0"), file=stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
