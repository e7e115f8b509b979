# Omaha pots: side pots, rake (art. 16), split and odd chip (art. 10(4)-(5)), misdeal (art. 9), showdown.
from firmware.errors import RuleError
from firmware.games.omaha.rules import EXPECT_VOID, OmahaHand
from firmware.games.omaha.pots import Pot, award, build_pots, rake_pots, split_pot, uncalled_bet
from tests.firmware.expect import raises_match
from tests.firmware.omaha_fixtures import check_down, deck, new_hand, settings


def shape(pots):
    return [(p.amount, p.eligible) for p in pots]


def test_side_pots_by_all_in_level_with_folded_chips():
    totals = [100, 300, 300, 50, 300]
    live = [True, True, False, True, True]
    returned, pots = build_pots(totals, live)
    assert returned is None
    assert shape(pots) == [(250, (0, 1, 3, 4)), (200, (0, 1, 4)), (600, (1, 4))]
    assert sum(p.amount for p in pots) == sum(totals)


def test_uncalled_excess_goes_back_even_to_a_folded_player():
    # short big blind all in for 3, small blind folded its 5: 2 of them go back
    returned, pots = build_pots([3, 5], [True, False])
    assert returned == (1, 2)
    assert shape(pots) == [(6, (0,))]
    assert uncalled_bet([10, 10, 4]) is None
    assert uncalled_bet([10, 40, 4]) == (1, 30)
    assert uncalled_bet([0, 25, 0]) == (1, 25)       # nobody else put a chip in: all of it goes back
    assert uncalled_bet([1, 0]) == (0, 1)            # one unit is a bet too
    assert uncalled_bet([0, 0]) is None and uncalled_bet([7, 7]) is None


def test_art16_rake_floor_per_pot_cap_once_main_pot_first():
    _, pots = build_pots([1000, 1000, 2000, 2000], [True] * 4)
    assert shape(pots) == [(4000, (0, 1, 2, 3)), (2000, (2, 3))]
    assert rake_pots(pots, 50, 50) == 50       # tenths of a percent: 50 is 5%
    assert [p.rake for p in pots] == [50, 0]
    _, pots = build_pots([33, 33, 33], [True] * 3)
    assert rake_pots(pots, 30, 50) == 2  # 99 * 3% = 2.97: rounded down
    _, pots = build_pots([30, 30, 100, 100], [True] * 4)
    assert rake_pots(pots, 40, 100) == 4 + 5  # 120 -> 4.8 -> 4; 140 -> 5.6 -> 5


def test_art16_a_rake_of_3_5_percent_rounded_down_to_the_unit():
    for amount, rake in ((60, 2), (99, 3), (100, 3), (1000, 35), (1029, 36), (2000, 70), (1, 0), (28, 0), (29, 1)):
        pots = [Pot(amount, (0, 1))]
        assert rake_pots(pots, 35, 10 ** 6) == rake, amount      # floor(amount * 3.5 / 100)
        assert rake * 1000 <= amount * 35 < (rake + 1) * 1000
    # The largest pot (11 stacks of 9,999,999): exact, and worked out in small ints on MicroPython.
    _, pots = build_pots([9999999] * 11, [True] * 11)
    for tenths in (30, 35, 49, 50):
        assert rake_pots(pots, tenths, 10 ** 9) == 109999989 * tenths // 1000


def test_art10_4_5_split_to_the_unit_remainder_to_the_first():
    assert split_pot(25, [3, 1]) == [13, 12]
    assert split_pot(101, [0, 1, 2]) == [35, 33, 33]
    assert split_pot(90, [0, 1, 2]) == [30, 30, 30]


def test_art10_2_5_award_best_value_among_the_eligible_odd_chip_by_seat_or_dealing_order():
    # Players 0..3 sit in seats 7, 2, 9, 4 (dealing order from the button's left). Player 3 has the
    # best value but is not eligible; players 0 and 2 tie: 31 after a rake of 2 splits 16/15.
    pot = Pot(33, (0, 1, 2))
    pot.rake = 2
    values = [900, 100, 900, 5000]
    seats = [7, 2, 9, 4]
    assert award(pot, values, seats, False) == ([0, 2], [16, 15])     # croupier's left: seat 7 before 9
    assert award(pot, values, [9, 2, 7, 4], False) == ([2, 0], [16, 15])
    assert award(pot, values, [9, 2, 7, 4], True) == ([0, 2], [16, 15])   # button's left: index order
    assert award(Pot(10, ()), values, seats, False) == ([], [])         # nobody eligible: nothing paid


# Seats 1-3, button 1: dealing order seat 2, seat 3, seat 1. Seats 1 and 3
# both make A-K-Q-J-T; seat 2 folds its small blind: a pot of 25 split two ways.
TIE_DECK = deck(["5h 6h 9h 9d", "Jh Th 3c 4c", "Jc Tc 3d 4d"], "As Ks Qs 7d 8c")


def play_tie(odd_chip):
    hand, shoe = new_hand([(1, 1000), (2, 1000), (3, 1000)], button=1, shoe=TIE_DECK, odd_chip=odd_chip)
    hand.act(1, "call")
    hand.act(2, "fold")
    hand.act(3, "check")
    return check_down(hand, shoe)


def test_art10_5_odd_chip_to_first_winner_from_the_croupiers_left():
    result = play_tie("croupier")
    pot = result.pots[0]
    assert (pot.amount, pot.eligible, pot.winners) == (25, (1, 3), (1, 3))
    assert pot.shares == ((1, 13), (3, 12))
    assert result.stacks == ((1, 1003), (2, 995), (3, 1002))


def test_art10_5_option_odd_chip_from_the_buttons_left():
    result = play_tie("button")
    assert result.pots[0].winners == (3, 1)
    assert result.pots[0].shares == ((3, 13), (1, 12))
    assert result.stacks == ((1, 1002), (2, 995), (3, 1003))


# Seats 1 (50), 2 (150), 3 (300), button 1: three-way all in, no limit.
# Board 2s 7h 8d Jc Kd: seat 1 three kings, seat 2 three jacks, seat 3 three eights.
ALLIN_DECK = deck(["Jd Jh 5d 6d", "8c 8h 5h 6h", "Kc Kh 5c 6c"], "2s 7h 8d Jc Kd", burns=("3c", "3d", "3h"))


def test_all_in_side_pots_awarded_separately():
    hand, shoe = new_hand([(1, 50), (2, 150), (3, 300)], button=1, shoe=ALLIN_DECK,
                          structure="no_limit", rake_percent=5, rake_cap_big_blinds=2)
    hand.act(1, "raise", 50)
    hand.act(2, "raise", 150)
    hand.act(3, "call")
    result = check_down(hand, shoe)
    got = [(p.amount, p.eligible, p.winners, p.rake) for p in result.pots]
    # main 150 (rake 7), side 200 (rake 10, 5% floor; cap 20 not reached)
    assert got == [(150, (1, 2, 3), (1,), 7), (200, (2, 3), (2,), 10)]
    assert result.rake == 17
    assert result.stacks == ((1, 143), (2, 190), (3, 150))
    assert sum(c for _, c in result.stacks) + result.rake == 500
    assert sorted([s for s, _ in result.values]) == [1, 2, 3]  # all three showed down


def test_art16_rake_cap_in_big_blinds():
    hand, shoe = new_hand([(1, 5000), (2, 5000)], button=1, structure="no_limit",
                          rake_percent=5, rake_cap_big_blinds=3)
    hand.act(2, "raise", 5000)
    hand.act(1, "call")
    result = check_down(hand, shoe)
    assert result.rake == 30  # 5% of 10000 is 500: capped at 3 big blinds


def test_art9_misdeal_voids_the_round_and_returns_every_bet():
    hand, _ = new_hand([(1, 1000), (2, 1000), (3, 1000)], button=1)
    hand.act(1, "raise", 35)
    hand.act(2, "call")
    result = hand.misdeal()
    assert result.void and result.rake == 0 and result.pots == []
    assert result.stacks == ((1, 1000), (2, 1000), (3, 1000))
    assert hand.expected() == (EXPECT_VOID, None)
    raises_match(RuleError, "no card expected", hand.deal, 50)
    raises_match(RuleError, "no action expected", hand.act, 3, "call")


def test_art9_misdeal_during_the_deal_and_not_after_payout():
    hand = OmahaHand(settings(), 1, [(1, 100), (2, 100)])
    hand.deal(0)
    assert hand.misdeal().stacks == ((1, 100), (2, 100))
    hand, _ = new_hand([(1, 100), (2, 100)], button=1)
    hand.act(2, "fold")
    raises_match(RuleError, "already settled", hand.misdeal)


def test_zero_stack_seat_sits_out_but_is_reported():
    hand, _ = new_hand([(1, 100), (2, 100), (5, 0)], button=1)
    hand.act(2, "fold")
    assert hand.result().stacks == ((1, 105), (2, 95), (5, 0))
