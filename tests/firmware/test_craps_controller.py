# The Craps table controller: puck, throws through the engine, bets, shooter, alarms (arts. 2-6).
from firmware import faults
from firmware.drivers import pixels
from firmware.events import BUTTON, BUTTON_LONG, BUTTON_PRESSED, BUTTON_RELEASED
from firmware.games.craps import codes
from firmware.games.craps import screens
from firmware.games.craps.zones import ZONES
from firmware.table_codes import FAULTED, OUT_GAME_FIRST, OUT_STATE, READY
from tests.firmware.craps_rig import Rig, strip
from tests.firmware.expect import count_calls

CONFIG = {"table_id": "C01", "game": "craps"}


def test_outbox_codes_start_where_the_core_leaves_them():
    assert codes.OUT_THROW == OUT_GAME_FIRST


def test_zones_are_the_judges_bet_types_with_the_number_appended():
    for name in ("pass", "dont_pass", "pass_odds", "come_odds_6", "dont_come_odds_10", "field", "horn",
                 "hard_8", "big_number_6", "any_seven"):
        assert name in ZONES
    assert len(set(ZONES)) == len(ZONES)
    assert ZONES.index("pass") < ZONES.index("pass_odds") and ZONES.index("come") < ZONES.index("come_odds_4")


def test_art5_2_1_point_cycle_with_pass_odds_field_and_hard_way():
    rig = Rig()
    rig.bets({1: {"pass": 10, "field": 5}, 2: {"hard_8": 5}})
    assert rig.table.state == codes.COME_OUT
    assert strip(rig.last("bets")) == {"event": "bets", "reading": 1, "accepted": True, "refused": 0,
                                       "placed": {"1": {"pass": 10, "field": 5}, "2": {"hard_8": 5}}}
    rig.throw(2, 4)                                     # 6: the point; the field loses on 6 (art. 5(3))
    assert rig.table.state == codes.POINT
    assert strip(rig.last("throw")) == {"event": "throw", "dice": [2, 4], "valid": True, "point": 6,
                                        "shooter_change": False, "nets": {"1": {"field": -5}}}
    assert strip(rig.last("puck")) == {"event": "puck", "puck": "on", "point": 6}
    assert rig.colour("point_6") == pixels.GOLD and rig.colour("pass") == pixels.WHITE
    assert rig.colour("field") == pixels.OFF
    assert screens.dealer_lines(rig.table, CONFIG, [])[1] == "POINT 6"
    rig.bets({1: {"pass_odds": 20}})                    # art. 6(2): 6:5 on a 6, so a multiple of 5
    rig.throw(4, 4)                                     # hard 8: 9:1 (art. 6(14))
    assert strip(rig.last("throw"))["nets"] == {"2": {"hard_8": 45}}
    assert rig.colour("hard_8") == pixels.GOLD
    rig.throw(1, 5)                                     # the point: pass 1:1, odds 6:5
    throw = strip(rig.last("throw"))
    assert throw["point"] is None and throw["nets"] == {"1": {"pass": 10, "pass_odds": 24}}
    assert rig.table.state == codes.COME_OUT
    assert strip(rig.last("puck")) == {"event": "puck", "puck": "off", "point": None}
    assert rig.colour("pass") == pixels.GREEN
    assert screens.result_lines(rig.table, CONFIG, []) == ["PUCK OFF", "LAST 6 8 6", "SHOOTER 1", "ROLLS 3"]


def test_art4_seven_out_changes_the_shooter():
    rig = Rig()
    rig.bets({1: {"pass": 10, "dont_pass": 10}})
    rig.throw(2, 2)
    rig.bets({1: {"any_seven": 5}})
    rig.throw(3, 4)
    throw = strip(rig.last("throw"))
    assert throw["shooter_change"] is True and throw["point"] is None
    assert throw["nets"] == {"1": {"pass": -10, "dont_pass": 10, "any_seven": 20}}
    assert strip(rig.last("shooter")) == {"event": "shooter", "shooter": 2, "why": "seven_out"}
    lines = screens.dealer_lines(rig.table, CONFIG, [])
    assert lines[:3] == ["SHOOTER 2 ROLL 0", "SEVEN OUT", "NEW SHOOTER"]


def test_art4_come_out_craps_changes_the_shooter_only_with_the_table_option():
    rig = Rig()
    rig.throw(1, 1)
    assert rig.last("shooter") is None
    rig = Rig(shooter_change_on_come_out_craps=True)
    rig.throw(1, 1)
    assert strip(rig.last("shooter"))["why"] == "come_out_craps"


def test_art4_1_dealer_new_shooter_is_a_long_press_of_deal():
    rig = Rig()
    rig.bets({1: {"pass": 10}})
    rig.press("deal")
    assert rig.last("shooter") is None
    rig.press("deal", long=True)
    assert strip(rig.last("shooter")) == {"event": "shooter", "shooter": 2, "why": "stopped"}
    assert rig.table.engine.bets and rig.table.state == codes.COME_OUT


def test_art4_new_shooter_held_through_a_seven_out_changes_the_shooter_once():
    # The dealer holds NEW SHOOTER (art. 4(1)) as the shooter throws a seven-out (art. 4(2)): the dice
    # passed on with the throw, so the long press that follows names no second shooter change.
    rig = Rig()
    rig.bets({1: {"pass": 10}})
    rig.throw(2, 2)
    deal = rig.buttons["deal"]
    rig.event(BUTTON, deal, BUTTON_PRESSED)
    rig.throw(3, 4)                                     # seven-out: shooter 2
    rig.event(BUTTON, deal, BUTTON_LONG)
    rig.event(BUTTON, deal, BUTTON_RELEASED)
    assert [strip(r) for r in rig.reports("shooter")] == [{"event": "shooter", "shooter": 2, "why": "seven_out"}]
    assert rig.table.shooter == 2
    rig.press("deal", long=True)                        # a press of its own: shooter 2 stops
    assert strip(rig.last("shooter")) == {"event": "shooter", "shooter": 3, "why": "stopped"}


def test_art4_new_shooter_during_an_alarm_is_not_taken_and_the_dealer_display_says_so():
    # (until stop 72 the alarm's screen stayed as it was: the dealer could not tell the press from one taken)
    for close in ("confirm", "void"):
        rig = Rig()
        rig.bets({1: {"pass": 10}})
        rig.throw(2, 2)
        rig.fault(faults.DICE_SENSOR)
        assert screens.dealer_lines(rig.table, CONFIG, [])[2] == "NO THROW DECIDED"
        rig.press("deal", long=True)
        assert rig.last("shooter") is None and rig.table.state == FAULTED
        assert rig.reports("button")[-2]["long"] is True   # the host hears the press (then its release)
        assert screens.dealer_lines(rig.table, CONFIG, [])[2:] == ["SHOOTER NOT CHANGED", "CONFIRM OR HOLD VOID"]
        rig.press(close, long=close == "void")
        assert screens.dealer_lines(rig.table, CONFIG, [])[0] == "SHOOTER 1 ROLL 1"
        rig.fault(faults.DICE_SENSOR)                      # the next alarm starts without it
        assert screens.dealer_lines(rig.table, CONFIG, [])[2] == "NO THROW DECIDED"
        rig.press("confirm")
        rig.press("deal", long=True)
        assert strip(rig.last("shooter")) == {"event": "shooter", "shooter": 2, "why": "stopped"}
    rig = Rig()                                            # the come-out held by the backed-up host link
    rig.table.link_backlog = True
    rig.throw(3, 4)
    assert rig.table.fault_code == faults.LINK_BACKLOG
    rig.press("deal", long=True)
    assert screens.dealer_lines(rig.table, CONFIG, [])[2:] == ["SHOOTER NOT CHANGED", "WAIT OR HOLD VOID"]


def test_art3_no_rolls_decide_nothing_and_say_why():
    for flags, word in ((("off_table",), "off_table"), (("short",), "short"), (("not_rolled",), "not_rolled"),
                        (("invalid",), "invalid")):
        rig = Rig()
        rig.bets({1: {"field": 5, "any_seven": 5}})
        rig.throw(3, 4, flags)
        throw = strip(rig.last("throw"))
        assert throw["valid"] is False and throw["no_roll"] == word and "nets" not in throw, throw
        assert len(rig.table.engine.bets) == 2 and rig.table.shooter_rolls == 0
        assert screens.dealer_lines(rig.table, CONFIG, [])[1] == "NO ROLL: " + word.replace("_", " ").upper()
    rig = Rig()
    rig.bets({1: {"field": 5}})
    rig.throw(1, 3, ("short", "wall"))                  # art. 3(2)(2): short but hit a wall: it counts
    assert strip(rig.last("throw"))["nets"] == {"1": {"field": 5}}
    rig.throw(3, 6, (), (1,))                           # art. 3(1): a cocked die reads as settled
    assert strip(rig.last("throw"))["cocked"] == [1]


def test_refused_bets_are_reported_with_the_engines_reason_lit_and_never_played():
    rig = Rig()
    rig.bets({1: {"come": 10, "field": 7, "pass_odds": 10}, 2: {"pass": 10}})
    refused = [strip(r) for r in rig.reports("bet_refused")]
    assert [(r["seat"], r["zone"], r["amount"]) for r in refused] == [("1", "pass_odds", 10), ("1", "come", 10),
                                                                      ("1", "field", 7)]
    assert "art. 5(2)(5)" in refused[1]["reason"] and "art. 5(6)" in refused[2]["reason"]
    assert strip(rig.last("bets"))["placed"] == {"2": {"pass": 10}} and strip(rig.last("bets"))["refused"] == 3
    assert rig.colour("come") == pixels.RED and rig.colour("field") == pixels.RED
    assert screens.dealer_lines(rig.table, CONFIG, [])[3] == "REFUSED 3: SEE HOST"
    rig.throw(5, 6)
    assert strip(rig.last("throw"))["nets"] == {"2": {"pass": 10}}
    assert rig.colour("field") == pixels.DIM                        # lit as refused until the next roll



def test_the_refused_count_fits_the_dealer_display_at_100_and_more():
    # A reading of 3 seats with chips on every zone at a stake of 3 (not a multiple of the minimum 5, art.
    # 5(6)): 150 refusals. "REFUSED 150: SEE HOST" is 21 columns, and the LCD showed "...SEE HOS".
    rig = Rig(seats=3)
    rig.bets(dict((seat, dict((zone, 3) for zone in ZONES)) for seat in (1, 2, 3)))
    assert len(rig.table.refusals) == 3 * len(ZONES)
    line = screens.dealer_lines(rig.table, CONFIG, [])[3]
    assert line == "REFUSED %d SEE HOST" % (3 * len(ZONES)) and len(line) <= 20


def test_a_reading_with_more_refusals_than_the_outbox_holds_reports_every_one():
    # One outbox entry a refusal: past the outbox's 64 the reports were lost, and the report_overflow
    # fault that counts them went with the next ones into a full host link. A reading's refusals (and
    # take-downs) now take one entry, whatever their number (past ITEMIZED: one more report, test_craps_reports).
    from firmware.games.craps.codes import REFUSALS_ITEMIZED as ITEMIZED
    from tests.firmware import table_rig

    frames = table_rig._STORE_FRAMES
    table_rig._STORE_FRAMES = 256                        # a host link with room for them all at once
    try:
        rig = Rig(seats=3)
    finally:
        table_rig._STORE_FRAMES = frames
    rig.bets({1: {"pass": 10}})
    rig.throw(2, 2)                                     # point 4: pass is a contract bet (art. 5(2)(1))
    reading = dict((seat, dict((zone, 3) for zone in ZONES)) for seat in (1, 2, 3))
    reading[1]["pass"] = "down"                         # a take-down refused too
    rig.bets(reading)
    n = 3 * len(ZONES)
    assert len(rig.table.refusals) == n > rig.table.outbox.size and strip(rig.last("bets"))["refused"] == n
    refused = [(r["seat"], r["zone"]) for r in rig.reports("bet_refused")[-ITEMIZED:]]
    assert refused == [(str(r[0] + 1), ZONES[r[1]]) for r in rig.table.refusals[:ITEMIZED]]
    assert rig.last("bets_refused_more")["more"] == n - ITEMIZED
    assert not [r for r in rig.reports("fault") if r["fault"] == "report_overflow"]
    seqs = [r["seq"] for r in rig.reports()]
    assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))        # nothing missing between them


def test_a_newer_reading_before_the_throw_replaces_the_last_one():
    rig = Rig()
    rig.bets({1: {"pass": 10}})
    rig.bets({1: {"pass": 20}})
    assert [b[4] for b in rig.table.engine.open_bets()] == [20]


def test_a_reading_overtaken_in_the_same_pass_is_left_to_the_one_that_replaced_it():
    # The reader's driver keeps one reading: a BETS event queued for an earlier one finds the newer in its
    # place, whose own event follows (a mutant took it: the newer reading placed and reported twice).
    from firmware.events import BETS
    rig = Rig()
    rig.bets({1: {"pass": 10}})
    first = rig.reading_id
    rig.bets({1: {"pass": 20}, 2: {"field": 5}})
    reports = len(rig.reports())
    rig.event(BETS, first, 1)                           # the first reading's event, late
    assert len(rig.reports()) == reports
    assert sorted(b[4] for b in rig.table.engine.open_bets()) == [5, 20]


def test_come_bet_travels_to_its_point_and_its_odds_follow_it():
    rig = Rig()
    rig.bets({1: {"pass": 10}})
    rig.throw(1, 3)                                     # point 4
    rig.bets({1: {"come": 10}})
    rig.throw(4, 5)                                     # the come bet travels to 9
    assert rig.colour("point_9") == pixels.BLUE and rig.colour("point_4") == pixels.GOLD
    rig.bets({1: {"come_odds_9": 10, "come_odds_5": 10}})
    assert [r["zone"] for r in rig.reports("bet_refused")] == ["come_odds_5"]
    rig.throw(3, 6)                                     # 9 again: come 1:1, odds 3:2 (art. 6(2))
    assert strip(rig.last("throw"))["nets"] == {"1": {"come_9": 10, "come_odds_9": 15}}


def test_a_come_point_stays_blue_with_odds_behind_its_come_bet():
    # Odds (Come and Don't Come, art. 5(2)(5), (6)) light the come point's box, where only a come bet that
    # travelled there lets them stand: the box stays the come point's BLUE, whatever order the bets are in.
    rig = Rig()
    rig.bets({1: {"pass": 10}})
    rig.throw(1, 3)                                     # point 4
    rig.bets({1: {"come": 10}, 2: {"dont_come": 10}})
    rig.throw(3, 3)                                     # both travel to 6
    rig.throw(4, 5)                                     # a 9 with nothing on it: the 6 stands
    rig.bets({1: {"come_odds_6": 10, "come": 10}, 2: {"dont_come_odds_6": 30}})
    assert strip(rig.last("bets"))["refused"] == 0
    assert rig.colour("point_6") == pixels.BLUE and rig.colour("point_4") == pixels.GOLD
    rig.throw(5, 4)                                     # the new come bet travels to 9; the 6 stands
    assert rig.colour("point_6") == pixels.BLUE and rig.colour("point_9") == pixels.BLUE


def test_a_reading_adding_to_a_hard_way_or_odds_is_held_to_the_table_maximum_in_all():
    rig = Rig(maximum=100)
    rig.bets({1: {"pass": 100}})
    rig.throw(3, 3)                                     # point 6
    rig.bets({1: {"hard_8": 100, "pass_odds": 100}, 2: {"big_number_6": 60}})
    rig.throw(4, 5)
    rig.bets({1: {"hard_8": 100, "pass_odds": 100}, 2: {"big_number_6": 60, "hard_4": 100}})
    assert [(r["seat"], r["zone"]) for r in rig.reports("bet_refused")] == [
        ("1", "pass_odds"), ("1", "hard_8"), ("2", "big_number_6")]
    assert strip(rig.last("bets"))["placed"] == {"2": {"hard_4": 100}}
    rig.throw(4, 4)                                     # the hard 8: 100 at 9:1, not 200
    assert strip(rig.last("throw"))["nets"] == {"1": {"hard_8": 900}}


def test_a_dice_reader_fault_holds_the_table_and_no_throw_is_decided():
    rig = Rig()
    rig.bets({1: {"pass": 10, "field": 5}})
    rig.throw(2, 2)
    rig.fault(faults.FRAME_CRC)
    assert rig.table.state == FAULTED
    rig.throw(3, 4)
    held = strip(rig.last("throw"))
    assert held == {"event": "throw", "dice": [3, 4], "valid": False, "no_roll": "alarm", "point": 4,
                    "shooter_change": False}
    assert rig.table.engine.point == 4 and len(rig.table.engine.bets) == 1
    assert screens.dealer_lines(rig.table, CONFIG, [])[0] == "ALARM: DICE HELD"
    rig.bets({1: {"come": 10}})                         # a reading during the alarm is placed...
    assert rig.colour("pass") == pixels.RED and rig.colour("come") == pixels.RED   # ...under the alarm's red
    rig.press("confirm")
    assert rig.table.state == codes.POINT
    assert rig.colour("come") == pixels.WHITE and rig.colour("point_4") == pixels.GOLD
    assert strip(rig.last("fault_ack")) == {"event": "fault_ack", "fault": "frame_crc", "by": "confirm"}


def test_a_long_void_closes_the_alarm_with_the_doubtful_throw_void():
    rig = Rig()
    rig.throw(3, 4)
    rig.fault(faults.DICE_SENSOR)
    rig.press("void")
    assert rig.table.state == FAULTED
    rig.press("void", long=True)
    assert rig.table.state == codes.COME_OUT
    assert strip(rig.last("fault_ack"))["by"] == "void"


def test_an_alarm_before_the_first_throw_returns_to_ready():
    rig = Rig()
    rig.fault(faults.DICE_BAD_FACE)
    rig.press("confirm")
    assert rig.table.state == READY


def test_a_refused_bet_reading_is_reported_and_places_nothing():
    rig = Rig()
    rig.throw(3, 4)
    rig.bets_fault(faults.BETS_BAD_ZONE)
    assert strip(rig.last("bets"))["reason"] == "bets_bad_zone"
    assert rig.table.engine.bets == [] and rig.table.state == codes.COME_OUT


def test_without_a_bet_reader_throws_still_move_the_puck():
    rig = Rig(with_reader=False)
    rig.throw(5, 5)
    assert strip(rig.last("throw")) == {"event": "throw", "dice": [5, 5], "valid": True, "point": 10,
                                        "shooter_change": False}


def test_a_throw_during_the_boot_lamp_test_ends_it_and_is_decided():
    from firmware import throws
    from firmware.events import THROW
    from firmware.games.craps import controller as cc
    from tests.firmware.craps_rig import BUTTONS, LAYOUT, PIXELS
    from firmware.drivers.pixels import ZoneLights
    from tests.firmware.craps_helpers import BASE
    from tests.firmware.fakes import FakeStrip

    lights = ZoneLights(FakeStrip(PIXELS), PIXELS, sorted((z, [[2 * i, 2 * i + 1]]) for i, z in enumerate(LAYOUT)))
    table = cc.CrapsController(lights, BUTTONS, BASE)
    table.dispatch(THROW, throws.pack(2, 2), 0)
    assert table.state == codes.POINT and table.engine.point == 4
    states = []
    while table.outbox.get():
        if table.outbox.kind == OUT_STATE:
            states.append(table.STATE_NAMES[table.outbox.a])
    assert states == ["starting", "ready", "point"]


# -- take-downs: the reader's "zone=-" (the chips in play there were taken off) ---------------------
def test_take_down_of_pass_odds_returns_the_stake_and_leaves_the_pass_line():
    rig = Rig()
    rig.bets({1: {"pass": 10}})
    rig.throw(2, 2)                                     # point 4
    rig.bets({1: {"pass_odds": 30}})
    rig.throw(2, 3)                                     # 5: nothing decided; the odds are in action
    rig.bets({1: {"pass_odds": "down", "field": 5}})
    assert strip(rig.last("bets")) == {"event": "bets", "reading": 3, "accepted": True, "refused": 0, "placed": {"1": {"field": 5}}}
    assert [strip(r) for r in rig.reports("bet_taken_down")] == [
        {"event": "bet_taken_down", "seat": "1", "zone": "pass_odds", "amount": 30}]
    assert sorted(b.amount for b in rig.table.engine.bets) == [5, 10]     # the pass line and the field
    rig.bets({1: {"pass_odds": "down", "field": 10}})   # a newer reading repeats it: nothing more comes down
    assert len(rig.reports("bet_taken_down")) == 1 and not rig.reports("bet_refused")
    rig.throw(2, 2)                                     # the point: the pass line alone is paid (art. 6(1))
    assert strip(rig.last("throw"))["nets"] == {"1": {"pass": 10, "field": 10}}     # field 4: 1:1 (art. 6)


def test_art5_2_1_pass_line_with_a_point_is_never_taken_down():
    rig = Rig()
    rig.bets({1: {"pass": 10}, 2: {"big_number_6": 30}})
    rig.throw(2, 2)                                     # point 4
    rig.bets({1: {"pass": "down"}, 2: {"big_number_6": "down"}})
    assert strip(rig.last("bets"))["refused"] == 1
    refused = strip(rig.last("bet_refused"))
    assert refused["seat"] == "1" and refused["zone"] == "pass" and refused["amount"] == 10
    assert refused["take_down"] is True and "art. 5(2)(1)" in refused["reason"]
    assert strip(rig.last("bet_taken_down")) == {"event": "bet_taken_down", "seat": "2", "zone": "big_number_6",
                                                 "amount": 30}
    assert rig.colour("pass") == pixels.RED and rig.colour("big_6") == pixels.DIM
    rig.throw(1, 3)                                     # the pass line stayed and wins
    assert strip(rig.last("throw"))["nets"] == {"1": {"pass": 10}}


def test_take_down_follows_the_tables_take_down_setting():
    rig = Rig(take_down=["pass_odds"])
    rig.bets({1: {"dont_pass": 10, "hard_8": 5}})
    rig.throw(2, 2)
    rig.bets({1: {"dont_pass": "down", "hard_8": "down"}})
    reasons = [r["reason"] for r in rig.reports("bet_refused")]
    assert len(reasons) == 2 and all("take_down setting" in r for r in reasons)
    assert len(rig.table.engine.bets) == 2 and not rig.reports("bet_taken_down")


def test_dont_pass_taken_down_brings_its_odds_down_too():
    rig = Rig()
    rig.bets({1: {"dont_pass": 10}})
    rig.throw(2, 2)
    rig.bets({1: {"dont_pass_odds": 20}})
    rig.throw(2, 3)
    rig.bets({1: {"dont_pass": "down", "dont_pass_odds": "down"}})    # both stacks off: one take-down each
    assert [(r["zone"], r["amount"]) for r in rig.reports("bet_taken_down")] == [("dont_pass", 10),
                                                                                ("dont_pass_odds", 20)]
    assert rig.table.engine.bets == [] and not rig.reports("bet_refused")


def test_take_down_with_no_bet_there_is_refused_and_a_pending_bet_just_comes_down():
    rig = Rig()
    rig.bets({1: {"field": 5}})
    rig.bets({1: {"field": "down"}})                    # the same pass: the pending field bet is gone
    assert not rig.reports("bet_refused") and rig.table.engine.bets == []
    rig.bets({2: {"hard_6": "down"}})
    refused = strip(rig.last("bet_refused"))
    assert refused["zone"] == "hard_6" and refused["amount"] == 0 and refused["take_down"] is True
    assert "no bet" in refused["reason"] and rig.colour("hard_6") == pixels.RED


def test_a_reading_with_nothing_pending_shares_no_state_with_the_next():
    # With nothing pending, _take_down_pending makes no buffer and walks no slot: a take-down there
    # must still be refused, a pending bet still replaced, and nothing marked taken down.
    rig = Rig()
    rig.bets({2: {"field": "down"}})                    # nothing pending, nothing in play: refused
    refused = strip(rig.last("bet_refused"))
    assert refused["seat"] == "2" and refused["zone"] == "field" and refused["take_down"] is True
    rig.bets({1: {"pass": 10, "field": 5}, 3: {"any_seven": 5}})
    rig.bets({1: {"field": "down", "pass": 20}})        # a newer reading: the pending bets come down first
    assert strip(rig.last("bets")) == {"event": "bets", "reading": 3, "accepted": True, "refused": 0, "placed": {"1": {"pass": 20}}}
    assert [(b.seat, b.amount) for b in rig.table.engine.bets] == [(0, 20)]
    assert rig.table.down_slots == []
    rig.throw(2, 2)                                     # point 4
    rig.bets({1: {"field": "down"}})                    # nothing pending again, nothing there in play
    assert strip(rig.last("bets"))["refused"] == 1 and strip(rig.last("bet_refused"))["zone"] == "field"
    assert rig.table.down_slots == []


def test_a_roll_clears_every_slot_a_reading_filled_and_every_take_down():
    # The readings keep lists of the slots they filled (placed_slots and its bet ids, down_slots), not tables
    # of every seat's every zone: a roll empties them, and the next reading finds them all clear, bets and
    # take-downs alike.
    rig = Rig()
    rig.bets({1: {"pass": 10}, 2: {"dont_pass": 10}, 3: {"field": 5}})
    rig.throw(2, 2)                                     # point 4: the line bets stand, the field lost
    rig.bets({1: {"field": 5, "hard_6": 5}, 2: {"dont_pass": "down", "any_seven": 5}, 3: {"field": 10}})
    assert [strip(r)["amount"] for r in rig.reports("bet_taken_down")] == [10]
    assert rig.table.down_slots and rig.table.placed_slots and len(rig.table.placed) == len(rig.table.placed_slots)
    rig.throw(3, 3)                                     # a 6: the props decided, hard 6 lost
    table = rig.table
    assert table.placed == [] and table.placed_slots == [] and table.down_slots == []
    rig.bets({2: {"dont_pass": "down"}, 3: {"field": 10}})   # nothing there any more: refused, not "done"
    refused = strip(rig.last("bet_refused"))
    assert refused["seat"] == "2" and refused["zone"] == "dont_pass" and refused["take_down"] is True
    assert strip(rig.last("bets"))["placed"] == {"3": {"field": 10}}


def test_a_throws_nets_by_seat_and_zone_up_to_the_last_seat():
    # The nets' seat keys come from a tuple made once (by the engine's seats) and a seat's row is
    # made at its first decided bet: every seat up to the last, several bets of one seat in one row.
    rig = Rig(seats=14)
    rig.bets({1: {"pass": 10, "field": 5, "any_seven": 5}, 9: {"any_craps": 5}, 14: {"field": 10, "any_seven": 5}})
    rig.throw(3, 4)                                     # 7 on the come-out: pass wins, field and craps lose
    assert strip(rig.last("throw"))["nets"] == {"1": {"pass": 10, "field": -5, "any_seven": 20},
                                                "9": {"any_craps": -5}, "14": {"field": -10, "any_seven": 20}}


def test_a_reading_places_its_bets_past_the_form_checks_and_a_call_a_bet():
    # Issue 14: a reading's kinds, numbers and seats come from zones.KIND_NUMBER and the reader's rows,
    # so each bet costs the engine's rule checks only, never place_bet's form checks too; the engine
    # places a reading's run of bets in one call (place_reading), and only a bet it refuses (3 here)
    # goes through place_known for its reason.
    rig = Rig(seats=4)
    engine = rig.table.engine
    placed = count_calls(engine, "place_bet")[0]
    known = count_calls(engine, "place_known")[0]
    rig.bets({1: {"pass": 10, "field": 5, "hard_8": 5}, 3: {"pass": 7, "come": 10, "any_seven": 5}, 4: {"horn": 8}})
    assert placed[0] == 0 and known[0] == 3
    report = strip(rig.last("bets"))
    assert report["placed"] == {"1": {"pass": 10, "field": 5, "hard_8": 5}, "3": {"any_seven": 5}}
    assert report["refused"] == 3 and len(engine.bets) == 4


def test_readings_from_the_bet_reader_take_down_only_when_they_hold_a_take_down():
    # Issue 14: the CLOSE looks among a reading's slots for take-downs only when the reader told one
    # (BetReading.may_take_down); readings from the reader itself, a take-down among them.
    from firmware.drivers.bet_reader import BetReader
    from firmware.events import BETS
    from firmware.statemachine import EventQueue
    from firmware.evidence import Evidence
    from tests.firmware.device_helpers import Sender, drain
    rig = Rig(seats=3)
    queue = EventQueue(8)
    reader = BetReader(None, queue, Evidence(), ZONES, 3, reading=rig.reading, take_downs=True)
    s = Sender("B")
    looked = []
    take_down = rig.table._take_down
    rig.table._take_down = lambda seat, z, pend, most: looked.append((seat, ZONES[z])) or take_down(seat, z, pend, most)
    answers = []
    may_take_down = rig.reading.may_take_down
    rig.reading.may_take_down = lambda: answers.append(may_take_down()) or answers[-1]

    def reading(reading_id, seat_lines):
        for line in [s("OPEN", str(reading_id))] + [s("SEAT", *w) for w in seat_lines] + [
                s("CLOSE", str(reading_id), str(len(seat_lines)))]:
            reader.handle(line)
        for kind, a, b in drain(queue):
            assert kind == BETS
            rig.event(kind, a, b)
    reading(1, [("1", "pass=10", "field=5"), ("3", "hard_8=5")])
    assert looked == [] and len(rig.table.engine.bets) == 3
    rig.throw(2, 2)                                     # point 4: the field loses, the rest stands
    reading(2, [("1", "pass_odds=30")])
    rig.throw(2, 3)
    reading(3, [("1", "pass_odds=-", "field=5"), ("3", "hard_8=5")])
    assert looked == [(0, "pass_odds")]
    assert [strip(r) for r in rig.reports("bet_taken_down")] == [
        {"event": "bet_taken_down", "seat": "1", "zone": "pass_odds", "amount": 30}]
    reading(4, [("2", "field=5")])
    assert looked == [(0, "pass_odds")] and not rig.reports("bet_refused")
    assert answers == [False, False, True, False]      # asked at each CLOSE: the slots looked at once


def test_a_rolls_decided_lights_are_worked_out_once_and_the_last_result_of_a_zone_wins():
    # Issue 14: the last roll's decided bets stay lit until the next roll, and every render (a reading's
    # CLOSE among them) lit them again, 50 pairs for 50 bets: now their lights are worked out once for
    # each roll's list (a restored one too), a light once, with the colour its zone's last pair gives.
    rig = Rig(seats=10)
    rig.bets(dict((seat, {"pass": 10, "field": 10, "any_seven": 10}) for seat in range(1, 11)))
    rig.throw(3, 4)                                     # a 7: pass and any seven win, field loses
    table = rig.table
    assert len(table.decided) == 30
    worked = []
    marks_of = table._marks_of
    table._marks_of = lambda decided: worked.append(len(decided)) or marks_of(decided)
    rig.bets({1: {"hard_6": 10}})                       # a reading's render: the roll's lights as they were
    table._render_lights()
    assert worked == []
    assert rig.colour("pass") == pixels.GREEN and rig.colour("field") == pixels.OFF
    assert rig.colour("hard_6") == pixels.WHITE
    table.decided = [("field", "win"), ("pass", "push"), ("field", "lose"), ("no_such_zone", "win")]
    table._render_lights()                              # a new list (as a restore makes): worked out once
    table._render_lights()
    assert worked == [4]
    assert rig.colour("field") == pixels.OFF and rig.colour("pass") == pixels.WHITE
    assert rig.colour("any_seven") == pixels.DIM and rig.colour("hard_6") == pixels.WHITE


def test_a_bet_on_a_zone_without_a_light_lights_nothing_not_even_the_last_zone():
    # The render's frame has an entry past the zones that a bet without a light (index -1) sets in
    # place of a test of its index a bet: no zone of the layout, the last one least, takes its colour.
    rig = Rig(seats=2)
    table = rig.table
    assert table.lights.index("horn") < 0 and table.lights.index("pass") >= 0
    rig.bets({1: {"horn": 20}, 2: {"horn": 40}})
    assert strip(rig.last("bets"))["refused"] == 0 and len(table.engine.bets) == 2
    colours = list(table.lights.colours)
    assert colours == [pixels.DIM] * len(colours), colours
    rig.bets({1: {"horn": 20, "pass": 10}})
    colours = list(table.lights.colours)
    assert colours.count(pixels.WHITE) == 1 and rig.colour("pass") == pixels.WHITE
    assert colours[-1] == pixels.DIM


def test_a_tick_in_play_goes_to_the_clock_with_no_button_or_game_event_asked():
    # Issue 14: every pass dispatches a TICK; in COME_OUT and POINT it is the clock only, taken first
    # (the shooter button and the events every state takes were asked before it: two calls a pass).
    from firmware.events import TICK
    rig = Rig(seats=2)
    table = rig.table
    rig.bets({1: {"pass": 10}})
    assert table.state == codes.COME_OUT
    asked = []
    table._anywhere = lambda kind, a, b: asked.append(kind)
    table._shooter_button = lambda kind, a, b: asked.append(kind)
    seconds, part = table.uptime_s, table.uptime_part_ms
    table.dispatch(TICK, 1500, 0)
    assert asked == [] and table.uptime_s * 1000 + table.uptime_part_ms == seconds * 1000 + part + 1500
    assert table.state == codes.COME_OUT


def test_the_result_displays_last_throws_line_is_made_once_for_the_totals_it_shows():
    # Issue 14: every pass that redraws the screens (a reading's CLOSE) formatted the last throws'
    # totals again; the line is now kept with the totals it shows (the same string while they stand),
    # made anew when a throw or a restore changes them, whatever table asks.
    rig, other = Rig(), Rig()
    for d in ((3, 3), (4, 4), (2, 4)):
        rig.throw(*d)
    other.throw(5, 6)
    line = screens.result_lines(rig.table, CONFIG, [])[1]
    assert line == "LAST 6 8 6"
    rig.bets({1: {"field": 5}})
    assert screens.result_lines(rig.table, CONFIG, [])[1] is line
    assert screens.result_lines(other.table, CONFIG, [])[1] == "LAST 11"
    assert screens.result_lines(rig.table, CONFIG, [])[1] == "LAST 6 8 6"
    rig.throw(1, 2)
    assert screens.result_lines(rig.table, CONFIG, []) == ["PUCK OFF", "LAST 3 6 8 6", "SHOOTER 1", "ROLLS 4"]
    fresh = Rig()
    fresh.table.restore(rig.table.snapshot())
    assert screens.result_lines(other.table, CONFIG, [])[1] == "LAST 11"
    assert screens.result_lines(fresh.table, CONFIG, [])[1] == "LAST 3 6 8 6"
    assert screens.result_lines(Rig().table, CONFIG, [])[1] == ""


def test_the_result_displays_last_throws_are_whole_totals_that_fit_the_lcd():
    # Six totals of two digits make 22 columns: the 20-column LCD cut the oldest short, an 11 read "1".
    rig = Rig()
    for d in ((5, 6), (4, 6), (6, 6), (5, 6), (4, 6), (2, 2)):
        rig.throw(*d)
    line = screens.result_lines(rig.table, CONFIG, [])[1]
    assert line == "LAST 4 10 11 12 10" and len(line) <= 20
    rig.throw(1, 1)                                     # six totals fit again while the line has room
    assert screens.result_lines(rig.table, CONFIG, [])[1] == "LAST 2 4 10 11 12 10"
    for _ in range(6):
        rig.throw(6, 6)
    assert screens.result_lines(rig.table, CONFIG, [])[1] == "LAST 12 12 12 12 12"


def test_the_dealer_displays_shooter_line_keeps_the_roll_count_whole():
    rig = Rig()
    rig.throw(3, 3)
    rig.table.shooter = 1000
    rig.table.shooter_rolls = 100
    assert screens.dealer_lines(rig.table, CONFIG, [])[0] == "SHOOTER 1000 R100"
    rig.table.shooter_rolls = 99
    assert screens.dealer_lines(rig.table, CONFIG, [])[0] == "SHOOTER 1000 ROLL 99"


def test_the_dealer_displays_shooter_and_throw_lines_are_made_once_for_what_they_show():
    # Issue 14: every redraw (a reading's CLOSE among them) formatted the shooter's line and the last
    # throw's again: each is now kept with the values it shows, made anew when they change, for any table.
    rig, other = Rig(), Rig()
    rig.throw(2, 4)                                     # point 6
    other.throw(1, 1)                                   # craps on the come-out
    lines = screens.dealer_lines(rig.table, CONFIG, [])
    assert lines == ["SHOOTER 1 ROLL 1", "POINT 6", "2 + 4 = 6", ""]
    rig.bets({1: {"field": 5}})
    again = screens.dealer_lines(rig.table, CONFIG, [])
    assert again == lines and again[0] is lines[0] and again[2] is lines[2]
    assert screens.dealer_lines(other.table, CONFIG, []) == ["SHOOTER 1 ROLL 1", "COME OUT", "1 + 1 = 2", ""]
    assert screens.dealer_lines(rig.table, CONFIG, []) == lines
    rig.throw(3, 4, flags=("off_table",))               # a no roll: its faces, no sum
    assert screens.dealer_lines(rig.table, CONFIG, [])[1:3] == ["NO ROLL: OFF TABLE", "3 4"]
    rig.throw(4, 3)                                     # a seven out: a new shooter
    assert screens.dealer_lines(rig.table, CONFIG, []) == ["SHOOTER 2 ROLL 0", "SEVEN OUT", "NEW SHOOTER", ""]
