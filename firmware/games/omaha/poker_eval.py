# Five-card poker hand evaluator (Omaha arts. 14-15): rank bit arithmetic, no lookup tables.
#
# A hand's value is one small int: category << 26 | high << 13 | low, where
# `high` and `low` are 13-bit rank masks (bit r set = rank r, 0 = deuce ..
# 12 = ace). Higher value beats lower, equal values tie, and over all
# 2,598,960 hands there are exactly 7,462 distinct values (the poker classes).
#
# Why it works without tables: with b_i = 1 << rank of card i and c_r the
# number of cards of rank r,
#   s = b0+b1+b2+b3+b4          sum over ranks of c_r * bit
#   x = b0^b1^b2^b3^b4          ranks present an odd number of times (1 or 3)
#   g = (s - x) >> 1            sum over ranks of (c_r // 2) * bit: a pair's or
#                               trips' rank once, quads' as the bit above them
# and these separate every pattern of rank counts:
#   s == x                      five distinct ranks (g = 0): straight/flush/high card, value by x
#   x & g == 0, x has 2+ bits   one pair (g), kickers x
#   x & g == 0, g has 2 bits    two pair (g), kicker x
#   x & g == 0, otherwise       four of a kind (g >> 1), kicker x
#   x == g                      four of a kind (g >> 1) with the kicker just above it
#   g has 2 bits                full house: trips x (odd), pair g - x
#   otherwise                   three of a kind (g), kickers x - g
# (firmware/games/omaha/hand_value.py runs the same counts as or/sum/xor inline: see there.)
# For ranks that are all distinct, comparing 13-bit masks as integers compares
# the cards from the highest down (art. 15(5),(10)); for a pair or trips the
# `high` mask decides first, then the kickers in `low` (art. 15(3)-(9)).
# Suits never rank (art. 14(1)); the ace is low only in 5-4-3-2-A (art. 14(3)).
#
# Every value fits a MicroPython small int (< 2**30): no heap allocation.
# RAM: no tables beyond a 52-entry tuple; see docs/omaha.md for the measured
# import cost.

HIGH_CARD = 0
ONE_PAIR = 1
TWO_PAIR = 2
THREE_OF_A_KIND = 3
STRAIGHT = 4
FLUSH = 5
FULL_HOUSE = 6
FOUR_OF_A_KIND = 7
STRAIGHT_FLUSH = 8

# Index = category number. A royal flush is the top straight flush (art. 15(1)).
CATEGORY_NAMES = (
    "high_card",
    "one_pair",
    "two_pair",
    "three_of_a_kind",
    "straight",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
)

CATEGORY_SHIFT = 26
HIGH_SHIFT = 13
WHEEL = 0x100F  # A-5-4-3-2 rank mask: the lowest straight (art. 14(3))
_WHEEL_VALUE = const(0xF)  # below every other straight's mask (lowest is 0x1F)
_LOW_MASK = const(0x1FFF)   # (const: folded in, no global; issue 14)

from firmware.cards import check, name
from firmware.errors import CardCodeError

# card int -> 1 << rank_index (firmware/cards.py: rank_index = card >> 2), written out: a tuple of
# literals is a constant, in flash with frozen or ROMFS code (built at import it stayed in the heap);
# tests/firmware/test_poker_eval.py checks it against that formula.
RANK_BIT = (
    1, 1, 1, 1, 2, 2, 2, 2, 4, 4, 4, 4, 8, 8, 8, 8,
    16, 16, 16, 16, 32, 32, 32, 32, 64, 64, 64, 64, 128, 128, 128, 128,
    256, 256, 256, 256, 512, 512, 512, 512, 1024, 1024, 1024, 1024, 2048, 2048, 2048, 2048,
    4096, 4096, 4096, 4096,
)


# Straight rank masks, the wheel's too (five consecutive bits, or A-5-4-3-2).
STRAIGHTS = set(0x1F << low for low in range(9)) | {WHEEL}


def evaluate(cards, _bit=RANK_BIT, _straights=STRAIGHTS):
    """Five card ints (any sequence) -> hand value (higher beats lower, equal ties).

    The hot path: it trusts its input. Cards from outside (a reader, a request)
    go through check_hand() first, which refuses anything but 5 distinct 0..51.
    Its cases come in the order of how often they come: five distinct ranks (50 % of
    hands), then one or two pairs (47 %), then the rest."""
    c0, c1, c2, c3, c4 = cards
    b0 = _bit[c0]
    b1 = _bit[c1]
    b2 = _bit[c2]
    b3 = _bit[c3]
    b4 = _bit[c4]
    s = b0 + b1 + b2 + b3 + b4
    x = b0 ^ b1 ^ b2 ^ b3 ^ b4
    if s == x:
        # Five distinct ranks (art. 15(2),(5),(6),(10)); suit = card & 3. Most hands show a second
        # suit by the second or third card, so the test stops at the first card of another suit.
        if (c0 ^ c1) & 3 or (c0 ^ c2) & 3 or (c0 ^ c3) & 3 or (c0 ^ c4) & 3:
            if x in _straights:
                return 0x10000000 | x if x != WHEEL else 0x1000000F  # straight; the wheel 5-high (art. 14(3))
            return x  # high card
        if x in _straights:
            return 0x20000000 | x if x != WHEEL else 0x2000000F  # straight flush; 5-high
        return 0x14000000 | x  # flush
    # category << 26 | high << 13 | low written as + and *: the fields never overlap, and CPython
    # specialises int + and *, not | and << (the five-card bench against treys, issue 14).
    g = (s - x) >> 1
    if not x & g:
        if x & (x - 1):
            return 0x4000000 + g * 8192 + x  # one pair (art. 15(9)), three kickers
        if g & (g - 1):
            return 0x8000000 + g * 8192 + x  # two pair (art. 15(8)), one kicker
        return 0x1C000000 + g * 4096 + x  # four of a kind (art. 15(3)): its rank is g >> 1
    if x == g:
        return 0x1C000000 + g * 4096 + x  # four of a kind, the kicker the rank just above
    if g & (g - 1):
        return 0x18000000 + x * 8192 + g - x  # full house (art. 15(4)): trips x, pair g - x
    return 0xC000000 + g * 8192 + x - g  # three of a kind (art. 15(7)), kickers x - g


def check_hand(cards):
    """Validate five distinct card ints (for callers outside the hot path)."""
    if not isinstance(cards, (list, tuple)) or len(cards) != 5:
        raise CardCodeError("a poker hand is exactly 5 cards")
    seen = 0
    for c in cards:
        check(c)
        if seen >> c & 1:
            raise CardCodeError("card %s appears twice in the hand" % name(c))
        seen |= 1 << c
    return cards


def category(value):
    """Hand value -> category number (HIGH_CARD .. STRAIGHT_FLUSH)."""
    return value >> CATEGORY_SHIFT


def category_name(value):
    """Hand value -> category name, e.g. 'full_house'."""
    return CATEGORY_NAMES[value >> CATEGORY_SHIFT]


# --- Dense strength 1..7462 (for displays, reports and the judge; not a hot path) ---
# 1 = 7-5-4-3-2 high card, 7462 = royal flush; the order is that of the values.
# Classes below each category: high card 1277, one pair 2860, two pair 858,
# three of a kind 858, straight 10, flush 1277, full house 156, four 156.
_CLASSES_BELOW = (0, 1277, 4137, 4995, 5853, 5863, 7140, 7296, 7452)
_STRAIGHT_MASKS = (0x100F, 0x1F, 0x3E, 0x7C, 0xF8, 0x1F0, 0x3E0, 0x7C0, 0xF80, 0x1F00)


def _comb(n, k):
    if k < 0 or k > n:
        return 0
    r = 1
    for i in range(k):
        r = r * (n - i) // (i + 1)
    return r


def _popcount(mask):
    n = 0
    while mask:
        mask &= mask - 1
        n += 1
    return n


def _colex(mask):
    # Rank of a k-subset of bit positions among all k-subsets, in the order of
    # the masks as integers (colexicographic): sum of C(position, i).
    r = 0
    i = 0
    pos = 0
    while mask:
        if mask & 1:
            i += 1
            r += _comb(pos, i)
        mask >>= 1
        pos += 1
    return r


def _squeeze(low, high):
    # Drop the bit positions taken by `high` from `low` (kickers among the ranks left).
    out = 0
    j = 0
    for pos in range(13):
        bit = 1 << pos
        if high & bit:
            continue
        if low & bit:
            out |= 1 << j
        j += 1
    return out


def strength(value):
    """Hand value -> its class number 1..7462 (7462 = royal flush), same order."""
    cat = value >> CATEGORY_SHIFT
    high = (value >> HIGH_SHIFT) & _LOW_MASK
    low = value & _LOW_MASK
    if cat == STRAIGHT or cat == STRAIGHT_FLUSH:
        index = 0 if low == _WHEEL_VALUE else _popcount((low & -low) - 1) + 1
    elif cat == HIGH_CARD or cat == FLUSH:
        index = _colex(low)
        for s in _STRAIGHT_MASKS:
            if s < low:
                index -= 1
    else:
        left = 13 - _popcount(high)
        index = _colex(high) * _comb(left, _popcount(low)) + _colex(_squeeze(low, high))
    return _CLASSES_BELOW[cat] + index + 1
