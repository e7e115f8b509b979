# Tables a kept module once built at import, now written as literals (issue 14: a literal is one
# constant in flash when the code is frozen or in ROMFS; a table built at import stays in the heap,
# docs/performance.md, "Memory kept"). Each test builds the table the old way and compares. Runs on
# MicroPython too.
from firmware import cards, device_frame
from firmware.drivers import shoe as shoe_mod
from firmware.drivers.shoe import Shoe
from firmware.evidence import Evidence
from firmware.statemachine import EventQueue


def test_the_hex_digit_table_is_the_one_the_decoder_built():
    table = bytearray(b"\xff" * 256)
    for i in range(10):
        table[48 + i] = i
    for i in range(6):
        table[65 + i] = 10 + i
    assert device_frame._HEX_VALUE == bytes(table) and isinstance(device_frame._HEX_VALUE, bytes)


class _CardFrame:
    def __init__(self, code):
        self.line = code + b" U"
        self.starts = [0, 3]
        self.ends = [2, 4]


def test_the_shoe_reads_every_byte_as_the_dicts_it_kept_did():
    """Every byte in the rank's place and in the suit's: the card firmware.cards spells, or -1."""
    rank_of = dict((ord(cards.RANKS[i]), i) for i in range(len(cards.RANKS)))
    suit_of = dict((ord(cards.SUITS[i]), i) for i in range(len(cards.SUITS)))
    shoe = Shoe(None, EventQueue(4), Evidence(slots=2, size=32))
    for byte in range(256):
        rank = rank_of.get(byte, -1)
        suit = suit_of.get(byte, -1)
        assert shoe._card(_CardFrame(bytes((byte, 104)))) == (rank * 4 + 2 if rank >= 0 else -1)
        assert shoe._card(_CardFrame(bytes((84, byte)))) == (8 * 4 + suit if suit >= 0 else -1)
    assert not hasattr(shoe_mod, "_RANK_OF") and isinstance(shoe_mod._RANK_AT, bytes)
