import pytest

from tools import mpvm


def pytest_report_header(config):
    try:
        return "firmware runtimes: CPython (this process) and MicroPython VM: " + mpvm.version()
    except mpvm.VMUnavailable as exc:
        raise pytest.UsageError(str(exc))
