# Baccarat round engine: arts. 5, 7, 9 (Methods 1 and 2, every branch), 12, 16, 17, 11, 18 settings.
from firmware import cards
from firmware.errors import RuleError, SettingsError
from firmware.games.baccarat import payouts
from firmware.games.baccarat import rules as bac
from firmware.games.baccarat import settings as bac_settings
from firmware.games.baccarat.rules import PLAYER, BANKER, TIE, NONE
from tests.firmware.expect import raises, raises_match


def rules(method=1, commission="A", tie_option="returned"):
    return bac_settings.round_settings(method, commission, tie_option)


def play(codes, method=1):
    return bac.play(rules(method), cards.parse_many(codes))


def round_of(codes, method=1):
    rnd = bac.Round(rules(method))
    for c in cards.parse_many(codes):
        rnd.deal(c)
    return rnd


ALL_BETS = [("player", 100), ("banker", 100), ("tie", 10), ("player_pair", 10), ("banker_pair", 10)]


def nets(result, bets=ALL_BETS, method=1, commission="A", tie_option="returned"):
    return dict((z, n) for z, n, _s in payouts.settle(rules(method, commission, tie_option), result, bets))


# --- art. 5 values and totals ---------------------------------------------------

def test_art5_point_values():
    expect = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
              "T": 0, "J": 0, "Q": 0, "K": 0}
    for r in cards.RANKS:
        for s in cards.SUITS:
            assert bac.value(cards.parse(r + s)) == expect[r]


def test_art5_total_is_sum_mod_10():
    assert bac.total(cards.parse_many(["9h", "9d"])) == 8
    assert bac.total(cards.parse_many(["Kh", "Qd", "Ts"])) == 0
    assert bac.total(cards.parse_many(["7h", "5d", "9s"])) == 1
    assert bac.total(cards.parse_many(["Ah"])) == 1


def test_art5_a_rounds_totals_are_its_hands_totals_after_every_card():
    # Round.totals (kept card by card as given: the draws, the result and the dealer display read it) is
    # total() of each hand after every card, over every rank in every place of a six-card round.
    ranks = "23456789TJQKA"
    for k in range(len(ranks)):
        codes = [ranks[(k + i * 5) % 13] + "cdhs"[i % 4] for i in range(6)]
        for method in (1, 2):
            rnd = bac.Round(rules(method))
            for card in cards.parse_many(codes):
                if rnd.complete:
                    break
                rnd.deal(card)
                assert (rnd.totals[PLAYER], rnd.totals[BANKER]) == (bac.total(rnd.player), bac.total(rnd.banker))
            result = rnd.result()
            assert (result.player_total, result.banker_total) == (bac.total(rnd.player), bac.total(rnd.banker))


# --- art. 7 dealing order -------------------------------------------------------

def test_art7_order_player_banker_player_banker():
    rnd = bac.Round(rules())
    seen = []
    for c in cards.parse_many(["2c", "3d", "Tc", "Ks"]):
        seen.append(rnd.expected())
        rnd.deal(c)
    assert seen == [PLAYER, BANKER, PLAYER, BANKER]
    assert cards.names(rnd.player) == ["2c", "Tc"]
    assert cards.names(rnd.banker) == ["3d", "Ks"]


def test_art7_out_of_order_card_caught():
    rnd = bac.Round(rules())
    raises_match(RuleError, "due to player", rnd.deal, cards.parse("2c"), BANKER)
    assert rnd.expected() == PLAYER and rnd.order == []
    rnd.deal(cards.parse("2c"), PLAYER)
    raises(RuleError, rnd.deal, cards.parse("3c"), PLAYER)


# --- art. 9(1) naturals (both methods) ----------------------------------------

def test_art9_1_player_natural_decides():
    for m in (1, 2):
        r = play(["9h", "5d", "Kc", "2s", "3c"], m)
        assert (r.winner, r.player_total, r.banker_total, r.cards_used) == (PLAYER, 9, 7, 4)


def test_art9_1_banker_natural_beats_player_seven_without_draw():
    r = play(["7c", "3d", "Th", "5s", "2c"])
    assert (r.winner, r.player_total, r.banker_total, r.cards_used) == (BANKER, 7, 8, 4)


def test_art9_1_low_hand_does_not_draw_against_natural():
    r = play(["Ac", "4d", "Th", "4s", "9c"])  # P 1, B 8: decided, P draws nothing
    assert (r.winner, r.cards_used) == (BANKER, 4)


def test_art9_1_equal_naturals_tie():
    r = play(["8c", "Qh", "Kd", "8s"])
    assert (r.winner, r.player_total, r.banker_total) == (TIE, 8, 8)
    r = play(["9c", "4h", "Kd", "5s"])  # 9 v 9
    assert r.winner == TIE


# --- art. 9(2) equal totals 0-7: both draw, Player first ----------------------

def test_art9_2_equal_totals_both_draw_player_first():
    for m in (1, 2):
        rnd = round_of(["Ac", "Ad", "2c", "2d"], m)  # 3 v 3
        assert rnd.expected() == PLAYER
        rnd.deal(cards.parse("5h"))  # P 8
        assert rnd.expected() == BANKER  # draws although now lower
        rnd.deal(cards.parse("4s"))  # B 7
        assert rnd.complete
        r = rnd.result()
        assert (r.winner, r.player_total, r.banker_total, r.cards_used) == (PLAYER, 8, 7, 6)


def test_art9_2_banker_draws_even_when_player_third_card_loses():
    r = play(["Tc", "Td", "Th", "Ts", "Kc", "3d"], 2)  # 0 v 0, P draws 0, B draws 3
    assert (r.winner, r.player_total, r.banker_total, r.cards_used) == (BANKER, 0, 3, 6)


def test_art9_2_equal_after_draws_is_tie():
    r = play(["7c", "7d", "Tc", "Td", "2h", "2s"])  # 7 v 7, both +2 -> 9 v 9
    assert (r.winner, r.cards_used) == (TIE, 6)


# --- art. 9(3) Method 1 ----------------------------------------------------------

def test_art9_3_lower_hand_draws_first_player():
    rnd = round_of(["Ac", "3d", "Ah", "3s"])  # P 2, B 6
    assert rnd.expected() == PLAYER


def test_art9_3_lower_hand_draws_first_banker():
    rnd = round_of(["3d", "Ac", "3s", "Ah"])  # P 6, B 2
    assert rnd.expected() == BANKER


def test_art9_m1_3_i_still_lower_other_stands_and_wins():
    r = play(["Ac", "3d", "Ah", "3s", "2h", "9c"])  # P 2+2 = 4 < 6
    assert (r.winner, r.player_total, r.banker_total, r.cards_used) == (BANKER, 4, 6, 5)
    r = play(["Ac", "3d", "Ah", "3s", "9h"])  # P 2+9 = 11 -> 1, wraps, still lower
    assert (r.winner, r.player_total, r.cards_used) == (BANKER, 1, 5)


def test_art9_m1_3_ii_greater_other_draws():
    r = play(["Ac", "3d", "Ah", "3s", "5c", "2c"])  # P 7 > 6, B draws 2 -> 8
    assert (r.winner, r.player_total, r.banker_total, r.cards_used) == (BANKER, 7, 8, 6)
    r = play(["Ac", "3d", "Ah", "3s", "5c", "Kc"])  # B draws K -> 6 < 7
    assert (r.winner, r.cards_used) == (PLAYER, 6)


def test_art9_m1_3_ii_equal_other_must_draw():
    rnd = round_of(["Ac", "3d", "Ah", "3s", "4c"])  # P 6 == B 6
    assert rnd.expected() == BANKER
    rnd.deal(cards.parse("3c"))
    r = rnd.result()
    assert (r.winner, r.banker_total, r.cards_used) == (BANKER, 9, 6)
    r = play(["Ac", "3d", "Ah", "3s", "4c", "Kc"])  # B stays 6: tie after both drew
    assert (r.winner, r.cards_used) == (TIE, 6)


def test_art9_m1_banker_lower_symmetric():
    r = play(["3d", "Ac", "3s", "Ah", "4c", "Kc"])  # B 2 draws 4 -> 6 == P 6, P draws K
    assert (r.winner, r.player_total, r.banker_total, r.cards_used) == (TIE, 6, 6, 6)
    assert len(r.player_cards) == 3 and len(r.banker_cards) == 3


# --- art. 9(3) Method 2 ----------------------------------------------------------

def test_art9_m2_3_i_still_lower_other_stands_and_wins():
    r = play(["Ac", "3d", "Ah", "3s", "2h"], 2)
    assert (r.winner, r.cards_used) == (BANKER, 5)


def test_art9_m2_3_ii_equal_other_stands_tie():
    rnd = round_of(["Ac", "3d", "Ah", "3s", "4c"], 2)  # P 6 == B 6
    assert rnd.expected() == NONE and rnd.complete
    r = rnd.result()
    assert (r.winner, r.player_total, r.banker_total, r.cards_used) == (TIE, 6, 6, 5)
    raises_match(RuleError, "art. 9", rnd.deal, cards.parse("2c"))


def test_art9_m2_3_iii_greater_other_draws():
    r = play(["Ac", "3d", "Ah", "3s", "5c", "2c"], 2)
    assert (r.winner, r.player_total, r.banker_total, r.cards_used) == (BANKER, 7, 8, 6)
    r = play(["Ac", "3d", "Ah", "3s", "5c", "Ac"], 2)  # B 7 == P 7 after both drew
    assert (r.winner, r.cards_used) == (TIE, 6)


# Art. 9 first drawer on the two-card totals, written out by hand from RULES.md:
# row = Player total 0..9, column = Banker total 0..9; "-" a natural decides
# (9(1)), "P" Player draws first (9(2) equal totals, 9(3) Player lower), "B"
# Banker draws first (9(3) Banker lower).
FIRST_DRAWER_TABLE = (
    "PPPPPPPP--",  # P 0
    "BPPPPPPP--",  # P 1
    "BBPPPPPP--",  # P 2
    "BBBPPPPP--",  # P 3
    "BBBBPPPP--",  # P 4
    "BBBBBPPP--",  # P 5
    "BBBBBBPP--",  # P 6
    "BBBBBBBP--",  # P 7
    "----------",  # P 8
    "----------",  # P 9
)


def test_art9_first_drawer_matches_hand_written_table():
    code = {PLAYER: "P", BANKER: "B", NONE: "-"}
    for p in range(10):
        row = "".join(code[bac.first_drawer(p, b)] for b in range(10))
        assert row == FIRST_DRAWER_TABLE[p], (p, row)


def test_art9_3_other_draws_cases_from_the_text():
    # P 2 v B 6, Player drew to 6: equal -> M1 (ii) the other draws, M2 (ii) stands
    assert bac.other_draws(1, 2, 6, 6) and not bac.other_draws(2, 2, 6, 6)
    # P 2 v B 6, Player drew to 5: still lower -> (i) the other stands, both methods
    assert not bac.other_draws(1, 2, 6, 5) and not bac.other_draws(2, 2, 6, 5)
    # P 2 v B 6, Player drew to 7: greater -> the other draws, both methods
    assert bac.other_draws(1, 2, 6, 7) and bac.other_draws(2, 2, 6, 7)
    # 9(2): equal two-card totals, the other draws whatever the first drew
    assert bac.other_draws(2, 4, 4, 0) and bac.other_draws(1, 4, 4, 9)
    # Banker lower (B 3 v P 5), Banker drew to 5: equal -> M1 draws, M2 stands
    assert bac.other_draws(1, 5, 3, 5) and not bac.other_draws(2, 5, 3, 5)


def test_art9_1_at_most_one_third_card():
    rnd = round_of(["Ac", "Ad", "2c", "2d", "5h", "4s"])
    assert rnd.complete
    raises(RuleError, rnd.deal, cards.parse("2s"))


def test_play_needs_more_cards():
    raises_match(RuleError, "need more cards", play, ["Ac", "3d", "Ah"])
    raises_match(RuleError, "need more cards", play, ["Ac", "3d", "Ah", "3s", "5c"])
    r = play(["9h", "5d", "Kc", "2s", "3c", "4c", "5c"])  # extra cards ignored
    assert r.cards_used == 4


def test_result_before_complete_refused():
    rnd = round_of(["Ac", "3d"])
    raises(RuleError, rnd.result)


# --- art. 12 pairs --------------------------------------------------------------

def test_art12_pairs_same_rank_any_suit():
    r = play(["Jc", "8d", "Jh", "Ks"])  # P J+J pair, B 8+K no pair (natural 8)
    assert r.player_pair and not r.banker_pair
    r = play(["Jc", "Qd", "Jh", "Ks", "9c", "8c"])  # Q+K is not a pair
    assert r.player_pair and not r.banker_pair
    r = play(["4c", "7d", "Ts", "7s", "Kh", "2c"])
    assert r.banker_pair and not r.player_pair


def test_art12_third_card_does_not_make_a_pair():
    r = play(["Ac", "Ad", "2c", "2d", "Ah", "2h"])
    assert not r.player_pair and not r.banker_pair


# --- art. 16 payouts ------------------------------------------------------------

def test_art16_method1_tie_pays_14_to_1():
    r = play(["8c", "Qh", "Kd", "8s"])
    assert nets(r, [("tie", 10), ("player", 100), ("banker", 100)], 1) == {"tie": 140, "player": 0, "banker": 0}


def test_art16_method2_tie_pays_9_to_1():
    r = play(["8c", "Qh", "Kd", "8s"], 2)
    assert nets(r, [("tie", 10)], 2) == {"tie": 90}


def test_art16_pairs_pay_11_to_1_and_even_money_sides():
    rnd = round_of(["Jc", "Qd", "Jh", "6s", "5c"])
    r = rnd.result()  # P 5 < 6: banker wins with 6, no commission either option
    assert r.winner == BANKER and r.banker_total == 6
    assert nets(r) == {"player": -100, "banker": 100, "tie": -10, "player_pair": 110, "banker_pair": -10}
    assert nets(r, method=2, commission="B")["banker"] == 100


# --- art. 17 commission ---------------------------------------------------------

def test_art17_A_five_percent_on_win_with_7_8_9():
    r = play(["9h", "5d", "Kc", "2s"])  # player wins with 9
    assert nets(r)["player"] == 95
    r = play(["7c", "3d", "Th", "5s"])  # banker wins with 8
    assert nets(r)["banker"] == 95
    r = play(["Ac", "3d", "Ah", "3s", "5c", "Kc"])  # player wins with 7
    assert nets(r)["player"] == 95


def test_art17_A_no_commission_below_7():
    r = play(["Ac", "3d", "Ah", "3s", "2h"])  # banker wins with 6
    assert nets(r)["banker"] == 100


def test_art17_A_rounding_commission_down():
    assert payouts.commission("A", 9, 100) == 5
    assert payouts.commission("A", 9, 30) == 1  # 1.5 -> 1: the player keeps the fraction
    assert payouts.commission("A", 7, 19) == 0  # 0.95 -> 0
    assert payouts.commission("A", 8, 20) == 1
    assert payouts.commission("A", 6, 1000) == 0
    r = play(["9h", "5d", "Kc", "2s"])
    assert nets(r, [("player", 30)]) == {"player": 29}


def test_art17_B_half_taken_on_win_with_4():
    r = play(["2h", "3d", "Tc", "Ts", "2c", "Kd"], 2)  # P 4 beats B 3
    assert (r.winner, r.player_total) == (PLAYER, 4)
    assert nets(r, [("player", 100)], 2, "B") == {"player": 50}
    assert nets(r, [("player", 101)], 2, "B") == {"player": 51}  # 50.5 taken -> 50
    assert nets(r, [("player", 100)], 2, "A") == {"player": 100}
    assert payouts.commission("B", 4, 1) == 0


def test_art17_B_no_commission_on_7_8_9():
    r = play(["9h", "5d", "Kc", "2s"])
    assert nets(r, [("player", 100)], 1, "B") == {"player": 100}


# --- art. 11 tie option, art. 10 void ---------------------------------------------

def test_art11_tie_bets_not_lost_per_option():
    r = play(["8c", "Qh", "Kd", "8s"])
    for option in ("returned", "standing", "changeable"):
        out = payouts.settle(rules(1, "A", option), r, [("player", 100), ("banker", 50)])
        assert out == [("player", 0, option), ("banker", 0, option)]


def test_art10_void_returns_every_bet():
    assert payouts.settle_void(ALL_BETS) == [(z, 0, "void") for z, _a in ALL_BETS]
    raises(RuleError, payouts.settle_void, [("dragon", 5)])


def test_bad_bets_refused():
    r = play(["9h", "5d", "Kc", "2s"])
    raises_match(RuleError, "unknown bet zone", payouts.settle, rules(), r, [("dragon", 5)])
    raises(RuleError, payouts.settle, rules(), r, [("player", -5)])
    raises(RuleError, payouts.settle, rules(), r, [("player", 2.5)])
    raises(RuleError, payouts.settle, rules(), r, [("player", True)])


# --- art. 18 settings ------------------------------------------------------------

FULL = {"method": 1, "commission": "A", "tie_option": "returned", "decks": 8, "burn": "decks",
        "cut_card": "last_round", "demo_rounds": 3, "dealer": "shoe", "burn_each_round": False}


def with_(name, value):
    d = dict(FULL)
    d[name] = value
    return d


def test_art18_settings_load():
    s = bac_settings.load_settings(FULL)
    assert s.method == 1 and s.decks == 8 and s.cut_card == "last_round"
    assert s.as_pairs() == (("method", 1), ("commission", "A"), ("tie_option", "returned"), ("decks", 8),
                            ("burn", "decks"), ("cut_card", "last_round"), ("demo_rounds", 3),
                            ("dealer", "shoe"), ("burn_each_round", False))


def test_art8_burn_each_round_is_a_required_yes_no_setting():
    raises_match(SettingsError, "'burn_each_round'", bac_settings.load_settings,
                 dict((k, v) for k, v in FULL.items() if k != "burn_each_round"))
    raises_match(SettingsError, "art. 8", bac_settings.load_settings, with_("burn_each_round", 1))
    raises(SettingsError, bac_settings.load_settings, with_("burn_each_round", "yes"))
    assert bac_settings.load_settings(with_("burn_each_round", True)).burn_each_round is True


def test_art18_bad_settings_clear_errors():
    raises_match(SettingsError, "'method'", bac_settings.load_settings, with_("method", 3))
    raises_match(SettingsError, "art. 9", bac_settings.load_settings, with_("method", 3))
    raises_match(SettingsError, "'decks' = 13", bac_settings.load_settings, with_("decks", 13))
    raises_match(SettingsError, "6, 7, 8", bac_settings.load_settings, with_("decks", 5))
    raises_match(SettingsError, "'commission'", bac_settings.load_settings, with_("commission", "C"))
    raises(SettingsError, bac_settings.load_settings, with_("method", True))
    raises(SettingsError, bac_settings.load_settings, with_("decks", "8"))
    raises(SettingsError, bac_settings.load_settings, with_("demo_rounds", 4))
    raises(SettingsError, bac_settings.load_settings, with_("tie_option", "lost"))
    raises_match(SettingsError, "unknown Baccarat setting", bac_settings.load_settings, with_("colour", "red"))
    d = dict(FULL)
    del d["commission"]
    raises_match(SettingsError, "no default", bac_settings.load_settings, d)
    raises(SettingsError, bac_settings.round_settings, 3, "A")


def test_art18_settings_validated_by_their_constructor():
    """Issue 8: method=3 paid a tie 9:1 and commission "Z" acted as option B when
    the settings object was built without load_settings."""
    raises_match(SettingsError, "art. 9", bac_settings.BaccaratSettings, method=3, commission="A", tie_option="returned")
    raises_match(SettingsError, "art. 17", bac_settings.BaccaratSettings, method=1, commission="Z", tie_option="returned")
    raises_match(SettingsError, "art. 11", bac_settings.BaccaratSettings, method=1, commission="A", tie_option="lost")
    raises_match(SettingsError, "no default", bac_settings.BaccaratSettings, method=1, commission="A")
    raises(SettingsError, bac_settings.BaccaratSettings, method=1, commission="A", tie_option="returned", decks=8.0)
    raises(SettingsError, bac_settings.BaccaratSettings, method=1.0, commission="A", tie_option="returned")
    raises(SettingsError, bac_settings.BaccaratSettings, method=1, commission="A", tie_option="returned", demo_rounds=False)
    raises(SettingsError, bac.Round, {"method": 1, "commission": "A", "tie_option": "returned"})
    raises(SettingsError, bac_settings.load_settings, {1: "x"})


def test_art16_art17_payouts_refuse_an_unknown_option():
    """Every payout names each option and raises on any other, even if a settings
    object was changed after it was validated."""
    tie = play(["8c", "Qh", "Kd", "8s"])
    s = rules()
    s.method = 3
    raises(SettingsError, payouts.settle, s, tie, [("tie", 10)])  # was paid 9:1
    raises(SettingsError, payouts.tie_odds, 3)
    raises(SettingsError, payouts.tie_odds, True)
    s = rules()
    s.commission = "Z"
    four = play(["2h", "3d", "Tc", "Ts", "2c", "Kd"], 2)  # P 4 beats B 3
    raises(SettingsError, payouts.settle, s, four, [("player", 100)])  # was option B: 50 taken
    raises(SettingsError, payouts.commission, "Z", 4, 100)
    s = rules()
    s.tie_option = "lost"
    raises(SettingsError, payouts.settle, s, tie, [("player", 100)])
    raises(SettingsError, bac.other_draws, 3, 2, 6, 6)


# --- card numbers: an alarm, never a result ------------------------------------------

def test_art5_card_outside_the_deck_is_an_alarm_and_changes_nothing():
    """Issue 8: card -1 scored as an ace and was paid; 52 raised IndexError after the
    hand had changed. A card number no deck holds is an IntegrityError, the round unchanged."""
    from firmware.errors import IntegrityError
    rnd = round_of(["Ac", "3d"])
    for bad in (-1, 52, True, False, 2.0, "2c", None):
        raises(IntegrityError, rnd.deal, bad)
        assert rnd.order == [PLAYER, BANKER] and len(rnd.player) == 1 and len(rnd.banker) == 1
        assert rnd.expected() == PLAYER and rnd.face_up == 0
    raises(IntegrityError, bac.play, rules(), [-1, 4, 33, 8])  # was: Player 1 (the "ace")
    raises(IntegrityError, bac.play, rules(), cards.parse_many(NINE_V_SEVEN) + [52])  # extra card too
    raises(IntegrityError, bac.value, 52)
    raises(IntegrityError, bac.value, -1)
    raises(IntegrityError, bac.total, [1, True])
    raises(IntegrityError, bac.is_pair, 0, 52)


NINE_V_SEVEN = ["9h", "5d", "Kc", "2s"]


def test_art7_hand_and_face_up_must_be_well_formed():
    rnd = round_of(["Ac"])
    raises(RuleError, rnd.deal, cards.parse("3d"), True)  # True is not BANKER
    raises(RuleError, rnd.deal, cards.parse("3d"), 1.0)
    raises(RuleError, rnd.deal, cards.parse("3d"), TIE)
    raises(RuleError, rnd.deal, cards.parse("3d"), None, "yes")
    raises(RuleError, rnd.deal, cards.parse("3d"), None, 1)
    assert rnd.order == [PLAYER] and rnd.face_up == 0
    rnd.deal(cards.parse("3d"), BANKER, True)
    assert rnd.face_up == 1


def test_rule_functions_refuse_impossible_totals():
    for bad in (-1, 10, 2.0, True, None):
        raises(RuleError, bac.first_drawer, bad, 3)
        raises(RuleError, bac.winner_of, 3, bad)
        raises(RuleError, bac.other_draws, 1, 2, 6, bad)
        raises(RuleError, payouts.commission, "A", bad, 100)


def test_art16_stakes_and_bets_must_be_well_formed():
    r = play(NINE_V_SEVEN)
    for bets in (None, 5, [("player",)], [("player", 10, 1)], ["player"], {"player": 10}):
        raises(RuleError, payouts.settle, rules(), r, bets)
        raises(RuleError, payouts.settle_void, bets)
    raises(RuleError, payouts.settle, rules(), r, [("player", 10.0)])
    raises(RuleError, payouts.settle, rules(), (0, 9, 7, False, False, (), (), 4), [("player", 10)])
    raises(RuleError, payouts.commission, "A", 9, 10.0)


# --- settle_nets: every seat's zones at once, as settle_zone settles each (arts. 11, 16, 17) -------

def test_settle_nets_nets_every_bet_as_settle_zone_does():
    from array import array
    state = [3]

    def rnd(n):
        state[0] = (state[0] * 1103515245 + 12345) & 0x7FFFFFFF
        return (state[0] >> 8) % n

    width = len(payouts.ZONES)
    terms = bytearray(width)
    results = 0
    for trial in range(120):
        settings = rules(1 + rnd(2), "AB"[rnd(2)], bac_settings.TIE_OPTIONS[rnd(3)])
        deck = [rnd(52) for _ in range(6)]
        result = bac.play(settings, deck)
        results |= 1 << result.winner
        bets = array("i", [(0 if rnd(3) else (1, 5, 20, 100, 199, 1000)[rnd(6)]) for _ in range(7 * width)])
        got = array("i", [77] * len(bets))
        payouts.settle_nets(settings, result, bets, got, terms)
        for i in range(len(bets)):
            want = payouts.settle_zone(settings, result, payouts.ZONES[i % width], bets[i])[0] if bets[i] else 0
            assert got[i] == want, (trial, i, bets[i], got[i], want)
    assert results == 7                              # player, banker and tie results all settled


def test_settle_nets_refuses_what_settle_zone_refuses():
    result = play(["9h", "5d", "Kc", "Qs"])
    terms = bytearray(len(payouts.ZONES))
    nets = [0] * 10
    raises(RuleError, payouts.settle_nets, rules(), result, [0, 0, 0, -5, 0, 0, 0, 0, 0, 0], nets, terms)
    raises(SettingsError, payouts.settle_nets, "not settings", result, [10, 0, 0, 0, 0], nets, terms)
    raises(RuleError, payouts.settle_nets, rules(), "not a result", [10, 0, 0, 0, 0], nets, terms)
    payouts.settle_nets("unchecked: nothing bet", result, [0] * 5, nets, terms)
    assert nets[:5] == [0] * 5
    # Each amount a whole number of units (a float, a bool: not), through the bet slots too, after a good bet.
    for amount in (2.5, True, 10.0):
        bets = [0, 10, 0, 0, 0, 0, amount, 0, 0, 0]
        raises_match(RuleError, "whole number of units", payouts.settle_nets, rules(), result, bets, nets, terms)
        raises_match(RuleError, "whole number of units", payouts.settle_nets, rules(), result, bets, nets, terms,
                     [1, 6], 2)


def test_the_commission_rate_of_a_round_is_commissions_for_every_option_total_and_amount():
    # settle_nets asks commission() at a round's first hand win and nets the round's other hand wins
    # by its rate (art. 17, rounded down): the same amount for every option, total and amount.
    for option in ("A", "B"):
        for total in range(10):
            cut, per = payouts._commission_rate(option, total)
            for win in list(range(0, 450)) + [999, 1000, 1001, 12345, 2 ** 30 - 1]:
                assert win * cut // per == payouts.commission(option, total, win), (option, total, win)


def test_settle_nets_asks_commission_once_a_round():
    # Four Banker bets won: commission() is asked for the first; the others are netted at its rate.
    result = play(["5h", "9d", "Kc", "Qs"])                 # Banker 9 wins (natural)
    assert result.winner == bac.BANKER
    width = len(payouts.ZONES)
    bets = [0] * (4 * width)
    for seat, amount in enumerate((100, 21, 1000, 7)):
        bets[seat * width + bac.BANKER] = amount
    nets = [0] * len(bets)
    asked = []
    commission = payouts.commission

    def counted(option, total, win):
        asked.append(win)
        return commission(option, total, win)
    payouts.commission = counted
    try:
        payouts.settle_nets(rules(1, "A"), result, bets, nets, bytearray(width))
    finally:
        payouts.commission = commission
    assert asked == [100]
    assert [nets[seat * width + bac.BANKER] for seat in range(4)] == [95, 20, 950, 7]


def test_settle_nets_over_the_bet_slots_nets_those_slots_and_leaves_the_rest():
    # A table passes where its round's bets are (slots): those are netted as a whole walk nets them,
    # and no other index of nets is written (the caller keeps them 0).
    from array import array
    state = [11]

    def rnd(n):
        state[0] = (state[0] * 1103515245 + 12345) & 0x7FFFFFFF
        return (state[0] >> 8) % n

    width = len(payouts.ZONES)
    terms = bytearray(width)
    for trial in range(60):
        settings = rules(1 + rnd(2), "AB"[rnd(2)], bac_settings.TIE_OPTIONS[rnd(3)])
        result = bac.play(settings, [rnd(52) for _ in range(6)])
        bets = array("i", [(0 if rnd(3) else (1, 5, 20, 100, 1000)[rnd(5)]) for _ in range(7 * width)])
        slots = array("H", [0] * len(bets))
        n = 0
        for i in range(len(bets)):
            if bets[i]:
                slots[n] = i
                n += 1
        want = array("i", [0] * len(bets))
        payouts.settle_nets(settings, result, bets, want, terms)
        got = array("i", [0] * len(bets))
        payouts.settle_nets(settings, result, bets, got, terms, slots, n)
        assert list(got) == list(want), trial
        if n:                                   # a slot left out: its net is not written
            got = array("i", [77] * len(bets))
            payouts.settle_nets(settings, result, bets, got, terms, slots, n - 1)
            assert got[slots[n - 1]] == 77 and [got[slots[k]] for k in range(n - 1)] == [
                want[slots[k]] for k in range(n - 1)]
            assert all(got[i] == 77 for i in range(len(bets)) if not bets[i])
