import pytest

from tools import mpunix, mpvm


def pytest_report_header(config):
    try:
        vm = mpvm.version()
    except mpvm.VMUnavailable as exc:
        raise pytest.UsageError(str(exc))
    try:
        unix = mpunix.version()
    except mpunix.UnixPortUnavailable as exc:
        unix = "not here (%s)" % exc
    return ("firmware runtimes: CPython (this process), MicroPython VM: %s, MicroPython Unix port: %s"
            % (vm, unix))


_MICROPYTHON_SUMMARY = pytest.StashKey()


@pytest.fixture
def micropython_summary(request):
    """Per dual-runtime module, what the VM ran; printed by pytest_terminal_summary."""
    return request.config.stash.setdefault(_MICROPYTHON_SUMMARY, {})


def pytest_terminal_summary(terminalreporter, config):
    summary = config.stash.get(_MICROPYTHON_SUMMARY, None)
    if not summary:
        return
    tr = terminalreporter
    tr.write_sep("=", "dual-runtime modules on MicroPython (tests/test_on_micropython.py)")
    width = max(len(m) for m in summary)
    total = 0
    for module in sorted(summary):
        ok, failed, skipped, collected, agreed = summary[module]
        total += ok + failed
        line = "%-*s %4d ran" % (width, module, ok + failed)
        if failed:
            line += ", %d failed" % failed
        if skipped:
            line += ", skipped there: " + ", ".join(skipped)
        line += "  (pytest: %d)" % collected
        tr.write_line(line if agreed else line + "  MISMATCH OR FAILURE")
    unix = sum(1 for m in summary if m.endswith(" (unix)"))
    tr.write_line("%d modules on the VM, %d on the Unix port: %d tests ran on MicroPython"
                  % (len(summary) - unix, unix, total))
