# Craps table (dispatch 53/2010): placement rules and refusals, puck, shooter change (art. 4), options.
from firmware.errors import RuleError, SettingsError
from firmware.games.craps import rules as C
from firmware.games.craps import settings as CS
from tests.firmware.craps_helpers import BASE, D, outcome, place, table
from tests.firmware.expect import raises_match


def refused(t, kind, amount, number=0, on=None, seat=0):
    bet_id, reason = t.place_bet(seat, kind, amount, number, on)
    assert bet_id is None and reason, "expected a refusal for %s %d" % (kind, amount)
    return reason


def test_stake_multiple_of_minimum_art_5_6():
    t = table()
    assert "art. 5(6)" in refused(t, "field", 7)
    assert "art. 5(6)" in refused(t, "field", 0)
    assert "art. 5(6)" in refused(t, "field", -5)
    place(t, "field", 15)


def test_uneven_payout_is_refused_never_rounded_art_6():
    t = table()
    assert "multiple of 6" in refused(t, "big_number", 5, 6)      # Big 6 pays 7:6
    place(t, "big_number", 30, 8)
    place(t, "big_number", 5, 5)                                  # 7:5 on 5 = 7, exact
    place(t, "big_number", 5, 10)                                 # 9:5 on 5 = 9, exact
    assert "multiple of 4" in refused(t, "horn", 10)              # 27:4 of the whole stake
    place(t, "horn", 20)
    p = place(t, "pass", 10)
    t.roll(D[5])
    assert "multiple of 2" in refused(t, "pass_odds", 5, on=p)    # 3:2 on 5 would be 7.5
    place(t, "pass_odds", 10, on=p)
    for point, bad, need in ((4, 5, 2), (9, 5, 3), (6, 10, 6)):
        t = table()
        d = place(t, "dont_pass", 10)
        t.roll(D[point])
        assert ("multiple of %d" % need) in refused(t, "dont_pass_odds", bad, on=d)
        place(t, "dont_pass_odds", 30 if need != 2 else 10, on=d)


def test_pass_and_dont_pass_only_on_the_come_out_art_5_2():
    t = table()
    place(t, "pass", 10)
    place(t, "dont_pass", 10)
    t.roll(D[8])
    assert "puck is OFF" in refused(t, "pass", 10)
    assert "puck is OFF" in refused(t, "dont_pass", 10)
    t.roll(D[8])
    place(t, "pass", 10)


def test_come_only_once_a_point_is_set_art_5_2_5_and_6():
    t = table()
    assert "art. 5(2)(5)" in refused(t, "come", 10)
    assert "art. 5(2)(5)" in refused(t, "dont_come", 10)
    t.roll(D[9])
    place(t, "come", 10)
    place(t, "dont_come", 10)


def test_odds_only_behind_a_bet_with_a_point_art_5_2_2():
    t = table()
    p = place(t, "pass", 10)
    assert "has a point" in refused(t, "pass_odds", 10, on=p)      # come-out: no point yet
    t.roll(D[4])
    c = place(t, "come", 10)
    assert "has a point" in refused(t, "come_odds", 10, on=c)     # come bet before its come point
    assert "must back a come" in refused(t, "come_odds", 10, on=p)
    assert "must back a pass" in refused(t, "pass_odds", 10, on=c)
    assert "not open" in refused(t, "pass_odds", 10, on=999)
    assert "same seat" in refused(t, "pass_odds", 10, on=p, seat=1)
    place(t, "pass_odds", 10, on=p)


def test_max_odds_3_4_5_caps_the_total_odds():
    # pass/come odds: stake <= m x line bet; m = 3 on 4/10, 4 on 5/9, 5 on 6/8
    for point, m in ((4, 3), (10, 3), (5, 4), (9, 4), (6, 5), (8, 5)):
        t = table()
        p = place(t, "pass", 10)
        t.roll(D[point])
        assert "max_odds" in refused(t, "pass_odds", 10 * m + 10, on=p)
        place(t, "pass_odds", 10 * m - 10, on=p)
        assert "max_odds" in refused(t, "pass_odds", 20, on=p)     # cumulative
        place(t, "pass_odds", 10, on=p)


def test_lay_odds_cap_is_on_the_win():
    # don't odds: the win is capped at m x the line bet, so 3-4-5x lays 6x on every point
    for point in (4, 5, 6, 8, 9, 10):
        t = table()
        d = place(t, "dont_pass", 10)
        t.roll(D[point])
        assert "max_odds" in refused(t, "dont_pass_odds", 90, on=d)
        place(t, "dont_pass_odds", 60, on=d)


def test_zero_max_odds_means_no_odds():
    t = table(max_odds=[0, 0, 2])
    p = place(t, "pass", 10)
    t.roll(D[4])
    assert "max_odds" in refused(t, "pass_odds", 10, on=p)


def test_one_and_multi_roll_bets_any_time_art_5_5():
    t = table()
    for phase in range(2):
        for kind, number in (("any_craps", 0), ("horn", 0), ("field", 0), ("big", 0), ("small", 0),
                             ("hard", 4), ("big_number", 9)):
            place(t, kind, 20, number)
        t.roll(D[4])


def test_malformed_bets_raise():
    t = table()
    raises_match(RuleError, "unknown craps bet type", t.place_bet, 0, "place_6", 10)
    raises_match(RuleError, "unknown craps bet type", t.place_bet, 0, 20, 10)
    raises_match(RuleError, "4, 6, 8 or 10", t.place_bet, 0, "hard", 10, 5)
    raises_match(RuleError, "big number", t.place_bet, 0, "big_number", 10, 7)
    raises_match(RuleError, "seat", t.place_bet, 14, "field", 10)
    raises_match(RuleError, "whole number", t.place_bet, 0, "field", 10.0)
    raises_match(RuleError, "takes no number", t.place_bet, 0, "field", 10, 4)
    raises_match(RuleError, "needs the id", t.place_bet, 0, "pass_odds", 10)


def test_table_maximum_and_open_bet_limit():
    t = table(maximum=100, max_open_bets=2)
    assert "maximum 100" in refused(t, "field", 105)
    place(t, "field", 100)
    place(t, "field", 5)
    assert "maximum of 2 open bets" in refused(t, "field", 5)


def test_table_maximum_bounds_a_seats_spot_not_each_addition():
    # Chips added after a roll to a hard way, a big number or odds are a bet of their own on the same
    # spot: the table maximum bounds what the seat has there in all (it was checked per addition, so
    # a hard 8 of 100 at a 100 maximum took 100 more each roll). Other seats and numbers are their own.
    t = table(maximum=100)
    line = place(t, "pass", 100)
    t.roll(D[6])                                        # point 6: odds up to 5x the line bet (500)
    place(t, "hard", 100, 8)
    place(t, "big_number", 60, 8)
    place(t, "pass_odds", 100, on=line)
    t.roll(D[9])                                        # nothing of these decided
    assert "200 in all" in refused(t, "hard", 100, 8) and "maximum 100" in refused(t, "hard", 5, 8)
    assert "120 in all" in refused(t, "big_number", 60, 8)
    assert "105 in all" in refused(t, "pass_odds", 5, on=line)
    place(t, "big_number", 30, 8)                       # 90 in all
    place(t, "hard", 100, 6)
    place(t, "hard", 100, 8, seat=1)
    assert [b[4] for b in t.open_bets()] == [100, 100, 60, 100, 30, 100, 100]
    u = table(maximum=0)                                # no maximum: the spot grows as the player adds
    place(u, "hard", 5000, 8)
    place(u, "hard", 5000, 8)


def test_puck_cycle_art_5_2_1():
    t = table()
    assert t.come_out() and t.phase() == "come_out"
    for total, point in ((7, 0), (11, 0), (2, 0), (3, 0), (12, 0), (5, 5), (6, 5), (8, 5), (5, 0),
                         (10, 10), (7, 0)):
        t.roll(D[total])
        assert t.point == point, (total, t.point)
        assert t.phase() == ("point" if point else "come_out")
    assert t.rolls == 11


def test_shooter_changes_on_seven_out_art_4():
    t = table()
    t.roll(D[7])                    # come-out 7: natural, same shooter
    assert not t.shooter_changed
    t.roll(D[2])                    # come-out craps: same shooter under the default reading
    assert not t.shooter_changed
    t.roll(D[6])
    t.roll(D[7])                    # seven-out
    assert t.shooter_changed and t.seven_out and t.shooter_changes == 1
    t.roll(D[7])
    assert not t.shooter_changed


def test_shooter_change_on_come_out_craps_option_art_4_2():
    t = table(shooter_change_on_come_out_craps=True)
    for total in (2, 3, 12):
        t.roll(D[total])
        assert t.shooter_changed and not t.seven_out
    t.roll(D[11])
    assert not t.shooter_changed
    t.roll(D[4])
    t.roll(D[3])                    # craps during a point: not the first throw, no change
    assert not t.shooter_changed
    t.roll(D[7])
    assert t.shooter_changed and t.shooter_changes == 4
    t.shooter_stops()               # art. 4(1)
    assert t.shooter_changes == 5


def test_may_shoot_needs_a_bet_art_2_1():
    t = table()
    assert not t.may_shoot(2)
    place(t, "pass", 5, seat=2)
    assert t.may_shoot(2) and not t.may_shoot(3)


def test_off_on_come_out_hard_and_big_numbers():
    t = table(off_on_come_out=["hard", "big_number"])
    h = place(t, "hard", 10, 4)
    b = place(t, "big_number", 10, 4)
    assert t.roll(D[7]) == []       # come-out 7: both off, they stand
    assert outcome(t.roll((2, 2)), h) is None     # come-out: hard 4 rolled, still off; point 4 set
    r = t.roll((2, 2))              # point roll: now working
    assert outcome(r, h) == ("win", 70) and outcome(r, b) == ("win", 18)
    t = table()
    h = place(t, "hard", 10, 4)
    assert outcome(t.roll(D[7]), h) == ("lose", -10)   # default: working on the come-out (art. 5(5))


def test_come_odds_off_on_come_out_are_returned():
    t = table(off_on_come_out=["come_odds"])
    t.roll(D[4])
    c = place(t, "come", 10)
    t.roll(D[6])
    o = place(t, "come_odds", 20, on=c)
    t.roll(D[4])                    # pass point made: next roll is a come-out
    r = t.roll(D[6])                # come-out 6: come point wins, its odds were off
    assert outcome(r, c) == ("win", 10) and outcome(r, o) == ("push", 0)
    t = table()
    t.roll(D[4])
    c = place(t, "come", 10)
    t.roll(D[6])
    o = place(t, "come_odds", 20, on=c)
    t.roll(D[4])
    r = t.roll(D[6])                # default: odds working, paid 6:5
    assert outcome(r, o) == ("win", 24)


def test_take_down_rules():
    t = table()
    p = place(t, "pass", 10)
    d = place(t, "dont_pass", 10)
    f = place(t, "field", 5)
    out, reason = t.take_down(f)    # not yet rolled: always
    assert reason is None and out[0][C.RESULT] == "down" and out[0][C.STAKE] == 5
    t.roll(D[6])
    po = place(t, "pass_odds", 10, on=p)
    out, reason = t.take_down(p)
    assert out is None and "contract" in reason
    out, reason = t.take_down(d)    # don't pass may come down; odds go with it
    assert reason is None and len(out) == 1
    out, reason = t.take_down(po)
    assert reason is None
    t2 = table(take_down=[])
    h = place(t2, "hard", 10, 6)
    t2.roll(D[9])
    out, reason = t2.take_down(h)
    assert out is None and "take_down" in reason
    out, reason = t2.take_down(12345)
    assert "not open" in reason


def test_take_down_line_bet_brings_its_odds():
    t = table()
    d = place(t, "dont_pass", 10)
    t.roll(D[4])
    o = place(t, "dont_pass_odds", 20, on=d)
    t.roll(D[9])
    out, reason = t.take_down(d)
    assert reason is None and sorted(x[C.BET_ID] for x in out) == [d, o]
    assert t.open_bets() == []


def test_a_minimum_or_maximum_no_bet_reading_can_carry_is_refused_naming_the_setting():
    # A reading's amounts are 1..MAX_AMOUNT (docs/protocol.md "Bet reader"): a minimum above it refused
    # every bet the table could ever read (art. 5(6)), yet the table was accepted; a maximum above it
    # limits no stake a reading can carry. (The bounds below are MAX_AMOUNT and one more: they agree.)
    from firmware.drivers.bet_reader import MAX_AMOUNT
    top = MAX_AMOUNT - MAX_AMOUNT % 9                   # 999999999: a multiple of 9
    assert table(minimum=MAX_AMOUNT, maximum=0).settings.minimum == MAX_AMOUNT
    assert table(minimum=9, maximum=top).settings.maximum == top
    raises_match(SettingsError, "minimum must be a whole number of units 1..999999999", table,
                 minimum=MAX_AMOUNT + 1, maximum=0)
    raises_match(SettingsError, "minimum", table, minimum=10 ** 12, maximum=0)
    raises_match(SettingsError, "up to 999999999 (the largest stake a bet reading carries)", table, minimum=5, maximum=MAX_AMOUNT + 1)
    raises_match(SettingsError, "maximum", table, minimum=10, maximum=10 ** 10)


def test_settings_validation():
    raises_match(SettingsError, "field_12", table, field_12=4)
    raises_match(SettingsError, "max_odds", table, max_odds=[3, 4])
    raises_match(SettingsError, "max_odds", table, max_odds=[3, 4, -1])
    raises_match(SettingsError, "minimum", table, minimum=0)
    raises_match(SettingsError, "maximum", table, maximum=12)
    raises_match(SettingsError, "seats", table, seats=0)
    raises_match(SettingsError, "off_on_come_out", table, off_on_come_out=["field"])
    raises_match(SettingsError, "take_down", table, take_down=["pass"])
    raises_match(SettingsError, "shooter_change_on_come_out_craps", table, shooter_change_on_come_out_craps=1)
    raises_match(SettingsError, "unknown craps setting", table, colour="red")
    for key in CS.REQUIRED_SETTINGS:        # rule-bearing options are never defaulted
        options = {}
        for k in BASE:
            if k != key:
                options[k] = BASE[k]
        raises_match(SettingsError, "%r is required" % key, CS.load_settings, options)
    s = CS.load_settings({"minimum": 5, "field_12": 3, "max_odds": (1, 2, 3), "off_on_come_out": ("hard",),
                         "take_down": [], "shooter_change_on_come_out_craps": True})
    assert s.field_12 == 3 and s.odds_multiple(10) == 1 and s.odds_multiple(9) == 2 and s.odds_multiple(8) == 3


def test_settings_are_whole_numbers_issue_8():
    """Issue 8: field_12 3.0 was accepted and the Field paid a float ("net": 15.0).
    Every money amount and option number is an int; bool is not an int here."""
    for key, bad in (("field_12", 3.0), ("field_12", True), ("minimum", 5.0), ("maximum", 100.0),
                     ("max_odds", [3.0, 4, 5]), ("max_odds", [3, True, 5]), ("seats", 14.0),
                     ("max_open_bets", 256.0), ("shooter_change_on_come_out_craps", 0),
                     ("off_on_come_out", [["hard"]]), ("take_down", "hard")):
        raises_match(SettingsError, key, table, **{key: bad})
        options = dict(BASE)
        options[key] = bad
        raises_match(SettingsError, key, CS.CrapsSettings, **options)


def test_settings_constructor_validates_like_load_settings():
    """One settings style for every game: keywords in, validated in the constructor."""
    options = dict(BASE)
    options["colour"] = "red"
    raises_match(SettingsError, "unknown craps setting", CS.CrapsSettings, **options)
    options = dict(BASE)
    del options["field_12"]
    raises_match(SettingsError, "'field_12' is required", CS.CrapsSettings, **options)
    raises_match(SettingsError, "unknown craps setting", CS.load_settings, {1: 2})
    raises_match(SettingsError, "must be a dict", C.CrapsTable, None)
    s = CS.CrapsSettings(**BASE)
    assert s.as_pairs()[:4] == (("minimum", 5), ("maximum", 0), ("field_12", 2), ("max_odds", (3, 4, 5)))


def test_field_12_option_refused_when_unknown_art_6_12():
    """The Field's 12 pays by an explicit branch for each option; a settings object
    changed after validation is refused before anything is decided."""
    t = table()
    bet = place(t, "field", 10)
    t.settings.field_12 = 4
    raises_match(SettingsError, "field_12", t.roll, D[12])
    assert t.rolls == 0 and t.open_bets() == [(bet, 0, "field", "field", 10)]
    raises_match(SettingsError, "field_12", t.place_bet, 0, "field", 10)
    t.settings.field_12 = 3
    assert outcome(t.roll(D[12]), bet) == ("win", 30)


def test_bet_numbers_and_ids_are_whole_numbers_issue_8():
    """Issue 8: hard and big-number bets accepted the number 4.0; a bet id 1.0 found bet 1."""
    t = table()
    raises_match(RuleError, "whole number", t.place_bet, 0, "hard", 10, 4.0)
    raises_match(RuleError, "whole number", t.place_bet, 0, "big_number", 12, 6.0)
    raises_match(RuleError, "whole number", t.place_bet, 0, "hard", 10, True)
    raises_match(RuleError, "whole number", t.place_bet, 0, "field", 10, 0.0)
    raises_match(RuleError, "seat", t.place_bet, True, "field", 10)
    raises_match(RuleError, "unknown craps bet type", t.place_bet, 0, True, 10)
    line = place(t, "pass", 10)
    t.roll(D[4])
    raises_match(RuleError, "bet id", t.place_bet, 0, "pass_odds", 10, 0, 1.0)
    raises_match(RuleError, "bet id", t.place_bet, 0, "pass_odds", 10, 0, True)
    raises_match(RuleError, "bet id", t.take_down, 1.0)
    raises_match(RuleError, "bet id", t.take_down, "1")
    assert t.open_bets() == [(line, 0, "pass", "pass", 10)]


def test_odds_multiple_only_for_points_art_5_2_2():
    s = CS.load_settings(BASE)
    assert [s.odds_multiple(p) for p in (4, 5, 6, 8, 9, 10)] == [3, 4, 5, 5, 4, 3]
    for bad in (7, 2, 12, 0, None):
        raises_match(RuleError, "not a point", s.odds_multiple, bad)


def test_place_known_checks_the_field_12_option_on_every_field_bet_art_6_12():
    # (rules keeps the Field's code as a const of its own: it must be codes.FIELD)
    from firmware.games.craps import codes as BC
    t = table()
    t.settings.field_12 = 4                       # changed after validation: never paid at an unknown ratio
    raises_match(SettingsError, "field_12", t.place_known, 0, BC.FIELD, 5, 0, None)
    assert t.place_known(0, BC.ANY_SEVEN, 5, 0, None) == (1, None)
    t.settings.field_12 = 3
    assert t.place_known(0, BC.FIELD, 5, 0, None) == (2, None)


def test_place_known_makes_every_rule_check_of_place_bet():
    # The controller places a reading's bets with place_known (their form known from the zones):
    # every refusal of a rule (art. 5(2), 5(6), 6, the table's limits) must be place_bet's, word for word.
    from firmware.games.craps import bets as B
    cases = [(0, "pass", 10, 0), (0, "pass", 7, 0), (0, "pass", 0, 0), (0, "pass", -5, 0), (1, "pass", 6000, 0),
             (0, "come", 10, 0), (2, "dont_come", 10, 0), (0, "field", 5, 0), (0, "horn", 5, 0), (0, "horn", 8, 0),
             (3, "hard", 5, 8), (3, "big_number", 5, 6), (3, "big_number", 10, 5), (0, "any_seven", 15, 0),
             (0, "pass_odds", 10, 0), (0, "come_odds", 10, 0), (1, "pass_odds", 10, 0), (0, "pass_odds", 25, 0),
             (0, "dont_pass_odds", 30, 0), (1, "dont_pass_odds", 100, 0), (1, "dont_pass_odds", 31, 0), (0, "pass_odds", 60, 0), (0, "pass_odds", 10, 0, 99)]
    for point in (0, 6, 5):
        for max_open_bets in (2, 60):
            for i in range(len(cases)):
                seat, kind, amount, number = cases[i][:4]
                tables = [table(maximum=5000, max_open_bets=max_open_bets) for _ in range(2)]
                outcomes = []
                for t in tables:
                    place(t, "pass", 10, seat=0)
                    place(t, "dont_pass", 10, seat=1)
                    if point:
                        t.roll((point - 1, 1))
                    on = None
                    if kind.endswith("_odds"):
                        on = 1 if kind == "pass_odds" or kind == "come_odds" else 2
                        on = cases[i][4] if len(cases[i]) > 4 else on
                    if t is tables[0]:
                        outcomes.append(t.place_bet(seat, kind, amount, number, on))
                    else:
                        outcomes.append(t.place_known(seat, B.kind_code(kind), amount, number, on))
                    outcomes.append(t.open_bets())
                assert outcomes[0] == outcomes[2] and outcomes[1] == outcomes[3], (point, max_open_bets, cases[i],
                                                                                   outcomes)


def _place_one_by_one(t, chips, at, amounts, limit, width, kind_number, placed, placed_slots, bet_zone,
                      refusals):
    # place_reading's contract written out with place_known, a bet at a time (the reference).
    from firmware.games.craps import bets as B
    from firmware.games.craps import codes as BC
    from firmware.games.craps import placement
    while at < len(chips):
        slot = chips[at]
        if slot >= limit:
            return len(chips)
        amount = amounts[slot]
        if amount > 0:
            seat = slot // width
            z = slot - seat * width
            k, number = kind_number[z]
            if B.is_odds(k):
                return at
            if (k == BC.COME or k == BC.DONT_COME) and number:
                # a come point (art. 5(2)(5), (6)): never placed; place_known is not asked
                refusals.append((seat, z, amount, placement._travelled(k, number), False))
                at += 1
                continue
            try:
                bet_id, reason = t.place_known(seat, k, amount, number, None)
            except RuleError as exc:
                bet_id, reason = None, str(exc)
            if reason is None:
                placed.append(bet_id)
                placed_slots.append(slot)
                bet_zone[bet_id] = z
            else:
                refusals.append((seat, z, amount, reason, False))
        at += 1
    return len(chips)


def _a_reading(seed, width, seats):
    # Chips on most zones of some seats: stakes good, uneven, under the minimum, over the maximum,
    # inexact for the bet's payout; take-downs (-1) among them.
    stakes = (5, 10, 7, 30, 45, 60, 6, 6000, 20, -1, 15, 25)
    amounts = [0] * (width * seats)
    chips = []
    for slot in range(width * seats):
        seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
        if seed % 3:
            amounts[slot] = stakes[(seed >> 8) % len(stakes)]
            chips.append(slot)
    return chips, amounts


def test_place_reading_places_and_refuses_as_place_known_one_by_one():
    # Issue 14: the controller places a reading's run of bets with one engine call (place_reading),
    # the settings read once; each bet must come out as place_known would make it, in the same
    # order: the same bets and ids, the same refusals word for word, stopping at the same odds bet.
    from firmware.games.craps.zones import KIND_NUMBER
    width = len(KIND_NUMBER)
    for seed in range(6):
        chips, amounts = _a_reading(seed, width, 4)
        for point in (0, 6, 5):
            for max_open_bets in (3, 40, 200):
                for maximum in (5000, 40):
                    for limit in (width * 4, width * 3 - 5):
                        runs = []
                        for way in ("reading", "one by one"):
                            t = table(maximum=maximum, max_open_bets=max_open_bets)
                            if point:
                                place(t, "pass", 10, seat=1)
                                t.roll((point - 1, 1))
                            placed = []
                            placed_slots = []
                            bet_zone = {}
                            refusals = []
                            stops = []
                            at = 0
                            while at < len(chips):
                                if way == "reading":
                                    at = t.place_reading(chips, at, amounts, limit, width, KIND_NUMBER, placed,
                                                         placed_slots, bet_zone, refusals)
                                else:
                                    at = _place_one_by_one(t, chips, at, amounts, limit, width, KIND_NUMBER, placed,
                                                           placed_slots, bet_zone, refusals)
                                stops.append(at)
                                at += 1
                            assert len(placed) == len(placed_slots) and placed_slots == sorted(set(placed_slots))
                            # each bet's own attributes too (place_reading makes its bets without Bet())
                            attributes = [sorted((k, v) for k, v in b.__dict__.items() if k != "parent")
                                          for b in t.bets]
                            runs.append((t.open_bets(), t.next_id, placed, bet_zone, refusals, stops, attributes))
                        assert runs[0] == runs[1], (seed, point, max_open_bets, maximum, limit)
                        assert len(runs[0][4]) and len(runs[0][5]) > 1


def test_place_reading_follows_a_minimum_changed_between_readings_and_a_table_without_maximum():
    # place_reading keeps each zone's unit with the table minimum folded in (one remainder makes both
    # checks: art. 5(6) and the exact payout); a minimum changed between two readings is followed, as
    # place_known follows it, and a table without maximum (0) caps no stake.
    from firmware.games.craps.zones import KIND_NUMBER
    width = len(KIND_NUMBER)
    over = []
    for seed in range(3):
        chips, amounts = _a_reading(seed, width, 3)
        runs = []
        for way in ("reading", "one by one"):
            t = table(maximum=0, max_open_bets=500)
            f = t.place_reading if way == "reading" else (lambda *a: _place_one_by_one(t, *a))
            for minimum in (5, 15, 5, 10):
                t.settings.minimum = minimum
                placed, placed_slots, bet_zone, refusals = [], [], {}, []
                at = 0
                while at < len(chips):
                    at = f(chips, at, amounts, width * 3, width, KIND_NUMBER, placed, placed_slots, bet_zone,
                           refusals) + 1
                runs.append((minimum, t.open_bets(), placed, refusals))
        assert runs[:4] == runs[4:], seed
        assert [r for r in runs[1][3] if "minimum 15" in r[3]] and not [r for r in runs[0][3] if "minimum" in r[3]
                                                                         and "stake 15" in r[3]]
        over += [b for b in runs[3][1] if b[4] == 6000]     # over any maximum there would be: placed
    assert over


def test_place_reading_raises_on_a_wrong_field_12_option_where_place_known_does():
    # A field_12 option changed after validation (art. 6(12)): the Field bet that passes the other
    # checks raises, as place_known raises; the bets before it stay placed, as one by one.
    from firmware.games.craps import codes as BC
    from firmware.games.craps.zones import KIND_NUMBER, zone_of
    width = len(KIND_NUMBER)
    field = zone_of(BC.FIELD, 0)
    amounts = [0] * (width * 2)
    chips = [zone_of(BC.ANY_SEVEN, 0), field, width + field]
    amounts[chips[0]] = 5
    amounts[chips[1]] = 7                         # under no multiple of the minimum: refused first
    amounts[chips[2]] = 5
    for way in ("reading", "one by one"):
        t = table()
        t.settings.field_12 = 4
        refusals = []
        f = t.place_reading if way == "reading" else (lambda *a: _place_one_by_one(t, *a))
        raises_match(SettingsError, "field_12", f, sorted(chips), 0, amounts, 2 * width, width, KIND_NUMBER,
                     [-1] * len(amounts), [], {}, refusals)
        assert len(t.bets) == 1 and len(refusals) == 1 and "art. 5(6)" in refusals[0][3], way


def test_a_new_bet_stores_five_attributes_of_its_own_the_rest_are_the_classs_until_set():
    # An instance's attributes live in a dict that grows 0 -> 2 -> 4 -> 6 -> 8 entries as they are
    # stored (MicroPython): a bet placed (50 at a reading's CLOSE) stores five, so three growths; odds'
    # parent, a roll stood through (in_action) and a line bet's outcome of a roll (the one its odds
    # read) are stored when they are set, and no other bet's outcome is.
    from firmware.games.craps import codes as BC
    t = table()
    p = place(t, "pass", 10)
    f = place(t, "field", 10)
    h = place(t, "hard", 5, 8)
    bet = t.find(p)
    assert sorted(bet.__dict__) == ["amount", "bet_id", "kind", "number", "seat"]
    assert bet.number == 0 and bet.parent is None and bet.in_action is False and bet.outcome == BC.STAND
    assert sorted(t.find(h).__dict__) == ["amount", "bet_id", "kind", "number", "seat"] and t.find(h).number == 8
    resolved = t.roll(D[6])                       # point 6: the pass bet stands with its number, the field loses
    assert outcome(resolved, f) == ("lose", -10)
    assert bet.in_action is True and bet.number == 6 and bet.outcome == BC.STAND
    assert sorted(bet.__dict__) == ["amount", "bet_id", "in_action", "kind", "number", "outcome", "seat"]
    assert "outcome" not in t.find(h).__dict__ and t.find(h).outcome == BC.STAND
    o = t.find(place(t, "pass_odds", 10, on=p))
    assert o.parent is bet and o.number == 6 and "parent" in o.__dict__ and o.in_action is False
    resolved = t.roll((3, 3))                     # the point: pass and its odds win, read from its outcome
    assert outcome(resolved, p) == ("win", 10) and outcome(resolved, o.bet_id) == ("win", 12)
    assert bet.outcome == BC.WIN


def test_a_new_bet_has_not_stood_a_roll_and_stands_until_one_decides_it():
    # A new bet has not stood a roll (in_action) and stands (outcome); a roll it stands through sets
    # in_action, and odds read their line bet's outcome of the roll.
    from firmware.games.craps import codes as BC
    t = table()
    p = place(t, "pass", 10)
    h = place(t, "hard", 5, 8)
    assert [(b.in_action, b.outcome) for b in t.bets] == [(False, BC.STAND), (False, BC.STAND)]
    t.roll(D[6])                                  # point 6: both stand
    assert [(b.in_action, b.outcome) for b in t.bets] == [(True, BC.STAND), (True, BC.STAND)]
    o = place(t, "pass_odds", 10, on=p)
    assert t.find(o).in_action is False and t.find(h).in_action is True
    resolved = t.roll((3, 3))                     # the point, hard: pass and its odds win, hard 6 is not 8
    assert outcome(resolved, p) == ("win", 10) and outcome(resolved, o) == ("win", 12)
    assert outcome(resolved, h) is None and t.find(h).in_action
