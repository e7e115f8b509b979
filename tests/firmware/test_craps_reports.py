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
