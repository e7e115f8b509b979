# The table journal: every table event on flash before the table acts on it, a snapshot at the
# table's boundaries, and recovery at boot (issue 12; docs/journal.md, "The table journal").
#
# Events go into the journal "table" (firmware/link/journal.py) one record each, with the bytes the
# table reads when it dispatches them (docs/journal.md, "What the journal must keep with an event");
# ticks are coalesced into the next record's ms (a tick that made a report is a record of its own,
# written after it ran but before its reports are stored). At a boundary (table.at_boundary()) the
# controller's snapshot replaces the log once it is half full, which bounds the flash used.
#
# At boot the table runs its lamp test as always; the events that come meanwhile wait. Then the
# snapshot goes into the controller, the events after it are dispatched again, and the host is told
# ("recovered"). A replayed event makes its reports again: those the link store already holds or the
# host acknowledged (the store's mark: firmware/link/journal_store.py) are dropped, the rest are
# sent. A journal that fails its checks, or a snapshot that does not fit, is never used: the table
# starts afresh, in FAULT (faults.JOURNAL_BAD) with what was wrong reported. That boot side (the
# journal read back, the recovery) is firmware/recovery_replay.py's, boot-only (parts.BOOT_ONLY): a
# running table keeps of this module what it runs at every event.
import struct

from firmware.event_bytes import behind as _behind, behind_into as _behind_into
from firmware.link import journal as journal_mod

# copies of firmware.faults (tests/host/test_const_copies.py)
_JOURNAL_BAD = const(20)
# copies of firmware.events (tests/host/test_const_copies.py)
_FAULT = const(8)
_TICK = const(1)
# copies of firmware.link.journal (tests/host/test_const_copies.py)
_IN_PLACE_TAIL = const(4)
_SNAPSHOT = const(0)
# copies of firmware.link.record (tests/host/test_const_copies.py)
_HEAD_SIZE = const(11)
# copies of firmware.recovery_replay (tests/host/test_const_copies.py)
_BACKLOG = const(4)
_EVENT = const(1)
_EVENT_HEAD_SIZE = const(13)
_FULL = const(3)
_REFUSED = const(2)
# copies of firmware.table_codes (tests/host/test_const_copies.py)
_STARTING = const(0)

NAME = "table"
JOURNAL_BYTES = const(32768)   # two files of 16 KB: Craps' largest checkpoint (8 KB) and its events
EVENT_HEAD = "<IBii"           # an event's record: ms of ticks before it, kind, a, b (then its bytes behind)
# journal_mod.IN_PLACE_HEAD (a record's header and CRC, before its payload), and where an event's bytes
# behind go in place: const(), folded in (a global made at import before; issue 14)
_IN_PLACE_HEAD = const(_HEAD_SIZE)
_IN_PLACE_BEHIND = const(_IN_PLACE_HEAD + _EVENT_HEAD_SIZE)
BASE_HEAD = "<I"               # a snapshot's record: the number of the last event the snapshot holds
_HELD_MAX = const(16)          # events that may wait for the end of the boot's lamp test
# The room an event's record leaves in a file for the full mark (a FULL record: the number of the last
# event journalled, "<I", and a record's overhead): whatever fills the log, the mark fits after it.
_FULL_ROOM = const(4 + 15)
# The crash record's first line when the table crashed while the journal was being recovered: the next
# boot does not recover it again (a journalled event that crashes the firmware would crash every boot).
RECOVERY_CRASHED = "crashed while recovering the table journal"


def carried_refusals(sender):
    """Reports of journalled events the full link store refused that no LOST frame counts yet: what a snapshot
    carries (REFUSED). A boot's own apart: the link store keeps their count on flash (journal_store.py)."""
    return 0 if sender is None else sender.refused - sender.store.own_refused


class TableJournal:
    """The table's events and snapshots on flash; one a boot, built before the table's first event.

    store: the host link's JournalStore (its tag and mark), or None (no host port).
    After construction `pending` says a recovery waits for the end of the lamp test.
    """

    def __init__(self, state_dir, fs, store, max_bytes=JOURNAL_BYTES):
        self.store = store
        # keep_open: a record an event, in every event's pass; its file kept open (firmware/link/journal.py)
        self.journal = journal_mod.Journal(state_dir, NAME, fs, max_bytes, True)
        self.event_no = 0          # the last journalled event's number (they rise across boots); the one
                                   # being replayed while `replaying`
        self.replaying = False     # recover() dispatches the journalled events again (firmware/round_recall.py)
        self.recovering = False    # recover() is running (still True if it raised: crash_note())
        self.recall = None         # firmware/round_recall.py's RoundRecall: the round it holds is kept before a snapshot
        self.based = False         # the journal starts with a snapshot: events are journalled
        self.full = False          # the log filled (its FULL mark written; read back at boot): nothing is
                                   # journalled, and no bet reading taken, until the next snapshot
        self.ms = 0                # ticks since the last journalled event
        self.dirty = False         # events journalled since the last snapshot
        self.held = []             # events waiting for the recovery
        self.letting_in = None     # those of them the recovery has not dispatched yet (recovery_replay.recover)
        self.held_lost = 0
        self.replayed = 0
        self.appending = None      # the event whose record is being written (kind, a, b, behind bytes)
        self._buffer = None        # the journal's record buffer, once it has one (the same from then on)
        self.ticked = False        # the last event was a tick (a snapshot due goes after one: after())
        self.problem = ""          # why the journal was not used ("": it was, or it was empty)
        self.base_refused = 0      # refused reports the base counts (REFUSED; at boot: the sender's count)
        self.base_mark = None      # at boot, the link store's mark when the base was written (REFUSED)
        self.base_backlog = False  # at boot, the base was written with the link backed up (BACKLOG)
        self.tagged = False        # the link store's event set to a journalled event's (after() clears it)
        self.loaded = None         # at boot, the snapshot read back (bytes) and the events after it, for
        self.loaded_events = []    # the recovery (firmware/recovery_replay.py)
        self.journal.reserve = _FULL_ROOM          # (the mark's room: _filled)
        from firmware.recovery_replay import load   # boot-only: released with parts.BOOT_ONLY after boot
        load(self)
        self.pending = self.loaded is not None or self.problem != ""
        self.due = False           # the lamp test ended in this pass: poll_inputs recovers at its end (after())
        if store is not None:
            self.numbers_from(store.mark[0])       # numbers never go back, even after a fresh start

    def numbers_from(self, number):
        """A table journal that starts afresh numbers its events after `number` at least: the host link
        store's mark, recall's newest round's event (numbers never go back)."""
        if self.loaded is None and self.event_no < number:
            self.event_no = number

    def crash_note(self):
        """The crash record's note for an exception raised now: RECOVERY_CRASHED while recovering, else ""."""
        if not self.recovering:
            return ""
        return "%s (at event %d)" % (RECOVERY_CRASHED, self.event_no)

    # -- the dispatch loop's side -------------------------------------------------------
    def refuses_readings(self):
        """True while a bet reading must be refused whole (firmware.main._dispatch: BETS_FAULT
        faults.JOURNAL_NEARLY_FULL): the log filled, or is three quarters full with no snapshot (an alarm
        open, or no boundary yet). A reading is the one lasting input a table may refuse (its chips stay
        on the layout, the dealer sees BETS NOT READ, the reader reads them again); the room left is kept
        for what cannot be: cards, throws, the dealer's buttons, the alarm's close. Never while events
        wait for the recovery: at their let-in they are asked again."""
        return not self.pending and (self.full or (self.based and self.journal.nearly_full))

    def before(self, table, kind, a, b):
        """Journal an event before the table acts on it. False: the table must not take it now
        (held for the recovery at the end of the lamp test)."""
        if self.pending and kind != _TICK and table.state == _STARTING:
            if len(self.held) < _HELD_MAX:
                self.held.append((kind, a, b, _behind(table, kind, a, b), self.ms))   # (the boot's ms then)
            else:
                self.held_lost += 1
            return False
        if kind == _TICK:
            self.ms += a
            self.ticked = True
            return True
        self.ticked = False
        if self.based:
            self._append(table, kind, a, b)
        elif self.store is not None:
            self.store.event = 0                   # not journalled: its reports are never made again
        return True

    def after_tick(self, table):
        """A tick that made reports is journalled now, before they are stored (it is replayed as one)."""
        if self.based and len(table.outbox):
            self._append(table, _TICK, 0, 0)

    def after(self, ctx):
        """After an event and its reports: the recovery made due at the end of the lamp test (`due`); a
        snapshot at a boundary."""
        table = ctx.table
        if self.tagged:                            # (else it is 0 already: no store call a tick's pass)
            self.store.event = 0                   # reports made outside an event are a boot's own
            self.tagged = False
        if self.pending:
            if table.state != _STARTING and not table.closed_code and not self.due:   # (held closed: never plays)
                # The lamp test is over: the recovery runs at the end of this pass (firmware.main.poll_inputs),
                # not nested in this event's dispatch, the deepest C stack of the table (docs/performance-log.md,
                # "C stack depth"). What the pass queued behind this event waits for it too, its bytes kept
                # now: the snapshot and the replayed events overwrite the table's (a host hand's stacks and
                # button parsed into it when its frame was read: the hand was refused, or dealt with the
                # snapshot's).
                self.due = True
                queue = ctx.queue
                while queue.get():
                    kind, a, b = queue.kind, queue.a, queue.b
                    self.held.append((kind, a, b, _behind(table, kind, a, b), self.ms))
            return
        journal = self.journal
        if self.base_refused and (ctx.sender is None or not ctx.sender.refused):
            # The base counts refused reports that a LOST frame has counted since (the sender's count back
            # to 0): a snapshot at the next boundary drops them from it (a reset before that finds the link
            # store's mark moved on past the base's: recovery_replay.recover counts them no more).
            if table.at_boundary():
                self.checkpoint(table)
            return
        if self.based and (not self.dirty or journal.used * 2 < journal.capacity):
            return                                 # cheap first: this runs after every tick
        if self.based and (not self.ticked or len(ctx.queue)) and journal.used * 8 < journal.capacity * 5:
            # Half full in a pass with an event: the snapshot (1 ms for Craps' 50 bets in the VM) waits
            # for a pass with nothing but its tick, the next one at a quiet table, so that no card, reading
            # or throw waits for it; at five eighths full, at the next boundary whatever came.
            return
        if table.at_boundary():
            sender = ctx.sender
            if (self.based and sender is not None and sender.refused and journal.used * 8 < journal.capacity * 7):
                # Reports the full link store refused, not yet counted in a LOST frame (the count is in RAM
                # until two slots free up): their events must stay in the log, whose replay after a reset
                # makes those reports again; a snapshot would leave them neither sent nor counted. Up to
                # seven eighths full: then the log's room comes first, and the snapshot carries the count
                # (a reset before the LOST goes out lost it: hundreds of reports the host never heard of).
                return
            self.checkpoint(table, carried_refusals(sender))

    def checkpoint(self, table, refused=0):
        """The table's snapshot replaces the log; refused: reports of journalled events the link store refused
        that no LOST frame counts yet, carried in the base (a reset's recovery counts them again:
        recovery_replay.recover; a boot's own the link store keeps: firmware/link/journal_store.py)."""
        if self.recall is not None:
            self.recall.keep_waiting()             # its event leaves the log: its round on flash first
        if self.store is not None:
            self.store.flush()                     # and the link's batch waiting for the poll: its event too
        snapshot = struct.pack(BASE_HEAD, self.event_no) + table.snapshot()
        if refused or table.link_backlog:
            base = ((_SNAPSHOT, snapshot),)
            if refused:
                # With the link store's mark now (all written: flushed above): a LOST frame stored after this
                # moves it on, which tells the recovery the count is spent (recovery_replay.recover).
                mark = (0, 0) if self.store is None else self.store.mark
                base += ((_REFUSED, struct.pack("<IIH", refused, mark[0], mark[1])),)
            if table.link_backlog:
                # The link backed up: its raise is an event before the snapshot, which no controller's snapshot
                # holds; without it a replay takes the round, hand or come-out the table refused.
                base += ((_BACKLOG, b""),)
            self.journal.compact(base)
        else:
            self.journal.checkpoint(snapshot)
        self.base_refused = refused
        self.ms = 0                                # what the ticks did is in the snapshot
        self.based = True
        self.full = False                          # (its mark was in the old file)
        self.dirty = False

    def _append(self, table, kind, a, b):
        journal = self.journal
        # The record built where the journal encodes it (a card's, a closed reading's: no payload built,
        # joined and copied), else built here; the same bytes either way. The buffer asked for once (the
        # journal's one buffer, made at its first record: the same object from then on; a call an event).
        buf = self._buffer
        if buf is None:
            buf = self._buffer = journal.record_buffer()
        end = -1 if buf is None else _behind_into(buf, _IN_PLACE_BEHIND, len(buf) - _IN_PLACE_TAIL,
                                                  table, kind, a, b)
        if end >= 0:
            struct.pack_into(EVENT_HEAD, buf, _IN_PLACE_HEAD, self.ms, kind, a, b)
            behind = None                          # (in buf; hostsim.flash.unjournalled() builds it again)
        else:
            behind = _behind(table, kind, a, b)
            payload = struct.pack(EVENT_HEAD, self.ms, kind, a, b) + behind
        self.appending = (kind, a, b, behind)
        try:
            if end >= 0:
                journal.append_in_place(_EVENT, buf, end - _IN_PLACE_HEAD)   # OSError: the caller's
            else:
                journal.append(_EVENT, payload)    # crash path
        except journal_mod.JournalFull:
            self._filled(table)
            return
        self.appending = None
        self.ms = 0
        self.dirty = True
        self.event_no += 1
        if self.store is not None:
            self.store.event = self.store.made = self.event_no
            self.store.report = 0
            self.tagged = True

    def _filled(self, table):
        """No boundary came for a whole file of events (a long alarm: bet readings were refused from three
        quarters full on, refuses_readings): the FULL mark goes into the room kept for it, so a recovery
        knows that what came after it is not on flash (recovery_replay.recover: resumed false); nothing is
        journalled until the next boundary's snapshot, and the alarm says so. The event is still taken:
        a card or a throw cannot be refused (while an alarm is open it changes nothing that lasts, but a
        card discarded from a Baccarat shoe's count)."""
        journal = self.journal
        journal.reserve = 0
        try:
            journal.append(_FULL, struct.pack("<I", self.event_no))   # OSError: the caller's
        finally:
            journal.reserve = _FULL_ROOM
        self.appending = None                      # (taken now, unjournalled: no simulator gives it again)
        self.based = False
        self.full = True
        if self.store is not None:
            self.store.event = 0
        table.dispatch(_FAULT, _JOURNAL_BAD, 1)
