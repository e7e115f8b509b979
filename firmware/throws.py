# One dice throw as the THROW event carries it (firmware.events), and back to the Craps engine's report.
#
# The framed dice reader (firmware/drivers/dice_reader.py) posts a throw as two small ints, so the
# event queue stays allocation-free:
#   a = die1 * THROW_FACE_BASE + die2    a face 1..6, or UNREAD (0): the reader could not see that die
#   b = THROW_* bits                     what the reader saw (Craps arts. 2(5), 3)
# This module is the one place that knows that packing and the flags' words on the wire
# (docs/protocol.md, "Dice reader"). report(a, b) is the report of
# firmware.games.craps.dice.check_report, and the host report shows that same shape: one dice
# report from the reader to the engine to the report. Pure: no I/O, no clock.

# copies of firmware.events (tests/host/test_const_copies.py)
_THROW_COCKED1 = const(32)
_THROW_COCKED2 = const(64)
_THROW_FACE_BASE = const(8)
_THROW_INVALID = const(16)
_THROW_NOT_ROLLED = const(8)
_THROW_OFF_TABLE = const(1)
_THROW_SHORT = const(2)
_THROW_WALL = const(4)

UNREAD = const(0)
MAX_FACE = const(6)

# The flags in their one wire order, with their bits. The first four are the engine's flags
# (dice.FLAGS); "invalid" is the report's "valid": false (a no roll for a reason the reader
# does not name). Cocked dice are not flag words: a cocked die's face carries it ("5c").
FLAG_NAMES = ("off_table", "short", "wall", "not_rolled", "invalid")
# FLAG_NAMES' bytes, a literal (test_kept_literals encodes FLAG_NAMES and compares): one constant in flash
# when frozen; made at import the tuple and its five bytes objects kept 32 + 160 bytes of the heap in the
# VM (in ROMFS the tuple is still made in RAM at load, its bytes not; issue 14).
FLAG_WORDS = (b"off_table", b"short", b"wall", b"not_rolled", b"invalid")
FLAG_BITS = (_THROW_OFF_TABLE, _THROW_SHORT, _THROW_WALL, _THROW_NOT_ROLLED, _THROW_INVALID)
COCKED_BITS = (_THROW_COCKED1, _THROW_COCKED2)   # index: the die (0, 1), as the report's "cocked"
# const(): folded into the code (the private ones are no globals; issue 14)
ALL_BITS = const(_THROW_OFF_TABLE | _THROW_SHORT | _THROW_WALL | _THROW_NOT_ROLLED | _THROW_INVALID
                 | _THROW_COCKED1 | _THROW_COCKED2)
_ENGINE_FLAGS = const(4)                         # FLAG_NAMES[:4] go to the report's "flags"
_ALWAYS_NO_ROLL = const(_THROW_OFF_TABLE | _THROW_NOT_ROLLED | _THROW_INVALID)


def pack(d1, d2):
    """THROW's a for faces d1, d2 (each 1..6, or UNREAD)."""
    return d1 * _THROW_FACE_BASE + d2


def face(a, die):
    """Die 0 or 1's face from THROW's a: 1..6, or UNREAD."""
    return a // _THROW_FACE_BASE if die == 0 else a % _THROW_FACE_BASE


def no_roll(b):
    """True when these flags make the throw a no roll, as check_report decides (art. 3(2)-(3)):
    off the layout, not rolled, flagged invalid, or short without a die hitting a wall."""
    if b & _ALWAYS_NO_ROLL:
        return True
    return (b & _THROW_SHORT) != 0 and (b & _THROW_WALL) == 0


def report(a, b):
    """THROW's (a, b) -> {"dice": [d1, d2], "valid": bool, "flags": [...], "cocked": [die, ...]}.

    The Craps engine's report (check_report) and the host report's fields; an unread face is None.
    Faces are not judged here (a face over 6 reaches check_report, which refuses it); bits no
    flag has are a programming error: ValueError."""
    if a < 0 or a >= _THROW_FACE_BASE * _THROW_FACE_BASE or b < 0 or b & ~ALL_BITS:
        raise ValueError("not a THROW event: a=%r, b=%r" % (a, b))
    dice = [face(a, 0) or None, face(a, 1) or None]
    flags = [FLAG_NAMES[i] for i in range(_ENGINE_FLAGS) if b & FLAG_BITS[i]]
    cocked = [die for die in range(2) if b & COCKED_BITS[die]]
    return {"dice": dice, "valid": not b & _THROW_INVALID, "flags": flags, "cocked": cocked}


def engine_report(a, b):
    """What the Craps engine is given for THROW's (a, b): report(a, b), or for the common throw (both
    faces read, 1..6, no flag) the pair (d1, d2), which dice.check_report decides at once: the same
    answer without a dict and three lists built and checked for every throw."""
    if b == 0:
        d1 = a // _THROW_FACE_BASE
        d2 = a % _THROW_FACE_BASE
        if 1 <= d1 <= MAX_FACE and 1 <= d2 <= MAX_FACE:
            return (d1, d2)
    return report(a, b)
