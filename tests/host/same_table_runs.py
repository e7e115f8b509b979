"""The same table on every runtime, the host side: runs a play script (tests/host/same_table_play.py, or the
seeded play for a range of seeds) on CPython, in MicroPython's WebAssembly VM and on its Unix port, and
compares what each printed (docs/protocol.md, "Host reports": the same keys and values on all three, the
console the same text, the two MicroPythons the same bytes). tests/host/test_same_table.py uses it; as a
sweep beyond the suite's seeds:

    .venv/bin/python -m tests.host.same_table_runs FIRST COUNT

prints one JSON line (the seeds, the lines each runtime printed, the differences) and exits 1 on any.
"""
import json
import os
import subprocess
import sys
import tempfile

from tools import mpunix, mpvm

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PLAY = os.path.join(REPO, "tests", "host", "same_table_play.py")
KEPT = ("{", "== ", "console: ", "lost: ", "part_lost: ", "cuts: ")   # (what the host hears, the console, cuts)


class RunFailed(AssertionError):
    pass


def played(out):
    """A run's printed lines: ([report, console, LOST or "== section" line, ...], its "# native: ..." line).
    RunFailed when the run did not reach its end."""
    lines = [line for line in out.splitlines() if line.startswith(KEPT)]
    native = [line for line in out.splitlines() if line.startswith("# native: ")]
    if not lines or lines[-1] != "== end" or len(native) != 1:
        raise RunFailed("the run did not reach its end:\n" + out[-3000:])
    return lines, native[0]


def parsed(lines):
    return [json.loads(line) if line.startswith("{") else line for line in lines]   # (the others: text)


def differences(ours, theirs, most=5):
    """Where two runs' lines differ as a host reads them (a report by its keys and values): [(index, ours,
    theirs)], at most `most`; a run longer than the other differs at the first line past the shorter."""
    out = []
    a, b = parsed(ours), parsed(theirs)
    for i in range(max(len(a), len(b))):
        mine = a[i] if i < len(a) else None
        its = b[i] if i < len(b) else None
        if mine != its:
            out.append((i, ours[i] if i < len(ours) else None, theirs[i] if i < len(theirs) else None))
            if len(out) == most:
                break
    return out


def run_cpython(script, flash_dir):
    env = dict(os.environ, TMPDIR=flash_dir)           # the tables' flash (tests/firmware/scratch.py)
    proc = subprocess.run([sys.executable, script], cwd=REPO, env=env, capture_output=True, text=True,
                          timeout=1800)
    if proc.returncode != 0:
        raise RunFailed(proc.stdout[-2000:] + proc.stderr)
    return played(proc.stdout)


def run_vm(script):
    """VMUnavailable where the runtime is not installed."""
    status, out = mpvm.run(["--script", script], copies=mpvm.DEFAULT_COPIES + ("bench",), timeout=1800)
    if status != 0:
        raise RunFailed(out[-3000:])
    return played(out)


def run_unix_port(script):
    """UnixPortUnavailable where the port is not installed."""
    status, out = mpunix.run_script(script, timeout=1800)
    if status != 0:
        raise RunFailed(out[-3000:])
    return played(out)


def seeds_script(folder, first, count):
    """A script in folder playing seeds first .. first + count - 1 (same_table_seeded.play_seeds): its path."""
    script = os.path.join(folder, "seeds.py")
    with open(script, "w") as f:
        f.write("import sys\n"
                "if sys.implementation.name != 'micropython':\n"
                "    sys.path.insert(0, %r)\n"
                "from tests.host.same_table_seeded import play_seeds\n"
                "play_seeds(%d, %d)\n" % (REPO, first, count))
    return script


def sweep(first, count):
    """The seeded play of seeds first .. first + count - 1 on the three runtimes: a summary (dict)."""
    with tempfile.TemporaryDirectory(prefix="same-table-") as tmp:
        script = seeds_script(tmp, first, count)
        os.mkdir(os.path.join(tmp, "flash"))
        cpython = run_cpython(script, os.path.join(tmp, "flash"))[0]
        vm = run_vm(script)[0]
        unix = run_unix_port(script)[0]
    return {"seeds": [first, first + count - 1], "lines": [len(cpython), len(vm), len(unix)],
            "cpython_vm": differences(cpython, vm), "vm_unix_bytes_same": vm == unix}


def main(argv=None):
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2 or not all(a.isdigit() for a in args) or int(args[1]) < 1:
        sys.stderr.write("usage: python -m tests.host.same_table_runs FIRST COUNT\n")
        return 2
    summary = sweep(int(args[0]), int(args[1]))
    print(json.dumps(summary))
    return 0 if not summary["cpython_vm"] and summary["vm_unix_bytes_same"] else 1


if __name__ == "__main__":
    sys.exit(main())
