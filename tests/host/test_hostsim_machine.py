# hostsim.machine: MicroPython's machine API on simulated hardware (pins, UART, I2C, WDT, Timer, resets).
import errno
import sys

import pytest

from hostsim import hardware
from hostsim.hardware import SimReset


@pytest.fixture
def hw():
    h = hardware.install()
    yield h
    hardware.uninstall()


def test_install_registers_micropython_and_circuitpython_module_names(hw):
    import machine, neopixel, board, digitalio, neopixel_write  # noqa: E401
    assert machine.__name__ == "hostsim.machine"
    assert neopixel.__name__ == "hostsim.neopixel"
    assert board.__name__ == "hostsim.board"
    assert digitalio.__name__ == "hostsim.digitalio"
    assert neopixel_write.__name__ == "hostsim.neopixel_write"


def test_uninstall_removes_the_modules_and_current():
    hardware.install()
    hardware.uninstall()
    assert "machine" not in sys.modules
    with pytest.raises(RuntimeError):
        hardware.current()


def test_output_pin_is_seen_by_host(hw):
    import machine
    led = machine.Pin(25, machine.Pin.OUT, value=0)
    assert hw.pins[25].level == 0
    led.on()
    assert hw.pins[25].level == 1 and led.value() == 1
    led.off()
    assert hw.pins[25].level == 0
    led(1)
    assert led() == 1
    led.toggle()
    assert hw.pins[25].level == 0


def test_input_pull_up_and_host_driven_button(hw):
    import machine
    button = machine.Pin(10, machine.Pin.IN, machine.Pin.PULL_UP)
    assert button.value() == 1                       # pulled up, nothing pressing
    hw.pins[10].press()
    assert button.value() == 0                       # active low
    hw.pins[10].release()
    assert button.value() == 1
    hw.pins[10].set_input(None)                      # floating: the pull decides
    assert button.value() == 1
    floating = machine.Pin(11, machine.Pin.IN, machine.Pin.PULL_DOWN)
    assert floating.value() == 0


def test_the_pin_constants_are_the_rp2_port_s(hw):
    # (mutants of hostsim/pins.py) MicroPython's rp2 machine.Pin: modes 0-3, pulls 1 and 2, and the pico-sdk's
    # edge IRQ bits (GPIO_IRQ_EDGE_FALL 4, GPIO_IRQ_EDGE_RISE 8).
    import machine
    P = machine.Pin
    assert (P.IN, P.OUT, P.OPEN_DRAIN, P.ALT, P.PULL_UP, P.PULL_DOWN, P.IRQ_FALLING, P.IRQ_RISING) == \
        (0, 1, 2, 3, 1, 2, 4, 8)


def test_wires_joined_by_a_switch_settle_as_the_docstring_says(hw):
    # A pin driving high wins over no pull, one pulling low over both; a switch closed twice stays closed, one
    # opened that was never closed changes nothing.
    import machine
    out = machine.Pin(2, machine.Pin.OUT, value=1)
    bare = machine.Pin(3, machine.Pin.IN)            # no pull: alone it reads 0
    assert bare.value() == 0
    hw.pins[2].join(hw.pins[3])
    assert bare.value() == 1                         # the output's high on the joined wire
    hw.pins[2].join(hw.pins[3])
    assert hw.pins[3].links == [hw.pins[2]] and bare.value() == 1
    out.value(0)
    assert bare.value() == 0
    hw.pins[2].part(hw.pins[3])
    hw.pins[2].part(hw.pins[3])                      # open already: nothing
    assert hw.pins[3].links == [] and bare.value() == 0
    hw.pins[4].part(hw.pins[5])


def test_same_pin_number_shares_state(hw):
    import machine
    a = machine.Pin(3, machine.Pin.OUT)
    b = machine.Pin("GP3")
    a.on()
    assert b.value() == 1
    assert a == b


def test_pin_irq_fires_on_chosen_edges(hw):
    import machine
    seen = []
    pin = machine.Pin(12, machine.Pin.IN, machine.Pin.PULL_UP)
    pin.irq(lambda p: seen.append(p.value()), trigger=machine.Pin.IRQ_FALLING)
    hw.pins[12].press()
    hw.pins[12].press()                              # no edge, no irq
    hw.pins[12].release()                            # rising: not asked for
    assert seen == [0]
    pin.irq(lambda p: seen.append("both"), machine.Pin.IRQ_FALLING | machine.Pin.IRQ_RISING)
    hw.pins[12].press()
    hw.pins[12].release()
    assert seen == [0, "both", "both"]
    pin.irq(None)
    hw.pins[12].press()
    assert len(seen) == 3


def test_disable_irq_defers_handlers_until_enabled(hw):
    import machine
    seen = []
    pin = machine.Pin(13, machine.Pin.IN, machine.Pin.PULL_UP)
    pin.irq(lambda p: seen.append(1), machine.Pin.IRQ_FALLING)
    state = machine.disable_irq()
    hw.pins[13].press()
    assert seen == []
    machine.enable_irq(state)
    assert seen == [1]


def test_pins_outside_the_simulated_mcu_raise_valueerror(hw):
    import machine
    for bad in (64, -1, 100, "XY"):
        with pytest.raises(ValueError):
            machine.Pin(bad)


def test_uart_loopback_both_directions(hw):
    import machine
    uart = machine.UART(1, baudrate=9600, tx=machine.Pin(1), rx=machine.Pin(2), timeout=0)
    assert uart.any() == 0 and uart.read() is None and uart.readline() is None
    assert uart.write(b"hello\r\n") == 7
    assert uart.write("str") == 3
    port = hw.uarts[1].endpoint
    assert port.take() == b"hello\r\nstr"
    assert port.take() == b""
    port.feed(b"Ah\nKd\npartial")
    assert uart.any() == 13
    assert uart.readline() == b"Ah\n"
    buf = bytearray(2)
    assert uart.readinto(buf) == 2 and buf == b"Kd"
    assert uart.read(1) == b"\n"
    assert uart.readline() == b"partial"             # what arrived before the (zero) timeout
    assert uart.read() is None
    st = hw.uarts[1]
    assert (st.baudrate, st.tx, st.rx) == (9600, 1, 2)


def test_uart_rx_buffer_bounds_what_is_pulled_but_loses_nothing(hw):
    import machine
    uart = machine.UART(2, rxbuf=8)
    hw.port(2).feed(bytes(range(20)))
    assert uart.any() == 8
    got = b""
    while uart.any():
        got += uart.read()
    assert got == bytes(range(20))


def test_unknown_uart_and_i2c_ids_raise_valueerror(hw):
    import machine
    with pytest.raises(ValueError):
        machine.UART(8)
    with pytest.raises(ValueError):
        machine.I2C(4)
    with pytest.raises(ValueError):
        machine.WDT(1, timeout=100)


def test_uart_and_i2c_settings_are_checked_as_machine_checks_them(hw):
    # What a board file or a driver could get wrong is refused here too, the value named (bits 5..9, as
    # machine.UART's docs allow across ports; parity None, 0, 1; stop 1, 2; a baud rate and an I2C frequency
    # of at least 1).
    import machine
    for bad, said in (({"bits": 4}, "invalid bits 4"), ({"bits": 10}, "invalid bits 10"),
                      ({"parity": 2}, "invalid parity 2"), ({"stop": 3}, "invalid stop bits 3"),
                      ({"baudrate": 0}, "invalid baudrate 0")):
        with pytest.raises(ValueError, match=said):
            machine.UART(0, **bad)
    for bits in (5, 9):
        machine.UART(0, 9600, bits=bits)
    assert repr(machine.UART(1, 19200, tx=4, rx=5)) == "UART(1, baudrate=19200, tx=4, rx=5)"
    # As on a board: a UART made again without a baud rate keeps the one it was given; a new one runs at 115200.
    assert hw.uarts[1].baudrate == 19200 and (machine.UART(1), hw.uarts[1].baudrate)[1] == 19200
    assert (machine.UART(2), hw.uarts[2].baudrate)[1] == 115200
    with pytest.raises(ValueError, match="invalid freq 0"):
        machine.I2C(0, freq=0)
    machine.I2C(0, freq=1)


def test_the_simulated_mcus_limits_and_its_reset_as_a_board_has_them(hw):
    # The ids it has named in the error (the ranges the message lists), 7-bit I2C addresses only, the
    # RP2040's 125 MHz until set, interrupts on again after a reset.
    import machine
    with pytest.raises(ValueError, match=r"hostsim has UART 0-7\)"):
        machine.UART(8)
    with pytest.raises(ValueError, match=r"hostsim has I2C 0-3\)"):
        machine.I2C(4)
    assert hardware._ranges((0, 1, 2, 5, 7, 8)) == "0-2, 5, 7-8" and hardware._ranges((4,)) == "4"
    with pytest.raises(ValueError, match="0..127"):
        hw.attach_i2c(0, 128, object())
    hw.attach_i2c(0, 127, object())
    assert machine.freq() == 125000000
    machine.disable_irq()
    hw.reboot()
    assert hw.irq_enabled


def test_an_exception_inside_the_hardware_block_goes_on_out():
    # (`with hardware.install()` wraps tests' assertions: an __exit__ answering True would pass them all.)
    with pytest.raises(AssertionError, match="inside"):
        with hardware.install():
            raise AssertionError("inside")
    assert "machine" not in sys.modules              # uninstalled on the way out all the same


class Register:
    """A tiny register-file I2C device: write [reg, data...], read from the pointer."""

    def __init__(self):
        self.mem = bytearray(16)
        self.ptr = 0

    def i2c_write(self, data):
        if data:
            self.ptr = data[0]
            for i, b in enumerate(data[1:]):
                self.mem[self.ptr + i] = b

    def i2c_read(self, n):
        return bytes(self.mem[self.ptr:self.ptr + n])


def test_i2c_scan_transfers_and_memory_ops(hw):
    import machine
    dev = hw.attach_i2c(0, 0x50, Register())
    hw.attach_i2c(1, 0x51, Register())
    i2c = machine.I2C(0, scl=machine.Pin(21), sda=machine.Pin(20), freq=100000)
    assert i2c.scan() == [0x50]
    assert i2c.writeto(0x50, bytes([2, 7, 8])) == 3
    assert dev.mem[2:4] == b"\x07\x08"
    i2c.writeto_mem(0x50, 5, b"\x09")
    assert i2c.readfrom_mem(0x50, 2, 2) == b"\x07\x08"
    buf = bytearray(1)
    i2c.readfrom_mem_into(0x50, 5, buf)
    assert buf == b"\x09"
    assert i2c.readfrom(0x50, 1) == b"\x09"
    assert hw.i2c_buses[0]["freq"] == 100000


def test_i2c_absent_address_raises_enodev_like_micropython(hw):
    import machine
    i2c = machine.I2C(0)
    for call in (lambda: i2c.writeto(0x27, b"\x00"), lambda: i2c.readfrom(0x27, 1),
                 lambda: i2c.readfrom_mem(0x27, 0, 1)):
        with pytest.raises(OSError) as info:
            call()
        assert info.value.errno == errno.ENODEV == 19
        assert info.value.args[0] == 19


def test_watchdog_expires_on_the_virtual_clock(hw):
    import machine
    assert not hw.watchdog.started and not hw.watchdog.expired()
    wdt = machine.WDT(timeout=5000)
    hw.advance(4000)
    wdt.feed()
    hw.advance(5000)
    assert not hw.watchdog.expired()
    assert hw.watchdog.remaining_ms() == 0
    hw.advance(1)
    assert hw.watchdog.expired()
    with pytest.raises(SimReset) as info:
        hw.check_watchdog()
    assert info.value.cause == machine.WDT_RESET
    with pytest.raises(SimReset):
        wdt.feed()                                   # too late: the board has reset
    hw.reboot(info.value.cause)
    assert machine.reset_cause() == machine.WDT_RESET
    assert not hw.watchdog.started and hw.boots == 2


def test_reset_and_soft_reset_raise_simreset_which_except_exception_cannot_catch(hw):
    import machine
    assert machine.reset_cause() == machine.PWRON_RESET
    caught_by_firmware = []
    with pytest.raises(SimReset) as info:
        try:
            machine.reset()
        except Exception:                            # firmware-style recovery must not swallow it
            caught_by_firmware.append(1)
    assert caught_by_firmware == []
    assert info.value.cause == machine.HARD_RESET and not info.value.soft
    with pytest.raises(SimReset) as info:
        machine.soft_reset()
    assert info.value.soft


def test_simreset_escapes_an_asyncio_task_and_stops_the_loop(hw):
    import asyncio
    import machine

    async def worker():
        await asyncio.sleep(0)
        machine.reset()

    async def main():
        asyncio.ensure_future(worker())
        await asyncio.sleep(5)

    with pytest.raises(SimReset):
        asyncio.run(main())


def test_reboot_resets_the_mcu_but_not_what_is_attached(hw):
    import machine
    pin = machine.Pin(5, machine.Pin.OUT, value=1)
    uart = machine.UART(3)
    hw.port(3).feed(b"xyz")
    uart.any()
    machine.WDT(timeout=100)
    hw.attach_i2c(0, 0x20, Register())
    hw.reboot(machine.SOFT_RESET)
    assert pin.mode() == machine.Pin.IN and hw.pins[5].level == 0
    assert hw.uarts[3].rx_data == b"" and not hw.watchdog.started
    assert hw.i2c_device(0, 0x20) is not None
    assert machine.reset_cause() == machine.SOFT_RESET


def test_timers_fire_as_the_clock_advances(hw):
    import machine
    ticks = []
    periodic = machine.Timer(-1, mode=machine.Timer.PERIODIC, period=100,
                             callback=lambda t: ticks.append(("p", hw.clock.now_ms())))
    machine.Timer(-1, mode=machine.Timer.ONE_SHOT, period=250,
                  callback=lambda t: ticks.append(("o", hw.clock.now_ms())))
    hw.advance(99)
    assert ticks == []
    hw.advance(251)
    assert ticks == [("p", 100), ("p", 200), ("o", 250), ("p", 300)]
    periodic.deinit()
    hw.advance(1000)
    assert len(ticks) == 4
    fast = machine.Timer(freq=50, callback=lambda t: ticks.append("f"))
    hw.advance(100)
    assert ticks.count("f") == 5
    fast.deinit()


def test_misc_machine_functions(hw):
    import machine
    assert isinstance(machine.unique_id(), bytes) and len(machine.unique_id()) == 8
    machine.freq(48000000)
    assert machine.freq() == 48000000
    machine.idle()


def test_board_dict_opens_role_labelled_ports_and_lcds():
    import json
    with open("boards/sim.json") as f:
        board = json.load(f)
    with hardware.install(board=board) as hw:
        assert [(role, uid) for role, uid, _ in hw.port_paths()] == [
            ("shoe", 1), ("dice", 2), ("host", 3), ("console", 4), ("bets", 5)]
        assert hw.port("host") is hw.uarts[3].endpoint
        assert hw.i2c_device(0, 39).name == "dealer"
        assert hw.i2c_device(0, 38).name == "result"
    assert "machine" not in sys.modules


def test_install_rejects_an_unknown_port_kind():
    with pytest.raises(ValueError):
        hardware.install(ports="tcp")
    assert "machine" not in sys.modules


def test_host_can_drive_a_pin_before_the_firmware_configures_it(hw):
    import machine
    hw.pins[20].press()                              # e.g. a button held down at power-on
    assert machine.Pin(20, machine.Pin.IN, machine.Pin.PULL_UP).value() == 0
    with pytest.raises(ValueError):
        hw.pins[64]
