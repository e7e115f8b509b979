# The firmware's own board bring-up (firmware.hardware.bring_up) on hostsim's modules and the sim board.
import pytest

from firmware import board as board_mod
from firmware.hardware import bring_up
from hostsim import hardware


@pytest.fixture
def sim():
    board = board_mod.load("boards/sim.json")
    hw = hardware.install(board=board)
    yield hw, board
    hardware.uninstall()


def test_bring_up_builds_every_driver_on_the_simulated_board(sim):
    hw, board = sim
    import machine
    import neopixel
    fw = bring_up(board, "baccarat", machine, neopixel)
    assert fw.faults == []
    assert sorted(fw.displays) == ["dealer", "result", "scoreboard"]
    oled = hw.i2c_device(0, 60)
    assert oled.display_on and oled.charge_pump and oled.transactions >= 4    # the SSD1306 is initialised
    fw.displays["scoreboard"].fill_rect(0, 0, 8, 8, 1)
    fw.displays["scoreboard"].show()
    assert oled.pixels()[0][:8] == [1] * 8
    fw.displays["dealer"].show(["hello from bring_up"])
    assert hw.i2c_device(0, 39).lines()[0] == "hello from bring_up "
    fw.lights.set(fw.lights.index("tie"), (0, 60, 0))
    fw.lights.show()
    first, last = board.zones["baccarat"]["tie"][0]
    assert hw.strip(board.pixel_pin).pixels()[first:last + 1] == [(0, 60, 0)] * (last - first + 1)
    fw.ports["host"].write_line("report")
    assert hw.port("host").take() == b"report\r\n"
    hw.port("shoe").feed(b"Ah\n")
    assert fw.ports["shoe"].poll() == b"Ah"
    assert hw.watchdog.started and hw.watchdog.timeout_ms == board.watchdog_ms
    for role, pin in board.buttons:
        assert hw.pins[pin].mode == machine.Pin.IN and hw.pins[pin].level == 1   # pulled up, released


def test_a_missing_display_is_a_bring_up_fault_not_a_crash(sim):
    hw, board = sim
    import machine
    import neopixel
    hw.detach_i2c(0, 38)
    hw.detach_i2c(0, 60)
    fw = bring_up(board, "craps", machine, neopixel)
    assert sorted(fw.displays) == ["dealer"]
    assert [code for code, _, _ in fw.faults] == ["display_missing", "display_missing"]
    assert "scoreboard display at I2C address 60" in fw.faults[1][1]


def test_a_display_unplugged_while_running_raises_oserror_from_its_driver(sim):
    # What firmware.main.display_lost catches: the drivers' writes raise OSError when nothing answers any more
    # (machine.I2C's ENODEV), the LCD's and the OLED's alike.
    hw, board = sim
    import machine
    import neopixel
    fw = bring_up(board, "baccarat", machine, neopixel)
    hw.detach_i2c(0, 39)
    hw.detach_i2c(0, 60)
    with pytest.raises(OSError):
        fw.displays["dealer"].show(["unplugged"])
    with pytest.raises(OSError):
        fw.displays["scoreboard"].show()
    fw.displays["result"].show(["still here"])
    assert hw.i2c_device(0, 38).lines()[0].startswith("still here")
