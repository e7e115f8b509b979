# Card codes (shared by Baccarat and Omaha): parsing, canonical output, bad input.
from firmware import cards
from firmware.errors import CardCodeError, IntegrityError
from tests.firmware.expect import count_calls, raises


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
    raises(CardCodeError, cards.parse_many, "AhKd")


def test_card_number_outside_the_deck_is_an_integrity_alarm():
    """A card int comes from a reader: anything but 0..51 is a card no deck holds.
    bool is an int subclass but never a card (True would read as 2d)."""
    for bad in (52, -1, True, False, 1.0, "1", None, [1], 2 ** 40, -2 ** 40):
        raises(IntegrityError, cards.check, bad)
        raises(IntegrityError, cards.name, bad)
    assert cards.check(0) == 0 and cards.check(51) == 51


def test_names_are_name_of_each_card_without_a_call_a_card_and_refuse_what_name_refuses():
    # names() tests each card in line (a report names a hand's cards): the same codes as name(), the
    # same refusal of anything but a card 0..51 (bool, float, out of the deck), no call of name().
    calls, name = count_calls(cards, "name")
    try:
        assert cards.names(list(range(52))) == [name(c) for c in range(52)]
        assert cards.names(()) == [] and cards.names((51, 0)) == ["As", "2c"]
        for bad in (52, -1, True, False, 1.0, "1", None, 2 ** 40):
            raises(IntegrityError, cards.names, [0, bad, 1])
    finally:
        cards.name = name
    assert calls[0] == 0
