# hostsim.neopixel: MicroPython's neopixel API over Adafruit's CircuitPython NeoPixel library (unmodified).
import importlib.metadata
import os
import sys

import pytest

from hostsim import hardware


@pytest.fixture
def hw():
    h = hardware.install()
    yield h
    hardware.uninstall()


def test_the_adafruit_library_itself_is_used_from_site_packages(hw):
    import machine
    import neopixel
    strip = neopixel.NeoPixel(machine.Pin(16), 4)
    lib = sys.modules["hostsim._adafruit_neopixel"]
    dist = importlib.metadata.distribution("adafruit-circuitpython-neopixel")
    assert os.path.samefile(lib.__file__, str(dist.locate_file("neopixel.py")))
    assert "site-packages" in lib.__file__
    assert lib.__version__ == dist.version == "6.4.2"
    assert type(strip.adafruit) is lib.NeoPixel
    import adafruit_pixelbuf
    assert isinstance(strip.adafruit, adafruit_pixelbuf.PixelBuf)
    assert "site-packages" in adafruit_pixelbuf.__file__
    assert strip.adafruit.auto_write is False
    assert isinstance(strip.adafruit.pin, sys.modules["digitalio"].DigitalInOut)


def test_grb_wire_bytes_arrive_at_neopixel_write_and_decode_to_rgb(hw):
    import machine
    import neopixel
    strip = neopixel.NeoPixel(machine.Pin(16), 3)
    strip[0] = (255, 0, 0)
    strip[1] = (0, 255, 0)
    strip[2] = (1, 2, 3)
    rec = hw.strip(16)
    assert rec.writes == 0                           # auto_write is off: nothing until write()
    strip.write()
    assert rec.writes == 1
    assert rec.raw == bytes([0, 255, 0, 255, 0, 0, 2, 1, 3])    # G R B per pixel
    assert rec.pixels() == [(255, 0, 0), (0, 255, 0), (1, 2, 3)]
    assert strip[2] == (1, 2, 3) and len(strip) == 3 and strip.n == 3
    assert bytes(strip.buf) == rec.raw               # MicroPython's .buf is the wire buffer


def test_fill_and_write_counts(hw):
    import machine
    import neopixel
    strip = neopixel.NeoPixel(machine.Pin(7), 76)
    strip.fill((10, 20, 30))
    strip.write()
    strip.write()
    rec = hw.strip(7)
    assert rec.writes == 2 and len(rec) == 76
    assert set(rec.pixels()) == {(10, 20, 30)}
    assert rec.pixel(75) == (10, 20, 30) and rec.pixel(76) is None
    assert hw.pins[7].mode == machine.Pin.OUT       # Adafruit's DigitalInOut made the pin an output


def test_rgbw_strip(hw):
    import machine
    import neopixel
    strip = neopixel.NeoPixel(machine.Pin(8), 2, bpp=4)
    strip[1] = (1, 2, 3, 4)
    strip.write()
    assert hw.strip(8).raw == bytes([0, 0, 0, 0, 2, 1, 3, 4])
    assert hw.strip(8).pixels() == [(0, 0, 0, 0), (1, 2, 3, 4)]


def test_bad_arguments(hw):
    import machine
    import neopixel
    with pytest.raises(ValueError):
        neopixel.NeoPixel(machine.Pin(8), 2, bpp=5)
    with pytest.raises(ValueError):
        neopixel.NeoPixel(70, 2)
    strip = neopixel.NeoPixel(machine.Pin(8), 2)
    with pytest.raises(IndexError):
        strip[2] = (1, 1, 1)


def test_firmware_zone_lights_drive_the_recorded_strip(hw):
    import machine
    import neopixel
    from firmware.drivers.pixels import RED, ZoneLights
    strip = neopixel.NeoPixel(machine.Pin(16), 10)
    lights = ZoneLights(strip, 10, [("player", [[0, 3]]), ("banker", [[4, 9]])])
    lights.set(lights.index("banker"), RED)
    assert lights.show()
    assert hw.strip(16).pixels() == [(0, 0, 0)] * 4 + [RED] * 6


def test_circuitpython_digitalio_shares_pins_with_machine(hw):
    import board
    import digitalio
    import machine
    io = digitalio.DigitalInOut(board.D9)
    io.switch_to_input(pull=digitalio.Pull.UP)
    assert io.value is True and machine.Pin(9).value() == 1
    hw.pins[9].press()
    assert io.value is False
    io.direction = digitalio.Direction.OUTPUT
    io.value = True
    assert hw.pins[9].mode == machine.Pin.OUT and hw.pins[9].out == 1
    with pytest.raises(AttributeError):
        io.pull = digitalio.Pull.DOWN
    io.deinit()
    with pytest.raises(ValueError):
        io.value


def test_adafruit_import_needs_microcontroller_module(hw):
    # Adafruit's neopixel.py annotates `pin: microcontroller.Pin`; hostsim provides the module.
    import microcontroller
    import board
    assert isinstance(board.NEOPIXEL, microcontroller.Pin) and board.NEOPIXEL.id == 16
