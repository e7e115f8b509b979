# Shoe and dice lines -> events; garbage becomes a fault event, never a card or a roll.
#
# Reader lines are judged on their bytes: only printable ASCII is read, so the
# same line gives the same event on CPython and on MicroPython (whose str
# predicates and whitespace rules differ from CPython's for non-ASCII text).
from firmware import cards, faults
from firmware.events import CARD, DICE, FAULT, NO_ROLL
from firmware.readers import NO_ROLL_REASONS, card_event, dice_event

_BAD_CARD = (FAULT, faults.BAD_CARD, 0)
_BAD_DICE = (FAULT, faults.BAD_DICE, 0)


def test_card_lines():
    assert card_event(b"Kh") == (CARD, cards.parse("Kh"), 0)
    assert card_event(b"td up") == (CARD, cards.parse("Td"), 1)      # Baccarat art. 4: face up is valid
    assert card_event(b" Ah\tUP ") == (CARD, cards.parse("Ah"), 1)  # ASCII blanks separate words
    assert card_event(b"10s") == (CARD, cards.parse("Ts"), 0)
    assert card_event(b"Kh\r\n") == (CARD, cards.parse("Kh"), 0)   # a line given with its terminator


def test_bad_card_lines_are_faults():
    for line in (b"1x", b"", b"Kh Qd", b"Kh down", b"\xff\xfe", b"KKh", b"K", b"up"):
        assert card_event(line) == _BAD_CARD, line


def test_card_line_with_non_ascii_blank_is_a_fault_on_both_runtimes():
    # CPython's str.split()/strip() treat U+2003 and U+00A0 as blanks, MicroPython's do not:
    # decided on bytes, both runtimes refuse them.
    for text in ("Kh\u2003up", "\u00a0Kh", "Kh\u00a0", "K\u0335h"):
        assert card_event(text.encode()) == _BAD_CARD, text
    for line in (b"Kh\x00", b"\x0bKh", b"Kh\x1cup", b"Kh\x7f"):     # control bytes are not blanks
        assert card_event(line) == _BAD_CARD, line


def test_dice_lines():
    assert dice_event(b"3 4") == (DICE, 3, 4)
    assert dice_event(b"6\t1") == (DICE, 6, 1)
    assert dice_event(b"2 1\n") == (DICE, 2, 1)                      # hostsim.dice.to_line() form
    assert dice_event(b"noroll off_table") == (NO_ROLL, 1, 0)       # Craps art. 3(2)
    for reason in NO_ROLL_REASONS:
        assert dice_event(b"noroll " + reason.encode()) == (NO_ROLL, NO_ROLL_REASONS.index(reason), 0)
    assert dice_event(b"NoRoll SHORT") == (NO_ROLL, NO_ROLL_REASONS.index("short"), 0)


def test_unknown_noroll_reason_is_a_bad_line_not_a_no_roll():
    # Craps art. 3(2): only a reason the reader defines makes a throw invalid; anything else is garbage.
    assert dice_event(b"noroll whatever") == _BAD_DICE
    for line in (b"noroll", b"noroll short extra", b"noroll \xc3\xa9", b"noroll other_table", b"noroll 3"):
        assert dice_event(line) == _BAD_DICE, line


def test_bad_dice_are_faults_not_rolls():
    assert dice_event(b"3 7") == _BAD_DICE         # a die showing 7 (the bytes go with the fault report)
    assert dice_event(b"0 4") == _BAD_DICE
    for line in (b"34", b"3 4 5", b"a b", b"-1 3", b"+1 3", b"\x00\x01", b"99 3", b"", b"3 4\x00"):
        assert dice_event(line) == _BAD_DICE, line


def test_only_ascii_digits_are_faces():
    # Issue 8 item 1: CPython's str.isdigit() takes these, MicroPython's does not.
    assert dice_event("1 \u00b2".encode()) == _BAD_DICE      # "1 ²": int() raised on CPython
    assert dice_event("\u0663 4".encode()) == _BAD_DICE      # Arabic-Indic three: was a roll of 3 and 4
    for text in ("\uff13 4", "3 \u0664", "\u2463 1", "3\u20034", "\u00a03 4", "\U0001d7d1 2"):
        assert dice_event(text.encode()) == _BAD_DICE, text
