# Card codes: rank 23456789TJQKA + suit cdhs (e.g. "Td"), packed as one small int.
#
# card = rank_index * 4 + suit_index, rank_index 0 (deuce) .. 12 (ace),
# suit_index 0..3 for c d h s. Ints keep hands allocation-free on MicroPython.
from firmware.errors import CardCodeError, IntegrityError

RANKS = "23456789TJQKA"
SUITS = "cdhs"
DECK_SIZE = const(52)       # (const: name() and check() compare with the number, no global looked up)


def parse(code):
    """Card code (case-insensitive, "10" accepted for T) -> card int."""
    if not isinstance(code, str):
        raise CardCodeError("card code must be a string, got %r" % (code,))
    text = code.strip()
    if len(text) == 3 and text[:2] == "10":
        text = "T" + text[2]
    if len(text) != 2:
        raise CardCodeError("bad card code %r: expected rank 23456789TJQKA + suit cdhs" % (code,))
    r = RANKS.find(text[0].upper())
    s = SUITS.find(text[1].lower())
    if r < 0 or s < 0:
        raise CardCodeError("bad card code %r: expected rank 23456789TJQKA + suit cdhs" % (code,))
    return r * 4 + s


def parse_many(codes):
    if not isinstance(codes, (list, tuple)):
        raise CardCodeError("cards must be a list of card codes")
    return [parse(c) for c in codes]


def check(card):
    """Validate a card int (from a driver or a decoded frame) -> card.

    Anything but an int 0..51 is a card no deck holds: IntegrityError, an alarm
    (bool is not a card even though it is an int subclass: True would be 2d)."""
    if isinstance(card, bool) or not isinstance(card, int) or card < 0 or card >= DECK_SIZE:
        raise IntegrityError("bad card number %r: no card of a 52-card deck (expected 0..51)" % (card,))
    return card


# Every card's code, card = rank * 4 + suit: name() was a check and a concatenation, 8 us on the
# MicroPython VM, and reports, screens and recall name a round's cards several times each. Written
# out, not built at import: a tuple of string literals is a constant, which frozen or ROMFS code keeps
# in flash (built, it kept ~2 KB of heap: the tuple and 52 strings). tests/firmware/test_cards.py
# checks it against RANKS and SUITS.
_NAMES = (
    "2c", "2d", "2h", "2s", "3c", "3d", "3h", "3s", "4c", "4d", "4h", "4s", "5c",
    "5d", "5h", "5s", "6c", "6d", "6h", "6s", "7c", "7d", "7h", "7s", "8c", "8d",
    "8h", "8s", "9c", "9d", "9h", "9s", "Tc", "Td", "Th", "Ts", "Jc", "Jd", "Jh",
    "Js", "Qc", "Qd", "Qh", "Qs", "Kc", "Kd", "Kh", "Ks", "Ac", "Ad", "Ah", "As",
)


def name(card):
    """Card int -> canonical code, e.g. 'Td'."""
    if type(card) is int and 0 <= card < DECK_SIZE:
        return _NAMES[card]
    return _NAMES[check(card)]          # raises for anything but a card (an int subclass passes)


def names(cards):
    # name() of each, its test in line (a hand's names in a report: no call a card)
    return [_NAMES[c] if type(c) is int and 0 <= c < DECK_SIZE else _NAMES[check(c)] for c in cards]


def rank(card):
    """0 (deuce) .. 12 (ace)."""
    return card >> 2


def suit(card):
    """0..3 for c d h s."""
    return card & 3
