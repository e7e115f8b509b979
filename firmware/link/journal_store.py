# The host link's store on flash: frames the host has not acknowledged survive a reset or a power cut
# (issue 12; docs/journal.md, "The host link's frames").
#
# The same interface as RamStore (firmware/link/store.py; firmware/link/ram_store.py), with a RAM mirror of
# the newest frames (RAM_FRAMES) for the sender's fast read() (older ones are read back from flash: they go
# out again only after a timeout, a REPLAY or a host's absence), and a Journal (firmware/link/journal.py,
# "link.0"/"link.1") as the durable copy:
#   FRAMES one record a batch of frames (below): each frame's position, its tag, its bytes
#   FRAME  one entry a held frame in a compaction's base (the same, one frame)
#   DROP   one record an acknowledgement that dropped frames: (boot, seq) the host has
# When the live file is three quarters full it is compacted to a MARK entry and the frames still
# held: flash stays bounded by the frames held.
#
# Frames are written in batches: append() keeps a frame in RAM and adds it to the batch buffer,
# pending; flush() writes the batch as ONE record (one file open, one write call: a power cut keeps
# all of it or none). The sender flushes before it writes any frame out, so a frame the host may have
# seen is on flash. A pending frame lost to a power cut was made by a journalled table event (its
# tag), which recovery replays: its reports are made again, and the mark on flash (below) says the
# host has none of them. So a frame of no journalled event (a boot's own report, event 0) is written
# at once, and a new `event` (set before an event's reports, cleared to 0 after them) first writes
# the batch of the one before: nothing pending outlives its event, so a table snapshot (which drops
# the events before it) never comes before their frames are on flash. A batch that would overflow
# its buffer is written before the frame that would not fit.
#
# The tag: which journalled table event made the frame, and which of its reports it carries
# (firmware/recovery.py sets `event` and `report` before each report). `mark` is the tag of the
# newest whole report stored (a PART frame is a report begun, not stored), kept across compactions,
# so recovery knows which of the reports a replayed event makes again the host has (or will get
# from here) and must not be sent twice. `previous` is the newest frame's (boot, seq) ever stored:
# the next boot's OPEN names it, even when every frame was acknowledged.
import struct

from firmware.link import journal as journal_mod
from firmware.link.store import WindowFrames, at_or_before

# copies of firmware.link.record (tests/host/test_const_copies.py)
_CORRUPT = const(2)
_ENTRY_SIZE = const(3)
_OVERHEAD = const(15)

NAME = "link"
_FRAME = const(1)
_DROP = const(2)
_MARK = const(3)
_FRAMES = const(4)
_FRAME_HEAD = "<IIIHB"       # boot, seq, tag event, tag report, whole (1: not a PART)
_FRAME_HEAD_SIZE = const(15)
_ENTRY_HEAD = "<IIIHBH"      # in a FRAMES record, before each frame: its FRAME_HEAD, its length
_ENTRY_HEAD_SIZE = const(17)
_BATCH_BYTES = const(2048)    # the batch buffer: about 9 frames of 200 bytes (an event's reports, mostly)
RAM_FRAMES = const(16)       # the newest frames kept in RAM too (the rest read back from flash when needed)
_DROP_FORMAT = "<II"         # boot, seq
_MARK_FORMAT = "<IIIH"       # previous boot, previous seq, mark event, mark report
_PART_TYPE = b" PART "


def journal_bytes(capacity, slot_size):
    """Flash that holds `capacity` frames of `slot_size` bytes with their records, twice (a compaction)."""
    per_file = capacity * (slot_size + _FRAME_HEAD_SIZE + _ENTRY_SIZE) + 64
    return 2 * per_file * 4 // 3 + 2     # a quarter more: compaction comes at three quarters full


def _batch_entries(payload):
    """Each frame of a FRAMES record's payload: (boot, seq, event, report, whole, k, n), its bytes at
    payload[k:k + n]. ValueError for a frame cut short. (At boot and after a compaction: not a hot path.)"""
    k = 0
    end = len(payload)
    while k < end:
        boot, seq, event, report, whole, n = struct.unpack_from(_ENTRY_HEAD, payload, k)
        k += _ENTRY_HEAD_SIZE
        if k + n > end:
            raise ValueError("a batch's frame cut short")
        yield boot, seq, event, report, whole, k, n
        k += n


def _whole(data, n):
    """Not a PART frame ("#b.s stamp PART ..."): the type is the third word of the header."""
    view = bytes(memoryview(data)[:n if n < 48 else 48])
    return _PART_TYPE not in view


class JournalStore:
    """capacity frames of at most slot_size bytes, in RAM and in the journal NAME in state_dir.

    After construction the frames held before the reset are there again (status, detail: the
    journal's, CORRUPT for a record that does not read as a frame). A write that fails raises
    (OSError, JournalError): the caller's fault handling (the board resets); the frames it would have
    written stay pending, and an append written at once (event 0) is not kept.
    """

    def __init__(self, state_dir, fs, capacity, slot_size, max_bytes=0, batch_bytes=_BATCH_BYTES,
                 ram_frames=RAM_FRAMES):
        if batch_bytes < journal_mod.IN_PLACE_HEAD + _ENTRY_HEAD_SIZE + slot_size + journal_mod.IN_PLACE_TAIL:
            raise ValueError("a batch of %d bytes does not hold a %d-byte frame" % (batch_bytes, slot_size))
        self._slot = slot_size
        self._journal = journal_mod.Journal(state_dir, NAME, fs, max_bytes or journal_bytes(capacity, slot_size))
        self._ram = WindowFrames(capacity, slot_size, ram_frames, self._journal)
        # The sender's calls of each report and frame go straight to the RAM index (no call between):
        self.read = self._ram.read
        self.view = self._ram.view
        self.run = self._ram.run
        self.run_view = self._ram.run_view
        self.count = self._ram.count
        self.capacity = self._ram.capacity
        self.status = self._journal.status
        self.detail = self._journal.detail
        self._event = 0            # `event`: the journalled table event whose reports are being stored (0: none)
        self.report = 0            # which of that event's reports, from 0
        self._mark_event = 0       # `mark`: (event, reports) of the newest whole report stored
        self._mark_reports = 0
        self._prev_boot = 0        # `previous`: (boot, seq) of the newest frame ever stored (boot 0: none)
        self._prev_seq = 0
        # The pending frames (the newest `_pending` in RAM, not yet on flash), as the FRAMES record's
        # payload: from IN_PLACE_HEAD to _at in the batch buffer (the journal puts its header before it).
        self._pending = 0
        self._batch = bytearray(batch_bytes)
        self._batch_room = batch_bytes - _ENTRY_HEAD_SIZE - journal_mod.IN_PLACE_TAIL   # a frame's bytes from _at
        self._at = journal_mod.IN_PLACE_HEAD
        try:
            self._load()
        except (ValueError, IndexError, journal_mod.JournalError) as exc:
            self.status = _CORRUPT
            self.detail = (self.detail + "; " if self.detail else "") + "link record: %s" % exc

    @property
    def event(self):
        return self._event

    @event.setter
    def event(self, number):
        """A new event's reports come next: the batch of the one before goes to flash first."""
        if number != self._event and self._pending:
            self.flush()
        self._event = number

    @property
    def mark(self):
        return (self._mark_event, self._mark_reports)

    @property
    def previous(self):
        return (self._prev_boot, self._prev_seq) if self._prev_boot else None

    @property
    def pending(self):
        """Frames appended but not yet on flash (flush() writes them)."""
        return self._pending

    @property
    def writes(self):
        return self._journal.writes

    @property
    def used(self):
        return self._journal.used

    def _load(self):
        for kind, payload, at in self._journal.records_at():
            if kind == _FRAMES:
                for boot, seq, event, report, whole, k, n in _batch_entries(payload):
                    self._loaded(boot, seq, event, report, whole, payload[k:k + n], at + k)
            elif kind == _FRAME:
                boot, seq, event, report, whole = struct.unpack_from(_FRAME_HEAD, payload, 0)
                self._loaded(boot, seq, event, report, whole, payload[_FRAME_HEAD_SIZE:], at + _FRAME_HEAD_SIZE)
            elif kind == _DROP:
                boot, seq = struct.unpack(_DROP_FORMAT, payload)
                self._ram.drop_through(boot, seq)
            elif kind == _MARK:
                boot, seq, event, reports = struct.unpack(_MARK_FORMAT, payload)
                self._prev_boot, self._prev_seq = boot, seq
                self._mark_event, self._mark_reports = event, reports
            else:
                raise ValueError("record of kind %d" % kind)

    def _loaded(self, boot, seq, event, report, whole, data, at):
        self._ram.append(boot, seq, data, len(data), at)
        self._prev_boot, self._prev_seq = boot, seq
        if whole and event:
            self._mark_event, self._mark_reports = event, report + 1

    def _locate(self):
        """Where each held frame lies on flash, found again after a compaction or a repair moved them."""
        ram = self._ram
        count = ram.count()
        j = 0
        for kind, payload, at in self._journal.records_at():
            if kind == _FRAMES:
                for boot, seq, _, _, _, k, _ in _batch_entries(payload):
                    if j < count and ram.boot_at(j) == boot and ram.seq_at(j) == seq:
                        ram.offsets[ram.slot_of(j)] = at + k
                        j += 1
            elif kind == _FRAME:
                boot, seq = struct.unpack_from("<II", payload, 0)
                if j < count and ram.boot_at(j) == boot and ram.seq_at(j) == seq:
                    ram.offsets[ram.slot_of(j)] = at + _FRAME_HEAD_SIZE
                    j += 1
        if j != count:
            raise journal_mod.JournalError("held frame %d.%d not found on flash" % (ram.boot_at(j), ram.seq_at(j)))

    # -- RamStore's interface --------------------------------------------------------
    # capacity(), count(): the RAM index's (set in __init__)

    def boot_at(self, i):
        return self._ram.boot_at(i)

    def seq_at(self, i):
        return self._ram.seq_at(i)

    # read(i, buf), view(i), run(i, limit, room, first), run_view(i, j): the RAM index's (set in __init__)

    def length_at(self, i):
        return self._ram.length_at(i)

    def append(self, boot, seq, data, n, whole=None):
        """Keep a frame, pending until flush() (at once when no journalled event made it: nothing would
        make it again). whole: not a PART frame (None: read from its header)."""
        ram = self._ram
        if whole is None:
            whole = _whole(data, n)
        event = self._event
        at = self._at
        if not event or at + n > self._batch_room or self._pending == ram.window:   # a pending frame
            self.flush()                               # is never out of RAM; the batch before it first
            at = self._at                              # (or a full one)
        batch = self._batch
        # ValueError (full, too long) before anything changes (the entry head written past _at is not
        # kept until then). Its place in the file: the batch's record goes at the live file's end
        # (journal.used, which nothing but flush() moves while a frame is pending), the buffer's byte 0
        # there: no pass over the batch's frames to place them at flush().
        struct.pack_into(_ENTRY_HEAD, batch, at, boot, seq, event, self.report, 1 if whole else 0, n)
        at += _ENTRY_HEAD_SIZE
        data = memoryview(data)[:n]                    # one view for both copies
        ram.append(boot, seq, data, n, self._journal.used + at)
        batch[at:at + n] = data
        self._at = at + n
        self._pending += 1
        if not event:                                  # a boot's own report is never made again: at once
            try:
                self.flush()
            except Exception:
                self._pending = 0
                self._at = journal_mod.IN_PLACE_HEAD
                ram.drop_newest()                      # not kept: the caller numbers it again
                raise
        elif whole:
            self.report += 1
            self._mark_event = event           # ints, not a tuple a frame: read at boot and compaction only
            self._mark_reports = self.report
        self._prev_boot = boot
        self._prev_seq = seq

    def flush(self):
        """Write the pending frames to flash as one record (or a compaction with them). A write that
        fails raises (OSError, JournalError): the frames stay pending, none is sent."""
        if not self._pending:
            return
        n = self._at - journal_mod.IN_PLACE_HEAD
        if self._room(n + _OVERHEAD):       # compacted: the pending frames are in it
            return
        journal = self._journal
        compactions = journal.compactions
        placed = journal.used                          # where append() placed the batch's frames
        journal.append_in_place(_FRAMES, self._batch, n)
        self._pending = 0
        self._at = journal_mod.IN_PLACE_HEAD
        if journal.compactions != compactions or journal.used - n - _OVERHEAD != placed:
            self._locate()                             # repaired first (a torn tail): every frame moved

    def drop_through(self, boot, seq):
        self.flush()                                   # the DROP record comes after every frame it names
        count = self._ram.count()
        i = 0
        while i < count and at_or_before(self._ram.boot_at(i), self._ram.seq_at(i), boot, seq):
            i += 1
        if i == 0:
            return 0
        payload = struct.pack(_DROP_FORMAT, boot, seq)
        if self._room(len(payload) + _OVERHEAD, i):     # compacted without them: no record needed
            return i
        compactions = self._journal.compactions
        self._journal.append(_DROP, payload)
        dropped = self._ram.drop_through(boot, seq)
        if self._journal.compactions != compactions:  # repaired first (a torn tail): every frame moved
            self._locate()
        return dropped

    # -- inside ------------------------------------------------------------------------
    def _room(self, size, dropping=0):
        """Compact to the held frames (but the first `dropping`) when records of `size` bytes would not
        fit, or the file is three quarters full; True if it did (the pending frames are on flash then)."""
        journal = self._journal
        used = journal.used                            # (journal.nearly_full, journal.room inline: two
        capacity = journal.capacity                    # property calls less a flush)
        if used * 4 >= capacity * 3 or used + size > capacity:
            self._compact(dropping)
            return True
        return False

    def _compact(self, skip):
        """Restart the journal from the mark and the held frames after the first `skip` (being dropped)."""
        self._journal.compact(_Held(self, skip))
        self._pending = 0                              # the held frames are on flash, pending ones too
        self._at = journal_mod.IN_PLACE_HEAD
        self._ram.drop_first(skip)
        self._locate()

    def _entries(self, skip):
        yield _MARK, struct.pack(_MARK_FORMAT, self._prev_boot, self._prev_seq, self._mark_event,
                                 self._mark_reports)
        buf = bytearray(self._slot)
        for i in range(skip, self._ram.count()):
            n = self._ram.read(i, buf)
            # Stored as tagged with no event (0): loading it leaves the mark as the MARK entry says.
            whole = 1 if _whole(buf, n) else 0
            head = struct.pack(_FRAME_HEAD, self._ram.boot_at(i), self._ram.seq_at(i), 0, 0, whole)
            yield _FRAME, head + bytes(buf[:n])


class _Held:
    """The compaction's entries, re-readable (the journal walks them twice: sizes, then bytes)."""

    def __init__(self, store, skip):
        self.store = store
        self.skip = skip

    def __iter__(self):
        return self.store._entries(self.skip)

