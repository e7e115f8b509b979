# What the SSD1306 driver (firmware/drivers/ssd1306.py) can drive, and how it sets the controller up, without
# importing it.
#
# The driver imports `framebuf`, which the board validator must not need: make
# build validates boards on a plain CPython. So the limits live here, and both
# the driver and firmware/board.py ask these functions: one set of limits. Which
# modules a board may declare is the board file's check (firmware/board.py, boot-only).

COLUMNS = const(128)                # the controller drives 128 segments; narrower glass uses the middle ones
MAX_ROWS = const(64)


def setup_commands(width, height, external_vcc):
    """The controller's setup, one I2C transaction of commands (the display off while it is configured): what
    SSD1306.init_display() sends, and a Panel's (firmware/drivers/ssd1306_panel.py: the driver released)."""
    return bytes((
        0x00,                                   # control byte: commands follow
        0xAE,                                   # display off while configuring
        0x20, 0x00,                             # memory addressing horizontal: show() streams the window by rows
        0x40,                                   # display start line 0
        0xA1,                                   # segment remap and COM scan reversed: modules mount the glass so
        0xC8,                                   # that these two show the picture upright
        0xA8, height - 1,                       # multiplex ratio
        0xD3, 0x00,                             # display offset
        0xDA, 0x02 if width > 2 * height else 0x12,     # COM pins: sequential, alternative
        0xD5, 0x80,                             # display clock divide
        0xD9, 0x22 if external_vcc else 0xF1,   # pre-charge period
        0xDB, 0x30,                             # VCOMH deselect level: 0.83 * Vcc
        0x81, 0xFF,                             # contrast
        0xA4,                                   # follow the RAM (not every pixel on)
        0xA6,                                   # normal, not inverted
        0x8D, 0x10 if external_vcc else 0x14,   # charge pump off (external Vcc) or on
    ))


def geometry_problem(width, height):
    """Why the driver cannot run a width x height panel, or None: whole 8-row pages within the RAM."""
    if not 1 <= width <= COLUMNS or height % 8 or not 8 <= height <= MAX_ROWS:
        return "unsupported SSD1306 geometry %dx%d" % (width, height)
    return None

