# Text from the card shoe and dice reader lines -> events (or a fault event).
#
# Shoe line: a card code, optionally followed by "up" when the card left the
# shoe face up (still valid, Baccarat art. 4). Dice line: two faces "3 4", or
# "noroll <reason>" for a throw the reader flags invalid (Craps art. 3(2)).
from firmware import cards, faults
from firmware.errors import CardCodeError
from firmware.events import CARD, DICE, FAULT, NO_ROLL

NO_ROLL_REASONS = ("other", "off_table", "short", "not_rolled")


def card_event(line):
    """bytes -> (kind, a, b)."""
    try:
        words = line.decode().split()
    except UnicodeError:
        return FAULT, faults.BAD_CARD, 0
    if not words or len(words) > 2 or (len(words) == 2 and words[1].lower() != "up"):
        return FAULT, faults.BAD_CARD, 0
    try:
        card = cards.parse(words[0])
    except CardCodeError:
        return FAULT, faults.BAD_CARD, 0
    return CARD, card, 1 if len(words) == 2 else 0


def dice_event(line):
    """bytes -> (kind, a, b); faces outside 1..6 are a fault, never a roll."""
    try:
        words = line.decode().split()
    except UnicodeError:
        return FAULT, faults.BAD_DICE, 0
    if len(words) == 2 and words[0].lower() == "noroll":
        reason = words[1].lower()
        return NO_ROLL, NO_ROLL_REASONS.index(reason) if reason in NO_ROLL_REASONS else 0, 0
    if len(words) != 2 or not (words[0].isdigit() and words[1].isdigit()):
        return FAULT, faults.BAD_DICE, 0
    d1 = int(words[0])
    d2 = int(words[1])
    if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
        return FAULT, faults.BAD_DICE, d1 * 10 + d2 if d1 < 10 and d2 < 10 else 0
    return DICE, d1, d2
