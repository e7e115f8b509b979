# Card codes (shared by Baccarat and Omaha): parsing, canonical output, bad input.
from firmware import cards
from firmware.errors import CardCodeError
from tests.firmware.expect import raises


def test_round_trip_all_52():
    seen = set()
    for r in cards.RANKS:
        for s in cards.SUITS:
            c = cards.parse(r + s)
            assert cards.name(c) == r + s
            seen.add(c)
    assert seen == set(range(52))


def test_case_insensitive_and_ten():
    assert cards.name(cards.parse("td")) == "Td"
    assert cards.name(cards.parse("10D")) == "Td"
    assert cards.name(cards.parse("aS")) == "As"


def test_rank_and_suit():
    c = cards.parse("Kh")
    assert cards.RANKS[cards.rank(c)] == "K"
    assert cards.SUITS[cards.suit(c)] == "h"


def test_malformed_codes_rejected():
    for bad in ("", "1h", "Zz", "Ahh", "A", "Ax", "1 0h", None, 5):
        raises(CardCodeError, cards.parse, bad)
    raises(CardCodeError, cards.name, 52)
    raises(CardCodeError, cards.name, -1)
    raises(CardCodeError, cards.parse_many, "AhKd")
