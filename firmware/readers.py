# Text from the card shoe and dice reader lines -> events (or a fault event).
#
# Shoe line: a card code, optionally followed by "up" when the card left the
# shoe face up (still valid, Baccarat art. 4). Dice line: two faces "3 4", or
# "noroll <reason>" for a throw the reader flags invalid (Craps art. 3(2)).
#
# Lines are judged on their bytes, never on unicode str predicates: CPython's
# isdigit()/split()/strip() accept "²", Arabic-Indic digits and U+2003 blanks
# where MicroPython's do not, so the same line would be a roll on one runtime
# and a fault (or an exception) on the other. A reader speaks printable ASCII;
# any other byte makes the whole line a fault. A fault's b is 0 here: the
# input pass attaches the offending bytes (firmware.evidence) to the event.
from firmware import cards, faults
from firmware.compat import const
from firmware.errors import CardCodeError
from firmware.events import CARD, DICE, FAULT, NO_ROLL

NO_ROLL_REASONS = ("other", "off_table", "short", "not_rolled")

_TAB = const(9)               # tab, line feed and carriage return are the only control bytes
_LF = const(10)               # allowed: blanks both runtimes split on alike (a line given with
_CR = const(13)               # its terminator reads as without it)
_FIRST_PRINTABLE = const(32)  # space
_LAST_PRINTABLE = const(126)  # "~"


def _words(line):
    """bytes -> list of ASCII words, or None if any byte is neither printable ASCII nor a blank."""
    for ch in line:
        if ch > _LAST_PRINTABLE or (ch < _FIRST_PRINTABLE and ch != _TAB and ch != _LF and ch != _CR):
            return None
    return line.decode().split()        # ASCII only now: both runtimes split it alike


def _face(word):
    """The number an ASCII word of digits 0-9 spells; -1 for anything else (a sign, a letter)."""
    if not word:
        return -1
    for ch in word:
        if ch < "0" or ch > "9":
            return -1
    return int(word)


def card_event(line):
    """bytes -> (kind, a, b)."""
    words = _words(line)
    if not words or len(words) > 2 or (len(words) == 2 and words[1].lower() != "up"):
        return FAULT, faults.BAD_CARD, 0
    try:
        card = cards.parse(words[0])
    except CardCodeError:
        return FAULT, faults.BAD_CARD, 0
    return CARD, card, 1 if len(words) == 2 else 0


def dice_event(line):
    """bytes -> (kind, a, b); faces outside 1..6 and unknown no-roll reasons are faults, never a roll."""
    words = _words(line)
    if not words or len(words) != 2:
        return FAULT, faults.BAD_DICE, 0
    if words[0].lower() == "noroll":
        reason = words[1].lower()
        if reason not in NO_ROLL_REASONS:      # an unknown reason is a bad line, not a throw decision
            return FAULT, faults.BAD_DICE, 0
        return NO_ROLL, NO_ROLL_REASONS.index(reason), 0
    d1 = _face(words[0])
    d2 = _face(words[1])
    if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
        return FAULT, faults.BAD_DICE, 0
    return DICE, d1, d2
