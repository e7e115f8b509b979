# Where the sender keeps frames the host has not acknowledged: the stores' interface, and what the
# store on flash (firmware/link/journal_store.py) and the one in RAM (firmware/link/ram_store.py) share.
#
# The interface (what Sender uses; RamStore and JournalStore both offer it):
#   capacity()                    frames it can hold
#   count()                       frames held now
#   append(boot, seq, data, n, whole)  keep data[:n] (a whole frame with its LF) as the newest;
#                                 whole: not a PART frame (the sender knows its type)
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
# (Sender checks first and keeps the oldest, docs/host-link.md "Full").
#
# WindowFrames (below) is the store on flash's index of its held frames (firmware/link/journal_store.py):
# the same FIFO of positions as RamStore's, with each frame's place in the journal file, and only the newest
# in RAM. A booted table never imports RamStore (firmware/boot_steps.py: the store on flash or none): its
# module, firmware/link/ram_store.py, is the refusal's one-off sender's (firmware/boot_refusal.py) and the tests'.
from array import array


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
    places in the journal's file, the newest `window` of them in RAM too. A frame out of the window is
    read back with journal.read_at(place, buf, n) (a retransmission, a REPLAY, a host back to a
    backlog, a compaction): the window holds what the loop writes out as it is made.

    The window is a ring of window x slot_size bytes holding the frames one after another (a frame
    that meets the ring's end goes on at its start): the newest `window` frames always fit, and the
    frames the loop writes out in one pass lie side by side, so one write takes a run of them (run()).
    """

    def __init__(self, capacity, slot_size, window, journal):
        Held.__init__(self, capacity, slot_size)
        self.window = max(2, min(window, capacity))
        self._journal = journal
        self._size = self.window * slot_size
        self._data = bytearray(self._size)
        self._view = memoryview(self._data)
        self._at = array("H", [0] * self.window)      # where in the ring each of the newest frames starts
        self._end = 0              # where the next frame goes in the ring
        self.offsets = array("L", [0] * capacity)     # where a frame's bytes lie in the live file
        self._made = 0             # frames appended: frame number k starts at _at[k % window]

    def append(self, boot, seq, data, n, at):
        """Keep data, exactly n bytes (a view of them), as the newest frame, at `at` in the file."""
        count = self._count
        capacity = self._capacity
        if count == capacity:
            raise ValueError("store full")
        if n > self._slot:
            raise ValueError("a %d-byte frame does not fit a %d-byte slot" % (n, self._slot))
        slot = (self._first + count) % capacity        # _new_slot's work inline: a call a frame
        self._lens[slot] = n
        self._boots[slot] = boot
        self._seqs[slot] = seq
        self.offsets[slot] = at
        made = self._made
        start = self._end
        end = start + n
        size = self._size
        if end < size:
            self._data[start:end] = data
        else:                                          # to the ring's end, the rest from its start
            end -= size
            self._data[start:size] = data[:n - end]
            self._data[0:end] = data[n - end:n]
        self._at[made % self.window] = start
        self._end = end
        self._count = count + 1
        self._made = made + 1

    def read(self, i, buf):
        count = self._count
        if not 0 <= i < count:
            raise IndexError("no held frame %d (holding %d)" % (i, count))
        slot = (self._first + i) % self._capacity      # slot_of(i), inline: a call a frame the sender writes
        n = self._lens[slot]
        if i >= count - self.window:
            start = self._at[(self._made - count + i) % self.window]
            end = start + n
            size = self._size
            if end <= size:
                buf[:n] = self._view[start:end]
            else:                                      # across the ring's end
                buf[:size - start] = self._view[start:size]
                buf[size - start:n] = self._view[0:end - size]
        else:
            self._journal.read_at(self.offsets[slot], buf, n)
        return n

    def view(self, i):
        """The i-th held frame's bytes in the RAM window, or None when it is on flash only or lies
        across the ring's end (read() it)."""
        count = self._count
        if not 0 <= i < count:
            raise IndexError("no held frame %d (holding %d)" % (i, count))
        if i < count - self.window:
            return None
        start = self._at[(self._made - count + i) % self.window]
        end = start + self._lens[(self._first + i) % self._capacity]
        return self._view[start:end] if end <= self._size else None

    def run(self, i, limit, room, first):
        """The index after the frames from i (before limit) lying one after another whole in RAM, as many
        as fit room bytes (room < 0: no bound; frame i whatever its size when first); i when frame i
        does not fit room, -1 when it is not whole in RAM (view(i) is None). run_view(i, that index) is
        their bytes: the sender writes a run with one call."""
        count = self._count
        if not 0 <= i < limit <= count:
            raise IndexError("no held frames %d..%d (holding %d)" % (i, limit - 1, count))
        window = self.window
        if i < count - window:
            return -1
        made = self._made - count + i
        capacity = self._capacity
        slot = (self._first + i) % capacity
        lens = self._lens
        starts = self._at
        n = lens[slot]
        end = starts[made % window] + n
        if end > self._size:
            return -1
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
                break                              # the ring's start (or its end crossed), or no room
            end += n
            if end > self._size:
                break
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
            self._end = self._at[self._made % self.window]   # the ring's next frame goes where it went

    def drop_first(self, k):
        k = min(k, self._count)
        self._first = (self._first + k) % self._capacity
        self._count -= k
