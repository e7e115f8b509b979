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
# starts afresh, in FAULT (faults.JOURNAL_BAD) with what was wrong reported.
import struct

from firmware import fault_kinds
from firmware.errors import RestoreError
from firmware.event_bytes import behind as _behind, behind_into as _behind_into, put_behind
from firmware.link import journal as journal_mod
from firmware.link.journal_store import JournalStore
from firmware.report import QuietSender

# copies of firmware.events (tests/host/test_const_copies.py)
_FAULT = const(8)
_TICK = const(1)
# copies of firmware.faults (tests/host/test_const_copies.py)
_JOURNAL_BAD = const(20)
_QUEUE_FULL = const(4)
_RESET_IN_ROUND = const(21)
# copies of firmware.link.record (tests/host/test_const_copies.py)
_CORRUPT = const(2)
_TORN = const(1)
# copies of firmware.table (tests/host/test_const_copies.py)
_STARTING = const(0)

NAME = "table"
JOURNAL_BYTES = const(32768)   # two files of 16 KB: Craps' largest checkpoint (8 KB) and its events
_EVENT = const(1)
_EVENT_HEAD = "<IBii"          # ms of ticks before it, kind, a, b
_EVENT_HEAD_SIZE = const(13)
_IN_PLACE_BEHIND = journal_mod.IN_PLACE_HEAD + _EVENT_HEAD_SIZE   # where an event's bytes behind go in place
_BASE_HEAD = "<I"              # the number of the last event the snapshot holds
_HELD_MAX = const(16)          # events that may wait for the end of the boot's lamp test
# The states where a card or a throw may come while the board is off: cards leave the shoe (Baccarat,
# Omaha), the dice are in play (Craps: a come-out or a point; a throw the board missed would have
# decided bets, moved the puck or passed the dice).
_IN_PLAY = ("burning", "dealing", "come_out", "point")
# The crash record's first line when the table crashed while the journal was being recovered: the next
# boot does not recover it again (a journalled event that crashes the firmware would crash every boot).
RECOVERY_CRASHED = "crashed while recovering the table journal"


def link_store(state_dir, fs, frames, slot):
    """The host link's store of unacknowledged frames, on flash in state_dir."""
    return JournalStore(state_dir, fs, frames, slot)


class TableJournal:
    """The table's events and snapshots on flash; one a boot, built before the table's first event.

    store: the host link's JournalStore (its tag and mark), or None (no host port).
    After construction `pending` says a recovery waits for the end of the lamp test.
    """

    def __init__(self, state_dir, fs, store, max_bytes=JOURNAL_BYTES):
        self.store = store
        self.journal = journal_mod.Journal(state_dir, NAME, fs, max_bytes)
        self.event_no = 0          # the last journalled event's number (they rise across boots); the one
                                   # being replayed while `replaying`
        self.replaying = False     # recover() dispatches the journalled events again (firmware/round_recall.py)
        self.recovering = False    # recover() is running (still True if it raised: crash_note())
        self.recall = None         # firmware/round_recall.py's RoundRecall: the round it holds is kept before a snapshot
        self.based = False         # the journal starts with a snapshot: events are journalled
        self.ms = 0                # ticks since the last journalled event
        self.dirty = False         # events journalled since the last snapshot
        self.held = []             # events waiting for the recovery
        self.held_lost = 0
        self.replayed = 0
        self.appending = None      # the event whose record is being written (kind, a, b, behind bytes)
        self.ticked = False        # the last event was a tick (a snapshot due goes after one: after())
        self.problem = ""          # why the journal was not used ("": it was, or it was empty)
        self.tagged = False        # the link store's event set to a journalled event's (after() clears it)
        self._snapshot = None
        self._events = []
        self._load()
        self.pending = self._snapshot is not None or self.problem != ""
        if store is not None:
            self.numbers_from(store.mark[0])       # numbers never go back, even after a fresh start

    def numbers_from(self, number):
        """A table journal that starts afresh numbers its events after `number` at least: the host link
        store's mark, recall's newest round's event (numbers never go back)."""
        if self._snapshot is None and self.event_no < number:
            self.event_no = number

    def _load(self):
        journal = self.journal
        if journal.status == _CORRUPT:
            self.problem = journal.detail
            return
        try:
            for kind, payload in journal.records():
                if kind == journal_mod.SNAPSHOT:
                    self.event_no = struct.unpack_from(_BASE_HEAD, payload, 0)[0]
                    self._snapshot = payload[4:]
                elif kind == _EVENT and self._snapshot is not None and len(payload) >= _EVENT_HEAD_SIZE:
                    self._events.append(payload)
                else:
                    raise journal_mod.JournalError("table journal record of kind %d out of place" % kind)
        except (journal_mod.JournalError, ValueError) as exc:
            self.problem = str(exc)
            self._snapshot = None
            self._events = []

    def crash_note(self):
        """The crash record's note for an exception raised now: RECOVERY_CRASHED while recovering, else ""."""
        if not self.recovering:
            return ""
        return "%s (at event %d)" % (RECOVERY_CRASHED, self.event_no)

    def refuse_recovery(self, crash_record):
        """At boot: the last boot crashed recovering this journal (its crash record says so), so it is not
        recovered again; the table starts afresh in FAULT (faults.JOURNAL_BAD), as from a damaged journal."""
        if self.pending and not self.problem and RECOVERY_CRASHED in crash_record:
            note = crash_record[crash_record.index(RECOVERY_CRASHED):].split("\n")[0]
            self.problem = "not recovered: the last boot " + note
            self._snapshot = None
            self._events = []

    def link_problem(self):
        """What was wrong with the host link's store at boot ("" if nothing): flipped bits, never used."""
        store = self.store
        return store.detail if store is not None and store.status == _CORRUPT else ""

    @property
    def torn(self):
        """The last boot's power went during a journal write (a torn record: nothing acknowledged lost)."""
        return self.journal.status == _TORN

    # -- the dispatch loop's side -------------------------------------------------------
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

    def after(self, ctx, report):
        """After an event and its reports: the recovery at the end of the lamp test; a snapshot at a boundary."""
        table = ctx.table
        if self.tagged:                            # (else it is 0 already: no store call a tick's pass)
            self.store.event = 0                   # reports made outside an event are a boot's own
            self.tagged = False
        if self.pending:
            if table.state != _STARTING and not table.closed_code:  # a table held closed never plays
                self.recover(ctx, report)
            return
        journal = self.journal
        if self.based and (not self.dirty or journal.used * 2 < journal.capacity):
            return                                 # cheap first: this runs after every tick
        if self.based and (not self.ticked or len(ctx.queue)) and journal.used * 8 < journal.capacity * 5:
            # Half full in a pass with an event: the snapshot (1 ms for Craps' 50 bets in the VM) waits
            # for a pass with nothing but its tick, the next one at a quiet table, so that no card, reading
            # or throw waits for it; at five eighths full, at the next boundary whatever came.
            return
        if table.at_boundary():
            self.checkpoint(table)

    def checkpoint(self, table):
        if self.recall is not None:
            self.recall.keep_waiting()             # its event leaves the log: its round on flash first
        self.journal.checkpoint(struct.pack(_BASE_HEAD, self.event_no) + table.snapshot())
        self.ms = 0                                # what the ticks did is in the snapshot
        self.based = True
        self.dirty = False

    def _append(self, table, kind, a, b):
        journal = self.journal
        # The record built where the journal encodes it (a card's, a closed reading's: no payload built,
        # joined and copied), else built here; the same bytes either way.
        buf = journal.record_buffer()
        end = -1 if buf is None else _behind_into(buf, _IN_PLACE_BEHIND, len(buf) - journal_mod.IN_PLACE_TAIL,
                                                  table, kind, a, b)
        if end >= 0:
            struct.pack_into(_EVENT_HEAD, buf, journal_mod.IN_PLACE_HEAD, self.ms, kind, a, b)
            behind = None                          # (in buf; hostsim.flash.unjournalled() builds it again)
        else:
            behind = _behind(table, kind, a, b)
            payload = struct.pack(_EVENT_HEAD, self.ms, kind, a, b) + behind
        self.appending = (kind, a, b, behind)
        try:
            if end >= 0:
                journal.append_in_place(_EVENT, buf, end - journal_mod.IN_PLACE_HEAD)   # OSError: the caller's
            else:
                journal.append(_EVENT, payload)    # crash path
        except journal_mod.JournalFull:
            # No boundary came for a whole file of events: journal nothing until the next one (a fresh
            # snapshot there), and say so; the event is still taken (the dealer sees the alarm).
            self.based = False
            if self.store is not None:
                self.store.event = 0
            table.dispatch(_FAULT, _JOURNAL_BAD, 1)
            return
        self.appending = None
        self.ms = 0
        self.dirty = True
        self.event_no += 1
        if self.store is not None:
            self.store.event = self.event_no
            self.store.report = 0
            self.tagged = True

    # -- boot ------------------------------------------------------------------------------
    def recover(self, ctx, report):
        """Restore the snapshot, dispatch the journalled events again (their reports once), tell the host,
        then let the events that waited in."""
        self.pending = False
        self.recovering = True                     # until the end: an exception on the way is noted
        booting_ms, self.ms = self.ms, 0           # the lamp test's ticks went to the fresh table
        held_ms = self.held[0][4] if self.held else booting_ms     # when the first event that waited came
        table = ctx.table
        data, events, self._snapshot, self._events = self._snapshot, self._events, None, []
        first = self.event_no + 1
        if data is not None and not self.problem:
            try:
                table.restore(data)
            except RestoreError as exc:
                # A power cut while a settings change ran: the new table file, and the journal's snapshot
                # of the boundary under the old settings (no event after it) carried across as the change does.
                from firmware.parts import release_boot_only
                from firmware.settings_swap import carry_restore
                try:
                    carried = not events and carry_restore(ctx, data)
                finally:
                    release_boot_only(False)  # settings_swap and the table_config it imported: done
                if not carried:
                    self.problem = str(exc)
        if self.problem:
            events = []
        else:
            self._replay(ctx, events, first, report)
            self.event_no = first - 1 + len(events)
            self.based = True
            self.dirty = True
            # The boot took this long for the restored table too (a card drawn after the power came
            # back is no double pull of one drawn before it went): up to the first event that waited,
            # the rest between those events (_let_in).
            self._tick(ctx, held_ms, report)
        fields = {"state": table.state_name(), "events": len(events), "torn": self.torn}
        if self.problem:
            fields["resumed"] = False
            fields["error"] = self.problem[:120]
        else:
            fields["resumed"] = True
            fields["in_round"] = not table.at_boundary()
        if table.fault_code:
            fields["fault"] = fault_kinds.name(table.fault_code)     # the alarm still open (reported before)
            table.fault_restored = True                         # raised before the reset (console, displays)
        ctx.reporter.emit("recovered", fields)
        if self.problem:
            ctx.queue.put(_FAULT, _JOURNAL_BAD, 0)
        elif table.state_name() in _IN_PLAY:
            # A card may have left the shoe, or the dice been thrown, while the board was off: nothing is
            # guessed (Baccarat art. 10, Omaha art. 9; Craps: a throw decides only when read, art. 3): the
            # dealer vouches (CONFIRM), the card is read again, or VOID.
            ctx.queue.put(_FAULT, _RESET_IN_ROUND, 0)
        elif table.at_boundary():
            self.checkpoint(table)                 # the log starts again from here (nothing replayed twice)
        self._let_in(ctx, booting_ms if self.problem else held_ms, booting_ms)
        self.recovering = False

    def _tick(self, ctx, ms, report):
        if not ms:
            return
        table = ctx.table
        self.ms = ms
        table.dispatch(_TICK, ms, 0)
        self.after_tick(table)
        if len(table.outbox):
            report(ctx)
        if self.store is not None:
            self.store.event = 0

    def _replay(self, ctx, events, first, report):
        table = ctx.table
        reporter = ctx.reporter
        store = self.store
        quiet = QuietSender(reporter, store)
        reporter.sender = quiet
        self.replaying = True
        try:
            for i in range(len(events)):
                number = first + i
                self.event_no = number             # (recall: the round of an event kept before the reset)
                ms, kind, a, b = struct.unpack_from(_EVENT_HEAD, events[i], 0)
                if ms:
                    table.dispatch(_TICK, ms, 0)
                b = put_behind(table, kind, a, b, events[i], _EVENT_HEAD_SIZE)
                if store is not None:
                    store.event = number
                    store.report = 0
                    self.tagged = True
                    mark_event, mark_reports = store.mark
                    quiet.skip = (1 << 30) if number < mark_event else (mark_reports if number == mark_event else 0)
                table.dispatch(kind, a, b)
                report(ctx)
                self.replayed += 1
        finally:
            self.replaying = False
            reporter.sender = quiet.sender
            reporter.replayed = False

    def _let_in(self, ctx, at, end):
        """The events that waited, each after the boot's time that passed before it came (two cards drawn
        400 ms apart in the lamp test are no double pull), then the rest of it; `at`: the time given so far."""
        held, self.held = self.held, []
        queue = ctx.queue
        for kind, a, b, behind, ms in held:
            if ms > at:
                queue.put(_TICK, ms - at, 0)
                at = ms
            if behind:
                b = put_behind(ctx.table, kind, a, b, behind)
            queue.put(kind, a, b)
        if end > at:
            queue.put(_TICK, end - at, 0)
        if self.held_lost:
            ctx.queue.put(_FAULT, _QUEUE_FULL, self.held_lost)
            self.held_lost = 0
