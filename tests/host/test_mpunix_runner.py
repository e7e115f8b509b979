"""The Unix port's runner (tools/mpunix.py) fails as the VM's does (tests/host/test_mpvm_runner.py): a
failed assert, an unimportable module and a hung test each fail, a clean module passes, and a script that
raises is a failure whatever the port would print. Each case is a throwaway module in tmp_path."""
import textwrap

import pytest

from tests.test_on_micropython import vm_results
from tools import mpunix

pytestmark = pytest.mark.micropython


@pytest.fixture(autouse=True)
def _port_here():
    try:
        mpunix.executable()
    except mpunix.UnixPortUnavailable as exc:
        pytest.skip(str(exc))


def run_case(tmp_path, source, timeout=120):
    package = tmp_path / "unixcases"
    package.mkdir(exist_ok=True)
    (package / "__init__.py").write_text("")
    (package / "test_case.py").write_text(textwrap.dedent(source))
    return mpunix.run_test_module("unixcases.test_case", timeout=timeout, path=[tmp_path])


def test_a_clean_module_passes(tmp_path):
    status, out = run_case(tmp_path, """
        def test_one():
            assert 1 + 1 == 2
        def test_two():
            pass
    """)
    assert status == 0, out
    assert vm_results(out) == {"ok": ["test_one", "test_two"], "FAIL": [], "skip": []}
    assert "micropython: 2 passed, 0 failed, 0 skipped" in out


def test_a_failing_assert_fails_with_its_traceback(tmp_path):
    status, out = run_case(tmp_path, """
        def test_good():
            pass
        def test_bad():
            assert 2 + 2 == 5, "arithmetic"
    """)
    assert status == 1, out
    assert vm_results(out) == {"ok": ["test_good"], "FAIL": ["test_bad"], "skip": []}
    assert "AssertionError: arithmetic" in out


def test_a_module_that_cannot_be_imported_fails(tmp_path):
    status, out = run_case(tmp_path, """
        import no_such_module_here
        def test_never():
            pass
    """)
    assert status == 1, out
    assert "ERROR importing unixcases.test_case: no test ran" in out
    assert vm_results(out)["ok"] == []


def test_a_hung_test_times_out_and_is_named(tmp_path):
    status, out = run_case(tmp_path, """
        def test_first():
            pass
        def test_forever():
            while True:
                pass
    """, timeout=5)
    assert status == 124, out
    assert "timed out after 5s in test_forever" in out


def test_a_script_that_raises_fails(tmp_path):
    script = tmp_path / "raises.py"
    script.write_text("print('before')\nraise ValueError('tenth ace')\n")
    status, out = mpunix.run_script(str(script), timeout=60)
    assert status != 0, out
    assert "before" in out and "ValueError: tenth ace" in out


def test_native_code_runs_there(tmp_path):
    # What the port is here for: viper code (a board's kind of native code) compiles and runs.
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
        assert sys.implementation._mpy >> 10 != 0
        print("viper", total(bytearray(range(10))))
    """))
    status, out = mpunix.run_script(str(script), timeout=60)
    assert status == 0, out
    assert "viper 45" in out
