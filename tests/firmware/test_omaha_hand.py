# Omaha best hand, art. 10(1): exactly two hole cards and exactly three board cards.
from firmware import cards
from firmware.errors import CardCodeError, IntegrityError
from firmware.games.omaha import poker_eval as pe
from firmware.games.omaha.hand_value import BOARD_TRIPLES, HOLE_PAIRS, best_hand, best_value, check_cards, prepare_board
from tests.firmware.expect import raises, raises_match


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
