# hostsim.clock: the virtual clock drives firmware.compat's ticks.
import time

import pytest

from firmware import compat
from hostsim.clock import VirtualClock


def test_stepped_clock_stands_still_until_advanced():
    clock = VirtualClock(start_ms=100)
    assert clock.now_ms() == 100
    time.sleep(0.01)
    assert clock.now_ms() == 100
    assert clock.advance(250) == 350
    with pytest.raises(ValueError):
        clock.advance(-1)


def test_install_makes_firmware_ticks_follow_and_uninstall_restores_real_time():
    clock = VirtualClock(start_ms=5000)
    clock.install()
    try:
        t0 = compat.ticks_ms()
        assert t0 == 5000
        clock.advance(1234)
        assert compat.ticks_diff(compat.ticks_ms(), t0) == 1234
    finally:
        clock.uninstall()
    a = compat.ticks_ms()
    time.sleep(0.02)
    assert compat.ticks_diff(compat.ticks_ms(), a) >= 15


def test_ticks_wrap_like_micropython_on_the_virtual_clock():
    clock = VirtualClock(start_ms=(1 << 30) - 10)
    with_clock = clock.install()
    try:
        before = compat.ticks_ms()
        with_clock.advance(20)
        after = compat.ticks_ms()
        assert after < before                          # wrapped at 2**30
        assert compat.ticks_diff(after, before) == 20
    finally:
        clock.uninstall()


def test_realtime_mode_follows_monotonic_scaled_and_keeps_jumps():
    clock = VirtualClock(realtime=True, scale=10.0)
    a = clock.now_ms()
    time.sleep(0.05)
    b = clock.now_ms()
    assert 300 <= b - a <= 5000                        # ~500 ms of virtual time
    clock.advance(10000)
    assert clock.now_ms() - b >= 10000
    clock.set_realtime(False)
    frozen = clock.now_ms()
    time.sleep(0.01)
    assert clock.now_ms() == frozen



def test_a_blocking_sleep_of_the_firmware_moves_a_stepped_clock_on_and_waits_no_host_time(monkeypatch):
    # An LCD's power-up waits (firmware/drivers/lcd.py): each simulated boot slept ~0.1 s of real time.
    waited = []
    monkeypatch.setattr(time, "sleep", waited.append)   # (compat's time module: the host's waits, recorded)
    clock = VirtualClock(start_ms=100).install()
    try:
        compat.sleep_ms(20)
        assert clock.now_ms() == 120 and compat.ticks_ms() == 120 and waited == []
        clock.set_realtime(True, scale=2.0)
        compat.sleep_ms(20)                             # following real time: the host waits, scaled
        assert waited == [0.01]
    finally:
        clock.uninstall()
    compat.sleep_ms(30)                                 # the host's own clock again
    assert waited == [0.01, 0.03]


def test_the_clock_s_arguments_are_checked_and_its_state_said():
    # (mutants of hostsim/clock.py: the checks' bounds, the installed flag, set_realtime's default, repr)
    for scale in (0, -1.0):
        with pytest.raises(ValueError, match="clock scale must be > 0, got %r" % (scale,)):
            VirtualClock(scale=scale)
        with pytest.raises(ValueError, match="clock scale must be > 0"):
            VirtualClock().set_realtime(True, scale=scale)
    clock = VirtualClock(start_ms=100)
    assert clock.advance(0) == 100                      # no time passing: allowed
    assert not clock.installed and repr(clock) == "<VirtualClock 100 ms, stepped>"
    clock.install()
    assert clock.installed
    clock.uninstall()
    assert not clock.installed
    clock.set_realtime(scale=4.0)                        # on, by default
    assert clock.realtime and repr(clock).startswith("<VirtualClock 1") and repr(clock).endswith(", realtime x4>")
    assert 100 <= VirtualClock(start_ms=100, realtime=True).now_ms() < 1100     # from its start, not the host's
