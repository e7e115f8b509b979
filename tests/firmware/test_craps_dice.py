# Craps dice reports (dispatch 53/2010 arts. 1-3): impossible faces alarm, invalid throws are no roll.
from firmware.games.craps import rules as C
from firmware.games.craps import settings as CS
from firmware.games.craps.dice import DiceError, check_report
from firmware.errors import IntegrityError
from tests.firmware.expect import raises, raises_match


def table():
    t = C.CrapsTable({"minimum": 5, "field_12": 2, "max_odds": [3, 4, 5], "off_on_come_out": [],
        "take_down": list(CS.TAKE_DOWN_ALLOWED), "shooter_change_on_come_out_craps": False})
    for kind, number in (("pass", 0), ("field", 0), ("any_seven", 0), ("hard", 8), ("big_number", 6)):
        bet_id, reason = t.place_bet(0, kind, 30, number)
        assert reason is None, reason
    return t


def snapshot(t):
    return (t.point, t.rolls, t.open_bets(), t.shooter_changes)


def test_faces_must_be_1_to_6_art_1_2():
    for bad in ((7, 1), (0, 3), (3, -1), (1, 8), (1.0, 2), (True, 2), ("3", 4), (None, 2)):
        t = table()
        before = snapshot(t)
        exc = raises(DiceError, t.roll, bad)
        assert "1..6" in str(exc)
        assert isinstance(exc, IntegrityError)
        assert snapshot(t) == before          # no bet decided, nothing moved


def test_die_showing_seven_in_a_report_dict_is_an_alarm():
    t = table()
    before = snapshot(t)
    raises_match(DiceError, "die 2 shows 7", t.roll, {"dice": [3, 7]})
    raises_match(DiceError, "die 1 shows 0", t.roll, {"dice": [0, 7], "cocked": [0]})
    assert snapshot(t) == before


def test_two_dice_per_throw_art_2_4():
    raises_match(DiceError, "two dice", check_report, (1, 2, 3))
    raises_match(DiceError, "two dice", check_report, {"dice": [4]})
    raises_match(DiceError, "two dice", check_report, 7)


def test_invalid_throws_are_no_roll_art_3_2_and_3_3():
    reports = (
        {"dice": [3, 4], "valid": False},
        {"dice": [3, None], "flags": ["off_table"]},       # art. 3(2)(1), that die unread
        {"dice": [3, 4], "flags": ["short"]},               # art. 3(2)(2)
        {"dice": [5, 6], "flags": ["not_rolled"]},          # art. 3(3)
    )
    for report in reports:
        t = table()
        before = snapshot(t)
        assert t.roll(report) == []
        assert snapshot(t) == before
        assert t.no_rolls == 1 and "art." in t.last_no_roll


def test_short_throw_that_hits_a_wall_counts_art_3_2_2():
    assert check_report({"dice": [3, 4], "flags": ["short", "wall"]}) == (3, 4, None)
    t = table()
    r = t.roll({"dice": [3, 4], "flags": ["short", "wall"]})
    assert len(r) == 5 and t.rolls == 1         # a 7 on the come-out decides every bet here


def test_cocked_die_takes_the_reported_face_art_3_1():
    t = table()
    r = t.roll({"dice": [4, 4], "cocked": [1]})
    kinds = sorted((x[C.KIND], x[C.RESULT], x[C.NET]) for x in r)
    assert kinds == [("any_seven", "lose", -30), ("field", "lose", -30), ("hard", "win", 270)]
    assert t.point == 8
    raises_match(DiceError, "shows None", check_report, {"dice": [None, 4], "cocked": [0]})


def test_invalid_face_still_an_alarm_in_a_no_roll_report():
    raises_match(DiceError, "shows 9", check_report, {"dice": [9, 1], "valid": False})
    assert check_report({"dice": [None, None], "valid": False}) == (0, 0, "throw flagged invalid by the reader "
                                                                          "(art. 3(2))")
    assert check_report({"dice": [5, 6], "flags": ["off_table"]}) == (0, 0, "a die left the layout (art. 3(2)(1))")


def test_malformed_reports():
    raises_match(DiceError, "unknown dice flag", check_report, {"dice": [1, 2], "flags": ["bounced"]})
    raises_match(DiceError, "unknown dice report field", check_report, {"dice": [1, 2], "speed": 3})
    raises_match(DiceError, "valid", check_report, {"dice": [1, 2], "valid": 0})
    raises_match(DiceError, "cocked", check_report, {"dice": [1, 2], "cocked": [2]})
    raises_match(DiceError, "without", check_report, {"valid": True})


def test_no_roll_then_good_roll_decides_normally():
    t = table()
    t.roll({"dice": [6, 1], "flags": ["short"]})
    r = t.roll((6, 1))
    assert len(r) == 5 and t.last_no_roll is None and t.no_rolls == 1 and t.rolls == 1


def test_cocked_die_index_is_a_whole_number_art_3_1():
    for bad in ([0.0], [1.0], [True], ["0"], [2]):
        raises_match(DiceError, "cocked die index", check_report, {"dice": [4, 4], "cocked": bad})


def test_pair_of_faces_fast_path_refuses_what_the_general_checks_refuse():
    # check_report decides a plain (d1, d2) tuple first: it must still refuse a bool, a float, a
    # face outside 1..6, and take lists and dicts through the general checks.
    assert check_report((3, 4)) == (3, 4, None) and check_report([6, 6]) == (6, 6, None)
    for bad in ((True, 4), (3.0, 4), (0, 4), (3, 7), (None, 2), (1, 2, 3)):
        raises(DiceError, check_report, bad)


def _decided(report):
    try:
        return check_report(report)
    except (DiceError, ValueError) as exc:
        return type(exc)


def test_the_engines_report_of_a_throw_is_decided_as_the_full_report_art_2_5_and_3():
    # Issue 14: the common throw (two faces read, no flag) reaches the engine as a pair of faces, not
    # as throws.report's dict: every THROW the reader can post must be decided the same either way.
    from firmware import throws
    from firmware.events import THROW_FACE_BASE
    bits = [0] + list(throws.FLAG_BITS) + list(throws.COCKED_BITS) + [
        throws.FLAG_BITS[1] | throws.FLAG_BITS[2], throws.COCKED_BITS[0] | throws.FLAG_BITS[2]]
    for a in range(THROW_FACE_BASE * THROW_FACE_BASE):
        for b in bits:
            full = throws.report(a, b)
            assert _decided(throws.engine_report(a, b)) == _decided(full), (a, b)
    assert throws.engine_report(throws.pack(3, 4), 0) == (3, 4)
    assert throws.engine_report(throws.pack(3, 4), throws.FLAG_BITS[1])["flags"] == ["short"]
    assert throws.engine_report(throws.pack(0, 4), 0)["dice"] == [None, 4]
