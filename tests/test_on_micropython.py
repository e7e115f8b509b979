"""Every dual-runtime module in tests/firmware/ also runs on real MicroPython.

pytest runs those modules directly on CPython; this file runs each one again
inside the MicroPython WebAssembly VM and fails with the VM's own report.
"""
import os

import pytest

from tools import mpvm

HERE = os.path.dirname(os.path.abspath(__file__))
MODULES = sorted(
    "tests.firmware." + name[:-3]
    for name in os.listdir(os.path.join(HERE, "firmware"))
    if name.startswith("test_") and name.endswith(".py")
)


@pytest.mark.micropython
@pytest.mark.parametrize("module", MODULES)
def test_module_on_micropython(module):
    status, out = mpvm.run_test_module(module, timeout=600)
    assert "runtime: MicroPython" in out, out
    assert status == 0, "on MicroPython:\n" + out
    assert "micropython: 0 passed" not in out, "no test ran on MicroPython:\n" + out
