# What pytest gives (raises, skips), for tests that also run on MicroPython.
import sys

_ON_MICROPYTHON = sys.implementation.name == "micropython"


def raises(exc_type, func, *args, **kwargs):
    """Call func; fail unless it raises exc_type. Returns the exception."""
    try:
        func(*args, **kwargs)
    except exc_type as exc:
        return exc
    raise AssertionError("%s did not raise %s" % (getattr(func, "__name__", func), exc_type.__name__))


def raises_match(exc_type, text, func, *args, **kwargs):
    """As raises(), and the message must contain text."""
    exc = raises(exc_type, func, *args, **kwargs)
    message = str(exc)
    if text not in message:
        raise AssertionError("message %r does not mention %r" % (message, text))
    return exc


# Tests for one runtime only. Both runners still see the name, so the check
# that MicroPython ran what pytest collected (tests/test_on_micropython.py)
# stays exact: the VM reports `skip name (CPython only)`, pytest reports a skip.


class _NotOnThisRuntime:
    # What a CPython-only test becomes on MicroPython: tools/mpvm.mjs reports
    # any test_* object with `mpvm_skip` as skipped, with this reason.
    def __init__(self, reason):
        self.mpvm_skip = reason


def cpython_only(test):
    """Decorator: run this test on CPython only (say why in a comment)."""
    if _ON_MICROPYTHON:
        return _NotOnThisRuntime("CPython only")
    return test


def micropython_only(test):
    """Decorator: run this test on MicroPython only; pytest reports it skipped."""
    if _ON_MICROPYTHON:
        return test
    import pytest
    return pytest.mark.skip(reason="MicroPython only: runs in the VM (tests/test_on_micropython.py)")(test)


def needs_asyncio_run(test):
    """Decorator: a test of firmware.main.run()'s loop, which the WebAssembly VM cannot run (its asyncio,
    pyscript's, has no run()); the board's, the Unix port's and CPython's have it."""
    import asyncio
    if hasattr(asyncio, "run"):
        return test
    return _NotOnThisRuntime("no asyncio.run in this port (WebAssembly)")


def heap_lock_catches_allocation():
    """On MicroPython: True when heap_lock() really makes an allocation fail, so a block run under
    the lock proves it allocates nothing. On CPython (no heap lock) True: nothing to prove there."""
    from firmware.compat import IS_MICROPYTHON, heap_lock, heap_unlock
    if not IS_MICROPYTHON:
        return True
    heap_lock()
    try:
        try:
            bytearray(8)
            caught = False
        except MemoryError:
            caught = True
    finally:
        heap_unlock()
    return caught


def count_calls(owner, name):
    """Replace owner.name (a module's function, a class's or an instance's method) by one that counts its
    calls and then makes them: returns (calls, plain), calls[0] the count; setattr(owner, name, plain)
    puts the plain one back. For tests that prove a path skips a call."""
    plain = getattr(owner, name)
    calls = [0]

    def counting(*args):
        calls[0] += 1
        return plain(*args)
    setattr(owner, name, counting)
    return calls, plain
