"""A tool's stdout closed by its reader (`python -m tools.odds craps | head`): the tool stops quietly, as Unix
filters do, without a BrokenPipeError traceback (tools.replay, tools.odds, tools.judge)."""
import os
import sys


def stdout_gone(stdout=None):
    """After a BrokenPipeError on stdout: point fd 1 at /dev/null, so that the interpreter's last flush at exit
    cannot fail again (a stdout other than sys.stdout, a test's, is left alone)."""
    if stdout is None or stdout is sys.stdout:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
