"""Run firmware code on real MicroPython (WebAssembly port under Node.js).

    python -m tools.mpvm tests.firmware.test_cards      # run one dual-runtime test module
    python -m tools.mpvm --script bench/some_bench.py   # run a script
    python -m tools.mpvm --steps bench/omaha_vm.py --copy bench   # a script in parts, one VM run call each

The VM gets copies of firmware/, tests/ and boards/ at the same paths, so the same
imports work as on CPython (--copy DIR[=VMDIR] adds more). A test module prints one
`ok NAME` / `FAIL NAME` / `skip NAME (why)` line per test and a summary; what fails
(a returned generator or value, a Test* class, an import error) is described in
tools/mpvm.mjs. Exit status and timeout are decided here: the port's own CLI exits
0 even when Python raised; a timeout is status 124 and names the test that hung.
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


_RUNNING = "mpvm-running "


def _text(data):
    return data.decode(errors="replace") if isinstance(data, bytes) else (data or "")


def _split_progress(stderr):
    """The VM's `mpvm-running NAME` lines (stderr) apart from the rest: (rest, last NAME or None)."""
    rest, last = [], None
    for line in stderr.splitlines(True):
        if line.startswith(_RUNNING):
            last = line[len(_RUNNING):].strip()
        else:
            rest.append(line)
    return "".join(rest), last


def run(vm_args, copies=DEFAULT_COPIES, heap=16 * 1024 * 1024, timeout=120):
    """Run the VM; returns (exit_status, output). Timeout -> status 124.

    copies: folders relative to the repository (copied to the same path in the
    VM) or "HOSTDIR=VMDIR" for a folder anywhere (e.g. a test's tmp_path).
    """
    cmd = [_node(), RUNNER, "--heap", str(heap)]
    for c in copies:
        cmd += ["--copy", str(c)]
    cmd += list(vm_args)
    try:
        proc = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as exc:
        stderr, hung = _split_progress(_text(exc.stderr))
        where = " in %s" % hung if hung else ""
        return 124, _text(exc.stdout) + stderr + "\nmpvm: timed out after %ss%s\n" % (timeout, where)
    stderr, _ = _split_progress(proc.stderr)
    return proc.returncode, proc.stdout + stderr


def run_test_module(module, timeout=300, heap=16 * 1024 * 1024, extra_copies=()):
    """Run one dual-runtime test module; extra_copies as run()'s copies, added to the defaults."""
    return run(["--test", module], copies=DEFAULT_COPIES + tuple(extra_copies), timeout=timeout, heap=heap)


def run_script(path, timeout=300, heap=16 * 1024 * 1024):
    return run(["--script", path], timeout=timeout, heap=heap)


def run_steps(path, timeout=300, heap=16 * 1024 * 1024, copies=DEFAULT_COPIES):
    """Run a script in parts cut at "# --- next run call ---" lines, each its own
    runPython call in one VM (globals carry over): a gc.collect() frees what an
    earlier call left, which one inside the same call does not in this port."""
    return run(["--steps", path], copies=copies, timeout=timeout, heap=heap)


def run_bench_steps(path, timeout=900):
    """A bench script that runs itself in the VM (its CPython side calls this): run_steps() with bench/ copied
    too; prints what it printed; returns its exit status."""
    status, out = run_steps(os.path.abspath(path), timeout=timeout, copies=DEFAULT_COPIES + ("bench",))
    sys.stdout.write(out)
    return status


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
    ap.add_argument("--copy", action="append", default=[], metavar="DIR[=VMDIR]",
                    help="also copy this folder into the VM (test modules and --steps)")
    a = ap.parse_args(argv)
    if not a.module and not a.script and not a.steps:
        ap.error("give a test module, --script FILE or --steps FILE")
    try:
        if a.steps:
            status, out = run_steps(a.steps, a.timeout, a.heap, DEFAULT_COPIES + tuple(a.copy))
        elif a.script:
            status, out = run_script(a.script, a.timeout, a.heap)
        else:
            status, out = run_test_module(a.module, a.timeout, a.heap, a.copy)
    except VMUnavailable as exc:
        print("mpvm: %s" % exc, file=sys.stderr)
        return 2
    sys.stdout.write(out)
    return status


if __name__ == "__main__":
    sys.exit(main())
