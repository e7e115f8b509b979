"""Checks shared by the tests of host command-line tools."""


def assert_one_line_error(proc, *fragments, quiet_stdout=False):
    """The tool failed with exactly one stderr line holding every fragment, and no traceback."""
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    if quiet_stdout:
        assert proc.stdout == ""
    return lines[0]
