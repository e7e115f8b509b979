# Craps bets (dispatch 53/2010 art. 5) and payouts (art. 6): win, lose, push and amount of every bet.
from firmware.games.craps import rules as C
from tests.firmware.craps_helpers import D, outcome, place, table


def one_roll(kind, amount, total, number=0, dice=None, **extra):
    t = table(**extra)
    b = place(t, kind, amount, number)
    return outcome(t.roll(dice or D[total]), b)


def test_pass_line_come_out_art_5_2_1():
    for total in (7, 11):
        assert one_roll("pass", 10, total) == ("win", 10)
    for total in (2, 3, 12):
        assert one_roll("pass", 10, total) == ("lose", -10)
    for total in (4, 5, 6, 8, 9, 10):
        t = table()
        b = place(t, "pass", 10)
        assert t.roll(D[total]) == []
        assert t.point == total


def test_pass_line_point_then_seven_art_5_2_1():
    t = table()
    b = place(t, "pass", 10)
    t.roll(D[6])
    assert t.roll(D[8]) == [] and t.roll(D[11]) == [] and t.roll(D[2]) == []   # other totals leave it
    assert outcome(t.roll((5, 1)), b) == ("win", 10)
    assert t.point == 0
    t = table()
    b = place(t, "pass", 10)
    t.roll(D[6])
    assert outcome(t.roll(D[7]), b) == ("lose", -10)


def test_dont_pass_art_5_2_3():
    for total in (2, 3):
        assert one_roll("dont_pass", 10, total) == ("win", 10)
    for total in (7, 11):
        assert one_roll("dont_pass", 10, total) == ("lose", -10)
    assert one_roll("dont_pass", 10, 12) == ("push", 0)     # bar 12
    t = table()
    b = place(t, "dont_pass", 10)
    t.roll(D[4])
    assert outcome(t.roll(D[7]), b) == ("win", 10)
    t = table()
    b = place(t, "dont_pass", 10)
    t.roll(D[4])
    assert outcome(t.roll((2, 2)), b) == ("lose", -10)


def test_pass_odds_payouts_art_6_2():
    # 4/10 -> 2:1, 5/9 -> 3:2, 6/8 -> 6:5
    for point, odds, net in ((4, 30, 60), (10, 30, 60), (5, 20, 30), (9, 20, 30), (6, 50, 60), (8, 50, 60)):
        t = table()
        p = place(t, "pass", 10)
        t.roll(D[point])
        o = place(t, "pass_odds", odds, on=p)
        r = t.roll(D[point])
        assert outcome(r, p) == ("win", 10)
        assert outcome(r, o) == ("win", net), (point, outcome(r, o))
    t = table()
    p = place(t, "pass", 10)
    t.roll(D[6])
    o = place(t, "pass_odds", 50, on=p)
    assert outcome(t.roll(D[7]), o) == ("lose", -50)


def test_dont_pass_odds_payouts_art_6_4():
    # 4/10 -> 1:2, 5/9 -> 2:3, 6/8 -> 5:6
    for point, lay, net in ((4, 60, 30), (10, 20, 10), (5, 30, 20), (9, 60, 40), (6, 30, 25), (8, 60, 50)):
        t = table()
        p = place(t, "dont_pass", 10)
        t.roll(D[point])
        o = place(t, "dont_pass_odds", lay, on=p)
        r = t.roll(D[7])
        assert outcome(r, p) == ("win", 10)
        assert outcome(r, o) == ("win", net), (point, outcome(r, o))
    t = table()
    p = place(t, "dont_pass", 10)
    t.roll(D[5])
    o = place(t, "dont_pass_odds", 30, on=p)
    assert outcome(t.roll(D[5]), o) == ("lose", -30)


def test_come_and_come_odds_art_5_2_5():
    t = table()
    place(t, "pass", 10)
    t.roll(D[4])
    c = place(t, "come", 10)
    assert outcome(t.roll(D[11]), c) == ("win", 10)        # its own come-out: natural
    c = place(t, "come", 10)
    assert outcome(t.roll(D[12]), c) == ("lose", -10)      # craps
    c = place(t, "come", 10)
    assert t.roll(D[9]) == []                                # come point 9
    assert t.open_bets()[-1][3] == "point_9"                 # it moved to the 9 box
    o = place(t, "come_odds", 20, on=c)
    r = t.roll(D[9])
    assert outcome(r, c) == ("win", 10) and outcome(r, o) == ("win", 30)
    c = place(t, "come", 10)
    assert t.roll(D[5]) == []
    o = place(t, "come_odds", 20, on=c)
    r = t.roll(D[7])                                         # seven-out: come point loses too
    assert outcome(r, c) == ("lose", -10) and outcome(r, o) == ("lose", -20)


def test_come_bet_wins_on_seven_out_roll_art_5_2_5():
    t = table()
    p = place(t, "pass", 10)
    t.roll(D[4])
    c = place(t, "come", 10)
    r = t.roll(D[7])
    assert outcome(r, p) == ("lose", -10) and outcome(r, c) == ("win", 10)


def test_dont_come_and_odds_art_5_2_6():
    t = table()
    place(t, "pass", 10)
    t.roll(D[4])
    d = place(t, "dont_come", 10)
    assert outcome(t.roll(D[3]), d) == ("win", 10)
    d = place(t, "dont_come", 10)
    assert outcome(t.roll(D[12]), d) == ("push", 0)
    d = place(t, "dont_come", 10)
    assert outcome(t.roll(D[11]), d) == ("lose", -10)
    d = place(t, "dont_come", 10)
    t.roll(D[10])
    o = place(t, "dont_come_odds", 40, on=d)
    r = t.roll(D[7])
    assert outcome(r, d) == ("win", 10) and outcome(r, o) == ("win", 20)


def test_one_roll_bets_art_5_3_and_6_5_to_6_10():
    cases = (
        ("any_craps", (2, 3, 12), 7), ("any_seven", (7,), 4), ("eleven", (11,), 15),
        ("ace_deuce", (3,), 15), ("aces", (2,), 30), ("boxcars", (12,), 30),
    )
    for kind, winners, pay in cases:
        for total in range(2, 13):
            want = ("win", 10 * pay) if total in winners else ("lose", -10)
            assert one_roll(kind, 10, total) == want, (kind, total)


def test_horn_whole_stake_art_5_3_7_and_6_11():
    # one stake over 2, 3, 11, 12: 27:4 of the whole stake on 2/12, 3:1 on 3/11
    assert one_roll("horn", 20, 2) == ("win", 135)
    assert one_roll("horn", 20, 12) == ("win", 135)
    assert one_roll("horn", 20, 3) == ("win", 60)
    assert one_roll("horn", 20, 11) == ("win", 60)
    for total in (4, 5, 6, 7, 8, 9, 10):
        assert one_roll("horn", 20, total) == ("lose", -20)


def test_field_art_5_3_8_and_6_12():
    for total in (3, 4, 9, 10, 11):
        assert one_roll("field", 10, total) == ("win", 10)
    for total in (5, 6, 7, 8):
        assert one_roll("field", 10, total) == ("lose", -10)
    assert one_roll("field", 10, 2) == ("win", 20)
    assert one_roll("field", 10, 12) == ("win", 20)
    assert one_roll("field", 10, 12, field_12=3) == ("win", 30)
    assert one_roll("field", 10, 2, field_12=3) == ("win", 20)


def test_big_or_small_art_5_3_9():
    for total in range(2, 13):
        big = ("win", 10) if total >= 8 else ("lose", -10)
        small = ("win", 10) if total <= 6 else ("lose", -10)
        assert one_roll("big", 10, total) == big
        assert one_roll("small", 10, total) == small


def test_hard_ways_art_5_4_1_and_6_14():
    for n, pay in ((4, 7), (6, 9), (8, 9), (10, 7)):
        h = n // 2
        assert one_roll("hard", 10, n, n, dice=(h, h)) == ("win", 10 * pay)
        assert one_roll("hard", 10, n, n, dice=(h - 1, h + 1)) == ("lose", -10)   # easy way
        assert one_roll("hard", 10, 7, n) == ("lose", -10)
    t = table()
    b = place(t, "hard", 10, 6)
    for total in (2, 3, 4, 5, 8, 9, 10, 11, 12):
        assert outcome(t.roll(D[total]), b) is None
    assert outcome(t.roll((3, 3)), b) == ("win", 90)


def test_big_numbers_art_5_4_2_to_4_and_6_15():
    # Big 6/8 7:6, Big 5/9 7:5, Big 4/10 9:5
    for n, stake, net in ((6, 30, 35), (8, 30, 35), (5, 10, 14), (9, 10, 14), (4, 10, 18), (10, 10, 18)):
        t = table()
        b = place(t, "big_number", stake, n)
        for total in range(2, 13):
            if total != n and total != 7:
                assert outcome(t.roll(D[total]), b) is None     # other totals: the bet stands
        assert outcome(t.roll(D[n]), b) == ("win", net)
        assert one_roll("big_number", stake, 7, n) == ("lose", -stake)


def test_resolved_record_carries_seat_zone_net_stake():
    t = table(seats=7)
    b = place(t, "hard", 10, 8, seat=3)
    r = t.roll((4, 4))
    assert r == [(b, 3, "hard", "hard_8", "win", 90, 10)]
    c = place(t, "big_number", 15, 5, seat=6)
    f = place(t, "big", 5, seat=2)
    r = t.roll((2, 3))
    assert (c, 6, "big_number", "big_5", "win", 21, 15) in r
    assert (f, 2, "big", "big", "lose", -5, 5) in r


def test_cached_stake_units_are_the_computed_ones():
    # The table remembers each bet's stake unit (bets.cached_stake_quantum): the same answer as
    # stake_quantum() for every kind and number, the first time and from the cache.
    B = C.B
    from firmware.games.craps import codes as BC
    for field_12 in (2, 3):
        for kind in range(len(B.KIND_NAMES)):
            if kind == BC.HARD:
                numbers = B.HARD_NUMBERS
            elif kind == BC.BIG_NUMBER or B.is_odds(kind):
                numbers = B.POINTS
            else:
                numbers = (0,)
            for n in numbers:
                for _ in range(2):
                    assert B.cached_stake_quantum(kind, n, field_12) == B.stake_quantum(kind, n, field_12)
    assert B.cached_stake_quantum(BC.PASS_ODDS, 6, 2) == 5 and B.cached_stake_quantum(BC.HORN, 0, 2) == 4


def test_zone_names_come_from_one_table_made_once():
    # Settling formats no strings: every (kind, number 0..10) zone is in bets.ZONE_TABLE (a literal), the same
    # text as worked out, one object per distinct name; other arguments are still worked out.
    B = C.B
    from firmware.games.craps import codes as BC
    for kind in range(len(B.KIND_NAMES)):
        for n in range(BC.ZONE_COLUMNS):
            z = B.zone_name(kind, n)
            assert z == B._zone_name(kind, n) and z is B.ZONE_TABLE[kind * BC.ZONE_COLUMNS + n]
    assert B.zone_name(BC.COME, 6) is B.zone_name(BC.DONT_COME_ODDS, 6) == "point_6"
    assert B.zone_name(BC.HARD, 8) == "hard_8" and B.zone_name(BC.FIELD, 0) == "field"
    assert B.zone_name(BC.HARD, 12) == "hard_12" and B.zone_name(BC.COME, 0) == "come"


def test_one_roll_outcomes_table_is_settle_prop():
    # The roll loop settles one-roll bets (art. 5(3)) from bets.ONE_ROLL_OUTCOMES: the same
    # (code, win, stake) as settle_prop for every pair of dice; None only for the Field's 12.
    B = C.B
    from firmware.games.craps import codes as BC
    for kind in range(len(B.KIND_NAMES)):
        row = B.ONE_ROLL_OUTCOMES[kind]
        if not B.is_one_roll(kind):
            assert row is None
            continue
        for d1 in range(1, 7):
            for d2 in range(1, 7):
                if kind == BC.FIELD and d1 + d2 == 12:
                    assert row[12] is None
                    continue
                for field_12 in (2, 3):
                    assert row[d1 + d2] == B.settle_prop(kind, 0, d1, d2, field_12)
    assert B.ONE_ROLL_OUTCOMES[BC.HORN][2] == (BC.WIN, 27, 4)
