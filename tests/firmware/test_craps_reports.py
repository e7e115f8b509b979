# Craps host reports (firmware/games/craps/reports.py): the "bets" report's placed table.
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


def _on_the_boards_link(rig):
    """The rig's reports through a host link as the board's: 64 frames of 200 bytes, 128-byte pieces
    (firmware.startup HOST_STORE_FRAMES, HOST_SLOT, HOST_PIECE)."""
    from firmware.link.sender import Sender
    from firmware.link.store import RamStore
    from firmware.startup import HOST_PIECE, HOST_SLOT, HOST_STORE_FRAMES
    rig.sender = Sender(rig.uart, RamStore(HOST_STORE_FRAMES, HOST_SLOT), 2, piece=HOST_PIECE)   # a new boot
    rig.reporter.sender = rig.sender


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
