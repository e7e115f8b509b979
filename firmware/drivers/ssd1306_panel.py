# An SSD1306 OLED no game draws on (a Craps or Omaha table's), once firmware/drivers/ssd1306.py has set it up.
#
# A module of its own so that such a table keeps only this class: the SSD1306 driver (its framebuf subclass,
# the drawing and scrolling the Baccarat scoreboard uses) is released once the panel has taken the display over
# (firmware/game_setup.py, BLANK_OLED_RELEASED), ~0.4-0.7 KB of heap with the code in flash.

# The controller's I2C control byte for "display data follows" (Co = 0, D/C# = 1: datasheet 8.1.5), as the
# driver sends it.
_CONTROL_DATA = const(0x40)
_STATUS_OFF = const(0x40)            # the status byte's D6: the display is off
_DISPLAY_ON = b"\x00\xaf"           # commands follow: display on
_NOP = b"\x00\xe3"                  # commands follow: no operation
_STATUS = bytearray(1)              # lost_setup()'s read of the status byte


class Panel:
    """An SSD1306 no game draws on (a Craps or Omaha table's: no scoreboard), once SSD1306 has set it up: its
    picture is one colour only (the console's display test lights every pixel, then clears them), so it keeps
    no RAM image (the 1 KB an SSD1306 keeps, for the whole run). show() sends what SSD1306.show() sends for
    that picture, the same two transactions, the picture's as a vector (writevto: one transaction)."""

    def __init__(self, oled):
        self.i2c = oled.i2c
        self.addr = oled.addr
        self.width = oled.width
        self.height = oled.height
        self.pages = oled.pages
        self._window = oled._window
        self.transmits = oled.transmits
        self._colour = 0
        self.external_vcc = oled.external_vcc
        self.reads_status = oled.reads_status

    def init_display(self):
        """Set the controller up again (it lost its power: firmware/display_loss.py), as SSD1306 does: its
        setup, the picture blank, the glass on. OSError when nothing answers."""
        from firmware.drivers.ssd1306_geometry import setup_commands     # (released after boot: again, once)
        self.i2c.writeto(self.addr, setup_commands(self.width, self.height, self.external_vcc))
        self._colour = 0
        self.show()
        self.i2c.writeto(self.addr, _DISPLAY_ON)

    def lost_setup(self):
        """SSD1306.lost_setup(): True when the status byte says the display is off (it lost its power); else a
        no-op command. OSError when nothing answers."""
        if self.reads_status:
            self.i2c.readfrom_into(self.addr, _STATUS)
            return _STATUS[0] & _STATUS_OFF != 0
        self.i2c.writeto(self.addr, _NOP)
        return False

    def fill(self, colour):
        self._colour = 1 if colour else 0

    def show(self):
        self.i2c.writeto(self.addr, self._window)
        page = bytes((0xFF if self._colour else 0,)) * self.width      # (console paths only: made here)
        self.i2c.writevto(self.addr, (bytes((_CONTROL_DATA,)),) + (page,) * self.pages)
        self.transmits += 2
