# Craps dice reports (dispatch 53/2010 arts. 2-3): validate what the dice reader saw, decide roll or no roll.
#
# A report is either a pair of faces (d1, d2) for a good throw, or a dict
#   {"dice": [d1, d2], "valid": bool, "flags": [...], "cocked": [die index, ...]}
# "valid": false or any invalid-throw flag -> no roll (the dice are thrown again, art. 3(2)-(3)):
#   "off_table"   a die left the layout                          art. 3(2)(1)
#   "short"       the dice did not pass the table's centre       art. 3(2)(2)
#   "wall"        ...but a die hit a wall: with "short", the throw stands (art. 3(2)(2) exception)
#   "not_rolled"  the dice did not roll on the table             art. 2(5), 3(3)
# "cocked": dice resting without a face flat; the reader reports the upper face with the larger
# visible area and the firmware uses it as read (art. 3(1)).
# A face outside 1..6 is impossible equipment (art. 1(2)): IntegrityError, an alarm, never a roll.
# In a no-roll report a face may be None (the reader could not see a die that left the layout).
from firmware.errors import IntegrityError

FLAGS = ("off_table", "short", "wall", "not_rolled")


class DiceError(IntegrityError):
    """A dice report the reader cannot have produced from two true dice: alarm, no roll."""


def _face(value, index, may_be_unread):
    if value is None and may_be_unread:
        return 0
    if isinstance(value, bool) or not isinstance(value, int) or value < 1 or value > 6:
        raise DiceError("die %d shows %r: a die face must be 1..6 (art. 1(2)); "
                        "dice reader fault, nothing decided" % (index + 1, value))
    return value


def check_report(report):
    """Validate one dice report.

    Returns (d1, d2, None) for a throw that counts, or (0, 0, reason) for a no-roll
    (reason names the article). Raises DiceError for an impossible report.
    """
    if type(report) is tuple and len(report) == 2:
        # The common report, a pair of faces: decided here without the general checks below.
        d1, d2 = report
        if type(d1) is int and type(d2) is int and 1 <= d1 <= 6 and 1 <= d2 <= 6:
            return (d1, d2, None)
    flags = ()
    cocked = ()
    valid = True
    if isinstance(report, dict):
        for key in report:
            if key not in ("dice", "valid", "flags", "cocked"):
                raise DiceError("unknown dice report field %r: expected dice, valid, flags, cocked" % (key,))
        if "dice" not in report:
            raise DiceError("dice report without \"dice\"")
        dice = report["dice"]
        valid = report.get("valid", True)
        if valid is not True and valid is not False:
            raise DiceError("dice report \"valid\" must be true or false, got %r" % (valid,))
        flags = report.get("flags", ())
        cocked = report.get("cocked", ())
        if not isinstance(flags, (list, tuple)):
            raise DiceError("dice report \"flags\" must be a list")
        if not isinstance(cocked, (list, tuple)):
            raise DiceError("dice report \"cocked\" must be a list of die indices")
    else:
        dice = report
    if not isinstance(dice, (list, tuple)) or len(dice) != 2:
        raise DiceError("a throw is two dice (art. 2(4)), got %r" % (dice,))
    for f in flags:
        if f not in FLAGS:
            raise DiceError("unknown dice flag %r: expected one of %s" % (f, ", ".join(FLAGS)))
    for c in cocked:
        if type(c) is not int or (c != 0 and c != 1):
            raise DiceError("cocked die index %r: expected 0 or 1" % (c,))
    reason = None
    if not valid:
        reason = "throw flagged invalid by the reader (art. 3(2))"
    elif "off_table" in flags:
        reason = "a die left the layout (art. 3(2)(1))"
    elif "short" in flags and "wall" not in flags:
        reason = "the dice did not pass the centre (art. 3(2)(2))"
    elif "not_rolled" in flags:
        reason = "the dice did not roll (art. 2(5), 3(3))"
    unread_ok = reason is not None
    d1 = _face(dice[0], 0, unread_ok)
    d2 = _face(dice[1], 1, unread_ok)
    if reason is not None:
        return (0, 0, reason)
    return (d1, d2, None)
