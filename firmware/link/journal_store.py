# The host link's store on flash: frames the host has not acknowledged survive a reset or a power cut
# (issue 12; docs/journal.md, "The host link's frames").
#
# The same interface as RamStore (firmware/link/store.py), the newest frames in a RAM ring (WindowFrames:
# the sender's read() and runs; older ones are read back from flash, they go out again only after a
# timeout, a REPLAY or a host's absence), a Journal ("link.0"/"link.1") the durable copy:
#   BATCH  one record a batch of frames: their bytes, then each one's position, tag and length
#   FRAMES the batch record as boards wrote it before (a head before each frame): still read at boot
#   FRAME  one entry a held frame in a compaction's base;  DROP  one record an acknowledgement: (boot, seq)
#   REFUSED a BATCH record of no frame (its end alone: the count as its tag event, 0 frames): reports of no
#          journalled event the sender refused, the store full, that no stored LOST frame counts yet (below)
# At three quarters full the live file is compacted to a MARK entry and the frames still held (that, and the
# records read back as frames: firmware/link/held_frames.py).
#
# Frames are written in batches: append() keeps a frame in the ring, pending (its bytes in RAM once),
# flush() writes the batch as ONE record with one write call from the ring (its header in the 11 bytes
# before the batch, its heads after it: what lay there kept and put back); a power cut keeps all of it
# or none. The sender flushes before it writes any frame out. A pending frame lost to a power cut was
# made by a journalled table event (its tag), which recovery replays, the mark on flash saying the host
# has none of its reports. So a frame of no journalled event (event 0: a boot's own report) is written
# at once, and a frame of another event than the batch's writes the batch first (a batch is one event's);
# the batch of the last event waits for the sender's poll (after the pass's lights and displays: issue 14),
# a snapshot (which ends the replay of the events before it: firmware/recovery.py flushes first), an
# acknowledgement. A batch the ring (or its index) would not hold with the next
# frame is written first: a pending frame is never out of RAM (docs/journal.md, "The host link's frames").
# append_run() keeps a report's frames at once under the same rules, all or none (checked for all first).
#
# The tag: which journalled table event made the frame, and which of its reports it carries
# (firmware/recovery.py sets `event` and `report` before each report). `mark` is the tag of the
# newest whole report stored (a PART frame is a report begun, not stored), kept across compactions,
# so recovery knows which of the reports a replayed event makes again the host has (or will get
# from here) and must not be sent twice. A LOST frame is tagged as the last of the reports made so far
# (append_lost): it counts the refused ones, so they too are not made again (nor a snapshot's count).
# `previous` is the newest frame's (boot, seq) ever stored: the next boot's OPEN names it, even when every
# frame was acknowledged.
#
# `own_refused`: reports of no journalled event (event 0: a boot's own, `recovered`, its faults) the sender
# refused, the store full, that no stored LOST frame counts yet. No replay makes them again, so the count is
# on flash (refused_report(): a REFUSED record a refusal, the count so far; only with the store full), the
# next boot's sender starts with it, and the first LOST frame stored after the record spends it (read back
# in order: journal_read.load_frames; a compaction writes an unspent count after the held frames). Older
# firmware reads the record as a batch of no frame: nothing (docs/host-link.md, "Firmware upgrades and downgrades").
import struct
from array import array

from firmware.link import held_frames as held_mod
from firmware.link import journal as journal_mod
from firmware.link.store import WindowFrames, at_or_before

# copies of firmware.link.record (tests/host/test_const_copies.py)
_CORRUPT = const(2)
_ENTRY_SIZE = const(3)
_OVERHEAD = const(15)
_HEAD_SIZE = const(11)       # journal.IN_PLACE_HEAD: compiled in, not looked up a frame

NAME = "link"
# The record kinds this module writes (the others, FRAME, MARK and FRAMES, and the layouts it does not write:
# firmware/link/held_frames.py, which reads them all)
_DROP = const(2)
_BATCH = const(5)
_FRAME_HEAD_SIZE = const(15)  # held_frames.py's: a FRAME entry's head (journal_bytes)
# A BATCH record's payload: the frames' bytes, then a head each "<IIHH" (boot, seq, tag report, length +
# _WHOLE: not a PART), then the end "<IB" (tag event, frames); formats written where used (no globals).
_BATCH_HEAD_SIZE = const(12)
_WHOLE = const(0x8000)
_ALL = const(0xFFFE)         # a LOST frame's tag report past every report of its event (the mark's 0xFFFF)
_BATCH_END_SIZE = const(5)
_AFTER = const(9)            # a batch's bytes after its heads in the ring: its end, the record's CRC
# The ring: the smallest holding the benches' biggest batch (an Omaha showdown: 13 frames, 1,811 bytes,
# 1,987 with its record's header, heads and CRC) from its start: no batch written early, no frame the
# sender writes read from flash in their rounds (docs/journal.md, "The host link's frames").
_RING_BYTES = const(1988)
RAM_FRAMES = const(16)       # the ring's index: at most the newest 16 frames in RAM (and in a batch)
_DROP_FORMAT = "<II"         # boot, seq


def journal_bytes(capacity, slot_size):
    """Flash that holds `capacity` frames of `slot_size` bytes with their records, twice (a compaction)."""
    per_file = capacity * (slot_size + _FRAME_HEAD_SIZE + _ENTRY_SIZE) + 64
    return 2 * per_file * 4 // 3 + 2     # a quarter more: compaction comes at three quarters full


class JournalStore:
    """capacity frames of at most slot_size bytes, the newest in RAM, all in the journal NAME in state_dir.
    After construction the frames held before the reset are there again (status, detail: the journal's,
    CORRUPT for a record that does not read as frames). A write that fails raises (OSError, JournalError:
    the board resets); the frames it would have written stay pending, one written at once is not kept."""

    # A boot's own reports refused that no stored LOST frame counts (above): the instance's once there are some
    # (set only then: an attribute in every store's dict would cost a board's heap 80 bytes for a rare case).
    own_refused = 0

    def __init__(self, state_dir, fs, capacity, slot_size, max_bytes=0, ring_bytes=_RING_BYTES,
                 ram_frames=RAM_FRAMES):
        if ring_bytes < _HEAD_SIZE + slot_size + _BATCH_HEAD_SIZE + _AFTER or ring_bytes > 65535:
            raise ValueError("a ring of %d bytes does not hold a %d-byte frame's batch" % (ring_bytes, slot_size))
        self._slot = slot_size
        self._journal = journal_mod.Journal(state_dir, NAME, fs, max_bytes or journal_bytes(capacity, slot_size))
        self._ram = WindowFrames(capacity, slot_size, ram_frames, self._journal, ring_bytes, ring_bytes // 2)
        # The sender's calls of each report and frame go straight to the RAM index (no call between):
        self.read = self._ram.read
        self.view = self._ram.view
        self.run = self._ram.run
        self.run_view = self._ram.run_view
        self.count = self._ram.count
        self.capacity = self._ram.capacity
        self.status = self._journal.status
        self.detail = self._journal.detail
        # The journalled table event whose reports come next (firmware/recovery.py sets it; 0: none, a boot's
        # own). The pending batch keeps its own event: a frame of another event writes it first (append()).
        self.event = 0
        self._pending_event = 0      # the event of the pending frames (a batch is one event's; its record's tag)
        self.report = 0            # which of that event's reports, from 0
        # The newest journalled event whose reports are all made (stored, or refused: in the sender's count);
        # firmware/recovery.py sets it with `event` (a LOST frame outside an event's pass counts up to it).
        self.made = 0
        self._mark_event = 0       # `mark`: (event, reports) of the newest whole report stored
        self._mark_reports = 0
        self._prev_boot = 0        # `previous`: (boot, seq) of the newest frame ever stored (boot 0: none)
        self._prev_seq = 0
        # The pending frames: the newest `_pending` in the ring, side by side, `_bytes` of them, not yet on
        # flash; each one's tag report and whole (its head's, with the ring's boot, seq and length).
        self._pending = 0
        self._bytes = 0
        self._reports = array("H", [0] * self._ram.window)
        self._wholes = 0           # bit k: the k-th pending frame is whole (0 while none is pending)
        try:
            from firmware.link import journal_read    # boot-only (as the journal's own read-back)
            journal_read.load_frames(self)
        except (ValueError, IndexError, journal_mod.JournalError) as exc:
            self.status = _CORRUPT
            self.detail = (self.detail + "; " if self.detail else "") + "link record: %s" % exc

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

    # -- RamStore's interface: capacity(), count(), read(), view(), run(), run_view(): the RAM index's
    # (set in __init__: no call between); these three are methods (bound ones would cost a board 48 bytes)

    def boot_at(self, i):
        return self._ram.boot_at(i)

    def seq_at(self, i):
        return self._ram.seq_at(i)

    def length_at(self, i):
        return self._ram.length_at(i)
    def append(self, boot, seq, data, n, whole=None):
        """Keep a frame, pending until flush() (at once when no journalled event made it: nothing would
        make it again). whole: not a PART frame (None: read from its header)."""
        ram = self._ram
        if whole is None:
            whole = held_mod.is_whole(data, n)
        event = self.event
        pending = self._pending
        size = self._bytes
        if not event or pending == ram.window or _HEAD_SIZE + size + n + (pending + 1) * _BATCH_HEAD_SIZE + _AFTER > ram.size \
                or (pending and event != self._pending_event):
            self.flush()                               # a pending frame is never out of RAM, a batch is one
            pending = size = 0                         # event's: the batch before it first (or a full one)
        # ValueError (full, too long) before anything changes. Its place in the file: the batch's record
        # goes at the live file's end (journal.used, which nothing but flush() moves while a frame is
        # pending), its frames first: no pass over the batch's frames to place them at flush().
        ram.append(boot, seq, memoryview(data)[:n], n,
                   self._journal.used + _HEAD_SIZE + size, pending, (pending + 1) * _BATCH_HEAD_SIZE + _AFTER)
        self._reports[pending] = self.report
        self._pending_event = event
        if whole:
            self._wholes |= 1 << pending
        self._bytes = size + n
        self._pending = pending + 1
        if not event:                                  # a boot's own report is never made again: at once
            try:
                self.flush()
            except Exception:
                self._pending = self._wholes = 0       # (no pending frame: no bit set, for the next)
                self._bytes = 0
                ram.drop_newest()                      # not kept: the caller numbers it again
                raise
        elif whole:
            self.report += 1
            self._mark_event = event           # ints, not a tuple a frame: read at boot and compaction only
            self._mark_reports = self.report
        self._prev_boot = boot
        self._prev_seq = seq

    def append_lost(self, boot, seq, data, n):
        """A LOST frame: it counts every report refused so far, and those stored are stored, so the mark
        moves past all the reports made so far (a replay after a reset makes none of them again, and a
        snapshot's carried count is spent: firmware/recovery_replay.py). Tagged as the last report made
        of the event whose pass this is, or, none of its made yet (or outside one), as past every report
        of the event before it (`made`: event 0, none journalled, is written at once, no mark moved). Not
        a report of the event itself: its next report keeps its number."""
        event = self.event
        report = self.report
        if event and report:
            self.report = report - 1
        else:
            self.event = event - 1 if event else self.made
            self.report = _ALL
        try:
            self.append(boot, seq, data, n, True)
        finally:
            self.event = event
            self.report = report
        if self.own_refused:
            self.own_refused = 0      # counted: this frame, on flash after the REFUSED record, spends it

    def refused_report(self):
        """The sender refused a report (the store full). One of no journalled event (event 0) no replay
        makes again: the count of such refusals that no LOST frame counts yet goes on flash, after the pending
        batch (the order on flash is the order made: a LOST frame in that batch counts the ones before).
        A write that fails raises, as append()'s."""
        if self.event:
            return                    # the replay after a reset makes it again (the mark says it is not made)
        self.flush()
        self.own_refused += 1
        payload = struct.pack("<IB", self.own_refused, 0)      # a batch's end: the count as its event, no frame
        if self._room(_BATCH_END_SIZE + _OVERHEAD):             # compacted: the count is in its base
            return
        compactions = self._journal.compactions
        self._journal.append(_BATCH, payload)
        if self._journal.compactions != compactions:          # repaired first (a torn tail): every frame moved
            held_mod.locate(self)

    def append_run(self, boot, seq, enc, n, view, most, part, last, whole):
        """A report's frames kept at once, as append() one by one would (store.py's interface); ValueError (no
        slot for all, a frame longer than a slot) before any is kept; False, none kept, for one of no journalled
        event (written at once) or that the ring or its index would not hold as one batch."""
        ram = self._ram
        event = self.event
        pieces = (len(view) + most - 1) // most
        total, longest = enc.run_bytes(n, len(view), most, part, last)   # their bytes, before any is made
        if not event or pieces > ram.window or _HEAD_SIZE + total + pieces * _BATCH_HEAD_SIZE + _AFTER > ram.size:
            return False
        if ram._count + pieces > ram._capacity:
            raise ValueError("store full")
        if longest > self._slot:
            raise ValueError("a %d-byte frame does not fit a %d-byte slot" % (longest, self._slot))
        pending = self._pending
        size = self._bytes
        if pending + pieces > ram.window or (pending and event != self._pending_event) \
                or _HEAD_SIZE + size + total + (pending + pieces) * _BATCH_HEAD_SIZE + _AFTER > ram.size:
            self.flush()                               # append()'s rule, for all of them at once
            pending = size = 0
        ram.append(boot, seq, enc.buf, n, self._journal.used + _HEAD_SIZE + size, pending,
                   (pending + pieces) * _BATCH_HEAD_SIZE + _AFTER, total, enc, view, most, part, last)
        reports = self._reports
        report = self.report
        for k in range(pending, pending + pieces):
            reports[k] = report
        self._pending_event = event
        pending += pieces
        if whole:
            self._wholes |= 1 << (pending - 1)
            self.report = report + 1
            self._mark_event = event
            self._mark_reports = report + 1
        self._bytes = size + total
        self._pending = pending
        self._prev_boot = boot
        self._prev_seq = seq + pieces - 1
        return True

    def flush(self):
        """Write the pending frames to flash as one record (or a compaction with them). A write that
        fails raises (OSError, JournalError): the frames stay pending, none is sent."""
        pending = self._pending
        if not pending:
            return
        n = self._bytes
        size = n + pending * _BATCH_HEAD_SIZE + _BATCH_END_SIZE     # the payload: frames, heads, end
        if self._room(size + _OVERHEAD):       # compacted: the pending frames are in it
            return
        journal = self._journal
        compactions = journal.compactions
        placed = journal.used                          # where append() placed the batch's frames
        scratch = journal.record_buffer()
        if scratch is None:                            # an empty journal: its file started first
            journal.compact(())                        # (what append_in_place would do)
            scratch = journal.record_buffer()
        ram = self._ram
        ring = ram.data
        view = memoryview(ring)
        heads = ram.end
        start = heads - n - _HEAD_SIZE   # the batch's frames lie side by side up to ram.end
        end = start + _OVERHEAD + size
        kept = end - heads                             # the ring's bytes after the batch and before it,
        before = kept + _HEAD_SIZE      # kept in the journal's record buffer meanwhile
        # (no record is encoded there until this returns): only a held frame older than the batch may lie
        # there; with none (every frame before acknowledged, as mostly in play) nothing is kept.
        older = ram._count > pending
        if older:
            scratch[:kept] = view[heads:end]
            scratch[kept:before] = view[start:start + _HEAD_SIZE]
        try:
            at = heads
            wholes = self._wholes
            reports = self._reports
            # The index's arrays read here, the batch's slots in turn: three calls a frame less (a Baccarat
            # result's batch is 6 frames, flushed in the pass that made it).
            capacity = ram._capacity
            slot = (ram._first + ram._count - pending) % capacity
            boots = ram._boots
            seqs = ram._seqs
            lens = ram._lens
            pack_into = struct.pack_into
            for k in range(pending):                   # the heads, then the batch's end
                pack_into("<IIHH", ring, at, boots[slot], seqs[slot], reports[k],
                          lens[slot] | (_WHOLE if wholes >> k & 1 else 0))
                at += _BATCH_HEAD_SIZE
                slot = slot + 1 if slot + 1 < capacity else 0
            struct.pack_into("<IB", ring, at, self._pending_event, pending)
            journal.append_in_place(_BATCH, view[start:end], size)
        finally:
            if older:
                ring[heads:end] = memoryview(scratch)[:kept]
                ring[start:start + _HEAD_SIZE] = memoryview(scratch)[kept:before]
        self._pending = self._wholes = 0
        self._bytes = 0
        if journal.compactions != compactions or journal.used - size - _OVERHEAD != placed:
            held_mod.locate(self)                      # repaired first (a torn tail): every frame moved

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
            held_mod.locate(self)
        return dropped

    # -- inside ------------------------------------------------------------------------
    def _room(self, size, dropping=0):
        """Compact to the held frames (but the first `dropping`) when records of `size` bytes would not
        fit, or the file is three quarters full; True if it did (the pending frames are on flash then)."""
        journal = self._journal
        used = journal.used                            # (journal.nearly_full, journal.room inline: two
        capacity = journal.capacity                    # property calls less a flush)
        if used * 4 >= capacity * 3 or used + size > capacity:
            held_mod.compact(self, dropping)
            return True
        return False
