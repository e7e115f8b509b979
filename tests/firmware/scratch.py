# A fresh, empty directory per test, removed afterwards (MicroPython has no tempfile).
#
#     with ScratchDir() as state:
#         ... files under state + "/..." ...
#
# Each directory is made with os.mkdir under this run's name, so a file left
# by an earlier run (or another test) can never be seen. Works on CPython and
# on MicroPython's VM filesystem alike.
import os
import time

_S_IFDIR = 0x4000


def _base():
    try:
        import tempfile                     # CPython: the platform's temporary folder
        return tempfile.gettempdir()
    except ImportError:
        pass
    getenv = getattr(os, "getenv", None)    # the Unix port: its runner's folder (tools/mpunix.py removes it)
    return (getenv("TMPDIR") if getenv is not None else None) or "/tmp"    # the VM: its own memory


def _stamp():
    if hasattr(os, "getpid"):
        return os.getpid()
    return time.ticks_ms()                  # MicroPython: no pid; collisions are retried below


_RUN = "%s/fwtest-%d" % (_base(), _stamp())
_made = [0]


def make_dir():
    """Create and return a directory no one has used before."""
    while True:
        _made[0] += 1
        path = "%s-%d" % (_RUN, _made[0])
        try:
            os.mkdir(path)
            return path
        except OSError:
            if not exists(path):            # not taken by someone else: a real failure
                raise


def remove_tree(path):
    for name in os.listdir(path):
        child = path + "/" + name
        if os.stat(child)[0] & _S_IFDIR:
            remove_tree(child)
        else:
            os.remove(child)
    os.rmdir(path)


def exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


class ScratchDir:
    def __enter__(self):
        self.path = make_dir()
        return self.path

    def __exit__(self, exc_type, exc, tb):
        remove_tree(self.path)
        return False
