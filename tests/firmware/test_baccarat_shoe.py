# Baccarat shoe procedure: arts. 1, 2 (burn, demo, auto shuffler), 3 (cut card), 4, 8, 10; integrity alarm.
from firmware import cards
from firmware.errors import IntegrityError, RuleError, SettingsError
from firmware.games.baccarat import payouts
from firmware.games.baccarat import rules as bac
from firmware.games.baccarat import settings as bac_settings
from firmware.games.baccarat import shoe as bs
from firmware.games.baccarat.rules import PLAYER, BANKER, NONE
from tests.firmware.expect import count_calls, raises, raises_match

FULL = {"method": 1, "commission": "A", "tie_option": "returned", "decks": 8, "burn": "decks",
        "cut_card": "last_round", "demo_rounds": 3, "dealer": "shoe", "burn_each_round": False}

C = cards.parse
NATURAL = ["9h", "5d", "Kc", "2s"]  # P 9 v B 7: a 4-card round


def shoe_with(**changes):
    d = dict(FULL)
    for k in changes:
        d[k] = changes[k]
    return bs.Shoe(bac_settings.load_settings(d))


def ready_shoe(**changes):
    shoe = shoe_with(**changes)
    while shoe.state == bs.BURNING:
        shoe.burn(C("2c"))
    return shoe


def play_round(shoe, codes=NATURAL, demo=False):
    shoe.start_round(demo)
    for code in codes:
        shoe.deal(C(code))
    return shoe.end_round()


# --- art. 1 decks, composition ----------------------------------------------------

def test_art1_composition_of_6_to_12_decks():
    for decks in (6, 8, 12):
        shoe = shoe_with(decks=decks)
        assert shoe.remaining == 52 * decks
        assert shoe.counts[C("As")] == decks


def test_art1_ninth_ace_of_spades_in_8_decks_is_an_integrity_alarm():
    shoe = ready_shoe()  # burned eight 2c
    shoe.start_round()
    for code in ["As", "As", "As", "As", "Kc", "Kd"]:  # 2 v 2, both draw
        shoe.deal(C(code))
    shoe.end_round()
    for _ in range(4):
        shoe.burn(C("As"))
    assert shoe.counts[C("As")] == 0
    shoe.start_round()
    raises_match(IntegrityError, "As", shoe.deal, C("As"))
    assert shoe.round.order == []  # not a result: nothing was dealt


def test_art1_burned_cards_count_towards_composition():
    shoe = shoe_with()
    for _ in range(8):
        shoe.burn(C("2c"))
    assert shoe.counts[C("2c")] == 0
    shoe.start_round()
    raises(IntegrityError, shoe.deal, C("2c"))


def test_shoe_needs_full_table_settings():
    raises_match(SettingsError, "'decks'", bs.Shoe, bac_settings.round_settings(1, "A"))


def snapshot(shoe):
    rnd = shoe.round
    return (bytes(shoe.counts), shoe.remaining, shoe.burned, shoe.state, shoe.pending, shoe.burn_left,
            shoe.rounds, None if rnd is None else (list(rnd.order), list(rnd.player), list(rnd.banker),
                                                  rnd.face_up))


def test_art1_bad_card_number_is_an_alarm_and_changes_nothing():
    """A card number no deck holds (or a bool, which would read as 2d) is an
    IntegrityError in every state, and the shoe is exactly as before."""
    shoe = shoe_with(burn="first_card")
    for bad in (52, -1, True, False, 3.0, None):
        before = snapshot(shoe)
        raises(IntegrityError, shoe.burn, bad)
        raises(IntegrityError, shoe.deal, bad)
        assert snapshot(shoe) == before
    shoe = ready_shoe()
    shoe.start_round()
    shoe.deal(C("9h"))
    for bad in (52, -1, True, False, 3.0, None):
        before = snapshot(shoe)
        raises(IntegrityError, shoe.deal, bad)
        raises(IntegrityError, shoe.deal, bad, PLAYER)
        raises(IntegrityError, shoe.burn, bad)
        assert snapshot(shoe) == before


def test_art7_malformed_hand_or_face_up_changes_nothing():
    shoe = ready_shoe()
    shoe.start_round()
    before = snapshot(shoe)
    for hand, face_up in ((True, False), (5, False), (1.0, False), ("player", False), (None, 1), (None, "up")):
        raises(RuleError, shoe.deal, C("9h"), hand, face_up)
        assert snapshot(shoe) == before and shoe.state == bs.IN_ROUND


def test_art1_art10_card_read_while_error_pending_is_counted():
    """Issue 8: a card read while a dealing error was pending was refused without
    being counted, so a ninth A-hearts was later accepted from an 8-deck shoe."""
    shoe = ready_shoe()
    shoe.start_round()
    shoe.deal(C("Ah"), PLAYER)
    raises(bs.DealingError, shoe.deal, C("Ah"), PLAYER)  # 2nd A-hearts, misplaced: pending
    remaining = shoe.remaining
    raises_match(RuleError, "art. 10", shoe.deal, C("Ah"))  # 3rd, read while the error waits
    assert shoe.counts[C("Ah")] == 5 and shoe.remaining == remaining - 1
    assert shoe.state == bs.ERROR and shoe.pending[0] == bs.WRONG_HAND  # the error still waits
    shoe.void()
    for _ in range(5):
        shoe.burn(C("Ah"))
    assert shoe.counts[C("Ah")] == 0
    raises_match(IntegrityError, "Ah", shoe.burn, C("Ah"))  # the ninth: an alarm


def test_art1_card_refused_in_any_state_is_still_counted():
    """Every refusal of a real card (burn mid-round, deal while burning or after the
    last round) counts it out of the shoe: it left the shoe all the same."""
    shoe = shoe_with()  # burning
    raises(RuleError, shoe.deal, C("Kd"))
    assert shoe.counts[C("Kd")] == 7 and shoe.state == bs.BURNING and shoe.burn_left == 8
    shoe = ready_shoe()
    shoe.start_round()
    shoe.deal(C("9h"))
    raises_match(RuleError, "art. 8", shoe.burn, C("Qs"))  # a burn in the middle of a round
    assert shoe.counts[C("Qs")] == 7 and shoe.expected() == BANKER and shoe.round.order == [PLAYER]
    for code in NATURAL[1:]:
        shoe.deal(C(code))
    shoe.end_round()
    shoe.change()  # art. 3(2): closed
    remaining = shoe.remaining
    raises(RuleError, shoe.deal, C("Qs"))
    raises(RuleError, shoe.burn, C("Qs"))
    assert shoe.counts[C("Qs")] == 5 and shoe.remaining == remaining - 2 and shoe.state == bs.CLOSED
    assert sum(shoe.counts) == shoe.remaining


def test_shoe_refuses_settings_that_are_not_validated():
    raises(SettingsError, bs.Shoe, dict(FULL))
    s = bac_settings.load_settings(FULL)
    s.burn = "three"  # changed after validation: every option is named, any other refused
    raises(SettingsError, bs.Shoe, s)
    raises(SettingsError, bs.burn_count, C("Kh"), "decks")
    raises(IntegrityError, bs.burn_count, 52, "first_card")


# --- art. 2(1) burn --------------------------------------------------------------

def test_art2_1_burn_as_many_cards_as_decks():
    shoe = shoe_with(decks=6)
    assert shoe.state == bs.BURNING
    raises_match(RuleError, "art. 2(1)", shoe.start_round)
    for i in range(6):
        shoe.burn(C("Kd"))
    assert shoe.state == bs.READY and shoe.burned == 6
    assert shoe.remaining == 6 * 52 - 6
    raises(RuleError, shoe.deal, C("2c"))  # no round started: a card drawn outside a round
    assert shoe.state == bs.ERROR


def test_art2_1_burn_by_first_card_value():
    shoe = shoe_with(burn="first_card")
    assert shoe.burn(C("5h")) == 5
    for _ in range(5):
        shoe.burn(C("2c"))
    assert shoe.state == bs.READY and shoe.burned == 6


def test_art2_1_first_card_reading_pictures_count_ten():
    assert bs.burn_count(C("Kh"), "first_card") == 10
    assert bs.burn_count(C("Th"), "first_card") == 10
    assert bs.burn_count(C("Ah"), "first_card") == 1
    assert bs.burn_count(C("9h"), "first_card") == 9
    assert bs.burn_count(C("Kh"), "first_card_points") == 0  # art. 5 points option
    assert bs.burn_count(C("Th"), "first_card_points") == 0  # a ten too: art. 5 counts it 0
    assert bs.burn_count(C("9h"), "first_card_points") == 9
    assert bs.burn_count(C("Ah"), "first_card_points") == 1
    shoe = shoe_with(burn="first_card_points")
    shoe.burn(C("Qs"))
    assert shoe.state == bs.READY and shoe.burned == 1


# --- art. 2(2) demonstration rounds ---------------------------------------------

def test_art2_2_at_most_three_demo_rounds_flagged():
    shoe = ready_shoe()
    for i in range(3):
        rec = play_round(shoe, demo=True)
        assert rec.demo and rec.number == i + 1
    raises_match(RuleError, "art. 2(2)", shoe.start_round, True)
    rec = play_round(shoe)
    assert not rec.demo and shoe.live_rounds == 1 and shoe.demo_rounds == 3


def test_art2_2_no_demo_after_a_live_round_or_when_table_allows_none():
    shoe = ready_shoe()
    play_round(shoe)
    raises(RuleError, shoe.start_round, True)
    shoe = ready_shoe(demo_rounds=0)
    raises(RuleError, shoe.start_round, True)


def test_art2_2_demo_cards_leave_the_shoe():
    shoe = ready_shoe()
    before = shoe.remaining
    play_round(shoe, demo=True)
    assert shoe.remaining == before - 4


# --- art. 2(3), 7(2) automatic shuffler-dealer ------------------------------------

def test_art2_3_auto_shuffler_no_burn_cards_return_each_round():
    shoe = shoe_with(dealer="auto_shuffler", decks=6)
    assert shoe.state == bs.READY
    for _ in range(3):  # 12 aces of spades over 3 rounds in 6 decks: the machine got them back
        rec = play_round(shoe, ["As", "As", "As", "As", "Kc", "Kd"])
        assert rec.result.winner == bac.TIE
    raises(RuleError, shoe.cut_card)


def test_art7_2_auto_shuffler_refill_restores_every_count_in_place():
    # The refill copies the full shoe back into the same buffer: every count, whatever set them
    # (here as a restored snapshot would, one by one), and nothing new allocated for it.
    shoe = shoe_with(dealer="auto_shuffler", decks=6)
    counts = shoe.counts
    play_round(shoe)
    assert shoe.remaining == 6 * 52 - 4
    for i in range(52):
        shoe.counts[i] = i % 7
    shoe.start_round()
    assert shoe.counts is counts and list(shoe.counts) == [6] * 52 and shoe.remaining == 6 * 52


# --- art. 3 cut card, change of shoe -------------------------------------------------

def test_art3_1_cut_card_during_round_last_round():
    shoe = ready_shoe()
    play_round(shoe)
    shoe.start_round()
    shoe.deal(C("9h"))
    assert shoe.cut_card() == 2
    for code in NATURAL[1:]:
        shoe.deal(C(code))
    rec = shoe.end_round()
    assert rec.last and shoe.state == bs.CLOSED
    raises_match(RuleError, "reshuffle", shoe.start_round)


def test_art3_1_cut_card_one_more_round_option():
    shoe = ready_shoe(cut_card="one_more")
    shoe.start_round()
    shoe.cut_card()
    for code in NATURAL:
        shoe.deal(C(code))
    assert not shoe.end_round().last
    assert play_round(shoe).last
    assert shoe.state == bs.CLOSED


def test_art3_1_cut_card_between_rounds_next_round_is_last():
    shoe = ready_shoe()
    play_round(shoe)
    shoe.cut_card()
    raises(RuleError, shoe.cut_card)
    assert play_round(shoe).last


def test_art3_2_change_shoe_after_any_round_only():
    shoe = ready_shoe()
    play_round(shoe)
    shoe.start_round()
    raises_match(RuleError, "art. 3(2)", shoe.change)
    for code in NATURAL:
        shoe.deal(C(code))
    shoe.end_round()
    shoe.change()
    assert shoe.state == bs.CLOSED


# --- art. 4 face-up card ---------------------------------------------------------

def test_art4_face_up_card_is_valid():
    shoe = ready_shoe()
    shoe.start_round()
    shoe.deal(C("9h"))
    shoe.deal(C("5d"), None, True)
    shoe.deal(C("Kc"))
    shoe.deal(C("2s"))
    rec = shoe.end_round()
    assert rec.face_up == 1 and rec.result.winner == PLAYER and not rec.void


# --- art. 8 burn at the start of a round -------------------------------------------

def test_art8_burn_between_rounds_not_during():
    shoe = ready_shoe()
    shoe.burn(C("3h"))
    assert shoe.burned == 9
    shoe.start_round()
    raises_match(RuleError, "art. 8", shoe.burn, C("3h"))


# --- art. 10 dealing errors --------------------------------------------------------

def test_art10_misplaced_card_corrected_round_continues():
    shoe = ready_shoe()
    shoe.start_round()
    shoe.deal(C("9h"), PLAYER)
    err = raises(bs.DealingError, shoe.deal, C("5d"), PLAYER)
    assert err.kind == bs.WRONG_HAND and isinstance(err, RuleError)
    assert shoe.state == bs.ERROR and shoe.expected() == NONE
    raises_match(RuleError, "correct() or void()", shoe.deal, C("Kc"))
    assert shoe.correct() == BANKER  # moved to the hand that was due
    shoe.deal(C("Kc"), PLAYER)
    shoe.deal(C("2s"), BANKER)
    rec = shoe.end_round()
    assert cards.names(rec.result.banker_cards) == ["5d", "2s"] and rec.result.winner == PLAYER


def test_art10_extra_card_discarded():
    shoe = ready_shoe()
    shoe.start_round()
    for code in NATURAL:
        shoe.deal(C(code))
    err = raises(bs.DealingError, shoe.deal, C("3c"))
    assert err.kind == bs.EXTRA_CARD
    assert shoe.counts[C("3c")] == 7  # it left the shoe all the same
    shoe.correct()
    rec = shoe.end_round()
    assert rec.result.cards_used == 4 and shoe.burned == 9


def test_art10_uncorrectable_error_voids_round_bets_returned():
    shoe = ready_shoe()
    shoe.start_round()
    shoe.deal(C("9h"))
    raises(bs.DealingError, shoe.deal, C("5d"), PLAYER)
    rec = shoe.void()
    assert rec.void and rec.result is None and shoe.state == bs.READY
    assert shoe.burned == 9                       # the misplaced 5d never joined a hand: discarded, counted once
    assert payouts.settle_void([("banker", 100), ("tie", 5)]) == [("banker", 0, "void"), ("tie", 0, "void")]
    assert play_round(shoe).number == 2


def test_art10_void_without_error_and_nothing_to_correct():
    shoe = ready_shoe()
    raises(RuleError, shoe.correct)
    raises(RuleError, shoe.void)
    shoe.start_round()
    shoe.deal(C("9h"))
    assert shoe.void().void


def test_end_round_only_when_complete():
    shoe = ready_shoe()
    raises(RuleError, shoe.end_round)
    shoe.start_round()
    raises(RuleError, shoe.start_round)
    shoe.deal(C("Ac"))
    raises_match(RuleError, "due to banker", shoe.end_round)
    assert shoe.expected() == BANKER


def test_whole_shoe_end_to_end_with_roads():
    """A full 6-deck shoe in a fixed mixed order: burn, live rounds, cut card 14 from
    the end (art. 2(1)), last round (art. 3(1)), every live result on the roads."""
    from firmware.games.baccarat import roads as br
    shoe = shoe_with(decks=6, burn="first_card", demo_rounds=0)
    order = [((i * 97) % 312) % 52 for i in range(312)]  # 97 is prime to 312: a permutation
    pos = 0
    while shoe.state == bs.BURNING:
        shoe.burn(order[pos])
        pos += 1
    roads = br.Roads()
    table = shoe.settings
    while shoe.state != bs.CLOSED:
        shoe.start_round()
        while shoe.expected() != NONE:
            shoe.deal(order[pos])
            pos += 1
            if pos == 312 - 14 and not shoe.last_round:
                shoe.cut_card()
        rec = shoe.end_round()
        r = rec.result
        roads.add(r.winner, r.player_pair, r.banker_pair)
        net = payouts.settle(table, r, [("banker", 100), ("player", 100)])
        assert net[0][1] + net[1][1] <= 0  # the house never pays both sides
    assert rec.last and pos >= 312 - 14 and shoe.remaining == 312 - pos
    assert sum(shoe.counts) == shoe.remaining
    assert roads.n_beads == shoe.live_rounds == shoe.rounds


def test_a_deal_without_a_sensed_hand_asks_no_hand_due_and_one_with_a_hand_is_still_checked():
    # A table that does not sense where a card is placed deals hand=None: the card goes to the hand
    # due (the round decides), Shoe.deal asks Round.expected() nothing; a sensed hand is compared (art. 10).
    shoe = ready_shoe()
    rnd = shoe.start_round()
    asked = count_calls(rnd, "expected")[0]
    assert shoe.deal(C("9h")) == PLAYER and shoe.deal(C("5d")) == BANKER
    assert asked[0] == 0
    assert shoe.deal(C("Kc"), PLAYER) == PLAYER and asked[0] == 1
    err = raises(bs.DealingError, shoe.deal, C("2s"), PLAYER)
    assert err.kind == bs.WRONG_HAND and asked[0] == 2
