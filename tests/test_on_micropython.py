"""Every dual-runtime module in tests/firmware/ also runs on real MicroPython.

pytest runs those modules directly on CPython; this file runs each one again
inside the MicroPython WebAssembly VM and fails with the VM's own report, and once more on
MicroPython's Unix port (tools/mpunix.py: native code, 64-bit). It
also fails when the VM ran a different set of tests than pytest collects from
the same module: a test that exists for one runtime only must say so with
tests.firmware.expect.cpython_only (the VM then reports `skip NAME (CPython
only)`), and those names are listed in the terminal summary.
"""
import os
import re
import subprocess
import sys

import pytest

from tools import mpunix, mpvm

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
MODULES = sorted(
    "tests.firmware." + name[:-3]
    for name in os.listdir(os.path.join(HERE, "firmware"))
    if name.startswith("test_") and name.endswith(".py")
)
# tools/mpvm.mjs prints one of these per test; anything else is output or a traceback.
_RESULT_LINE = re.compile(r"^(ok|FAIL|skip) +(\S+)")


def _module_of(path):
    return os.path.splitext(path)[0].replace("/", ".")


def collect_with_pytest(paths, cwd=REPO):
    """pytest's own collection of test files: ({module: set of names}, output).

    Names are node ids without the file ("test_x", "TestK::test_m"). Runs in
    a subprocess so it is the whole, unfiltered collection whatever this
    session selected. A file pytest cannot collect has no entry.
    """
    cmd = [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
           "--continue-on-collection-errors"] + list(paths)
    env = dict(os.environ)
    env.pop("PYTEST_ADDOPTS", None)  # a -k there would deselect names and fake a mismatch
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    names = {}
    for line in proc.stdout.splitlines():
        path, sep, name = line.strip().partition("::")
        if sep and path.endswith(".py"):
            names.setdefault(_module_of(path), set()).add(name)
    return names, proc.stdout + proc.stderr


def vm_results(out):
    """The VM's per-test lines: {"ok": [...], "FAIL": [...], "skip": [...]}."""
    seen = {"ok": [], "FAIL": [], "skip": []}
    for line in out.splitlines():
        m = _RESULT_LINE.match(line)
        if m:
            seen[m.group(1)].append(m.group(2))
    return seen


def compare(collected, seen):
    """Problems (lines) between pytest's names and what the VM reported; [] when they agree."""
    reported = set(seen["ok"]) | set(seen["FAIL"]) | set(seen["skip"])
    problems = []
    if not collected:
        problems.append("pytest collected no test from this module")
    missing = sorted(collected - reported)
    extra = sorted(reported - collected)
    if missing:
        problems.append("collected by pytest, not run on MicroPython: " + ", ".join(missing))
    if extra:
        problems.append("run on MicroPython, not collected by pytest: " + ", ".join(extra))
    if not seen["ok"] and not seen["FAIL"]:
        problems.append("no test ran on MicroPython")
    return problems


@pytest.fixture(scope="session")
def pytest_collection_of_firmware():
    paths = [os.path.join("tests", "firmware", m.rsplit(".", 1)[1] + ".py") for m in MODULES]
    return collect_with_pytest(paths)


def _check_on(runtime, module, status, out, all_names, collect_out, summary):
    seen = vm_results(out)
    collected = all_names.get(module, set())
    problems = compare(collected, seen)
    summary[module if runtime == "vm" else module + " (unix)"] = (
        len(seen["ok"]), len(seen["FAIL"]), sorted(seen["skip"]), len(collected), status == 0 and not problems)
    if module not in all_names:
        problems.append("pytest could not collect the module:\n" + collect_out[-2000:])
    assert status == 0 and not problems, (
        "on MicroPython's %s (exit status %d):\n%s\n%s" % (runtime, status, out, "\n".join(problems)))


@pytest.mark.micropython
@pytest.mark.parametrize("module", MODULES)
def test_module_on_micropython(module, pytest_collection_of_firmware, micropython_summary):
    all_names, collect_out = pytest_collection_of_firmware
    status, out = mpvm.run_test_module(module, timeout=600)
    assert "runtime: MicroPython" in out, out
    _check_on("vm", module, status, out, all_names, collect_out, micropython_summary)


@pytest.mark.micropython
@pytest.mark.parametrize("module", MODULES)
def test_module_on_micropython_unix_port(module, pytest_collection_of_firmware, micropython_summary):
    # The same module again on MicroPython's Unix port (tools/mpunix.py): a C build of MicroPython with a
    # native emitter, so the viper CRC runs there as on a board, and with 64-bit small ints and ticks.
    try:
        mpunix.executable()
    except mpunix.UnixPortUnavailable as exc:
        pytest.skip(str(exc))
    all_names, collect_out = pytest_collection_of_firmware
    status, out = mpunix.run_test_module(module, timeout=600)
    _check_on("Unix port", module, status, out, all_names, collect_out, micropython_summary)
