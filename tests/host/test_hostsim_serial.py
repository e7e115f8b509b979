# hostsim.serialport: a person's terminal (here pyserial) on a simulated UART's pseudo-terminal.
import os
import time

import pytest
import serial

from hostsim import hardware
from hostsim.serialport import LoopbackPort, PtyPort, make_port


@pytest.fixture
def hw():
    h = hardware.install(ports="pty")
    yield h
    hardware.uninstall()


def _read_until(func, want, timeout=2.0):
    got = b""
    end = time.monotonic() + timeout
    while time.monotonic() < end and len(got) < len(want):
        chunk = func()
        if chunk:
            got += chunk
        else:
            time.sleep(0.005)
    return got


def test_pyserial_exchanges_bytes_both_ways_with_a_simulated_uart(hw):
    import machine
    uart = machine.UART(3, baudrate=115200, tx=5, rx=6)
    path = hw.uarts[3].path
    assert path.startswith("/dev/pts/") and os.path.exists(path)
    with serial.Serial(path, 115200, timeout=1) as term:
        uart.write(b"boot ok\r\n")
        assert term.read_until(b"\n") == b"boot ok\r\n"
        term.write(b"status\n")
        term.flush()
        assert _read_until(lambda: uart.read(), b"status\n") == b"status\n"
        uart.write(bytes(range(256)))               # raw mode: every byte value passes untouched
        assert term.read(256) == bytes(range(256))
        term.write(b"\r\x03\x11\x13\n")               # no CR/LF translation, no flow-control or signal chars
        term.flush()
        assert _read_until(lambda: uart.read(), b"\r\x03\x11\x13\n") == b"\r\x03\x11\x13\n"


def test_pty_survives_a_client_detaching_and_reattaching(hw):
    import machine
    uart = machine.UART(4)
    path = hw.uarts[4].path
    with serial.Serial(path, timeout=1) as term:
        term.write(b"one\n")
        term.flush()
        assert _read_until(lambda: uart.read(), b"one\n") == b"one\n"
    assert uart.read() is None                      # nobody attached: nothing, no error
    uart.write(b"while away\n")                     # kept by the kernel; pyserial flushes it on open
    with serial.Serial(path, timeout=1) as term:
        uart.write(b"back\n")
        assert term.read_until(b"\n") == b"back\n"
        term.write(b"two\n")
        term.flush()
        assert _read_until(lambda: uart.read(), b"two\n") == b"two\n"


def test_pty_drops_and_counts_when_nobody_reads_for_long():
    port = PtyPort()
    try:
        block = b"x" * 4096
        for _ in range(64):                          # far more than the kernel buffers
            assert port.fw_write(block) == len(block)
        assert port.dropped > 0
    finally:
        port.close()
    assert port.fw_read(10) == b"" and port.fw_write(b"y") == 0


def test_loopback_port_and_make_port():
    port = make_port("loopback")
    assert isinstance(port, LoopbackPort) and port.path is None
    port.feed("abc")
    assert port.pending() == 3 and port.fw_read(2) == b"ab" and port.fw_read(9) == b"c"
    port.fw_write(b"out")
    assert port.take() == b"out"
    with pytest.raises(ValueError):
        make_port("tcp")


def test_closing_hardware_closes_its_ptys():
    hw = hardware.install(ports="pty")
    path = hw.uart(1).path
    hardware.uninstall()
    assert hw.uarts[1].endpoint.closed
    assert path


def test_pty_feed_reaches_the_firmware_beside_an_attached_terminal(hw):
    import machine
    uart = machine.UART(1)
    port = hw.uarts[1].endpoint
    with serial.Serial(port.path, timeout=1) as term:
        assert port.feed(b"Kh\n") == 3               # the simulator deals a card
        assert _read_until(lambda: uart.read(), b"Kh\n") == b"Kh\n"
        uart.write(b"ack\n")
        assert term.read_until(b"\n") == b"ack\n"      # the person still sees the firmware's output


def test_taps_see_firmware_output_without_taking_it(hw):
    import machine
    uart = machine.UART(3)
    seen = []
    hw.port(3).taps.append(seen.append)
    with serial.Serial(hw.uarts[3].path, timeout=1) as term:
        uart.write(b'{"event":"boot"}\n')
        assert term.read_until(b"\n") == b'{"event":"boot"}\n'
    assert seen == [b'{"event":"boot"}\n']
    loop = LoopbackPort()
    loop.taps.append(seen.append)
    loop.fw_write(b"x")
    assert loop.take() == b"x" and seen[-1] == b"x"
