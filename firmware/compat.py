# Runtime shims: the few names MicroPython and CPython spell differently.
#
# Firmware imports these from here, never from `micropython`/`time` directly,
# so the same file runs on the board, under the host simulator and in tests.
import sys

IS_MICROPYTHON = sys.implementation.name == "micropython"

if IS_MICROPYTHON:
    from micropython import const, schedule  # noqa: F401
    import micropython as _mp
    import time as _time

    ticks_ms = _time.ticks_ms
    ticks_add = _time.ticks_add
    ticks_diff = _time.ticks_diff
    sleep_ms = _time.sleep_ms

    def heap_lock():
        _mp.heap_lock()

    def heap_unlock():
        return _mp.heap_unlock()

    def set_clock(clock_ms, sleep=None):
        raise RuntimeError("the clock is the board's own on MicroPython")

    def format_exception(exc):
        import io
        out = io.StringIO()
        sys.print_exception(exc, out)
        return out.getvalue()

    def sleep_ms_async(ms):
        import asyncio
        return asyncio.sleep_ms(ms)

    def kbd_intr(char):
        """Which byte on the REPL's stdin raises KeyboardInterrupt (-1: none; 3: Ctrl-C)."""
        _mp.kbd_intr(char)

else:
    import time as _time

    _TICKS_PERIOD = 1 << 30  # MicroPython's ticks wrap at 2**30 on every port
    _TICKS_MAX = _TICKS_PERIOD - 1
    _TICKS_HALF = _TICKS_PERIOD // 2

    def const(value):
        return value

    # MicroPython's parser compiles const() in by itself: no firmware module imports it, for an import
    # is a `const` slot in that module's globals dict on the board (~100 modules). CPython finds it
    # among the builtins, put there when the firmware package is imported (firmware/__init__.py).
    import builtins as _builtins
    _builtins.const = const

    def _monotonic_ms():
        return _time.monotonic_ns() // 1000000

    # hostsim installs its virtual clock here (set_clock); looked up at call time. With it, what a blocking
    # sleep_ms does on that clock: the board is blocked that long (an LCD's power-up waits), so its time
    # moves on; the host need not wait (a stepped clock: every simulated boot slept ~0.1 s of real time).
    _clock_ms = _monotonic_ms
    _sleep = None

    def set_clock(clock_ms, sleep=None):
        """Install a millisecond clock (hostsim's virtual clock) and its blocking sleep(ms) (None: the host's
        time.sleep); clock_ms None restores real time."""
        global _clock_ms, _sleep
        _clock_ms = clock_ms if clock_ms is not None else _monotonic_ms
        _sleep = sleep if clock_ms is not None else None

    def ticks_ms():
        return _clock_ms() & _TICKS_MAX

    def ticks_add(ticks, delta):
        return (ticks + delta) & _TICKS_MAX

    def ticks_diff(end, start):
        return ((end - start + _TICKS_HALF) & _TICKS_MAX) - _TICKS_HALF

    def sleep_ms(ms):
        if _sleep is not None:
            _sleep(ms)
        else:
            _time.sleep(ms / 1000)

    def schedule(func, arg):
        # CPython has no hard interrupts: run the callback at once, as the
        # scheduler would at the next safe point.
        func(arg)

    def heap_lock():
        pass

    def format_exception(exc):
        import traceback
        return "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))

    def sleep_ms_async(ms):
        import asyncio
        return asyncio.sleep(ms / 1000)

    def heap_unlock():
        return 0

    def kbd_intr(char):
        # The simulator installs a `micropython` module that records the call (hostsim/micropython.py);
        # a plain CPython has no REPL on a board's console, so there is nothing to switch.
        mp = sys.modules.get("micropython")
        if mp is not None:
            mp.kbd_intr(char)


def native_arch():
    """The native code architecture of this MicroPython (sys.implementation._mpy bits 10 and up:
    4 armv6m, 10 xtensawin...), 0 when it has none (the WebAssembly VM) or on CPython. A module of
    @micropython.viper code is imported only where this is not 0 (firmware/link/crc32.py,
    firmware/games/omaha/hand_value.py)."""
    if not IS_MICROPYTHON:
        return 0
    return getattr(sys.implementation, "_mpy", 0) >> 10
