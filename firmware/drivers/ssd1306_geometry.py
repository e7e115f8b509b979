# What the SSD1306 driver (firmware/drivers/ssd1306.py) can drive, without importing it.
#
# The driver imports `framebuf`, which the board validator must not need: make
# build validates boards on a plain CPython. So the limits live here, and both
# the driver and firmware/board.py ask these functions: one set of limits.

COLUMNS = const(128)                # the controller drives 128 segments; narrower glass uses the middle ones
MAX_ROWS = const(64)
# The modules a board may declare: the driver chooses the COM pin wiring from the
# shape (sequential when wider than twice the height, else alternative), which is
# right for these two, and the scoreboard lays out both (docs/scoreboard.md).
MODULES = ((128, 64), (128, 32))


def geometry_problem(width, height):
    """Why the driver cannot run a width x height panel, or None: whole 8-row pages within the RAM."""
    if not 1 <= width <= COLUMNS or height % 8 or not 8 <= height <= MAX_ROWS:
        return "unsupported SSD1306 geometry %dx%d" % (width, height)
    return None


def module_problem(width, height):
    """Why a board may not declare a width x height SSD1306 module, or None."""
    problem = geometry_problem(width, height)
    if problem is not None:
        return problem
    for module in MODULES:
        if module == (width, height):
            return None
    return "unsupported SSD1306 module %dx%d (%s)" % (width, height, ", ".join(["%dx%d" % m for m in MODULES]))
