# Runtime shims (firmware/compat.py) give the same answers on both runtimes.
# Expected values are worked out by hand from MicroPython's documented ticks arithmetic, never from the
# shim: the period is its small ints' range, 2**30 = 1073741824 on a 32-bit port (the boards, the
# WebAssembly VM; the CPython shim keeps it) and 2**62 on a 64-bit one (the Unix port, tools/mpunix.py).
# The firmware only adds and subtracts ticks through ticks_add/ticks_diff, so either period serves it.
import sys

from firmware import compat
from tests.firmware.expect import cpython_only, micropython_only, raises_match

_PERIOD = (sys.maxsize + 1) // 2 if sys.implementation.name == "micropython" else 1 << 30
_HALF = _PERIOD // 2


def test_the_period_is_2_pow_30_on_a_32_bit_port_and_cpython():
    assert _PERIOD in (1 << 30, 1 << 62)
    assert (_PERIOD == 1 << 30) == (sys.implementation.name != "micropython" or sys.maxsize == (1 << 31) - 1)


def test_ticks_add_wraps_at_the_period():
    assert compat.ticks_add(100, 250) == 350
    assert compat.ticks_add(0, -5) == _PERIOD - 5
    assert compat.ticks_add(_PERIOD - 5, 12) == 7         # 5 ms to the wrap, 7 after
    assert compat.ticks_add(7, -12) == _PERIOD - 5


def test_ticks_diff_across_wrap():
    assert compat.ticks_diff(350, 100) == 250
    assert compat.ticks_diff(7, _PERIOD - 5) == 12
    assert compat.ticks_diff(_PERIOD - 5, 7) == -12


def test_ticks_diff_range_is_half_the_period_each_way():
    # Differences lie in [-period/2, period/2 - 1]: half the period apart reads as "before".
    assert compat.ticks_diff(_HALF - 1, 0) == _HALF - 1
    assert compat.ticks_diff(_HALF, 0) == -_HALF
    assert compat.ticks_diff(0, _HALF) == -_HALF


def test_ticks_ms_stays_in_the_period_and_moves_forward():
    a = compat.ticks_ms()
    b = compat.ticks_ms()
    assert 0 <= a < _PERIOD and 0 <= b < _PERIOD
    assert 0 <= compat.ticks_diff(b, a) < 1000


def test_const_is_the_value_itself():
    assert compat.const(7) == 7
    assert compat.const(-1048576) == -1048576


def test_schedule_runs_the_callback_with_its_argument():
    seen = []
    compat.schedule(seen.append, 3)
    # CPython calls it at once; MicroPython at the next safe point (a loop jump).
    for _ in range(100):
        if seen:
            break
    assert seen == [3]


def test_format_exception_names_the_error():
    try:
        raise ValueError("tenth ace")
    except ValueError as exc:
        text = compat.format_exception(exc)
    assert text.startswith("Traceback (most recent call last):")
    assert "ValueError: tenth ace" in text


@micropython_only  # the heap lock is MicroPython's; CPython's shim is a no-op (next test)
def test_heap_lock_makes_any_allocation_fail():
    compat.heap_lock()
    try:
        try:
            bytearray(16)
            allocated = True
        except MemoryError:
            allocated = False
    finally:
        depth = compat.heap_unlock()
    assert not allocated
    assert depth == 0                                     # unlocked again, not nested
    assert len(bytearray(16)) == 16


@cpython_only  # CPython has no lockable heap: lock/unlock must be harmless no-ops
def test_heap_lock_is_a_no_op_on_cpython():
    compat.heap_lock()
    try:
        data = bytearray(16)
    finally:
        depth = compat.heap_unlock()
    assert len(data) == 16 and depth == 0


@cpython_only  # hostsim's virtual clock exists only on CPython (next test)
def test_set_clock_drives_ticks_and_none_restores_real_time():
    compat.set_clock(lambda: 1073741824 + 5)             # one period and 5 ms
    try:
        assert compat.ticks_ms() == 5
    finally:
        compat.set_clock(None)
    import time
    real = (time.monotonic_ns() // 1000000) % 1073741824
    assert abs(compat.ticks_diff(compat.ticks_ms(), real)) < 1000


@micropython_only
def test_set_clock_is_refused_on_micropython():
    raises_match(RuntimeError, "board's own", compat.set_clock, lambda: 0)
