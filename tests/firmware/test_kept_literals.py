# Tables a kept module once built at import, now written as literals (issue 14: a literal is one
# constant in flash when the code is frozen or in ROMFS; a table built at import stays in the heap,
# docs/performance-log.md, "Memory kept"). Each test builds the table the old way and compares. Runs on
# MicroPython too.
from firmware import cards, device_frame, faults, host_port, throws
from firmware.games.baccarat import payouts, roads, rules
from firmware.games.baccarat import screens as baccarat_screens
from firmware.games.baccarat import settings as baccarat_settings
from firmware.games.omaha import betting as omaha_betting, codes, rules as omaha_rules
from firmware.games.omaha import controller as omaha_controller, recall as omaha_recall
from firmware.games.omaha import screens as omaha_screens, settings as omaha_settings
from firmware.drivers import shoe as shoe_mod
from firmware.drivers.shoe import Shoe
from firmware.evidence import Evidence
from firmware.link import frame as link_frame
from firmware.statemachine import EventQueue


def test_the_hex_digit_table_is_the_one_the_decoder_built():
    table = bytearray(b"\xff" * 256)
    for i in range(10):
        table[48 + i] = i
    for i in range(6):
        table[65 + i] = 10 + i
    assert device_frame._HEX_VALUE == bytes(table) and isinstance(device_frame._HEX_VALUE, bytes)


def test_the_crc_tables_are_the_table_the_decoder_built():
    # The CRC-16/CCITT-FALSE table as firmware/device_frame.py built it at import (an array("H")), split
    # into its high and low bytes; and the CRC of the catalogued check string through them.
    for i in range(256):
        crc = i << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        crc &= 0xFFFF
        assert device_frame._CRC_HI[i] == crc >> 8 and device_frame._CRC_LO[i] == crc & 0xFF, i
    assert isinstance(device_frame._CRC_HI, bytes) and isinstance(device_frame._CRC_LO, bytes)
    assert len(device_frame._CRC_HI) == len(device_frame._CRC_LO) == 256
    assert device_frame.crc16(b"123456789") == 0x29B1


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


def test_baccarat_values_are_art5s_points_by_rank():
    """Baccarat art. 5: tens and pictures count 0, the ace 1, the others their face value."""
    points = bytearray()
    for rank in cards.RANKS:
        points.append(1 if rank == "A" else (0 if rank in "TJQK" else int(rank)))
    assert rules.VALUES == bytes(points) and isinstance(rules.VALUES, bytes)


def test_baccarat_tables_are_the_ones_built_from_their_sources():
    assert roads._DERIVED_K == bytes(k for _name, k in roads.DERIVED)
    assert baccarat_settings.SETTING_NAMES == tuple(spec[0] for spec in baccarat_settings.SETTINGS_SPEC)
    # const() names are module attributes on CPython only (MicroPython folds them into the code): the
    # values are the source's, so checking them here checks them for both.
    if hasattr(payouts, "_TIE_ZONE"):
        assert (payouts._TIE_ZONE, payouts._PLAYER_PAIR_ZONE, payouts._BANKER_PAIR_ZONE) == (
            payouts.ZONES.index("tie"), payouts.ZONES.index("player_pair"), payouts.ZONES.index("banker_pair"))


def test_baccarat_alarm_prompts_are_the_dict_they_were():
    old = {
        faults.CARD_IMPOSSIBLE: ("FOREIGN CARD", "HOLD VOID: VOID"),
        faults.CARD_UNREADABLE: ("UNREADABLE CARD", "RESCAN OR HOLD VOID"),
        faults.DOUBLE_PULL: ("DOUBLE PULL", "CONFIRM: DEAL IT ON"),
        faults.CARD_OUT_OF_ORDER: ("CARD OUT OF ORDER", "CONFIRM: DISCARD"),
        faults.SHOE_REMOVED: ("SHOE REMOVED", "CONFIRM OR HOLD VOID"),
        faults.LINK_BACKLOG: ("NO ROUND: HOST AWAY", "CONFIRM: DEAL IT"),
    }
    assert len(baccarat_screens._PROMPT_FAULTS) == len(baccarat_screens._PROMPTS) == len(old)
    for i in range(len(old)):
        assert old[baccarat_screens._PROMPT_FAULTS[i]] == baccarat_screens._PROMPTS[i]


def test_the_throw_flags_words_are_their_names_encoded():
    assert throws.FLAG_WORDS == tuple(name.encode() for name in throws.FLAG_NAMES)
    bits = 0
    for bit in throws.FLAG_BITS + throws.COCKED_BITS:
        bits |= bit
    assert throws.ALL_BITS == bits


def test_the_host_ports_noise_is_the_link_frames_noise():
    assert host_port._NOISE == (link_frame.TRUNCATED, link_frame.NO_START, link_frame.TOO_LONG, link_frame.BAD_CRC)


def test_omaha_tuples_are_their_names():
    B = omaha_betting
    assert B.ACTIONS == (B.FOLD, B.CHECK, B.CALL, B.BET, B.RAISE)
    S = omaha_settings
    assert S.STRUCTURES == (S.POT_LIMIT, S.NO_LIMIT)
    assert S.ODD_CHIP_RULES == (S.ODD_CHIP_CROUPIER, S.ODD_CHIP_BUTTON)
    assert S.HEADS_UP_RULES == (S.HEADS_UP_NO_RAISE_CAP, S.HEADS_UP_NO_LIMIT)


def test_omaha_action_keys_and_letters_are_the_dicts_they_were():
    R = omaha_rules
    words = {codes.K_FOLD: R.FOLD, codes.K_CHECK: R.CHECK, codes.K_CALL: R.CALL, codes.K_BET: R.BET,
             codes.K_RAISE: R.RAISE}
    assert len(omaha_controller._ACTION_WORDS) == len(words)
    for key in words:
        assert omaha_controller._ACTION_WORDS[key - codes.K_FOLD] == words[key]
    letters = {"fold": "f", "check": "x", "call": "c", "bet": "b", "raise": "r"}
    assert len(omaha_recall._ACTS) == len(omaha_recall._LETTERS) == len(letters)
    for i in range(len(letters)):
        assert letters[omaha_recall._ACTS[i]] == omaha_recall._LETTERS[i]


def test_omaha_alarm_prompts_are_the_dict_they_were():
    old = {
        faults.CARD_OUT_OF_ORDER: ("CARD OUT OF ORDER", "CONFIRM: DISCARD"),
        faults.CARD_IMPOSSIBLE: ("CARD SEEN TWICE", "HOLD VOID: MISDEAL"),
        faults.CARD_UNREADABLE: ("UNREADABLE CARD", "RESCAN OR HOLD VOID"),
        faults.CARD_MISSING: ("CARD MISSING", "RESCAN OR CONFIRM"),
    }
    assert len(omaha_screens._PROMPT_FAULTS) == len(omaha_screens._PROMPTS) == len(old)
    for i in range(len(old)):
        assert old[omaha_screens._PROMPT_FAULTS[i]] == omaha_screens._PROMPTS[i]


def test_the_games_state_names_begin_with_the_tables():
    from firmware.games.baccarat.controller import BaccaratTable
    from firmware.table import Table
    assert BaccaratTable.STATE_NAMES == Table.STATE_NAMES + ("burning", "betting", "dealing", "shoe_closed")
    assert omaha_controller.OmahaTable.STATE_NAMES == Table.STATE_NAMES + ("dealing", "betting")
