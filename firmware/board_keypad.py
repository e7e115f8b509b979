# The board validator's keypad section: the dealer keypad's row and column pins and its key legends.
#
# Part of firmware/board.py's validation (the single authority): the rows and
# columns claim their pins in the board's one pin plan, so a keypad line can
# never share a pin with a button, a port, the I2C bus or the pixels.
from firmware.board_checks import fail as _fail
from firmware.board_checks import keys as _keys
from firmware.board_checks import shown as _shown

KEYPAD_KEYS = ("rows", "cols", "keys")
# Every legend a dealer keypad may carry (board files name their keys from these). Here, not in the driver
# (firmware/drivers/keypad.py, which scans keys by index): a table whose game reads no keypad never imports it.
LEGENDS = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "clear", "enter",
           "fold", "check", "call", "bet", "raise", "allin", "new", "button", "seat", "stack")
# A key held at reset joins a row to a column while the firmware drives neither: a line then is as low
# as whatever the chip's reset pulls put on the other (the ESP32-S3 pulls GPIO 45 and 46 down).
_KEY_HELD = "a key held joins it to another keypad line, which may be low then"
MAX_KEYPAD_LINES = 8       # rows, and columns: 64 keys is more than a dealer keypad carries
NO_KEY = ""                # a matrix position with no key fitted


def _count(value, what):
    return "%d %s" % (len(value), what) if isinstance(value, list) else _shown(value)


def check_keypad(name, spec, plan):
    """Rows and columns claim their pins like every other role; keys: a rows x cols grid of legends."""
    _keys(name, "keypad", spec, KEYPAD_KEYS, KEYPAD_KEYS)
    for line in ("rows", "cols"):
        pins = spec[line]
        if not isinstance(pins, list) or not 1 <= len(pins) <= MAX_KEYPAD_LINES:
            _fail(name, "keypad." + line, "expected a list of 1..%d pins, got %s" % (MAX_KEYPAD_LINES, _shown(pins)))
        for i in range(len(pins)):
            plan.claim("keypad.%s[%d]" % (line, i), pins[i], high_at_reset=line == "cols",   # (their pull-ups)
                       low_at_reset=_KEY_HELD)
    rows, cols = len(spec["rows"]), len(spec["cols"])
    grid = spec["keys"]
    if not isinstance(grid, list) or len(grid) != rows:
        _fail(name, "keypad.keys", "expected a list of %d rows (one per row pin), got %s"
              % (rows, _count(grid, "rows")))
    seen = []
    for r in range(rows):
        where = "keypad.keys[%d]" % r
        if not isinstance(grid[r], list) or len(grid[r]) != cols:
            _fail(name, where, "expected a list of %d legends (one per column pin), got %s"
                  % (cols, _count(grid[r], "legends")))
        for c in range(cols):
            legend = grid[r][c]
            if legend == NO_KEY and isinstance(legend, str):
                continue
            if not isinstance(legend, str) or legend not in LEGENDS:
                _fail(name, "%s[%d]" % (where, c), "unknown key legend %s (expected \"\" for no key, or %s)"
                      % (_shown(legend), ", ".join(LEGENDS)))
            if legend in seen:
                _fail(name, "%s[%d]" % (where, c), "key %s is already on the keypad" % _shown(legend))
            seen.append(legend)
    if not seen:
        _fail(name, "keypad.keys", "no key is fitted (every legend is \"\")")
