# What the SSD1306 driver (firmware/drivers/ssd1306.py) can drive, without importing it.
#
# The driver imports `framebuf`, which the board validator must not need: make
# build validates boards on a plain CPython. So the limits live here, and both
# the driver and firmware/board.py ask these functions: one set of limits. Which
# modules a board may declare is the board file's check (firmware/board.py, boot-only).

COLUMNS = const(128)                # the controller drives 128 segments; narrower glass uses the middle ones
MAX_ROWS = const(64)


def geometry_problem(width, height):
    """Why the driver cannot run a width x height panel, or None: whole 8-row pages within the RAM."""
    if not 1 <= width <= COLUMNS or height % 8 or not 8 <= height <= MAX_ROWS:
        return "unsupported SSD1306 geometry %dx%d" % (width, height)
    return None

