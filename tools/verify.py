"""Compute a board's program verification digest from the build: what `verify SEED` answers on the board.

    python -m tools.verify --board pico --seed SEED [--build build]

A lab picks a fresh SEED, types `verify SEED` on the board's technician console
and compares the board's answer with this tool's over build/<board>/ (the
build that was deployed). Both are HMAC-SHA256 keyed by the seed over every
file of manifest.json in its order (path, size and bytes of each file):
firmware.program.verify, the same code the board runs. A single changed byte
in any deployed file gives another digest. The build is checked against its
manifest first: a build changed since it was made is refused.

Exit status: 0 the digest is printed (one line of 64 hex digits), 1 an error
(one line on stderr: no build, a file differs from the manifest, empty seed).
"""
import argparse
import os
import sys

from firmware import program

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class VerifyError(Exception):
    """A failure with a message fit for one line on stderr."""


def digest(board, seed, build="build"):
    """The hex digest of build/<board>/ for seed; VerifyError when it cannot be computed."""
    if not seed or not all(" " < ch <= "~" for ch in seed):
        # What `verify SEED` can take: one word of printable ASCII on the console line.
        raise VerifyError("--seed must be one word of printable ASCII (what the console takes), got %r" % seed)
    root = os.path.join(build, board)
    if not os.path.isfile(os.path.join(root, program.MANIFEST)):
        from tools.build import missing_build_hint
        raise VerifyError("no build for board %r in %s: %s" % (board, root, missing_build_hint(build, board)))
    problem = program.check(root)
    if problem is not None:
        raise VerifyError("%s: %s: %s (the build changed since it was made: make build BOARD=%s again)"
                          % (root, problem[0], problem[1], board))
    try:
        return program.verify(seed, root)
    except (OSError, program.ManifestError) as exc:
        raise VerifyError("%s: %s" % (root, exc))


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m tools.verify", description=__doc__.splitlines()[0])
    ap.add_argument("--board", required=True, help="the board name the build was made for, e.g. pico")
    ap.add_argument("--seed", required=True, help="the seed typed on the board's console: `verify SEED`")
    ap.add_argument("--build", default="build", help="the build folder holding <board>/ (default: build)")
    args = ap.parse_args(argv)
    try:
        print(digest(args.board, args.seed, args.build))
    except VerifyError as exc:
        print("verify: error: %s" % exc, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
