# A table journal that fills with no boundary to snapshot at (a long alarm; firmware/recovery.py,
# docs/journal.md "Full"): bet readings refused from three quarters full on, the full mark written in the
# room kept for it, read back at boot; the next snapshot journals again. Dual runtime.
import struct

from firmware import faults
from firmware.bets import BetReading
from firmware.events import BETS, FAULT, THROW
from firmware.evidence import Evidence
from firmware.link import journal as jn
from firmware.recovery import TableJournal
from firmware.table_codes import FAULTED
from tests.firmware.scratch import ScratchDir

_EVENT = 1
_FULL = 3


class _Table:
    """A table held by an alarm (never at a boundary until `boundary`), recording what it is given."""

    def __init__(self):
        self.state = FAULTED
        self.link_backlog = False
        self.reading = BetReading(tuple("z%d" % i for i in range(5)), 10)
        self.evidence = Evidence(size=8)
        self.boundary = False
        self.dispatched = []

    def snapshot(self):
        return b"[]"

    def at_boundary(self):
        return self.boundary

    def dispatch(self, kind, a, b):
        self.dispatched.append((kind, a, b))


def _based(state):
    tj = TableJournal(state, None, None, max_bytes=4096)    # files of 2048 bytes
    table = _Table()
    table.boundary = True
    tj.checkpoint(table)
    table.boundary = False
    return tj, table


def _reading(table, reading_id):
    table.reading.reading_id = reading_id
    for i in range(20):
        table.reading.amounts[i] = 5 + i


def test_readings_are_refused_from_three_quarters_full_and_the_rest_is_kept_for_what_cannot_be():
    with ScratchDir() as state:
        tj, table = _based(state)
        journal = tj.journal
        reading_id = 0
        while not tj.refuses_readings():
            reading_id += 1
            _reading(table, reading_id)
            assert tj.before(table, BETS, reading_id, 1)
        assert journal.used * 4 >= journal.capacity * 3 and tj.based and not tj.full
        throws = 0
        while not tj.full:                              # throws held by the alarm: never refused
            assert tj.before(table, THROW, 3, 4)
            throws += 1
        assert throws > 10 and table.dispatched == [(FAULT, faults.JOURNAL_BAD, 1)]
        kinds = [kind for kind, _ in journal.records()]
        assert kinds == [jn.SNAPSHOT] + [_EVENT] * (reading_id + throws - 1) + [_FULL]
        mark = [payload for kind, payload in journal.records() if kind == _FULL][0]
        assert struct.unpack("<I", bytes(mark)) == (tj.event_no,) and tj.event_no == reading_id + throws - 1
        used = journal.used
        assert tj.before(table, THROW, 5, 6) and journal.used == used     # taken, not journalled
        assert tj.refuses_readings() and not tj.based


def test_the_full_mark_fits_after_the_largest_record():
    # A reading's record as large as the file has left: it still leaves the mark its room.
    with ScratchDir() as state:
        tj, table = _based(state)
        journal = tj.journal
        for i in range(len(table.reading.amounts)):
            table.reading.amounts[i] = 1000 + i     # 50 bets: 321 bytes a record with its head
        reading_id = 0
        while journal.capacity - journal.used >= 19 + 336:
            reading_id += 1
            tj.before(table, BETS, reading_id, 10)
        while not tj.full:
            tj.before(table, THROW, 1, 1)
        assert [kind for kind, _ in journal.records()][-1] == _FULL and journal.used <= journal.capacity


def test_a_boot_reads_the_full_mark_back_and_the_next_snapshot_journals_again():
    with ScratchDir() as state:
        tj, table = _based(state)
        while not tj.full:
            tj.before(table, THROW, 2, 2)
        again = TableJournal(state, None, None, max_bytes=4096)
        assert again.pending and again.full and not again.problem
        assert len(again.loaded_events) == tj.event_no
        table.boundary = True                           # the alarm closed: a boundary
        tj.checkpoint(table)
        assert not tj.full and tj.based and not tj.refuses_readings()
        assert [kind for kind, _ in tj.journal.records()] == [jn.SNAPSHOT]
        assert not TableJournal(state, None, None, max_bytes=4096).full


def test_a_record_after_the_full_mark_is_a_journal_never_used():
    with ScratchDir() as state:
        tj, table = _based(state)
        while not tj.full:
            tj.before(table, THROW, 2, 2)
        tj.journal.reserve = -64                        # as no firmware writes: an event after the mark
        tj.journal.append(_EVENT, struct.pack("<IBii", 0, THROW, 1, 1))
        again = TableJournal(state, None, None, max_bytes=4096)
        assert "after its full mark" in again.problem and not again.full and again.loaded is None
