# Craps host reports (firmware/games/craps/reports.py): the "bets" report's placed table; a reading's
# reports within the host link's room.
import json

from firmware.bets import BetReading
from firmware.games.craps import reports
from firmware.games.craps.zones import ZONES
from tests.firmware.craps_rig import Rig, strip


class _NoWalk:
    """A controller's `placed` that may be indexed but not walked whole."""

    def __init__(self, placed):
        self.placed = placed
        self.reads = 0

    def __len__(self):
        return len(self.placed)

    def __getitem__(self, i):
        self.reads += 1
        return self.placed[i]

    def __iter__(self):
        raise AssertionError("placed walked whole (seats x zones)")


class _Table:
    pass


class _NoSlots(BetReading):
    """A reading whose slots may not be asked for."""

    def slots(self):
        raise AssertionError("the reading's slots walked")


def test_the_placed_table_reads_only_the_placed_bets_slots():
    # The "bets" report's placed table walks the controller's placed_slots (the slots of the bets the
    # reading placed, ascending), not every seat's every zone (14 x 50 at Craps, mostly empty) nor the
    # reading's slots with chips each looked up in placed (issue 14): the same table, seats and zones
    # in the same order, a refused bet left out.
    rig = Rig(seats=3)
    bets = {1: {"pass": 10, "field": 5}, 3: {"any_seven": 5, "hard_8": 5}, 2: {"pass_odds": 10}}
    rig.bets(bets)
    report = strip(rig.last("bets"))
    assert report["refused"] == 1                          # odds with no pass bet behind them (art. 5(2))
    want = {"1": {"pass": 10, "field": 5}, "3": {"any_seven": 5, "hard_8": 5}}
    assert report["placed"] == want
    t = _Table()
    t.reading = _NoSlots(ZONES, 3)
    t.reading.amounts[:] = rig.table.reading.amounts
    t.placed = _NoWalk(rig.table.placed)
    t.placed_slots = rig.table.placed_slots
    table = reports.placed_table(t)
    assert table == want and list(table) == list(report["placed"])
    assert t.placed.reads == 0
    # A reader of more seats than the table: its seats past the table's are never placed, so not read.
    wide = _NoSlots(ZONES, 5)
    wide.amounts[:len(rig.table.reading.amounts)] = rig.table.reading.amounts
    wide.amounts[4 * len(ZONES)] = 25
    t.reading = wide
    assert reports.placed_table(t) == want and t.placed.reads == 0


def test_odds_refused_by_the_rules_are_a_placement_refused_not_a_take_down():
    # Odds with their line bet behind them that the rules refuse (past the table's max_odds setting) are a
    # bet refused as placed: no "take_down" field, which would tell the host that chips in play stayed there
    # (mutant seed 72: the flag set on this path lived through every test).
    rig = Rig(seats=3)
    rig.bets({1: {"pass": 10}})
    rig.throw(2, 2)                                     # point 4: odds up to 3x the line bet
    rig.bets({1: {"pass_odds": 50}})
    refused = strip(rig.last("bet_refused"))
    assert "take_down" not in refused, refused
    assert (refused["seat"], refused["zone"], refused["amount"]) == ("1", "pass_odds", 50)
    assert "max_odds" in refused["reason"]
    assert strip(rig.last("bets"))["refused"] == 1


def _on_the_boards_link(rig):
    """The rig's reports through a host link as the board's: 64 frames of 200 bytes, 128-byte pieces
    (firmware.startup HOST_STORE_FRAMES, HOST_SLOT, HOST_PIECE)."""
    from firmware.link.sender import Sender
    from firmware.link.ram_store import RamStore
    from firmware.startup import HOST_PIECE, HOST_SLOT, HOST_STORE_FRAMES
    rig.sender = Sender(rig.uart, RamStore(HOST_STORE_FRAMES, HOST_SLOT), 2, piece=HOST_PIECE)   # a new boot
    rig.reporter.sender = rig.sender
    rig.room_from_link = True                           # each reading bounded by the room there is (firmware.main)


def test_hundreds_of_refusals_in_one_reading_are_summed_up_and_never_outrun_the_host_link():
    # Regression: a reading refused whole seat by seat (a reader misreading every stack: 3 x 50 refusals
    # here, 14 x 50 at a full table) sent a bet_refused report each, two frames apiece, in the one pass:
    # past the link store's 64 frames they were refused there (counted in a LOST frame), and so was
    # every report after them until the host caught up (the next throw's too).
    from firmware.games.craps.codes import REFUSALS_ITEMIZED
    rig = Rig(seats=3)
    _on_the_boards_link(rig)
    rig.bets({1: {"pass": 10}})
    rig.throw(2, 2)                                     # point 4: Pass may be put on no more (art. 5(2)(1))
    reading = dict((seat, dict((zone, 3) for zone in ZONES)) for seat in (1, 2, 3))   # 3: no multiple of 5
    rig.bets(reading)
    n = 3 * len(ZONES)
    assert len(rig.table.refusals) == n and strip(rig.last("bets"))["refused"] == n
    refused = rig.reports("bet_refused")[-REFUSALS_ITEMIZED:]            # the first ones one by one...
    itemized = rig.table.refusals[:REFUSALS_ITEMIZED]
    assert [(r["seat"], r["zone"], r["amount"], r["reason"]) for r in refused] == [
        (str(seat + 1), ZONES[z], amount, reason) for seat, z, amount, reason, _ in itemized]
    more = strip(rig.last("bets_refused_more"))                          # ...the rest in one report
    counts = {}
    for seat, _z, _amount, _reason, _down in rig.table.refusals[REFUSALS_ITEMIZED:]:
        counts[str(seat + 1)] = counts.get(str(seat + 1), 0) + 1
    assert more == {"event": "bets_refused_more", "reading": 2, "more": n - REFUSALS_ITEMIZED, "seats": counts}
    assert rig.sender.refused_total == 0                 # no report refused by the link: no LOST frame
    rig.throw(2, 2)                                     # the point made: its report reaches the host
    assert strip(rig.last("throw"))["nets"] == {"1": {"pass": 10}} and rig.sender.refused_total == 0
    seqs = [r["seq"] for r in rig.reports()]
    assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))


# -- a reading's reports and the host link's room (codes.READING_FRAMES, READING_BETS_MOST) ----------------

_HARD_BIG = ("hard_4", "hard_6", "hard_8", "hard_10", "big_number_6", "big_number_8")
_BIG_STAKE = 999999990           # 9 digits, a multiple of every unit at minimum 5 (pays exactly: art. 6)


def _worst_envelope(rig):
    """Reports as long as they come: a 10-digit seq, a 12-character table id, a 10-digit reading id."""
    rig.reporter.table_id = "ABCDEFGHIJKL"
    rig.reporter.seq = 1000000000
    rig.reading_id = 1000000000


def _frames_of(rig, reading):
    """rig.bets(reading); the host-link frames its reports took (none refused, none unsendable)."""
    first = rig.sender._next_seq
    seen = len(rig.reports())
    rig.bets(reading)
    assert rig.sender.refused_total == 0                        # no report refused by the link: no LOST frame
    assert not [r for r in rig.reports()[seen:] if r.get("fault") == "report_unsendable"]
    seqs = [r["seq"] for r in rig.reports()[seen:]]
    assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))    # nothing missing between them
    return rig.sender._next_seq - first


def _returned(rig, since):
    """{seat: {zone: stake}} the host was told came down (bet_taken_down, bets_taken_down_more) since."""
    out = {}
    for r in rig.reports()[since:]:
        if r["event"] == "bet_taken_down":
            assert r["zone"] not in out.setdefault(r["seat"], {})
            out[r["seat"]][r["zone"]] = r["amount"]
        elif r["event"] == "bets_taken_down_more":
            assert r["more"] == sum(len(row) for row in r["bets"].values())
            for seat in r["bets"]:
                for zone in r["bets"][seat]:
                    assert zone not in out.setdefault(seat, {})
                    out[seat][zone] = r["bets"][seat][zone]
    return out


def _in_play(rig):
    """{seat: {zone: stake}} of the engine's bets, by the reports' zones (stakes of one spot added up)."""
    out = {}
    for bet in rig.table.engine.bets:
        row = out.setdefault(str(bet.seat + 1), {})
        zone = ZONES[rig.table.bet_zone[bet.bet_id]]
        row[zone] = row.get(zone, 0) + bet.amount
    return out


def test_a_full_tables_take_downs_come_one_by_one_then_in_one_report_with_every_stake():
    # Regression: 14 seats each taking down 6 hard ways and big numbers in one reading sent 84
    # bet_taken_down reports in the one pass: past the host link store's 64 frames 21 were refused
    # there (a LOST frame), stakes returned that the host never learnt of. The first TAKE_DOWNS_ITEMIZED
    # come one by one, the rest with their stakes in one bets_taken_down_more (Craps art. 5(2)).
    from firmware.games.craps.codes import TAKE_DOWNS_ITEMIZED
    rig = Rig(seats=14)
    _on_the_boards_link(rig)
    rig.bets(dict((s, dict((k, 30) for k in _HARD_BIG)) for s in range(1, 15)))
    rig.throw(1, 2)                                             # craps 3: none of them decided
    since = len(rig.reports())
    frames = _frames_of(rig, dict((s, dict((k, "down") for k in _HARD_BIG)) for s in range(1, 15)))
    assert not rig.table.engine.bets and not rig.table.refusals
    every = dict((str(s), dict((k, 30) for k in _HARD_BIG)) for s in range(1, 15))
    assert _returned(rig, since) == every
    one_by_one = rig.reports("bet_taken_down")[-TAKE_DOWNS_ITEMIZED:]
    assert [(r["seat"], r["zone"]) for r in one_by_one] == [("1", k) for k in _HARD_BIG] + [("2", "hard_4"),
                                                                                            ("2", "hard_6")]
    more = strip(rig.last("bets_taken_down_more"))
    assert more["reading"] == 2 and more["more"] == 84 - TAKE_DOWNS_ITEMIZED
    assert [e["event"] for e in rig.reports()[since:]] == (["bets"] + ["bet_taken_down"] * TAKE_DOWNS_ITEMIZED
                                                           + ["bets_taken_down_more"])
    assert frames < 32
    rig.throw(2, 2)                                             # the next throw's report reaches the host too
    assert rig.sender.refused_total == 0 and strip(rig.last("throw"))["point"] == 4


def test_a_reading_of_every_zone_at_9_digits_places_its_most_and_refuses_the_rest_all_reported():
    # Regression: a reading placing hundreds of bets (32 seats x every zone, 9-digit stakes) made a
    # bets report past what the link's pieces carry (report_unsendable: the host never learnt what was
    # placed), and at 14 seats past the store's room (LOST). A reading now places at most
    # READING_BETS_MOST bets, refuses the rest (the reason says why), and its reports fit READING_FRAMES.
    from firmware.games.craps.codes import OUT_BET_REFUSED, READING_BETS_MOST, READING_FRAMES
    from firmware.games.craps.readings import FULL_REASON
    from firmware.startup import HOST_PIECE
    for seats in (14, 32):
        rig = Rig(seats=seats, table_seats=seats, max_open_bets=4096)
        _on_the_boards_link(rig)
        _worst_envelope(rig)
        since = len(rig.reports())
        frames = _frames_of(rig, dict((s, dict((z, _BIG_STAKE) for z in ZONES)) for s in range(1, seats + 1)))
        assert frames <= READING_FRAMES
        report = rig.reports("bets")[-1]
        assert len(rig.table.engine.bets) == READING_BETS_MOST
        assert report["placed"] == _in_play(rig)                # every bet placed, with its stake, on the host
        full = [r for r in rig.table.refusals if r[3] == FULL_REASON]
        assert full and len(rig.table.refusals) == report["refused"] == seats * len(ZONES) - READING_BETS_MOST
        told = len(rig.reports("bet_refused")) + rig.last("bets_refused_more")["more"]
        assert told == report["refused"] and len(rig.reports()) - since <= 10
        for i in range(len(rig.table.refusals)):                # any one of them, itemized: 3 frames at most
            event, fields = reports.game_report(rig.table, OUT_BET_REFUSED, i, 0)
            assert len(_worst_line(event, fields)) <= 3 * HOST_PIECE


def _worst_line(event, fields):
    record = {"seq": 1000000000, "table": "ABCDEFGHIJKL", "event": event}
    record.update(fields)
    return json.dumps(record)


def test_take_downs_past_the_most_are_refused_and_stay_in_play_every_returned_stake_reported():
    # 32 seats x 6 spots taken down, two bets a spot (10-digit stakes returned), with 9-digit chips on
    # every other zone: READING_BETS_MOST rows come down, the rest are refused (the bets play on), no
    # bet is placed past the most, and the host learns every stake returned and every bet placed.
    from firmware.games.craps.codes import OUT_BET_DOWN, READING_BETS_MOST, READING_FRAMES
    from firmware.games.craps.readings import FULL_REASON
    from firmware.startup import HOST_PIECE
    rig = Rig(seats=32, table_seats=32, max_open_bets=4096)
    _on_the_boards_link(rig)
    for _ in range(2):                                          # added after a roll: a second bet a spot
        for seats in (range(1, 17), range(17, 33)):             # (16 x 6 a reading: below the most)
            rig.bets(dict((s, dict((k, _BIG_STAKE) for k in _HARD_BIG)) for s in seats))
            rig.throw(1, 2)
    assert len(rig.table.engine.bets) == 2 * 32 * len(_HARD_BIG)
    _worst_envelope(rig)
    before = _in_play(rig)
    reading = dict((s, dict((z, "down" if z in _HARD_BIG else _BIG_STAKE) for z in ZONES)) for s in range(1, 33))
    since = len(rig.reports())
    assert _frames_of(rig, reading) <= READING_FRAMES
    returned = _returned(rig, since)
    assert sum(len(row) for row in returned.values()) == READING_BETS_MOST
    after = _in_play(rig)
    for seat in before:                                         # what came down was reported, with its stake
        for zone in before[seat]:
            assert returned.get(seat, {}).get(zone, 0) + after.get(seat, {}).get(zone, 0) == before[seat][zone]
    assert rig.reports("bets")[-1]["placed"] == {}              # the most taken by the take-downs
    stay = [r for r in rig.table.refusals if r[4] and r[3] == FULL_REASON]
    assert len(stay) == 32 * len(_HARD_BIG) - READING_BETS_MOST
    assert all(r[2] == 2 * _BIG_STAKE for r in stay)            # the stake that stays in play
    for i in range(len(rig.table.downs)):                       # any one of them, itemized: 2 frames at most
        event, fields = reports.game_report(rig.table, OUT_BET_DOWN, i, 0)
        assert len(_worst_line(event, fields)) <= 2 * HOST_PIECE
    report = rig.reports("bets")[-1]
    assert len(rig.reports("bet_refused")) + rig.last("bets_refused_more")["more"] == report["refused"]


def test_the_readings_link_arithmetic_holds_for_the_boards_link():
    # codes.READING_FRAMES and READING_BETS_MOST against the board's link settings (firmware.startup)
    # and the sender's window: what a reading's money takes at its most leaves room in READING_FRAMES.
    from firmware.games.craps import codes, readings
    from firmware.link.sender import Sender
    from firmware.link.ram_store import RamStore
    from firmware.startup import HOST_PIECE, HOST_SLOT, HOST_STORE_FRAMES
    from tests.firmware.fakes import FakeUART
    window = Sender(FakeUART(), RamStore(2, HOST_SLOT), 1).window      # the board's sender's (firmware.startup)
    assert codes.READING_FRAMES == HOST_STORE_FRAMES - window
    if not hasattr(readings, "_PIECE"):
        return                                          # MicroPython keeps no private const() as a global
    assert readings._PIECE == HOST_PIECE
    entries = codes.READING_BETS_MOST + 1                                # a take-down's odds: one row more
    money = readings._MONEY_FRAMES + (entries * readings._ENTRY_BYTES + HOST_PIECE - 1) // HOST_PIECE
    assert money <= codes.READING_FRAMES


def test_a_refusal_with_no_evidence_kept_has_no_bytes_and_one_with_evidence_shows_them():
    from firmware import faults
    from firmware.events import BETS_FAULT
    rig = Rig()
    rig.bets_fault(faults.BETS_INCOMPLETE)                               # handle 0: nothing kept
    assert strip(rig.last("bets")) == {"event": "bets", "accepted": False, "reason": "bets_incomplete"}
    rig.event(BETS_FAULT, faults.FRAME_CRC, rig.table.evidence.keep(b"B1 04 SEAT 1 pass=5*0000"))
    assert strip(rig.last("bets")) == {"event": "bets", "accepted": False, "reason": "frame_crc",
                                       "bytes": "B1 04 SEAT 1 pass=5*0000"}
