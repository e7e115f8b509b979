# Where the sender keeps frames the host has not acknowledged: the stores' interface, and what the
# store on flash (firmware/link/journal_store.py) and the one in RAM (firmware/link/ram_store.py) share.
#
# The interface (what Sender uses; RamStore and JournalStore both offer it):
#   capacity()                    frames it can hold
#   count()                       frames held now
#   append(boot, seq, data, n, whole)  keep data[:n] (a whole frame with its LF) as the newest;
#                                 whole: not a PART frame (the sender knows its type)
#   append_lost(boot, seq, data, n)  a LOST frame, as append(): it counts every report refused so far
#                                 (a store on flash tags it so: no replay makes them again)
#   append_run(boot, seq, enc, n, view, most, part, last, whole)  a report's frames at once: the first
#                                 in enc.buf[:n] (a `part` frame of view[:most]), the next ones made
#                                 by enc.encode_next; True, all kept, or False, none: the caller
#                                 appends them one by one (RamStore: always)
#   flush()                       make every frame appended so far durable (a store on flash
#                                 writes its batch): the sender calls it before writing a frame out
#   boot_at(i), seq_at(i)         position of the i-th held frame, 0 the oldest
#   read(i, buf)                  copy the i-th held frame into buf; returns its length
#   view(i)                       the i-th held frame's bytes where they lie in RAM (a memoryview,
#                                 good until the next append), or None (on flash only, or across
#                                 the end of a RAM ring: read() it):
#                                 the sender writes a frame out from there, with no copy
#   run(i, limit, room, first)    the index after the frames from i (before limit) that lie side by
#                                 side whole in RAM, within room bytes (room < 0: any; frame i
#                                 whatever its size when first): i when frame i does not fit, -1 when
#                                 it is not whole in RAM (read() it)
#   run_view(i, j)                those frames' bytes, one memoryview: the sender writes them at once
#   length_at(i)                  the i-th held frame's length
#   drop_through(boot, seq)       forget every held frame at or before (boot, seq) (the host
#                                 has it); returns how many
# Frames are held in the order appended, which is (boot, seq) order. The store
# never drops a frame on its own: append() on a full store is a ValueError
# (Sender checks first and keeps the oldest, docs/host-link.md, "When the host is away").
#
# WindowFrames (below) is the store on flash's index of its held frames (firmware/link/journal_store.py):
# the same FIFO of positions as RamStore's, with each frame's place in the journal file, and only the newest
# in RAM. A booted table never imports RamStore (firmware/boot_steps.py: the store on flash or none): its
# module, firmware/link/ram_store.py, is the refusal's one-off sender's (firmware/boot_refusal.py) and the tests'.
from array import array

# copies of firmware.link.record (tests/host/test_const_copies.py)
_HEAD_SIZE = const(11)       # a ring's bytes before its first frame: room for a journal record's header


def at_or_before(boot_a, seq_a, boot_b, seq_b):
    """Position a is at or before position b."""
    return boot_a < boot_b or (boot_a == boot_b and seq_a <= seq_b)


class Held:
    """The held frames' positions and lengths: a FIFO over `capacity` slots (the stores below)."""

    def __init__(self, capacity, slot_size):
        if capacity < 2:
            raise ValueError("a store needs room for at least 2 frames")
        self._capacity = capacity
        self._slot = slot_size
        self._lens = array("H", [0] * capacity)
        self._boots = array("L", [0] * capacity)
        self._seqs = array("L", [0] * capacity)
        self._first = 0
        self._count = 0

    def capacity(self):
        return self._capacity

    def count(self):
        return self._count

    def slot_of(self, i):
        if not 0 <= i < self._count:
            raise IndexError("no held frame %d (holding %d)" % (i, self._count))
        return (self._first + i) % self._capacity

    def boot_at(self, i):
        return self._boots[self.slot_of(i)]

    def seq_at(self, i):
        return self._seqs[self.slot_of(i)]

    def length_at(self, i):
        return self._lens[self.slot_of(i)]

    def _new_slot(self, boot, seq, n):
        """The slot the next frame goes in, its position and length noted (not yet counted)."""
        if self._count == self._capacity:
            raise ValueError("store full")
        if n > self._slot:
            raise ValueError("a %d-byte frame does not fit a %d-byte slot" % (n, self._slot))
        slot = (self._first + self._count) % self._capacity
        self._lens[slot] = n
        self._boots[slot] = boot
        self._seqs[slot] = seq
        return slot

    def drop_through(self, boot, seq):
        dropped = 0
        while self._count and at_or_before(self._boots[self._first], self._seqs[self._first], boot, seq):
            self._first = (self._first + 1) % self._capacity
            self._count -= 1
            dropped += 1
        return dropped


class WindowFrames(Held):
    """The held frames of a store on flash (firmware/link/journal_store.py): positions, lengths and
    places in the journal's file, the newest of them in RAM too (at most `window`, as many as the
    ring's bytes hold). A frame out of RAM is read back with journal.read_at(place, buf, n) (a
    retransmission, a REPLAY, a host back to a backlog, a compaction): RAM holds what the loop writes
    out as it is made.

    The ring is `size` bytes holding the frames one after another from byte 11 (the first 11 are room
    for a record's header); a frame is never cut in two: one that would not fit before the ring's end
    goes at byte 11 (a jump), and so does the first frame of a batch when the ring is past `soft`, so
    that a batch (the store's pending frames: side by side, `room` bytes free after them for their
    record's heads) has the rest of the ring to grow in. A batch that outgrows the end anyway is moved
    to byte 11 (rare: an Omaha showdown now and then; every older frame leaves RAM then). A report's
    frames placed at once (append() with enc) are placed as one frame of their bytes. The frames
    the loop writes out in one pass lie side by side, so one write takes a run of them (run()). The 11
    bytes before a batch's first frame and the `room` after its last are where the store puts its
    record's header and heads to write the batch with one call (firmware/link/journal_store.py,
    flush()), putting back what was there.
    """

    def __init__(self, capacity, slot_size, window, journal, size, soft):
        Held.__init__(self, capacity, slot_size)
        self.window = max(2, min(window, capacity))
        self._journal = journal
        self.size = size
        self._soft = soft
        self.data = bytearray(size)
        self._view = memoryview(self.data)
        self._at = array("H", [0] * self.window)      # where in the ring each of the newest frames starts
        self.end = _HEAD_SIZE      # where the next frame goes in the ring
        self._in_ram = 0           # the newest frames made whose bytes the ring still holds
        self._cycle = 0            # the newest frames made since the last jump (the rest lie past end)
        self.offsets = array("L", [0] * capacity)     # where a frame's bytes lie in the live file
        self._made = 0             # frames appended: frame number k starts at _at[k % window]

    def append(self, boot, seq, data, n, at, pending=0, room=0, total=0, enc=None, view=None, most=0, part=None,
               last=None):
        """Keep data, exactly n bytes (a view of them), as the newest frame, at `at` in the file; the `pending` newest
        frames and it side by side with `room` bytes free after them (the caller checked 11 + their bytes + room fit
        the ring's size). With enc (JournalStore.append_run), a report's frames, `total` bytes: the first in data[:n]
        (enc's buffer), the next ones made by enc.encode_next (`part` frames of `most` bytes of view, then a `last`
        frame), each placed after the one before, their place chosen once for all."""
        count = self._count
        capacity = self._capacity
        if enc is None:
            if count == capacity:
                raise ValueError("store full")
            if n > self._slot:
                raise ValueError("a %d-byte frame does not fit a %d-byte slot" % (n, self._slot))
            total = n
            pieces = 1
        else:
            pieces = (len(view) + most - 1) // most
            data = memoryview(data)
        start = self.end
        in_ram = self._in_ram
        cycle = self._cycle
        if pending and start + total + room > self.size:
            start = self._move(pending)                # the batch to the ring's start: whole in RAM
            in_ram = cycle = pending
        elif not pending and (start > self._soft or start + total + room > self.size):
            start = _HEAD_SIZE                         # a jump to the start: the frames before the last
            if in_ram > cycle:                         # jump leave RAM (those after it are older than
                in_ram = cycle                         # what the new frames overwrite first)
            cycle = 0
        end = start + total
        window = self.window
        made = self._made
        older = in_ram - cycle                         # frames of the cycle before, past end
        starts = self._at
        while older > 0 and starts[(made - in_ram) % window] < end:
            in_ram -= 1                                # overwritten: from the oldest on
            older -= 1
        in_ram += pieces
        self._in_ram = in_ram if in_ram < window else window    # the index holds `window` frames
        self._cycle = cycle + pieces
        self._count = count + pieces
        self.end = end
        slot = (self._first + count) % capacity        # _new_slot's work inline: a call a frame
        ring = self.data
        k = 1
        while True:
            self._lens[slot] = n
            self._boots[slot] = boot
            self._seqs[slot] = seq
            self.offsets[slot] = at
            ring[start:start + n] = data if enc is None else data[:n]
            starts[made % window] = start
            made += 1
            if k == pieces:
                break
            start, at, seq = start + n, at + n, seq + 1
            slot = slot + 1 if slot + 1 < capacity else 0
            k += 1
            n = enc.encode_next(part if k < pieces else last, view[most * (k - 1):most * k])
        self._made = made

    def _move(self, pending):
        """The `pending` newest frames (side by side up to end) moved to the ring's start, front to back
        in pieces that do not overlap; where the next frame goes. Every older frame leaves RAM."""
        window = self.window
        made = self._made
        base = self._at[(made - pending) % window]
        length = self.end - base
        data = self.data
        view = self._view
        step = base - _HEAD_SIZE
        if step <= 0:
            raise ValueError("a batch of %d bytes does not fit the ring" % (length + _HEAD_SIZE))
        done = 0
        while done < length:
            k = length - done if length - done < step else step
            data[_HEAD_SIZE + done:_HEAD_SIZE + done + k] = view[base + done:base + done + k]
            done += k
        for m in range(made - pending, made):
            self._at[m % window] -= step
        self._cycle = pending
        return _HEAD_SIZE + length

    def read(self, i, buf):
        count = self._count
        if not 0 <= i < count:
            raise IndexError("no held frame %d (holding %d)" % (i, count))
        slot = (self._first + i) % self._capacity      # slot_of(i), inline: a call a frame the sender writes
        n = self._lens[slot]
        if i >= count - self._in_ram:
            start = self._at[(self._made - count + i) % self.window]
            buf[:n] = self._view[start:start + n]
        else:
            self._journal.read_at(self.offsets[slot], buf, n)
        return n

    def view(self, i):
        """The i-th held frame's bytes in the RAM ring, or None when it is on flash only (read() it)."""
        count = self._count
        if not 0 <= i < count:
            raise IndexError("no held frame %d (holding %d)" % (i, count))
        if i < count - self._in_ram:
            return None
        start = self._at[(self._made - count + i) % self.window]
        return self._view[start:start + self._lens[(self._first + i) % self._capacity]]

    def run(self, i, limit, room, first):
        """The index after the frames from i (before limit) lying one after another in RAM, as many
        as fit room bytes (room < 0: no bound; frame i whatever its size when first); i when frame i
        does not fit room, -1 when it is not in RAM (view(i) is None). run_view(i, that index) is
        their bytes: the sender writes a run with one call."""
        count = self._count
        if not 0 <= i < limit <= count:
            raise IndexError("no held frames %d..%d (holding %d)" % (i, limit - 1, count))
        window = self.window
        if i < count - self._in_ram:
            return -1
        made = self._made - count + i
        capacity = self._capacity
        slot = (self._first + i) % capacity
        lens = self._lens
        starts = self._at
        n = lens[slot]
        end = starts[made % window] + n
        if 0 <= room < n and not first:
            return i
        total = n
        i += 1
        while i < limit:
            made += 1
            slot = slot + 1 if slot + 1 < capacity else 0
            n = lens[slot]
            total += n
            if starts[made % window] != end or (0 <= room < total):
                break                              # a jump to the ring's start, or no room
            end += n
            i += 1
        return i

    def run_view(self, i, j):
        """The bytes of the frames i..j - 1, which run(i, ...) found side by side in RAM (j > i)."""
        count = self._count
        made = self._made - count
        window = self.window
        last = made + j - 1
        return self._view[self._at[(made + i) % window]:self._at[last % window]
                          + self._lens[(self._first + j - 1) % self._capacity]]

    def drop_newest(self):
        if self._count:
            self._count -= 1
            self._made -= 1
            self.end = self._at[self._made % self.window]   # the ring's next frame goes where it went
            if self._in_ram:
                self._in_ram -= 1
            if self._cycle:
                self._cycle -= 1

    def drop_first(self, k):
        k = min(k, self._count)
        self._first = (self._first + k) % self._capacity
        self._count -= k
