"""Compute a board's program verification digest from the build: what `verify SEED` answers on the board.

    python -m tools.verify --board pico --seed SEED [--build build]

A lab picks a fresh SEED, types `verify SEED` on the board's technician console
and compares the board's answer with this tool's over build/<board>/ (the
build that was deployed). Both are HMAC-SHA256 keyed by the seed over every
file of manifest.json in its order (path, size and bytes of each file):
firmware.program.verify, the same code the board runs. A single changed byte
in any deployed file gives another digest. The build is checked against its
manifest first: a build changed since it was made is refused.

A frozen build (tools.build --frozen): the firmware is in the MicroPython image,
so the digest covers the files on the filesystem (board.json, main.py) and the
image's claim, the DIGEST of its firmware.frozen_build (the build's
frozen/firmware/frozen_build.py here); the frozen sources in frozen/ are checked
against the manifest's "frozen" files and digest first. That the image's code is
the code of those sources a lab checks by reading the flash back against the
image it builds from them (docs/build-deploy.md, "Frozen bytecode").

Exit status: 0 the digest is printed (one line of 64 hex digits), 1 an error
(one line on stderr: no build, a file differs from the manifest, empty seed).
"""
import argparse
import hashlib
import json
import os
import sys

from firmware import program
from tools.build_frozen import FROZEN_BUILD, FROZEN_DIR, frozen_digest, read_digest

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
    frozen = _frozen(root)
    if frozen is None:
        problem = program.check(root)
    else:                   # the board's image claims the digest the build's frozen_build.py holds
        image = read_digest(os.path.join(root, FROZEN_DIR, FROZEN_BUILD))
        if image is None:
            problem = (FROZEN_DIR + "/" + FROZEN_BUILD, "missing or not as tools.build writes it")
        else:
            problem = program.check(root, image=image) or _frozen_problem(root, frozen)
    if problem is not None:
        raise VerifyError("%s: %s: %s (the build changed since it was made: make build BOARD=%s%s again)"
                          % (root, problem[0], problem[1], board, "" if frozen is None else " FROZEN=1"))
    try:
        if frozen is None:
            return program.verify(seed, root)
        return program.verify(seed, root, image=image)
    except (OSError, program.ManifestError) as exc:
        raise VerifyError("%s: %s" % (root, exc))


def _frozen(root):
    """manifest.json's "frozen" object (a frozen build), or None; program.check judges the rest."""
    try:
        with open(os.path.join(root, program.MANIFEST), encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError, RecursionError):
        return None
    return data.get("frozen") if isinstance(data, dict) else None


def _frozen_problem(root, frozen):
    """(path, problem) for the first frozen source in root/frozen/ that differs from the manifest's
    "frozen" "files" (size, sha256), or for a digest they do not give; None when they match."""
    files = frozen.get("files") if isinstance(frozen, dict) else None
    if not isinstance(files, list) or not files or not all(
            isinstance(e, dict) and isinstance(e.get("path"), str) and isinstance(e.get("size"), int)
            and isinstance(e.get("sha256"), str) for e in files):
        return program.MANIFEST, "the \"frozen\" files are malformed"
    for entry in files:
        shown = FROZEN_DIR + "/" + entry["path"]
        try:
            with open(os.path.join(root, FROZEN_DIR, entry["path"]), "rb") as f:
                data = f.read()
        except OSError:
            return shown, program.MISSING
        if len(data) != entry["size"]:
            return shown, program.SIZE
        if hashlib.sha256(data).hexdigest() != entry["sha256"]:
            return shown, program.DIGEST
    if frozen_digest(files) != frozen.get("digest"):
        return program.MANIFEST, "the \"frozen\" digest is not the digest of its files"
    return None


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
