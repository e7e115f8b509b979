# A Craps reading's reports and the room the host link's store has for them now (table.link_room, kept by
# firmware.main before each reading): a reading is bounded by that room, never by a room it only hopes for;
# with no room for one bet it is refused whole in one short report (docs/craps.md "What one reading may
# report", docs/host-link.md). And past a reading's most, the rules' reason comes before the limit's.
# Dual runtime.
import json

from firmware.games.craps.zones import ZONES
from tests.firmware.craps_rig import Rig, strip
from tests.firmware.test_craps_reports import _BIG_STAKE, _HARD_BIG, _in_play, _on_the_boards_link, _worst_envelope


def _worst(seats):
    """Chips on every zone of every seat at 9-digit stakes: a reading at its most."""
    return dict((s, dict((z, _BIG_STAKE) for z in ZONES)) for s in range(1, seats + 1))


def _host_back(rig):
    """The host returns and asks for everything from the oldest frame held (REPLAY 0.0)."""
    from firmware.link import frame as fm
    rig.uart.acks = True
    rig.uart.feed(fm.encode(0, 0, "REPLAY"))
    rig._link()


def _reasons(rig):
    """{(seat, zone): reason} of the last reading's refusals."""
    return dict(((str(r[0] + 1), ZONES[r[1]]), r[3]) for r in rig.table.refusals)


def test_the_senders_room_is_what_reports_may_take_before_one_is_refused():
    from firmware.link.sender import Sender
    from firmware.link.ram_store import RamStore
    from tests.firmware.fakes import FakeUART
    uart = FakeUART()
    uart.acks = False
    store = RamStore(6, 200)
    sender = Sender(uart, store, 1)                     # its OPEN is held at once
    assert sender.room() == 5 and sender.send("x" * 10) and sender.room() == 4
    while sender.send("y"):
        pass
    assert sender.room() == 0 and sender.refused == 1   # a LOST count waits for two slots
    store.drop_through(1, 2)                            # (as an ACK of the OPEN and the first report)
    assert store.count() == 4 and sender.room() == 1    # the LOST frame first, then one report
    assert sender.send("z") and sender.room() == 0 and sender.refused_total == 1


def test_two_worst_readings_before_the_host_acknowledges_lose_no_report():
    # Regression: READING_BETS_MOST was reckoned for a store holding at most the sender's window (8 frames)
    # unacknowledged. Two near-worst readings within a second (the host had not acknowledged the first's
    # ~35 frames) put the second's reports past the store's 64 frames: refused there, a LOST frame, and
    # the host never learnt which bets the second reading placed. Now each reading is bounded by the room
    # there is, the rest refused with the reason, and the next reading's refusal still fits.
    from firmware.games.craps.readings import ROOM_REASON
    rig = Rig(seats=32, table_seats=32, max_open_bets=4096)
    _on_the_boards_link(rig)
    _worst_envelope(rig)
    since = len(rig.reports())
    rig.uart.acks = False                               # the host has acknowledged nothing yet
    rig.bets(_worst(32))
    rig.bets(_worst(32))
    second = _in_play(rig)
    assert 0 < len(rig.table.engine.bets) < 144         # what the room carried, the rest refused
    assert ROOM_REASON in [r[3] for r in rig.table.refusals]
    rig.bets(_worst(32))                                # a third: no room for one bet, refused whole
    assert rig.sender.refused_total == 0                # no report refused by the link: no LOST frame
    assert _in_play(rig) == second                      # the second reading stands
    _host_back(rig)
    reports = rig.reports()[since:]
    seqs = [r["seq"] for r in reports]
    assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))
    bets = [r for r in reports if r["event"] == "bets"]
    assert len(bets) == 3 and bets[1]["placed"] == second
    assert strip(bets[2]) == {"event": "bets", "reading": bets[1]["reading"] + 1, "accepted": False,
                              "reason": "host link full: no room for its reports", "refused": 32 * len(ZONES)}
    assert reports[-1] == bets[2]                       # one short report, nothing after it


def test_a_reading_with_no_room_for_one_bet_is_refused_whole_in_one_short_report():
    # The store holds the first reading's frames and the host has not acknowledged them: a reading that
    # would take down and place bets is refused whole: nothing taken down, nothing placed, the pending
    # reading's bets stand, its refusals still lit; the report fits the room the last reading left.
    rig = Rig(seats=3)
    rig.bets({1: {"pass": 10, "field": 5}, 2: {"pass": 7}})
    rig.throw(1, 2)                                     # craps 3: Pass lost, the Field won
    rig.bets({1: {"hard_4": 10}, 2: {"pass": 7}})
    placed = _in_play(rig)
    refused = list(rig.table.refusals)
    lights = list(rig.lights.colours)
    since = len(rig.reports())
    rig.table.link_room = 16                            # as firmware.main gives it: 48 frames held
    rig.bets({1: {"hard_4": "down", "hard_6": 10}, 3: {"field": 25}})
    assert _in_play(rig) == placed and rig.table.refusals == refused
    assert list(rig.lights.colours) == lights
    assert [strip(r) for r in rig.reports()[since:]] == [
        {"event": "bets", "reading": rig.reading_id, "accepted": False,
         "reason": "host link full: no room for its reports", "refused": 3}]
    rig.table.link_room = 64                            # the host caught up: the next reading is taken
    rig.bets({1: {"hard_4": "down", "hard_6": 10}, 3: {"field": 25}})
    assert _in_play(rig) == {"1": {"hard_6": 10}, "3": {"field": 25}}


def test_the_refusal_whole_fits_the_frames_a_reading_leaves_for_it():
    # Worst case: a 10-digit seq and reading id, a 12-character table id, 32 seats x 50 zones refused.
    from firmware.games.craps import codes, readings, reports
    from firmware.startup import HOST_PIECE
    rig = Rig(seats=3)
    event, fields = reports.game_report(rig.table, codes.OUT_BETS_NO_ROOM, 1000000000, 32 * len(ZONES))
    record = {"seq": 1000000000, "table": "ABCDEFGHIJKL", "event": event}
    record.update(fields)
    frames = (len(json.dumps(record)) + HOST_PIECE - 1) // HOST_PIECE
    assert frames == 2
    if hasattr(readings, "_WHOLE_FRAMES"):              # (MicroPython keeps no private const() as a global)
        assert readings._WHOLE_FRAMES == frames + 1     # and a state report, when the reading opens the table


def test_past_a_readings_most_the_rules_reason_comes_before_the_limits():
    # Regression: at its most (144 bets) a reading refused every later bet with the limit's reason, a bet
    # the rules refuse anyway too (a stake not a multiple of the minimum, Come at the come-out, odds with
    # no line bet, chips on a come point): the limit's reason only for a bet the rules would have taken.
    from firmware.games.craps.readings import FULL_REASON
    rig = Rig(seats=25, table_seats=25, max_open_bets=4096)
    reading = dict((s, dict((k, 30) for k in _HARD_BIG)) for s in range(1, 25))     # 24 x 6: the most
    reading[25] = {"pass": 7, "pass_odds": 10, "come": 10, "come_6": 10, "field": 10}
    rig.bets(reading)
    assert len(rig.table.engine.bets) == 144
    reasons = _reasons(rig)
    assert reasons[("25", "pass")] == "stake 7 is not a positive multiple of the table minimum 5 (art. 5(6))"
    assert reasons[("25", "pass_odds")].startswith("pass_odds: no pass bet of this seat with a point")
    assert reasons[("25", "come")] == "come only once a point is set (art. 5(2)(5), (6))"
    assert reasons[("25", "come_6")].startswith("come_6: a come bet is placed on come and travels")
    assert reasons[("25", "field")] == FULL_REASON
    assert strip(rig.last("bets"))["refused"] == 5


def test_past_a_room_bounded_most_odds_and_take_downs_get_the_rules_reason_first():
    # The same for a reading bounded by the link's room (2 bets here): odds over the table's odds
    # limit and a take-down of Pass with a point (a contract bet) get the rules' reason; the bets and
    # take-downs the rules would allow, the room's.
    from firmware.games.craps.readings import ROOM_REASON
    rig = Rig(seats=3)
    rig.bets({1: {"pass": 10, "hard_4": 10, "hard_6": 10}, 2: {"pass": 10, "hard_8": 10}, 3: {"pass": 10}})
    rig.throw(1, 4)                                     # point 5: nothing else decided
    rig.table.link_room = 18                            # room for the reports of 2 bets
    rig.bets({1: {"hard_4": "down", "hard_6": "down"}, 2: {"pass": "down", "hard_8": "down"}})
    reasons = _reasons(rig)
    assert [(d[0], ZONES[d[1]]) for d in rig.table.downs] == [(0, "hard_4"), (0, "hard_6")]
    assert reasons[("2", "pass")].startswith("pass with a point is a contract bet")
    assert reasons[("2", "hard_8")] == ROOM_REASON
    assert [r[2] for r in rig.table.refusals] == [10, 10]      # the stakes that stay in play
    rig.table.link_room = 18
    rig.bets({2: {"pass_odds": 10, "hard_10": 10}, 3: {"pass_odds": 1000, "field": 5, "any_seven": 5}})
    reasons = _reasons(rig)
    assert len(rig.table.placed) == 2                   # seat 2's odds and hard 10
    assert reasons[("3", "pass_odds")].startswith("odds on 5 limited to")
    assert reasons[("3", "field")] == reasons[("3", "any_seven")] == ROOM_REASON


def test_the_main_loop_gives_each_reading_the_links_room_and_the_journal_keeps_it():
    # firmware.main puts the sender's room on the table before each BETS event, and the table journal
    # keeps it with the reading (a replay after a reset bounds it the same way).
    from firmware import main
    from firmware.event_bytes import behind
    from firmware.recovery_replay import put_behind
    from firmware.events import BETS
    from tests.firmware.booted import boot_pico
    from tests.firmware.scratch import ScratchDir
    with ScratchDir() as state:
        ctx = boot_pico(state, "craps")
        ctx.sender.port.acks = False                    # the host is away
        reading = ctx.table.reading
        width = len(ZONES)
        rooms = []
        for n in range(1, 5):
            for i in range(len(reading.amounts)):
                reading.amounts[i] = 0
            for seat in range(ctx.table.seats):
                for z in range(width):
                    reading.amounts[seat * width + z] = 5000
            reading.reading_id = n
            room = ctx.sender.room()
            ctx.queue.put(BETS, n, ctx.table.seats)
            main.poll_inputs(ctx, 10)
            rooms.append((room, ctx.table.link_room))
            kept = _Kept()
            put_behind(kept, BETS, n, 0, behind(ctx.table, BETS, n, 0))
            assert kept.link_room == room
        assert [r[0] for r in rooms] == [r[1] for r in rooms] and rooms[-1][0] < 20 < 60 < rooms[0][0]
        assert ctx.sender.refused_total == 0            # no LOST frame


class _Kept:
    """What put_behind() fills: a reading of the sim table's seats and the room."""
    def __init__(self):
        from firmware.bets import BetReading
        self.reading = BetReading(ZONES, 14)
        self.link_room = -1


def test_readings_bounded_by_the_room_replay_the_same_from_a_snapshot():
    # What recovery does (the journal keeps each reading's room with it): the same reports, lights, state.
    from tests.firmware.snapshot_check import journal_check

    def bets(room, reading):
        def step(rig):
            rig.table.link_room = room
            rig.bets(reading)
        return step

    steps = [bets(64, {1: {"pass": 10, "hard_4": 10}, 2: {"pass": 10, "hard_8": 10}}),
             lambda rig: rig.throw(1, 4),
             bets(18, {1: {"hard_4": "down", "field": 5, "any_seven": 5, "eleven": 5}, 2: {"hard_8": "down"}}),
             bets(12, {1: {"field": 10}}),                 # no room: refused whole
             lambda rig: rig.throw(2, 2),
             bets(64, {1: {"field": 10}})]
    assert journal_check(Rig, steps) >= 2


def test_the_refusals_itemized_are_as_many_as_the_room_left_after_the_money_holds():
    # What a reading's money leaves of its room (R frames: the room less 3) goes to refusals reported one by
    # one, 3 frames each at their worst, at most codes.REFUSALS_ITEMIZED (docs/craps.md, "What one reading may
    # report"; codes.py: the money 14 frames and 36 bytes an entry, in 128-byte pieces). As many as fit,
    # never one more: the link store takes them all, and not fewer (mutants seed 72 of readings._itemized's
    # arithmetic, rounding the money's pieces two down or one up, lived through every test).
    from firmware.games.craps.codes import REFUSALS_ITEMIZED
    for room in range(20, 44):
        rig = Rig(seats=3)
        rig.bets({1: {"pass": 10}})                     # (an earlier reading: its bet is no entry of the next)
        rig.throw(2, 2)                                 # point 4: Pass may be put on no more
        rig.table.link_room = room                      # (as firmware.main gives it before the reading)
        before = len(rig.reports("bet_refused"))
        rig.bets(dict((seat, dict((zone, 3) for zone in ZONES)) for seat in (1, 2, 3)))   # 3: refused
        itemized = len(rig.reports("bet_refused")) - before
        left = (room - 3) - 14 - 0                      # nothing placed by this reading: no money entry
        assert itemized == min(REFUSALS_ITEMIZED, left // 3), (room, itemized)
    for room in range(20, 44):                          # with money: two bets placed, 72 bytes, 1 piece
        rig = Rig(seats=3)
        rig.table.link_room = room
        before = len(rig.reports("bet_refused"))
        rig.bets({1: dict((zone, 3) for zone in ZONES), 2: {"pass": 10, "field": 5}})
        itemized = len(rig.reports("bet_refused")) - before
        assert len(rig.table.placed) == 2
        left = (room - 3) - 14 - 1
        assert itemized == min(REFUSALS_ITEMIZED, left // 3), (room, itemized)
