# Runtime shims behave the same on both runtimes (ticks wrap like MicroPython's).
from firmware import compat


def test_ticks_diff_across_wrap():
    start = compat.ticks_add(0, -5)             # 5 ms before the wrap point
    end = compat.ticks_add(start, 12)
    assert compat.ticks_diff(end, start) == 12
    assert compat.ticks_diff(start, end) == -12


def test_ticks_monotonic_enough():
    a = compat.ticks_ms()
    b = compat.ticks_ms()
    assert compat.ticks_diff(b, a) >= 0


def test_const_and_schedule():
    assert compat.const(7) == 7
    seen = []
    compat.schedule(seen.append, 3)
    if not compat.IS_MICROPYTHON:
        assert seen == [3]                        # CPython runs it at once


def test_format_exception_names_the_error():
    try:
        raise ValueError("tenth ace")
    except ValueError as exc:
        text = compat.format_exception(exc)
    assert "ValueError" in text and "tenth ace" in text


def test_runtime_flag_matches_implementation():
    import sys
    assert compat.IS_MICROPYTHON == (sys.implementation.name == "micropython")
