# Shoe and dice lines -> events; garbage becomes a fault event, never a card or a roll.
from firmware import cards, faults
from firmware.events import CARD, DICE, FAULT, NO_ROLL
from firmware.readers import card_event, dice_event


def test_card_lines():
    assert card_event(b"Kh") == (CARD, cards.parse("Kh"), 0)
    assert card_event(b"td up") == (CARD, cards.parse("Td"), 1)      # Baccarat art. 4: face up is valid


def test_bad_card_lines_are_faults():
    for line in (b"1x", b"", b"Kh Qd", b"Kh down", b"\xff\xfe", b"KKh"):
        assert card_event(line) == (FAULT, faults.BAD_CARD, 0), line


def test_dice_lines():
    assert dice_event(b"3 4") == (DICE, 3, 4)
    assert dice_event(b"noroll off_table") == (NO_ROLL, 1, 0)       # Craps art. 3(2)
    assert dice_event(b"noroll whatever")[0] == NO_ROLL


def test_bad_dice_are_faults_not_rolls():
    assert dice_event(b"3 7") == (FAULT, faults.BAD_DICE, 37)         # a die showing 7
    assert dice_event(b"0 4") == (FAULT, faults.BAD_DICE, 4)
    for line in (b"34", b"3 4 5", b"a b", b"-1 3", b"\x00\x01", b"99 3"):
        assert dice_event(line)[0] == FAULT, line
