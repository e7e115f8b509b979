# Omaha best hand, art. 10(1): exactly two hole cards and exactly three board cards.
import sys
from array import array

from firmware import cards
from firmware.compat import heap_lock, heap_unlock, native_arch
from firmware.errors import CardCodeError, IntegrityError
from firmware.games.omaha import hand_value as hv
from firmware.games.omaha import poker_eval as pe
from firmware.games.omaha.hand_value import BOARD_TRIPLES, HOLE_PAIRS, best_hand, best_value, check_cards, prepare_board
from tests.firmware.expect import heap_lock_catches_allocation, micropython_only, raises, raises_match


def best(hole, board):
    h = cards.parse_many(hole.split())
    b = cards.parse_many(board.split())
    value, five = best_hand(h, b)
    assert best_value(h, prepare_board(b)) == value
    return pe.category_name(value), cards.names(five), value


def test_art10_1_four_suited_hole_cards_and_one_on_board_is_not_a_flush():
    name, _, _ = best("Ah Kh Qh Jh", "2h 3c 7d 9s Tc")
    assert name == "high_card"


def test_art10_1_two_suited_hole_cards_and_three_on_board_is_a_flush():
    name, five, _ = best("Ah Kh 2c 3d", "4h 7h 9h Ts Js")
    assert name == "flush"
    assert five == ["Ah", "Kh", "4h", "7h", "9h"]


def test_art10_1_board_flush_needs_two_hole_cards_of_the_suit():
    # five spades on the board, one spade in hand: no flush
    name, _, _ = best("As Kd Qc Jh", "2s 5s 7s 9s Ts")
    assert name != "flush"
    assert best("As Kd Qs Jh", "2s 5s 7s 9s Ts")[0] == "flush"


def test_art10_1_board_straight_is_not_played_alone():
    # board 5-6-7-8-9, hole A A K K: only two board-free ranks, no straight
    name, _, _ = best("Ac Ad Kc Kd", "5h 6s 7d 8c 9h")
    assert name == "one_pair"


def test_art10_1_board_quads_give_only_a_full_house():
    name, five, _ = best("2c 2d 3c 4d", "Ac Ad Ah As Kc")
    assert name == "full_house"
    assert five[:2] == ["2c", "2d"]


def test_art10_1_three_of_a_kind_in_hand_counts_as_a_pair():
    name, _, _ = best("Kc Kd Kh 2s", "7c 8d 9h Js 3c")
    assert name == "one_pair"


def test_art14_3_wheel_in_omaha():
    name, five, value = best("Ac 2d Kh Ks", "3c 4d 5h Qs Jd")
    assert name == "straight"
    assert pe.strength(value) == 5854  # the lowest straight


def test_best_value_is_the_max_of_the_60_combinations():
    hole = cards.parse_many("9c Td 2s 3d".split())
    board = cards.parse_many("Jh Qc Kd 8h 4s".split())
    values = [pe.evaluate((hole[i], hole[j], board[a], board[b], board[c]))
              for i, j in HOLE_PAIRS for a, b, c in BOARD_TRIPLES]
    assert len(values) == 60
    assert best_value(hole, prepare_board(board)) == max(values)
    assert pe.category_name(max(values)) == "straight"


def test_many_deals_fast_path_matches_plain_evaluator():
    # a fixed pseudo-random sequence (no randomness inside the engine)
    seed = 12345
    for _ in range(25):
        deck = list(range(52))
        for i in range(51, 0, -1):
            seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
            j = seed % (i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        hole, board = deck[:4], deck[4:9]
        assert best_value(hole, prepare_board(board)) == best_hand(hole, board)[0]


def test_bad_card_sets_refused():
    raises_match(CardCodeError, "4 hole", check_cards, [1, 2, 3], [4, 5, 6, 7, 8])
    raises_match(CardCodeError, "5 cards", check_cards, [1, 2, 3, 4], [5, 6, 7, 8])
    raises_match(CardCodeError, "twice", check_cards, [1, 2, 3, 4], [4, 5, 6, 7, 8])
    raises_match(CardCodeError, "twice", best_hand, [1, 1, 3, 4], [9, 5, 6, 7, 8])


def test_art10_1_card_number_outside_the_deck_is_an_alarm():
    for bad in (52, -1, True, False, 3.0, "Ah"):
        raises(IntegrityError, best_hand, [bad, 2, 3, 4], [9, 5, 6, 7, 8])
        raises(IntegrityError, check_cards, [1, 2, 3, 4], [9, 5, 6, 7, bad])


# --- the viper pair (firmware/games/omaha/hand_value_viper.py): a board's showdown -------------------------

def _deals(n, seed):
    out = []
    for _ in range(n):
        deck = list(range(52))
        for i in range(51, 0, -1):
            seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
            j = seed % (i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        out.append(([deck[4 * p:4 * p + 4] for p in range(10)], deck[40:45]))
    return out


# One hand of each category (and the wheel, a steel wheel, quads with a kicker above them, a board of
# three suits, a pocket pair): hole, board, category.
_CATEGORY_HANDS = (
    ("Ah Kd 2c 7s", "9h Jc 4d 3s 8c", "high_card"),
    ("Ah Ad 2c 7s", "9h Jc 4d 3s 8c", "one_pair"),
    ("Ah Kd 2c 7s", "Ac Kc 4d 3s 8c", "two_pair"),
    ("Ah Ad 2c 7s", "Ac Kc 4d 3s 8c", "three_of_a_kind"),
    ("Ah 2d 9c 7s", "3c 4h 5d Ks Qc", "straight"),
    ("Ah Kh 9c 7s", "2h 5h 8h Ks Qc", "flush"),
    ("Ah Ad Kc 7s", "Ac Kd Ks 3s 8c", "full_house"),
    ("Ah Ad 2c 7s", "Ac As Kd 3s 8c", "four_of_a_kind"),
    ("2h 2d 9c 7s", "2c 2s 3d Qs 8c", "four_of_a_kind"),
    ("Ah 2h 9c 7s", "3h 4h 5h Ks Qc", "straight_flush"),
    ("9h Th 2c 7s", "Jh Qh Kh 3s 3c", "straight_flush"),
)


def test_the_viper_pair_is_used_exactly_where_the_port_runs_native_code():
    # A board (and the Unix port) runs hand_value_viper's pair; CPython, the simulator and the WebAssembly VM
    # (no native emitter: not even tried) this file's plain one.
    if native_arch():
        assert hv.VIPER
        from firmware.games.omaha import hand_value_viper
        assert (prepare_board, best_value) == (hand_value_viper.prepare_board, hand_value_viper.best_value)
        return
    assert not hv.VIPER
    assert "firmware.games.omaha.hand_value_viper" not in sys.modules
    assert (prepare_board, best_value) == (hv.plain_prepare_board, hv.plain_best_value)


def test_art10_1_the_showdowns_pair_gives_the_plain_pairs_values_on_every_category_and_1000_deals():
    # Where the viper pair runs (the Unix port here; a board) it must give exactly the plain pair's values;
    # elsewhere the two are one.
    checked = set()
    for hole, board, category in _CATEGORY_HANDS:
        h = cards.parse_many(hole.split())
        b = cards.parse_many(board.split())
        value = best_value(h, prepare_board(b))
        assert value == hv.plain_best_value(h, hv.plain_prepare_board(b)) == best_hand(h, b)[0], (hole, board)
        assert pe.category_name(value) == category, (hole, board)
        checked.add(category)
    assert len(checked) == 9
    for holes, board in _deals(100, 777):
        prepared = prepare_board(board)
        plain = hv.plain_prepare_board(board)
        for hole in holes:
            assert best_value(hole, prepared) == hv.plain_best_value(hole, plain), (hole, board)


def test_the_viper_pair_refuses_what_its_pointer_would_read_past():
    # Viper reads the prepared board through a pointer (no bounds) and shifts by a card's rank: anything but
    # its own prepared board, or a card outside the deck, is refused before a load.
    if not hv.VIPER:
        assert best_value is hv.plain_best_value
        return
    board = cards.parse_many("9h Jc 4d 3s 8c".split())
    raises_match(ValueError, "prepared", best_value, [0, 1, 2, 3], hv.plain_prepare_board(board))
    raises_match(ValueError, "prepared", best_value, [0, 1, 2, 3], bytearray(8))
    raises_match(ValueError, "prepared", best_value, [0, 1, 2, 3], bytearray(40))       # 40 bytes: 10 words
    raises_match(ValueError, "prepared", best_value, [0, 1, 2, 3], array("i", [0] * 40))   # 40 words: len 40
    prepared = prepare_board(board)
    for bad in (52, -1, 200):
        raises_match(ValueError, "card", best_value, [0, 1, 2, bad], prepared)
        raises_match(ValueError, "card", best_value, [bad, 1, 2, 3], prepared)
        raises_match(ValueError, "card", prepare_board, [0, 5, 10, 20, bad])


@micropython_only
def test_a_seats_best_value_allocates_nothing():
    # The showdown's inner loop, on each MicroPython (viper where the port has native code, else bytecode):
    # ten seats valued under heap_lock(), the board prepared before.
    holes, board = _deals(1, 4242)[0]
    prepared = prepare_board(board)
    want = [best_value(hole, prepared) for hole in holes]
    got = [0] * 10
    heap_lock()
    try:
        for i in range(10):
            got[i] = best_value(holes[i], prepared)
    finally:
        heap_unlock()
    assert got == want
    assert heap_lock_catches_allocation()
