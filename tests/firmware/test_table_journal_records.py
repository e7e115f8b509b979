# The table journal's record of each event (firmware/recovery.py; docs/journal.md, "The table
# journal"): built where the journal encodes it when it can (issue 14), the same bytes as ever.
# Dual runtime.
import struct

from firmware.bets import BetReading
from firmware.event_bytes import behind
from firmware.events import BETS, CARD, SHOE, SHOE_HELLO, TICK
from firmware.statemachine import EventQueue
from firmware.evidence import Evidence
from firmware.link import journal as jn
from firmware.recovery import TableJournal
from firmware.table_codes import READY
from tests.firmware.expect import count_calls
from tests.firmware.scratch import ScratchDir

_EVENT = 1


class _Table:
    """What the table journal reads of a table: its state, snapshot, reading and evidence, the link's backlog."""

    def __init__(self, seats=10, zones=5):
        self.state = READY
        self.link_backlog = False
        self.reading = BetReading(tuple("z%d" % i for i in range(zones)), seats)
        self.evidence = Evidence(size=8)

    def snapshot(self):
        return b"[]"

    def at_boundary(self):
        return True


class _MarkedStore:
    """What a checkpoint reads of the host link's store: its mark, its pending batch written first."""
    mark = (70, 3)
    event = 0

    def flush(self):
        pass


def _journal(state, fs=None, seats=10):
    tj = TableJournal(state, fs, None)
    table = _Table(seats)
    tj.checkpoint(table)                           # based: events are journalled from here
    return tj, table


def _counted(journal):
    """journal's two writers, counted (append: a payload built and copied; append_in_place: built in place):
    a function that gives their counts by name."""
    counts = {name: count_calls(journal, name)[0] for name in ("append", "append_in_place")}
    return lambda: {name: counts[name][0] for name in counts}


def _fill(reading, n, reading_id):
    reading.reading_id = reading_id
    for i in range(n):
        reading.amounts[i * 3 % len(reading.amounts)] = 10 * (i + 1)


def _events(tj):
    return [payload for kind, payload in tj.journal.records() if kind == _EVENT]


def test_a_card_and_a_closed_reading_are_journalled_in_place_byte_for_byte():
    # Each record is the event's head and behind()'s bytes, as before; none goes through append()
    # (a payload built, joined to its head and copied into the journal's buffer: 3 copies of a
    # 50-bet reading's 300 bytes in the Craps CLOSE pass).
    with ScratchDir() as state:
        tj, table = _journal(state)
        calls = _counted(tj.journal)
        _fill(table.reading, 50, 77)
        tj.ms = 120
        assert tj.before(table, CARD, 33, 1)
        wanted = [struct.pack("<IBii", 120, CARD, 33, 1)]
        assert tj.before(table, BETS, 77, 4)
        wanted.append(struct.pack("<IBii", 0, BETS, 77, 4) + behind(table, BETS, 77, 4))
        assert calls() == {"append": 0, "append_in_place": 2}
        assert _events(tj) == wanted and len(wanted[1]) == 13 + 8 + 50 * 6
        again = TableJournal(state, None, None)    # and a boot reads them back
        assert again.event_no == 0 and again.pending and [bytes(p) for p in again.loaded_events] == wanted


def test_an_event_with_bytes_not_built_in_place_is_journalled_as_before():
    # Evidence, and a reading too long for the journal's buffer (more than 79 bets): built, then append().
    with ScratchDir() as state:
        tj, table = _journal(state, seats=20)
        calls = _counted(tj.journal)
        handle = table.evidence.keep_raw(b"SHOE v2", 7)
        tj.before(table, SHOE, SHOE_HELLO, handle)
        _fill(table.reading, 0, 5)
        for i in range(len(table.reading.amounts)):
            table.reading.amounts[i] = i + 1       # 20 seats x 5 zones: 100 bets
        tj.before(table, BETS, 5, 0)
        assert calls() == {"append": 2, "append_in_place": 0}
        assert _events(tj) == [struct.pack("<IBii", 0, SHOE, SHOE_HELLO, handle) + behind(table, SHOE, SHOE_HELLO, handle),
                               struct.pack("<IBii", 0, BETS, 5, 0) + behind(table, BETS, 5, 0)]


class _Ctx:
    def __init__(self, table):
        self.table = table
        self.queue = EventQueue()


def test_a_snapshot_due_waits_for_a_pass_with_nothing_but_its_tick():
    # Half full after a reading's record: the snapshot (1 ms at Craps in the VM) is not taken in the
    # pass of the reading, nor after a tick with an event queued behind it, but after the next tick
    # with nothing behind it (issue 14: it landed in 1 of 24 timed CLOSE passes, 2.2 ms).
    with ScratchDir() as state:
        tj = TableJournal(state, None, None, max_bytes=4096)   # files of 2048 bytes: half full at 1024
        table = _Table()
        ctx = _Ctx(table)
        tj.checkpoint(table)
        _fill(table.reading, 50, 1)
        compactions = tj.journal.compactions
        for reading_id in (2, 3, 4):
            tj.before(table, BETS, reading_id, 0)
            tj.after(ctx)
        assert tj.journal.used * 2 >= tj.journal.capacity and tj.dirty
        assert tj.journal.compactions == compactions   # not in the reading's pass
        ctx.queue.put(CARD, 1, 0)
        tj.before(table, TICK, 10, 0)
        tj.after(ctx)
        assert tj.journal.compactions == compactions   # a tick, but an event waits behind it
        ctx.queue.get()
        tj.before(table, TICK, 10, 0)
        tj.after(ctx)
        assert tj.journal.compactions == compactions + 1 and not tj.dirty
        assert [kind for kind, _ in tj.journal.records()] == [jn.SNAPSHOT]


def _events_until_a_snapshot(tj, table, ctx):
    """A reading's event in every pass until the journal takes a snapshot: the log's size before each."""
    compactions = tj.journal.compactions
    used = []
    while tj.journal.compactions == compactions:
        used.append(tj.journal.used)
        tj.before(table, BETS, 7, 0)
        tj.after(ctx)
    return used


def test_a_snapshot_due_goes_at_any_boundary_past_five_eighths_full():
    # Events in every pass: the log is still bounded, the snapshot then taken after an event.
    with ScratchDir() as state:
        tj = TableJournal(state, None, None, max_bytes=4096)
        table = _Table()
        ctx = _Ctx(table)
        tj.checkpoint(table)
        _fill(table.reading, 50, 1)
        used = _events_until_a_snapshot(tj, table, ctx)
        assert used[-1] * 2 >= tj.journal.capacity and used[-1] * 8 < tj.journal.capacity * 5
        assert [kind for kind, _ in tj.journal.records()] == [jn.SNAPSHOT]


class _Ctx:
    def __init__(self, table):
        self.table = table
        self.queue = EventQueue(4)
        self.sender = None


class _Store:
    own_refused = 0   # of them, a boot's own (counted on the link store's flash: not the snapshot's to carry)


class _Sender:
    refused = 0       # reports the full link store refused, not yet in a LOST frame
    store = _Store()


def test_a_snapshot_due_waits_while_refused_reports_are_not_counted_up_to_seven_eighths_full():
    # The snapshot drops the events whose replay would make the refused reports again; their count is
    # in RAM until a LOST frame fits (tests/firmware/test_recovery.py, the reset).
    with ScratchDir() as state:
        # Files of 4096 bytes: the eighth left at seven eighths holds a 336-byte reading's record and the
        # room kept for the full mark (a 2048-byte file's eighth did not: its log filled first).
        tj = TableJournal(state, None, None, max_bytes=8192)
        table = _Table()
        ctx = _Ctx(table)
        ctx.sender = _Sender()
        ctx.sender.refused = 3
        tj.checkpoint(table)
        _fill(table.reading, 50, 1)
        used = _events_until_a_snapshot(tj, table, ctx)
        assert used[-1] * 8 >= tj.journal.capacity * 6     # past five eighths: it waited, up to seven
        ctx.sender.refused = 0                      # the LOST frame went into the store: as before again
        used = _events_until_a_snapshot(tj, table, ctx)
        assert used[-1] * 8 < tj.journal.capacity * 5


class _Store:
    """The link store's tag as the table journal sets it: each setting of `event` counted."""

    def __init__(self):
        self.settings = []
        self._event = 0
        self.report = 0
        self.mark = (0, 0)
        self.flushes = 0

    def flush(self):
        self.flushes += 1

    @property
    def event(self):
        return self._event

    @event.setter
    def event(self, number):
        self.settings.append(number)
        self._event = number


def test_a_ticks_pass_sets_no_store_tag_and_a_journalled_events_tag_is_cleared_after_it():
    # Issue 14: after() clears the link store's event tag only when the table journal set one since the
    # last after() (a journalled event's record), not after every tick (the store's setter is a call):
    # the tag is still 0 whenever no journalled event's reports are being stored.
    with ScratchDir() as state:
        store = _Store()
        tj = TableJournal(state, None, store)
        table = _Table()
        tj.checkpoint(table)
        ctx = _Ctx(table)
        for _ in range(3):
            assert tj.before(table, TICK, 10, 0)
            tj.after(ctx)
        assert store.settings == [] and store.event == 0
        assert tj.before(table, CARD, 7, 1)
        assert store.event == tj.event_no != 0
        tj.after(ctx)
        assert store.settings == [tj.event_no, 0] and store.event == 0
        assert tj.before(table, TICK, 10, 0)
        tj.after(ctx)
        assert store.settings == [tj.event_no, 0]


def test_a_snapshot_writes_the_link_stores_waiting_batch_first():
    # Issue 14: an event's report frames wait in the link store's RAM for the sender's poll (after the
    # pass's lights and displays). A snapshot ends the replay of the events before it, so the batch of
    # those events goes to flash before it: a power cut after the snapshot loses no report.
    from firmware.link import frame as fm
    from firmware.link.journal_store import JournalStore
    with ScratchDir() as state:
        store = JournalStore(state, None, 16, 200)
        tj = TableJournal(state, None, store)
        table = _Table()
        tj.checkpoint(table)
        assert tj.before(table, CARD, 7, 1)
        frame = fm.encode(1, 1, "REPORT", '{"event": "card"}')
        store.append(1, 1, frame, len(frame))
        tj.after(_Ctx(table))              # the event's reports done: the batch waits
        assert store.pending == 1
        tj.checkpoint(table)
        assert store.pending == 0
        assert JournalStore(state, None, 16, 200).mark == (tj.event_no, 1)


def test_a_base_refused_count_keeps_the_link_stores_mark_and_one_without_it_still_reads():
    # The REFUSED entry keeps the link store's mark at the snapshot (recovery_replay.recover counts the
    # count only while the mark has not moved on: a LOST frame stored since counted it); the 4-byte entry
    # of the firmware before the mark still reads, its count counted at boot as it was.
    with ScratchDir() as state:
        tj = TableJournal(state, None, None)
        tj.store = _MarkedStore()
        tj.checkpoint(_Table(), 429)
        again = TableJournal(state, None, None)
        assert again.base_refused == 429 and again.base_mark == (70, 3)
        tj.journal.compact(((0, struct.pack("<I", 12) + b"[]"), (2, struct.pack("<I", 9))))
        old = TableJournal(state, None, None)
        assert old.problem == "" and old.base_refused == 9 and old.base_mark is None and old.event_no == 12


def test_a_base_written_with_the_link_backed_up_says_so_after_its_refused_count():
    # The backlog's raise is an event before the snapshot, which a controller's snapshot does not hold: the base
    # keeps it (an empty BACKLOG entry, after the SNAPSHOT and any REFUSED), read back at boot for the recovery
    # (recovery_replay.recover raises it again before the replay). One out of place is a damaged journal.
    with ScratchDir() as state:
        tj = TableJournal(state, None, None)
        tj.store = _MarkedStore()
        table = _Table()
        table.link_backlog = True
        tj.checkpoint(table, 7)
        assert [kind for kind, _ in tj.journal.records()] == [jn.SNAPSHOT, 2, 4]
        again = TableJournal(state, None, None)
        assert again.problem == "" and again.base_backlog and again.base_refused == 7
        tj.checkpoint(table)
        assert [(kind, bytes(p)) for kind, p in tj.journal.records()][1:] == [(4, b"")]
        assert TableJournal(state, None, None).base_backlog
        table.link_backlog = False
        tj.checkpoint(table)
        assert [kind for kind, _ in tj.journal.records()] == [jn.SNAPSHOT]
        assert not TableJournal(state, None, None).base_backlog
        for bad in (((4, b"x"),), ((_EVENT, struct.pack("<IBii", 0, TICK, 5, 0)), (4, b""))):
            tj.journal.compact(((jn.SNAPSHOT, struct.pack("<I", 12) + b"[]"),) + bad)
            damaged = TableJournal(state, None, None)
            assert damaged.problem == "table journal record of kind 4 out of place" and not damaged.base_backlog
