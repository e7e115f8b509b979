# Omaha betting: blinds (art. 5), dealing and action order (arts. 6-8), pot-limit and no-limit (arts. 11-12).
from firmware.errors import IntegrityError, RuleError
from firmware.games.omaha.rules import EXPECT_BURN, EXPECT_DONE, EXPECT_HOLE, OmahaHand, next_button
from firmware.games.omaha.betting import BET, RAISE, BetRangeError, chips_text
from tests.firmware.expect import raises, raises_match
from tests.firmware.omaha_fixtures import deal_street, new_hand, settings, to_act

FOUR = [(1, 1000), (2, 1000), (3, 1000), (4, 1000)]


def test_art5_blinds_left_of_the_button():
    hand, _ = new_hand(FOUR, button=1)
    assert hand.betting.bet == [5, 10, 0, 0]  # index 0 = seat 2 (small blind), 1 = seat 3 (big blind)
    assert hand.seats == [2, 3, 4, 1]
    assert hand.pot_total() == 15


def test_art5_short_blind_posts_what_it_has():
    hand, _ = new_hand([(1, 1000), (2, 3), (3, 1000)], button=1)
    assert hand.stack[0] == 0 and hand.betting.bet[0] == 3


def test_art5_a_short_big_blind_still_sets_the_call_at_the_full_big_blind():
    # docs/omaha.md, "Starting a hand": the others call 10; what seat 3 could not match comes back
    hand, shoe = new_hand([(1, 1000), (2, 1000), (3, 3)], button=1)
    assert hand.betting.bet == [5, 3, 0] and to_act(hand) == 1 and hand.legal().call == 10
    hand.act(1, "fold")
    assert to_act(hand) == 2 and hand.legal().call == 5
    hand.act(2, "call")
    while hand.expected()[0] != EXPECT_DONE:
        hand.deal(shoe.pop(0))
    result = hand.result()
    assert result.returned == (2, 7)
    assert [(p.amount, p.eligible) for p in result.pots] == [(6, (2, 3))]


def test_art6_1_hole_cards_one_at_a_time_from_left_of_the_button():
    hand = OmahaHand(settings(), 3, FOUR)
    order = []
    for card in range(16):
        kind, seat = hand.expected()
        assert kind == EXPECT_HOLE
        order.append(seat)
        assert hand.deal(card) == (EXPECT_HOLE, seat)
    assert order == [4, 1, 2, 3] * 4
    assert hand.hole[0] == [0, 4, 8, 12]  # seat 4 got cards 1, 5, 9, 13 of the shoe


def test_empty_button_seat_blinds_go_to_the_next_players():
    hand, _ = new_hand([(1, 100), (2, 100), (4, 100)], button=3)
    assert hand.seats == [4, 1, 2]
    assert hand.betting.bet == [5, 10, 0]


def test_art6_3_4_preflop_starts_left_of_big_blind_and_big_blind_may_check():
    hand, shoe = new_hand(FOUR, button=1)
    assert to_act(hand) == 4
    hand.act(4, "call")
    hand.act(1, "call")
    hand.act(2, "call")
    assert to_act(hand) == 3
    legal = hand.legal()
    assert legal.can_check and legal.kind == RAISE
    hand.act(3, "check")
    assert hand.expected() == (EXPECT_BURN, None)


def test_art6_5_art7_2_later_rounds_start_left_of_the_button_button_last():
    hand, shoe = new_hand(FOUR, button=1)
    for seat in (4, 1, 2):
        hand.act(seat, "call")
    hand.act(3, "check")
    deal_street(hand, shoe)
    assert len(hand.board) == 3 and len(hand.burns) == 1  # art. 7(1): burn, then the flop
    order = []
    for _ in range(4):
        seat = to_act(hand)
        order.append(seat)
        hand.act(seat, "check")
    assert order == [2, 3, 4, 1]
    deal_street(hand, shoe)
    assert len(hand.board) == 4 and len(hand.burns) == 2  # art. 8(1): burn, turn


def test_heads_up_art5_literal_button_posts_big_blind():
    hand, _ = new_hand([(1, 1000), (2, 1000)], button=1)
    assert hand.seats == [2, 1]  # seat 2 is left of the button: small blind
    assert to_act(hand) == 2  # left of the big blind (art. 6(3))


def test_out_of_turn_and_wrong_action_refused():
    hand, shoe = new_hand(FOUR, button=1)
    raises_match(RuleError, "seat 4 is to act", hand.act, 1, "call")
    raises_match(RuleError, "cannot check", hand.act, 4, "check")
    raises_match(RuleError, "may raise", hand.act, 4, "bet", 20)
    raises_match(RuleError, "unknown action", hand.act, 4, "allin")
    raises_match(RuleError, "no card expected", hand.deal, 40)
    hand.act(4, "call")
    hand.act(1, "call")
    hand.act(2, "call")
    # The big blind's option (art. 6(4)): the answer names a raise, not a bet (which would be refused next).
    raises_match(RuleError, "seat 3 has no bet to call: check or raise", hand.act, 3, "call")
    raises_match(RuleError, "may raise", hand.act, 3, "bet", 20)
    hand.act(3, "check")
    deal_street(hand, shoe)
    raises_match(RuleError, "seat 2 has no bet to call: check or bet", hand.act, 2, "call")


def test_art11_2_pot_limit_maximums_hand_worked():
    hand, _ = new_hand(FOUR, button=1)
    # seat 4: pot 15, call 10, raise by 25 -> 35
    legal = hand.legal()
    assert (legal.call, legal.min_to, legal.max_to) == (10, 20, 35)
    assert legal.display() == "CALL 10 RAISE 20-35 POT MAX 35"
    exc = raises(BetRangeError, hand.act, 4, "raise", 36)
    assert (exc.min_to, exc.max_to, exc.display) == (20, 35, "POT MAX 35")
    assert "POT MAX 35" in str(exc)
    hand.act(4, "raise", 35)
    # seat 1: pot 50, call 35 -> 85, raise by 85 -> to 120; min = 35 + 25
    legal = hand.legal()
    assert (legal.min_to, legal.max_to) == (60, 120)
    hand.act(1, "raise", 120)
    # seat 2 (small blind, 5 in): pot 170 + call 115 = 285 -> to 405
    assert hand.legal().max_to == 405
    raises_match(BetRangeError, "MIN 205", hand.act, 2, "raise", 204)


def test_art11_2_pot_limit_bet_on_the_flop_is_the_pot():
    hand, shoe = new_hand(FOUR, button=1)
    for seat in (4, 1, 2):
        hand.act(seat, "call")
    hand.act(3, "check")
    deal_street(hand, shoe)
    legal = hand.legal()
    assert legal.kind == BET and (legal.min_to, legal.max_to) == (10, 40)
    raises_match(RuleError, "may bet", hand.act, 2, "raise", 20)
    hand.act(2, "bet", 40)
    legal = hand.legal()  # pot 80, call 40 -> raise to 40 + 120
    assert (legal.call, legal.min_to, legal.max_to) == (40, 80, 160)


def test_art12_2_three_raises_per_round_in_pot_limit():
    hand, _ = new_hand(FOUR, button=1)
    hand.act(4, "raise", 35)
    hand.act(1, "raise", 120)
    hand.act(2, "raise", 405)
    legal = hand.legal()  # seat 3: a 4th raise is not allowed with 4 players
    assert legal.kind is None and "art. 12(2)" in legal.why_not
    assert legal.display() == "CALL 395"
    raises_match(RuleError, "3 raises", hand.act, 3, "raise", 1000)
    hand.act(3, "fold")
    hand.act(4, "call")
    assert hand.legal().kind is None


def test_art12_4_heads_up_lifts_the_raise_cap_not_the_pot_limit():
    hand, _ = new_hand([(1, 5000), (2, 5000)], button=1)
    hand.act(2, "raise", 30)
    hand.act(1, "raise", 90)
    hand.act(2, "raise", 270)
    legal = hand.legal()
    assert legal.kind == RAISE and (legal.min_to, legal.max_to) == (450, 810)
    hand.act(1, "raise", 810)
    assert hand.legal().max_to == 2430
    # the dealer display groups thousands, as in the issue's "POT MAX 1,250"
    assert hand.legal().display() == "CALL 540 RAISE 1,350-2,430 POT MAX 2,430"
    exc = raises(BetRangeError, hand.act, 2, "raise", 2431)
    assert exc.display == "POT MAX 2,430" and (exc.min_to, exc.max_to) == (1350, 2430)
    assert str(exc) == "seat 2 raise to 2431 refused: raise to 1350..2430 (POT MAX 2,430, art. 11(2))"


def test_chips_text_thousands():
    assert [chips_text(x) for x in (0, 5, 999, 1000, 1250, 1234567, -1250)] == [
        "0", "5", "999", "1,000", "1,250", "1,234,567", "-1,250"]


def test_art12_4_heads_up_after_a_fold_lifts_the_cap():
    hand, _ = new_hand([(1, 5000), (2, 5000), (3, 5000)], button=1)
    hand.act(1, "raise", 35)
    hand.act(2, "raise", 110)
    hand.act(3, "raise", 330)
    hand.act(1, "fold")
    assert hand.legal().kind == RAISE  # seat 2, heads-up now


def test_art12_4_heads_up_no_limit_option():
    hand, _ = new_hand([(1, 5000), (2, 5000)], button=1, heads_up="no_limit")
    assert hand.legal().max_to == 5000


def test_art11_3_no_limit_min_bet_and_all_in():
    hand, shoe = new_hand([(1, 1000), (2, 1000), (3, 1000)], button=1, structure="no_limit")
    hand.act(1, "call")
    hand.act(2, "call")
    hand.act(3, "check")
    deal_street(hand, shoe)
    legal = hand.legal()
    assert (legal.min_to, legal.max_to) == (10, 990)
    assert legal.display() == "CHECK BET 10-990 MAX 990"
    raises_match(BetRangeError, "(MIN 10, art. 11(3))", hand.act, 2, "bet", 9)      # a bet under the minimum bet
    hand.act(2, "bet", 10)
    hand.act(3, "raise", 50)
    # art. 12(1): the minimum raise is the previous increment (40)
    legal = hand.legal()
    assert (legal.min_to, legal.max_to) == (90, 990)
    raises_match(BetRangeError, "(MIN 90, art. 12(1))", hand.act, 1, "raise", 89)  # a raise under a full raise
    hand.act(1, "raise", 990)
    assert hand.stack[2] == 0


def test_incomplete_all_in_raise_does_not_reopen_the_betting():
    stacks = [(1, 1000), (2, 1000), (3, 1000), (4, 55)]
    hand, _ = new_hand(stacks, button=1, structure="no_limit")
    hand.act(4, "call")
    hand.act(1, "raise", 40)
    hand.act(2, "call")
    hand.act(3, "call")
    legal = hand.legal()  # seat 4: 45 behind, min raise to 70: only all-in to 55
    assert (legal.min_to, legal.max_to) == (55, 55)
    raises_match(BetRangeError, "only all-in to 55", hand.act, 4, "raise", 50)
    hand.act(4, "raise", 55)
    legal = hand.legal()
    assert to_act(hand) == 1 and legal.kind is None and legal.call == 15
    assert "not reopened" in legal.why_not
    hand.act(1, "call")
    hand.act(2, "call")
    hand.act(3, "call")
    assert hand.expected() == (EXPECT_BURN, None)


def test_art11_amount_beyond_the_stack_is_all_in_when_the_limit_allows_it():
    # no-limit: "raise to 5000" with 990 behind is all in
    hand, _ = new_hand([(1, 1000), (2, 1000), (3, 1000)], button=1, structure="no_limit")
    hand.act(1, "raise", 5000)
    assert hand.stack[2] == 0 and hand.betting.bet[2] == 1000
    # pot-limit: beyond the stack but the stack is over the pot: refused at the pot
    hand, _ = new_hand([(1, 1000), (2, 1000), (3, 1000)], button=1)
    exc = raises(BetRangeError, hand.act, 1, "raise", 5000)
    assert exc.display == "POT MAX 35" and "raise to 5000 refused" in str(exc)
    # pot-limit, short stack under the pot: all in
    hand, _ = new_hand([(1, 30), (2, 1000), (3, 1000)], button=1)
    hand.act(1, "raise", 5000)
    assert hand.stack[2] == 0 and hand.betting.bet[2] == 30


def test_call_short_is_all_in_and_no_more_betting_runs_the_board_out():
    hand, shoe = new_hand([(1, 100), (2, 300)], button=1, structure="no_limit")
    hand.act(2, "raise", 300)
    legal = hand.legal()
    assert legal.call == 90 and legal.kind is None  # seat 1: a call puts him all in
    hand.act(1, "call")
    while hand.expected()[0] != EXPECT_DONE:
        hand.deal(shoe.pop(0))
    assert len(hand.board) == 5 and len(hand.burns) == 3
    result = hand.result()
    assert result.returned == (2, 200)  # the uncalled part of the raise goes back
    assert sum(chips for _, chips in result.stacks) == 400


def test_fold_to_one_player_ends_the_hand_with_the_uncalled_bet_returned():
    hand, _ = new_hand([(1, 1000), (2, 1000), (3, 1000)], button=1, rake_percent=5)
    hand.act(1, "raise", 35)
    hand.act(2, "fold")
    hand.act(3, "fold")  # art. 13(3): the folded blinds go to the winner
    assert hand.expected() == (EXPECT_DONE, None)
    result = hand.result()
    assert result.returned == (1, 25)
    assert [(p.amount, p.eligible, p.winners, p.rake) for p in result.pots] == [(25, (1,), (1,), 1)]
    assert result.stacks == ((1, 1014), (2, 995), (3, 990))
    assert result.nets == ((1, 14), (2, -5), (3, -10))
    assert result.values == ()


def test_duplicate_card_is_an_integrity_alarm():
    hand = OmahaHand(settings(), 1, FOUR)
    hand.deal(7)
    raises_match(IntegrityError, "twice", hand.deal, 7)


def test_art2_3_at_least_two_players_and_deck_limit():
    raises_match(RuleError, "at least 2", OmahaHand, settings(), 1, [(1, 100), (2, 0)])
    raises_match(RuleError, "52-card", OmahaHand, settings(seats=12), 1, [(s, 100) for s in range(1, 13)])
    raises_match(RuleError, "listed twice", OmahaHand, settings(), 1, [(1, 100), (1, 100)])
    raises_match(RuleError, "button", OmahaHand, settings(), 11, FOUR)
    OmahaHand(settings(seats=12), 12, [(s, 100) for s in range(1, 12)])  # 11 players fit


def test_art1_2_button_moves_clockwise_to_the_next_occupied_seat():
    assert next_button(1, [1, 2, 3]) == 2
    assert next_button(3, [1, 2, 3]) == 1
    assert next_button(4, [1, 2, 7]) == 7


# --- malformed input: a RuleError / IntegrityError, never a crash, and nothing changes ---

def hand_state(hand):
    return (hand.phase, hand.to_act, list(hand.stack), [list(h) for h in hand.hole], list(hand.board),
            list(hand.burns), bytes(hand._dealt), list(hand.betting.bet), list(hand.betting.total),
            list(hand.folded), len(hand.history))


def test_malformed_stacks_are_rule_errors_issue_8():
    """Issue 8: malformed stacks raised ValueError / TypeError instead of RuleError."""
    for bad in (None, 5, "12", [(1,)], [(1, 100, 3)], [1, 2], [(1, 100), None], {1: 100},
                [(1, 100), (2, 100.0)], [(1, 100), (2.0, 100)], [(1, 100), (True, 100)], [(1, 100), (2, False)]):
        raises(RuleError, OmahaHand, settings(), 1, bad)
    raises(RuleError, OmahaHand, settings(), 1.0, FOUR)
    raises(RuleError, OmahaHand, dict(structure="pot_limit"), 1, FOUR)


def test_art6_only_a_seat_number_may_act():
    """A seat 1.0 or True equalled seat 1 and acted for it."""
    hand, _ = new_hand(FOUR, button=3)
    seat = hand.expected()[1]  # seat 2: left of the big blind (art. 6(3))
    assert seat == 2
    before = hand_state(hand)
    for bad in (float(seat), str(seat), None, [seat]):
        raises_match(RuleError, "seat", hand.act, bad, "call")
    raises(RuleError, hand.act, seat, ["call"])
    raises(RuleError, hand.act, seat, "raise", 40.0)
    raises(RuleError, hand.act, seat, "raise", True)
    raises(RuleError, hand.act, seat, "call", 10)
    raises(RuleError, hand.index_of, 1.0)
    assert hand_state(hand) == before
    hand.act(seat, "call")
    hand, _ = new_hand(FOUR, button=2)  # seat 1 acts first pre-flop, and True == 1
    assert hand.expected()[1] == 1
    raises_match(RuleError, "seat", hand.act, True, "fold")


def test_art9_card_number_outside_the_deck_is_an_alarm():
    hand = OmahaHand(settings(), 1, FOUR)
    hand.deal(7)
    before = hand_state(hand)
    for bad in (52, -1, True, False, 3.0, None, "Ah"):
        raises(IntegrityError, hand.deal, bad)
    assert hand_state(hand) == before


def test_play_hand_and_next_button_refuse_malformed_input():
    from firmware.games.omaha.whole_hand import play_hand
    deck = list(range(52))
    for bad in (None, 5, "deck"):
        raises(RuleError, play_hand, settings(), 1, FOUR[:2], bad, [])
        raises(RuleError, play_hand, settings(), 1, FOUR[:2], deck, bad)
    exc = raises(RuleError, play_hand, settings(), 1, FOUR[:2], deck, [5])
    assert exc.at == 0
    exc = raises(RuleError, play_hand, settings(), 1, FOUR[:2], deck, [(2, "call"), None])
    assert exc.at == 1
    raises(IntegrityError, play_hand, settings(), 1, FOUR[:2], [True] + deck, [])
    for button, occupied in ((1, None), (1, 5), (1, [1, "2"]), (1.0, [1, 2]), (True, [1, 2]), (1, [1, 2.0])):
        raises(RuleError, next_button, button, occupied)


def test_options_resolved_by_explicit_branches_art_10_5_11_12_4():
    """A hand plays under a validated copy of the options it started with; each
    option is named by an explicit branch and any other value is refused."""
    from firmware.errors import SettingsError
    from firmware.games.omaha import settings as os_
    s = settings()
    s.odd_chip = "dealer"  # changed after validation
    raises(SettingsError, OmahaHand, s, 1, FOUR)
    s = settings()
    s.structure = "fixed_limit"  # was treated as pot-limit
    raises(SettingsError, OmahaHand, s, 1, FOUR)
    raises(SettingsError, os_.unlimited_size, s, False)
    raises(SettingsError, os_.raise_cap_applies, s, False)
    s = settings()
    s.heads_up = "x"
    raises(SettingsError, os_.unlimited_size, s, True)
    s.odd_chip = "dealer"
    raises(SettingsError, os_.odd_chip_from_button, s)
    assert os_.unlimited_size(settings(structure="no_limit"), False)
    assert not os_.unlimited_size(settings(), True) and os_.unlimited_size(settings(heads_up="no_limit"), True)
    assert os_.raise_cap_applies(settings(), False) and not os_.raise_cap_applies(settings(), True)
    assert os_.odd_chip_from_button(settings(odd_chip="button"))
    raises(SettingsError, os_.load_settings, {1: 2})


def test_art6_1_hole_card_count_is_kept_through_a_refused_card():
    # The hand keeps a running count of the hole cards dealt (no recount per card): a card refused
    # as dealt twice does not move it, and the round opens after exactly 4 cards a player.
    hand = OmahaHand(settings(), 3, FOUR)
    for card in range(6):
        hand.deal(card)
    raises(IntegrityError, hand.deal, 2)
    assert hand.expected() == (EXPECT_HOLE, 2) and hand._holes == 6
    for card in range(6, 16):
        assert hand.expected()[0] == EXPECT_HOLE
        hand.deal(card)
    assert [len(h) for h in hand.hole] == [4, 4, 4, 4] and to_act(hand) == 2   # left of the big blind


def test_legal_actions_worked_out_once_per_action():
    # The controller, the screens and act() ask for the same Legal: one object per action,
    # unchanged by a refused action, a new one for the next player.
    hand, _ = new_hand(FOUR, button=1)
    legal = hand.legal()
    assert hand.legal() is legal and legal.seat == 4
    raises(BetRangeError, hand.act, 4, "raise", 15)           # under the minimum raise
    assert hand.legal() is legal and hand.betting.bet == [5, 10, 0, 0]
    hand.act(4, "call")
    nxt = hand.legal()
    assert nxt is not legal and nxt.seat == 1 and nxt.call == 10 and hand.legal() is nxt
    hand.act(1, "fold")
    assert hand.legal().seat == 2 and hand.legal().call == 5
