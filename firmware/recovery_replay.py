# The table journal's boot side (firmware/recovery.py keeps the side a running table uses: each event on
# flash before the table acts on it, the snapshot at a boundary). Boot-only (parts.BOOT_ONLY): the boot reads
# the journal back (load, at TableJournal's construction) and refuses one that crashed the last boot; at the
# end of the lamp test TableJournal.after() imports this module again for the recovery (recover: the
# snapshot restored, the events after it replayed with their reports once, the host told, the events that
# waited let in) and releases it when it is done (docs/journal.md, "The table journal").
import struct

from firmware import fault_kinds
from firmware.errors import RestoreError
from firmware.link import journal as journal_mod
from firmware.link.sender import REPORT
from firmware.recovery import BASE_HEAD, EVENT_HEAD, RECOVERY_CRASHED, carried_refusals

# copies of firmware.faults (tests/host/test_const_copies.py)
_JOURNAL_BAD = const(20)
_QUEUE_FULL = const(4)
_RESET_IN_ROUND = const(21)
# copies of firmware.events (tests/host/test_const_copies.py)
_BETS = const(13)
_FAULT = const(8)
_HOST = const(7)
_HOST_BAD = const(3)
_HOST_HAND = const(2)
_LINK_BACKLOG = const(18)
_TICK = const(1)
# copies of firmware.evidence (tests/host/test_const_copies.py)
_GONE = const(-1)
# copies of firmware.link.record (tests/host/test_const_copies.py)
_CORRUPT = const(2)
_TORN = const(1)

# An evidence record's length where its bytes were overwritten before the event was journalled (as
# firmware/event_bytes.py writes it: its _GONE_LENGTH; tests/firmware/test_event_bytes.py goes round).
_GONE_LENGTH = const(0xFFFF)

# The table journal's event record (firmware/recovery.py writes it, under copies of these): its kind, and
# the size of its head (EVENT_HEAD: ms of ticks before it, kind, a, b) before the event's bytes behind.
EVENT = const(1)
EVENT_HEAD_SIZE = const(13)
# A base entry after the snapshot (firmware/recovery.py writes it): reports the full link store refused
# before the snapshot that no LOST frame counted yet, and the link store's mark then ("<IIH": count, mark
# event, mark reports; boards before the mark wrote "<I"): their events left the log, so no replay makes
# them again; the count is carried across a reset instead, unless a LOST frame stored since (the mark moved
# on) counted it.
REFUSED = const(2)
# The full mark (firmware/recovery.py writes it, TableJournal._filled, in room kept for it): the log filled
# with no boundary to snapshot at; what the table took after it is not on flash ("<I": the last event
# journalled). The last record of its file: the next snapshot starts a new one.
FULL = const(3)
# A base entry after the snapshot (and REFUSED), empty: the host link was backed up when the base was written
# (table.link_backlog, the sender's alarm). The raise was an event before the snapshot, and a controller's
# snapshot does not hold it: the recovery raises it again, silently (reported then), before the replay, which
# must refuse what the table refused (a Baccarat round's first card, a Craps come-out, an Omaha hand).
BACKLOG = const(4)
# The states where a card or a throw may come while the board is off: cards leave the shoe (Baccarat,
# Omaha), the dice are in play (Craps: a come-out or a point; a throw the board missed would have
# decided bets, moved the puck or passed the dice).
_IN_PLAY = ("burning", "dealing", "come_out", "point")


def load(j):
    """The journal read back (TableJournal.__init__, at boot): its snapshot and the events after it, or
    the problem that keeps it from being used."""
    journal = j.journal
    if journal.status == _CORRUPT:
        j.problem = journal.detail
        return
    try:
        for kind, payload in journal.records():
            if j.full:
                raise journal_mod.JournalError("table journal record of kind %d after its full mark" % kind)
            if kind == journal_mod.SNAPSHOT:
                j.event_no = struct.unpack_from(BASE_HEAD, payload, 0)[0]
                j.loaded = payload[4:]
            elif kind == EVENT and j.loaded is not None and len(payload) >= EVENT_HEAD_SIZE:
                j.loaded_events.append(payload)
            elif kind == REFUSED and j.loaded is not None and not j.loaded_events and len(payload) == 10:
                j.base_refused, event, reports = struct.unpack_from("<IIH", payload, 0)
                j.base_mark = (event, reports)
            elif kind == REFUSED and j.loaded is not None and not j.loaded_events and len(payload) == 4:
                j.base_refused = struct.unpack_from("<I", payload, 0)[0]   # (no mark: counted at boot)
            elif kind == BACKLOG and j.loaded is not None and not j.loaded_events and not payload:
                j.base_backlog = True
            elif kind == FULL and j.loaded is not None and len(payload) == 4:
                j.full = True
            else:
                raise journal_mod.JournalError("table journal record of kind %d out of place" % kind)
    except (journal_mod.JournalError, ValueError) as exc:
        j.problem = str(exc)
        j.loaded = None
        j.loaded_events = []
        j.full = False



def refuse_recovery(j, crash_record):
    """At boot: the last boot crashed recovering this journal (its crash record says so), so it is not
    recovered again; the table starts afresh in FAULT (_JOURNAL_BAD), as from a damaged journal."""
    if j.pending and not j.problem and RECOVERY_CRASHED in crash_record:
        note = crash_record[crash_record.index(RECOVERY_CRASHED):].split("\n")[0]
        j.problem = "not recovered: the last boot " + note
        j.loaded = None
        j.loaded_events = []


def link_problem(j):
    """What was wrong with the host link's store at boot ("" if nothing): flipped bits, never used."""
    store = j.store
    return store.detail if store is not None and store.status == _CORRUPT else ""


def recover(j, ctx, report, dispatch):
    """Restore the snapshot, dispatch the journalled events again (their reports once), tell the host,
    then let the events that waited in, through `dispatch` (the loop's, firmware.main._dispatch: each
    journalled as it is taken), those the pass that ended the lamp test queued behind its end among
    them. Run by firmware.main.poll_inputs at the end of that pass (TableJournal.after made it `due`)."""
    j.pending = False
    j.due = False
    j.recovering = True                  # until the end: an exception on the way is noted
    booting_ms, j.ms = j.ms, 0              # the lamp test's ticks went to the fresh table
    table = ctx.table
    queue = ctx.queue                    # (what the pass queued behind the lamp test's end: held, TableJournal.after)
    held_ms = j.held[0][4] if j.held else booting_ms    # when the first event that waited came
    store = j.store
    if j.base_refused and store is not None and j.base_mark is not None and store.mark > j.base_mark:
        # The link store's mark moved on since the snapshot: a LOST frame stored after it (the first frame
        # the sender stores while it has refused reports) counted them; counted again, the host would be told
        # of more lost reports than there were.
        j.base_refused = 0
    if j.base_refused and ctx.sender is not None:
        # Reports the dead board's full link store refused before its snapshot, counted in no LOST frame
        # yet: their events left the log, so no replay makes them again; the count goes out in this boot's
        # LOST, before the replay's own reports (TableJournal.after snapshots once it is sent).
        ctx.sender.refused += j.base_refused
    if store is not None:
        store.made = j.event_no          # a LOST frame from here counts the snapshot's reports (the base's)
    data, events, j.loaded, j.loaded_events = j.loaded, j.loaded_events, None, []
    first = j.event_no + 1
    if data is not None and not j.problem:
        try:
            table.restore(data)
            table.link_backlog = j.base_backlog
        except RestoreError as exc:
            # A power cut while a settings change ran: the new table file, and the journal's snapshot
            # of the boundary under the old settings (no event after it) carried across as the change does.
            from firmware.parts import release_boot_only
            from firmware.settings_swap import carry_restore
            try:
                carried = not events and carry_restore(ctx, data)
            finally:
                release_boot_only(False)      # settings_swap and the table_config it imported: done
            if not carried:
                j.problem = str(exc)
            else:
                # The carried table is the journal's base from here, as after a change that ran whole
                # (settings_swap.apply): left on the old settings' snapshot, the events from here on would be
                # journalled behind a base the next boot restores under no change record (journal_bad: the
                # table lost at the next power cut; found by the soak's cuts in flash writes).
                table.link_backlog = j.base_backlog
                j.checkpoint(table, carried_refusals(ctx.sender))
    if j.problem:
        events = []
    else:
        _replay(j, ctx, events, first, report)
        j.event_no = first - 1 + len(events)
        j.based = not j.full               # a full log takes no record more: journalled from the next snapshot
        j.dirty = True
        # The boot took this long for the restored table too (a card drawn after the power came
        # back is no double pull of one drawn before it went): up to the first event that waited,
        # the rest between those events (the let-in, below).
        _tick(j, ctx, held_ms, report)
    fields = {"state": table.state_name(), "events": len(events), "torn": j.journal.status == _TORN}
    if j.problem:
        fields["resumed"] = False
        fields["error"] = j.problem[:120]
    else:
        fields["resumed"] = not j.full
        if j.full:
            # The log filled before the reset: the table is where the log ends, not where it was (what it
            # took after: cards and throws an alarm held, its close, readings refused; the host has their
            # reports).
            fields["full"] = True
            fields["error"] = "the table journal filled at event %d: what the table took after it is not on " \
                "flash" % j.event_no
        fields["in_round"] = not table.at_boundary()
    if table.fault_code:
        fields["fault"] = fault_kinds.name(table.fault_code)     # the alarm still open (reported before)
        table.fault_restored = True                         # raised before the reset (console, displays)
    if store is not None:
        # A boot's own report, of no journalled event, whatever the replay's last tag (_tick leaves it when
        # no time passed): refused, its count goes on flash; tagged, it was neither (no replay makes it).
        store.event = 0
    ctx.reporter.emit("recovered", fields)
    # What the replay itself queued (the link's alarm, its reports refilling the store), then the alarm,
    # then the events that waited, are dispatched here, not left in the queue: what the pass that ended
    # the lamp test read is held with the events that waited (above), and a host hand that waited must
    # meet the backlog the replay raised; the queue has no room for 16 events that waited with their ticks.
    while queue.get():
        dispatch(ctx, queue.kind, queue.a, queue.b)
    _backlog_left(ctx, dispatch)
    sender = ctx.sender
    in_play = table.state_name() in _IN_PLAY
    if j.problem:
        dispatch(ctx, _FAULT, _JOURNAL_BAD, 0)
    elif j.full:
        # The dealer vouches for the table as the log left it (CONFIRM; a long VOID where a round holds);
        # inside a deal or at Craps in play the reset's own alarm, a reader fault, is the one in force.
        dispatch(ctx, _FAULT, _JOURNAL_BAD, 1)
        if in_play:
            dispatch(ctx, _FAULT, _RESET_IN_ROUND, 0)
    elif in_play:
        # A card may have left the shoe, or the dice been thrown, while the board was off: nothing is
        # guessed (Baccarat art. 10, Omaha art. 9; Craps: a throw decides only when read, art. 3): the
        # dealer vouches (CONFIRM), the card is read again, or VOID.
        dispatch(ctx, _FAULT, _RESET_IN_ROUND, 0)
    elif table.at_boundary() and not (sender is not None and sender.refused):
        # The log starts again from here (nothing replayed twice); not while the full link store has
        # refused reports that no LOST frame counts yet: the next replay makes them again (TableJournal.after).
        j.checkpoint(table)
    j.recovering = False                   # what follows are events taken now, journalled as they come
    # The events that waited, each after the boot's time that passed before it came (two cards drawn
    # 400 ms apart in the lamp test are no double pull), then the rest of it; `at`: the time given so far.
    # Each event's bytes are put back just before it is dispatched: a reading's amounts and a host hand's
    # stacks have one place in the table, which the next event's bytes would overwrite. Here, not in a
    # function of its own: the let-in is the deepest C stack of the table (a RECALL that waited, answered
    # from flash); a frame less is 320 bytes less on the Unix port (bench/stack_depth.py,
    # docs/performance.md "C stack depth").
    at = booting_ms if j.problem else held_ms
    rest, j.held = j.held, []
    j.letting_in = rest                  # those not yet dispatched (a power cut's: hostsim.flash.unjournalled)
    while rest:
        kind, a, b, kept, ms = rest.pop(0)
        if ms > at:
            dispatch(ctx, _TICK, ms - at, 0)
            at = ms
        if kept:
            b = put_behind(ctx.table, kind, a, b, kept)
        dispatch(ctx, kind, a, b)
    j.letting_in = None
    if booting_ms > at:
        dispatch(ctx, _TICK, booting_ms - at, 0)
    if j.held_lost:
        lost, j.held_lost = j.held_lost, 0
        dispatch(ctx, _FAULT, _QUEUE_FULL, lost)
    _backlog_left(ctx, dispatch)


def _backlog_left(ctx, dispatch):
    """A replayed LINK_BACKLOG raised it, the last boot's sender's alarm, which no snapshot keeps: this
    boot's sender, below the alarm (the host took frames meanwhile), will not say it cleared, and the table
    would hold every new round for good. Cleared (reported) then; before the events that waited, and after
    them (one of them may be the raise)."""
    sender = ctx.sender
    if ctx.table.link_backlog and sender is not None and not sender.alarm:
        dispatch(ctx, _LINK_BACKLOG, 0, sender.held())


def _tick(j, ctx, ms, report):
    if not ms:
        return
    table = ctx.table
    j.ms = ms
    table.dispatch(_TICK, ms, 0)
    j.after_tick(table)
    if len(table.outbox):
        report(ctx)
    if j.store is not None:
        j.store.event = 0


def _replay(j, ctx, events, first, report):
    table = ctx.table
    reporter = ctx.reporter
    store = j.store
    quiet = QuietSender(reporter, store)
    reporter.sender = quiet
    j.replaying = True
    try:
        for i in range(len(events)):
            number = first + i
            j.event_no = number            # (recall: the round of an event kept before the reset)
            ms, kind, a, b = struct.unpack_from(EVENT_HEAD, events[i], 0)
            if ms:
                table.dispatch(_TICK, ms, 0)
            b = put_behind(table, kind, a, b, events[i], EVENT_HEAD_SIZE)
            if store is not None:
                store.event = store.made = number
                store.report = 0
                j.tagged = True
                mark_event, mark_reports = store.mark
                quiet.skip = (1 << 30) if number < mark_event else (mark_reports if number == mark_event else 0)
            table.dispatch(kind, a, b)
            report(ctx)
            j.replayed += 1
    finally:
        j.replaying = False
        reporter.sender = quiet.sender
        reporter.replayed = False


# -- the bytes behind an event put back (what firmware/event_bytes.py's behind() kept) ----------------

def _put_ints(target, payload, at):
    """_ints() back into the array target (every other entry 0); returns the offset after them."""
    n, count = struct.unpack_from("<HH", payload, at)
    at += 4
    for i in range(len(target)):
        target[i] = 0
    for _ in range(count):
        i, value = struct.unpack_from("<Hi", payload, at)
        at += 6
        if i < len(target):
            target[i] = value
    return at


def put_behind(table, kind, a, b, payload, at=0):
    """Put back what the event reads; returns its b (a new evidence handle where it had one)."""
    if at >= len(payload):
        return b
    if kind == _BETS:
        reading = table.reading
        reading.reading_id = struct.unpack_from("<i", payload, at)[0]
        at = _put_ints(reading.amounts, payload, at + 4)
        # The host link's room the reading was bounded by, after the amounts (a record of a table with no
        # host link, or one written before the room was kept, has none: unknown, -1).
        table.link_room = struct.unpack_from("<H", payload, at)[0] if at + 2 <= len(payload) else -1
        return b
    if kind == _HOST and a == _HOST_HAND:
        table.host_button, stacks = struct.unpack_from("<iB", payload, at)
        table.host_has_stacks = stacks != 0
        _put_ints(table.host_stacks, payload, at + 5)
        return b
    n, size = struct.unpack_from("<HH", payload, at)
    at += 4
    handle = _GONE if n == _GONE_LENGTH and not size else table.evidence.keep_raw(payload[at:at + size], n)
    at += size
    if kind == _HOST and a == _HOST_BAD and at + 2 <= len(payload):
        length = struct.unpack_from("<H", payload, at)[0]
        reason = bytes(payload[at + 2:at + 2 + length]).decode()
        at += 2 + length                   # then the request's tag, where it had one (none before the tags)
        table.set_host_reason(reason, struct.unpack_from("<H", payload, at)[0] if at + 2 <= len(payload) else 0)
    return handle


class QuietSender:
    """The reporter's sender while a recovery replays journalled events (_replay above): the first
    `skip` reports of an event are the ones the host has (or the store holds): not sent again, but counted
    in the store's tag."""

    replaying = True                               # the Reporter answers no RECALL meanwhile

    def __init__(self, reporter, store):
        self.reporter = reporter
        self.sender = reporter.sender
        self.store = store
        self.skip = 0

    def send(self, payload, type=REPORT, checked=False):
        # A report the host has was made before the reset: not sent again (recall decides by the event's
        # number whether its round is kept already; `replayed` serves a recall kept before the numbers).
        self.reporter.replayed = self.skip > 0
        if self.skip > 0:
            self.skip -= 1
            self.reporter.seq -= 1                 # this boot's numbers stay gapless
            self.reporter.recent.forget_last()     # nor in the console's `log`, which lists what was sent
            if self.store is not None:
                self.store.report += 1
            return 0
        if self.sender is None:
            return 0
        return self.sender.send(payload, type, checked)
