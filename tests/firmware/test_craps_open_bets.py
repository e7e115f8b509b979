# The host's open_bets request at a Craps table (firmware/games/craps/open_bets.py): the bets open on
# the layout by seat and zone (a come bet by its come point, art. 5(2)(5)), the point and the shooter, in
# one report made only where the host link has room for it below its alarm; else a host_error saying so.
# Dual runtime.
import sys

from firmware.events import HOST, HOST_OPEN_BETS, LAMP, LAMP_CHECK_END, TICK
from firmware.games.craps import codes, open_bets
from firmware.games.craps import controller as cc
from firmware.games.craps.zones import ZONES, zone_of
from firmware.table_codes import STARTING
from tests.firmware.craps_helpers import BASE, D
from tests.firmware.craps_rig import BUTTONS, PIXELS, Rig, strip
from tests.firmware.fakes import FakeStrip
from tests.firmware.test_craps_reports import _on_the_boards_link, _worst_envelope


def _ask(rig, room=-1):
    rig.event(HOST, HOST_OPEN_BETS, room)
    return strip(rig.reports()[-1])


def _played(rig):
    """Point 4; seat 1's come bet travelled to 6 with odds behind it, seat 2's don't come to 6 as well;
    hard ways and a field bet that the next roll will decide."""
    rig.bets({1: {"pass": 10}, 2: {"dont_pass": 10}})
    rig.throw(*D[4])
    rig.bets({1: {"come": 10, "pass_odds": 20}, 2: {"dont_come": 10, "hard_8": 5}})
    rig.throw(*D[6])
    rig.bets({1: {"come_odds_6": 20, "field": 5}, 3: {"big_number_8": 30}})


def test_the_answer_is_every_open_bet_by_seat_and_zone_with_the_point_and_shooter():
    rig = Rig(seats=3)
    assert _ask(rig) == {"event": "open_bets", "point": None, "shooter": 1, "count": 0, "bets": {}}
    _played(rig)
    assert _ask(rig) == {"event": "open_bets", "point": 4, "shooter": 1, "count": 9,
                         "bets": {"1": {"pass": 10, "pass_odds": 20, "come_6": 10, "come_odds_6": 20, "field": 5},
                                  "2": {"dont_pass": 10, "dont_come_6": 10, "hard_8": 5},
                                  "3": {"big_number_8": 30}}}
    rig.throw(*D[7])                                     # seven-out: every bet here decided
    assert _ask(rig) == {"event": "open_bets", "point": None, "shooter": 2, "count": 0, "bets": {}}


def test_the_zones_are_the_ones_the_reports_gave_each_bet():
    # open_bets names a bet by its kind and number (zones.zone_of); the controller kept the zone a reading
    # placed it on and moved a come bet's to its come point (bet_zone): the two agree for every open bet.
    rig = Rig(seats=3)
    _played(rig)
    engine_bets = rig.table.engine.bets
    assert len(engine_bets) == 9
    for bet in engine_bets:
        assert zone_of(bet.kind, bet.number) == rig.table.bet_zone[bet.bet_id], (bet.kind, bet.number)


def test_two_bets_of_a_seat_on_one_zone_are_added_up():
    rig = Rig(seats=3)
    engine = rig.table.engine
    engine.place_bet(0, "field", 5)
    engine.place_bet(0, "field", 10)
    engine.place_bet(1, "hard", 5, 8)
    engine.place_bet(1, "hard", 10, 8)
    assert _ask(rig)["bets"] == {"1": {"field": 15}, "2": {"hard_8": 15}}
    assert _ask(rig)["count"] == 4


def test_an_answer_the_link_has_no_room_for_is_refused_and_says_how_much_it_needs():
    rig = Rig(seats=3)
    _played(rig)
    fields = open_bets.report(rig.table, -1)[1]
    need = open_bets.frames(fields)
    assert need == 3                                     # 9 bets, 318 bytes with the longest envelope
    since = len(rig.reports())
    assert _ask(rig, need + 3)["event"] == "open_bets"   # room for it and a reading's refusal whole
    refused = _ask(rig, need + 2)
    assert refused == {"event": "host_error", "request": "open_bets",
                       "error": "open_bets refused: the answer takes 3 frames, the host link has room for 2 now: "
                                "ask again once it has caught up"}
    assert _ask(rig, 0)["error"].startswith("open_bets refused: the answer takes 3 frames, the host link has room "
                                            "for 0 now")
    assert len(rig.reports()) == since + 3               # one report each: nothing else moved
    assert rig.table.engine.point == 4 and len(rig.table.engine.bets) == 9


def test_the_frames_reckoned_are_never_fewer_than_the_report_takes_on_the_boards_link():
    # A full layout (14 seats, a bet on most zones, 9-digit stakes) under the longest envelope: the
    # frames the answer takes on the board's host link (128-byte pieces) are at most those reckoned.
    rig = Rig(seats=14, table_seats=14, max_open_bets=4096)
    _on_the_boards_link(rig)
    _worst_envelope(rig)
    engine = rig.table.engine
    for seat in range(14):
        for kind in ("field", "any_seven", "any_craps", "eleven", "horn"):
            engine.place_bet(seat, kind, 999999995)
        for number in (4, 6, 8, 10):
            engine.place_bet(seat, "hard", 999999995, number)
    fields = open_bets.report(rig.table, -1)[1]
    reckoned = open_bets.frames(fields)
    first = rig.sender._next_seq
    assert _ask(rig, 64)["event"] == "open_bets" and reckoned < 61
    taken = rig.sender._next_seq - first
    assert rig.sender.refused_total == 0 and 0 < taken <= reckoned and reckoned - taken <= 1, (taken, reckoned)


def test_a_table_still_starting_refuses_it_the_bets_are_not_known_yet():
    settings = dict(BASE)
    from firmware.drivers.pixels import ZoneLights
    from tests.firmware.craps_rig import LAYOUT
    lights = ZoneLights(FakeStrip(PIXELS), PIXELS, sorted((z, [[2 * i, 2 * i + 1]]) for i, z in enumerate(LAYOUT)))
    table = cc.CrapsController(lights, BUTTONS, settings)
    assert table.state == STARTING
    table.dispatch(HOST, HOST_OPEN_BETS, 40)
    entries = []
    while table.outbox.get():
        entries.append((table.outbox.kind, table.outbox.b))
    assert entries[-1] == (codes.OUT_OPEN_BETS, 40)
    event, fields = table.game_report(codes.OUT_OPEN_BETS, 0, 40)
    assert event == "host_error" and fields["request"] == "open_bets"
    assert fields["error"].startswith("open_bets refused: the table is starting")
    table.dispatch(TICK, 100, 0)
    assert table.state == STARTING                       # nothing else changed


def test_the_answers_module_is_released_once_the_report_is_made():
    rig = Rig(seats=3)
    _played(rig)
    _ask(rig)
    assert "firmware.games.craps.open_bets" not in sys.modules


def test_it_is_answered_during_an_alarm_the_bets_stay():
    rig = Rig(seats=3)
    _played(rig)
    rig.throw(9, 2)                                      # a face no die shows: dice_bad_face, held
    assert rig.table.state_name() == "fault"
    answer = _ask(rig)
    assert answer["event"] == "open_bets" and answer["count"] == 9 and answer["point"] == 4
    assert sorted(answer["bets"]) == ["1", "2", "3"] and len(ZONES) == 50


def test_a_lamp_check_answers_it_and_goes_on():
    # The technician's lamp check (from READY only: no bet is open before the table opens) takes a host
    # request without ending; this one is answered, not "not served by this table".
    rig = Rig(seats=3)
    rig.event(LAMP, 0)
    assert rig.table.state_name() == "lamp_check"
    assert _ask(rig) == {"event": "open_bets", "point": None, "shooter": 1, "count": 0, "bets": {}}
    assert rig.table.state_name() == "lamp_check"
    rig.event(LAMP, LAMP_CHECK_END)
    assert rig.table.state_name() == "ready"
