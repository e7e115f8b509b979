"""The MicroPython test runners (tools/mpvm: the VM; tools/mpunix: the Unix port) catch every way a test
can fail to run; each case runs on both (the same driver, tools/mptest_driver.py).

Each case is a throwaway module written to tmp_path and copied into the VM
(mpvm's HOSTDIR=VMDIR copy) or put on the Unix port's path, so none of them is part of the normal suite.
"""
import textwrap

import pytest

from tests.test_on_micropython import collect_with_pytest, compare, vm_results
from tools import mpunix, mpvm

pytestmark = pytest.mark.micropython


def write_case(tmp_path, source, name="test_case"):
    package = tmp_path / "vmcases"
    package.mkdir(exist_ok=True)
    (package / "__init__.py").write_text("")
    (package / (name + ".py")).write_text(textwrap.dedent(source))
    return "vmcases." + name


@pytest.fixture(params=["vm", "unix"])
def runner(request):
    if request.param == "unix":
        try:
            mpunix.executable()
        except mpunix.UnixPortUnavailable as exc:
            pytest.skip(str(exc))
    return request.param


def run_case(tmp_path, runner, source, timeout=120):
    module = write_case(tmp_path, source)
    if runner == "unix":
        return mpunix.run_test_module(module, timeout=timeout, path=[tmp_path])
    return mpvm.run_test_module(module, timeout=timeout, extra_copies=["%s=/vmcases" % (tmp_path / "vmcases")])


def test_a_clean_module_passes(tmp_path, runner):
    # The control: the failure cases below fail for their own reason, not because the harness always does.
    status, out = run_case(tmp_path, runner, """
        def test_one():
            assert 1 + 1 == 2
        def test_two():
            pass
    """)
    assert status == 0, out
    assert vm_results(out) == {"ok": ["test_one", "test_two"], "FAIL": [], "skip": []}
    assert "micropython: 2 passed, 0 failed, 0 skipped" in out


def test_a_failing_assert_fails_with_its_traceback(tmp_path, runner):
    status, out = run_case(tmp_path, runner, """
        def test_good():
            pass
        def test_bad():
            assert 2 + 2 == 5, "arithmetic"
    """)
    assert status == 1, out
    assert vm_results(out) == {"ok": ["test_good"], "FAIL": ["test_bad"], "skip": []}
    assert "AssertionError: arithmetic" in out


def test_async_test_fails_instead_of_passing_unrun(tmp_path, runner):
    status, out = run_case(tmp_path, runner, """
        async def test_later():
            assert False
    """)
    assert status == 1, out
    assert vm_results(out)["FAIL"] == ["test_later"]
    assert "returned a generator/coroutine: not run" in out


def test_generator_test_fails_instead_of_passing_unrun(tmp_path, runner):
    status, out = run_case(tmp_path, runner, """
        def test_steps():
            assert False
            yield
    """)
    assert status == 1, out
    assert vm_results(out)["FAIL"] == ["test_steps"]
    assert "returned a generator/coroutine: not run" in out


def test_a_test_returning_a_value_fails(tmp_path, runner):
    status, out = run_case(tmp_path, runner, """
        def test_returns_verdict():
            return 1 == 2
    """)
    assert status == 1, out
    assert vm_results(out)["FAIL"] == ["test_returns_verdict"]
    assert "returned a value: not None (False)" in out


def test_a_test_class_is_refused(tmp_path, runner):
    status, out = run_case(tmp_path, runner, """
        class TestGroup:
            def test_inside(self):
                assert False
        class Helper:
            pass
        def test_plain():
            pass
    """)
    assert status == 1, out
    assert vm_results(out) == {"ok": ["test_plain"], "FAIL": ["TestGroup"], "skip": []}
    assert "a test class: not run on MicroPython" in out


def test_a_module_raising_at_import_fails(tmp_path, runner):
    status, out = run_case(tmp_path, runner, """
        def test_never():
            pass
        raise ValueError("broken fixture table")
    """)
    assert status == 1, out
    assert "ERROR importing vmcases.test_case" in out
    assert "ValueError: broken fixture table" in out
    assert vm_results(out) == {"ok": [], "FAIL": [], "skip": []}


def test_a_hanging_test_times_out_and_is_named(tmp_path, runner):
    status, out = run_case(tmp_path, runner, """
        def test_a_first():
            pass
        def test_b_spins():
            while True:
                pass
    """, timeout=10)
    assert status == 124, out
    assert "%s: timed out after 10s in test_b_spins" % ("mpvm" if runner == "vm" else "mpunix") in out
    assert vm_results(out)["ok"] == ["test_a_first"]


def test_cpython_only_is_skipped_on_micropython_and_named(tmp_path, runner):
    status, out = run_case(tmp_path, runner, """
        from tests.firmware.expect import cpython_only, micropython_only
        @cpython_only
        def test_host_only():
            assert False      # would fail if the VM ran it
        @micropython_only
        def test_vm_only():
            import sys
            assert sys.implementation.name == "micropython"
    """)
    assert status == 0, out
    assert vm_results(out) == {"ok": ["test_vm_only"], "FAIL": [], "skip": ["test_host_only"]}
    assert "skip test_host_only (CPython only)" in out


# Scripts: one that raises fails whatever the port prints; viper code runs where there is native code.

def test_a_script_that_raises_fails(tmp_path, runner):
    script = tmp_path / "raises.py"
    script.write_text("print('before')\nraise ValueError('tenth ace')\n")
    run = mpunix.run_script if runner == "unix" else mpvm.run_script
    status, out = run(str(script), timeout=60)
    assert status != 0, out
    assert "before" in out and "ValueError: tenth ace" in out


def test_viper_code_runs_on_the_unix_port_and_not_in_the_vm(tmp_path, runner):
    # What the port is here for: viper code (a board's kind of native code) compiles and runs; the VM refuses it.
    script = tmp_path / "viper.py"
    script.write_text(textwrap.dedent("""
        import micropython, sys
        @micropython.viper
        def total(buf) -> int:
            p = ptr8(buf)
            s = 0
            for i in range(int(len(buf))):
                s += p[i]
            return s
        print("viper", total(bytearray(range(10))), sys.implementation._mpy >> 10)
    """))
    if runner == "unix":
        status, out = mpunix.run_script(str(script), timeout=60)
        assert status == 0, out
        assert "viper 45 2" in out                     # 2: MP_NATIVE_ARCH_X64
    else:
        status, out = mpvm.run_script(str(script), timeout=60)
        assert status != 0 and "invalid micropython decorator" in out, out


# The name check of tests/test_on_micropython.py: pytest's collection vs the VM's report.

def _pytest_and_vm(tmp_path, source):
    module = write_case(tmp_path, source)
    (tmp_path / "pytest.ini").write_text("[pytest]\npythonpath = %s\n" % mpvm.REPO)
    names, collect_out = collect_with_pytest(["vmcases/test_case.py"], cwd=tmp_path)
    status, out = mpvm.run_test_module(module, extra_copies=["%s=/vmcases" % (tmp_path / "vmcases")])
    return names.get(module, set()), vm_results(out), collect_out + out


def test_a_test_defined_for_cpython_only_without_the_marker_is_a_mismatch(tmp_path):
    collected, seen, out = _pytest_and_vm(tmp_path, """
        import sys
        def test_both():
            pass
        if sys.implementation.name != "micropython":
            def test_quietly_host_only():
                pass
    """)
    assert collected == {"test_both", "test_quietly_host_only"}, out
    assert compare(collected, seen) == ["collected by pytest, not run on MicroPython: test_quietly_host_only"]


def test_the_marker_makes_the_same_test_agree(tmp_path):
    collected, seen, out = _pytest_and_vm(tmp_path, """
        from tests.firmware.expect import cpython_only
        def test_both():
            pass
        @cpython_only
        def test_host_only():
            pass
    """)
    assert collected == {"test_both", "test_host_only"}, out
    assert seen["skip"] == ["test_host_only"]
    assert compare(collected, seen) == []


def test_a_module_of_test_classes_is_a_mismatch_too(tmp_path):
    collected, seen, out = _pytest_and_vm(tmp_path, """
        class TestGroup:
            def test_inside(self):
                pass
    """)
    assert collected == {"TestGroup::test_inside"}, out
    assert compare(collected, seen) == [
        "collected by pytest, not run on MicroPython: TestGroup::test_inside",
        "run on MicroPython, not collected by pytest: TestGroup",
    ]


def test_compare_wants_a_test_on_both_sides():
    none = {"ok": [], "FAIL": [], "skip": []}
    assert compare(set(), none) == ["pytest collected no test from this module", "no test ran on MicroPython"]
    only_skips = {"ok": [], "FAIL": [], "skip": ["test_x"]}
    assert compare({"test_x"}, only_skips) == ["no test ran on MicroPython"]


def test_the_vm_runner_exits_only_once_its_output_is_written(tmp_path):
    # Node writes into a full pipe asynchronously: a runner that exited as soon as Python returned dropped
    # what was still queued (status 0; a 1.8 MB seeded play came out cut at 64 KB four runs in ten). Here
    # the reader waits until the VM is done before it reads 0.5 MB: every line must come.
    import subprocess
    import time
    script = tmp_path / "loud.py"
    script.write_text('line = "x" * 90\nfor i in range(5000):\n    print(line, i)\nprint("== end")\n')
    try:
        cmd = [mpvm._node(), mpvm.RUNNER, "--script", str(script)]
    except mpvm.VMUnavailable as exc:
        pytest.skip(str(exc))
    proc = subprocess.Popen(cmd, cwd=mpvm.REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(3)                        # the VM has long printed everything: most of it waits in Node
    out, err = proc.communicate(timeout=120)
    lines = out.decode().splitlines()
    assert proc.returncode == 0, err
    assert lines[-1] == "== end" and len(lines) == 5002, (len(out), lines[-1:])   # (and the runtime line)
