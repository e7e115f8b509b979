"""Run firmware code on real MicroPython (WebAssembly port under Node.js).

    python -m tools.mpvm tests.firmware.test_cards      # run one dual-runtime test module
    python -m tools.mpvm --script bench/some_bench.py   # run a script
    python -m tools.mpvm --steps bench/omaha_vm.py      # a script in parts, one VM run call each

The VM gets copies of firmware/, tests/ and boards/ at the same paths, so the same
imports work as on CPython. Exit status and timeout are decided here: the
port's own CLI exits 0 even when Python raised.
"""
import argparse
import os
import shutil
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RUNNER = os.path.join(REPO, "tools", "mpvm.mjs")
PACKAGE = os.path.join(REPO, "node_modules", "@micropython", "micropython-webassembly-pyscript")
DEFAULT_COPIES = ("firmware", "tests", "boards")


class VMUnavailable(RuntimeError):
    pass


def _node():
    node = shutil.which("node")
    if node is None:
        raise VMUnavailable("node not found: install Node.js >= 18 (e.g. apt-get install nodejs npm), then run `make test`")
    if not os.path.isdir(PACKAGE):
        raise VMUnavailable("MicroPython WebAssembly runtime missing: run `npm ci` (make test does this)")
    return node


def run(vm_args, copies=DEFAULT_COPIES, heap=16 * 1024 * 1024, timeout=120):
    """Run the VM; returns (exit_status, output). Timeout -> status 124."""
    cmd = [_node(), RUNNER, "--heap", str(heap)]
    for c in copies:
        cmd += ["--copy", c]
    cmd += list(vm_args)
    try:
        proc = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as exc:
        partial = exc.stdout.decode() if isinstance(exc.stdout, bytes) else (exc.stdout or "")
        return 124, partial + "\nmpvm: timed out after %ss" % timeout
    return proc.returncode, proc.stdout + proc.stderr


def run_test_module(module, timeout=300, heap=16 * 1024 * 1024):
    return run(["--test", module], timeout=timeout, heap=heap)


def run_script(path, timeout=300, heap=16 * 1024 * 1024):
    return run(["--script", path], timeout=timeout, heap=heap)


def run_steps(path, timeout=300, heap=16 * 1024 * 1024):
    """Run a script in parts cut at "# --- next run call ---" lines, each its own
    runPython call in one VM (globals carry over): a gc.collect() frees what an
    earlier call left, which one inside the same call does not in this port."""
    return run(["--steps", path], timeout=timeout, heap=heap)


def version():
    status, out = run(["--script", os.devnull], copies=(), timeout=60)
    for line in out.splitlines():
        if line.startswith("runtime: "):
            return line[len("runtime: "):]
    raise VMUnavailable("MicroPython VM did not start: " + out.strip()[-300:])


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m tools.mpvm", description=__doc__.splitlines()[0])
    ap.add_argument("module", nargs="?", help="dual-runtime test module, e.g. tests.firmware.test_cards")
    ap.add_argument("--script", help="a Python file to run in the VM instead")
    ap.add_argument("--steps", help="a Python file to run in parts (see run_steps)")
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--heap", type=int, default=16 * 1024 * 1024)
    a = ap.parse_args(argv)
    if not a.module and not a.script and not a.steps:
        ap.error("give a test module, --script FILE or --steps FILE")
    try:
        if a.steps:
            status, out = run_steps(a.steps, a.timeout, a.heap)
        elif a.script:
            status, out = run_script(a.script, a.timeout, a.heap)
        else:
            status, out = run_test_module(a.module, a.timeout, a.heap)
    except VMUnavailable as exc:
        print("mpvm: %s" % exc, file=sys.stderr)
        return 2
    sys.stdout.write(out)
    return status


if __name__ == "__main__":
    sys.exit(main())
