# Where the sender keeps frames the host has not acknowledged: a bounded FIFO in RAM.
#
# The interface (what Sender uses, and what firmware/link/journal_store.py on flash
# offers as well):
#   capacity()                    frames it can hold
#   count()                       frames held now
#   append(boot, seq, data, n, whole)  keep data[:n] (a whole frame with its LF) as the newest;
#                                 whole: not a PART frame (the sender knows its type)
#   flush()                       make every frame appended so far durable (a store on flash
#                                 writes its batch): the sender calls it before writing a frame out
#   boot_at(i), seq_at(i)         position of the i-th held frame, 0 the oldest
#   read(i, buf)                  copy the i-th held frame into buf; returns its length
#   view(i)                       the i-th held frame's bytes where they lie in RAM (a memoryview,
#                                 good until the next append), or None (on flash only: read() it):
#                                 the sender writes a frame out from there, with no copy
#   length_at(i)                  the i-th held frame's length
#   drop_through(boot, seq)       forget every held frame at or before (boot, seq) (the host
#                                 has it); returns how many
# Frames are held in the order appended, which is (boot, seq) order. The store
# never drops a frame on its own: append() on a full store is a ValueError
# (Sender checks first and keeps the oldest, docs/host-link.md "Full").
#
# WindowFrames (below) is the store on flash's index of its held frames (firmware/link/journal_store.py):
# the same FIFO of positions, with each frame's place in the journal file, and only the newest in RAM.
from array import array


def at_or_before(boot_a, seq_a, boot_b, seq_b):
    """Position a is at or before position b."""
    return boot_a < boot_b or (boot_a == boot_b and seq_a <= seq_b)


class _Held:
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


class RamStore(_Held):
    """capacity slots of slot_size bytes, allocated once; lost at a reset."""

    def __init__(self, capacity, slot_size):
        _Held.__init__(self, capacity, slot_size)
        self._data = bytearray(capacity * slot_size)
        self._view = memoryview(self._data)

    def append(self, boot, seq, data, n, whole=True):
        slot = self._new_slot(boot, seq, n)
        base = slot * self._slot
        self._data[base:base + n] = memoryview(data)[:n]
        self._count += 1

    def flush(self):
        """Nothing to write: RAM is all this store has."""

    def read(self, i, buf):
        slot = self.slot_of(i)
        n = self._lens[slot]
        base = slot * self._slot
        buf[:n] = self._view[base:base + n]
        return n

    def view(self, i):
        slot = self.slot_of(i)
        base = slot * self._slot
        return self._view[base:base + self._lens[slot]]

    def drop_newest(self):
        """Forget the frame appended last (a store on flash that could not write it)."""
        if self._count:
            self._count -= 1


class WindowFrames(_Held):
    """The held frames of a store on flash (firmware/link/journal_store.py): positions, lengths and
    places in the journal's file, the newest `window` of them in RAM too. A frame out of the window is
    read back with journal.read_at(place, buf, n) (a retransmission, a REPLAY, a host back to a
    backlog, a compaction): the window holds what the loop writes out as it is made.
    """

    def __init__(self, capacity, slot_size, window, journal):
        _Held.__init__(self, capacity, slot_size)
        self.window = max(2, min(window, capacity))
        self._journal = journal
        self._data = bytearray(self.window * slot_size)
        self._view = memoryview(self._data)
        self.offsets = array("L", [0] * capacity)     # where a frame's bytes lie in the live file
        self._made = 0             # frames appended: the window's slot of a frame is its number % window

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
        base = (made % self.window) * self._slot
        self._data[base:base + n] = data
        self._count = count + 1
        self._made = made + 1

    def read(self, i, buf):
        count = self._count
        if not 0 <= i < count:
            raise IndexError("no held frame %d (holding %d)" % (i, count))
        slot = (self._first + i) % self._capacity      # slot_of(i), inline: a call a frame the sender writes
        n = self._lens[slot]
        if i >= count - self.window:
            base = ((self._made - count + i) % self.window) * self._slot
            buf[:n] = self._view[base:base + n]
        else:
            self._journal.read_at(self.offsets[slot], buf, n)
        return n

    def view(self, i):
        """The i-th held frame's bytes in the RAM window, or None when it is on flash only."""
        count = self._count
        if not 0 <= i < count:
            raise IndexError("no held frame %d (holding %d)" % (i, count))
        if i < count - self.window:
            return None
        base = ((self._made - count + i) % self.window) * self._slot
        return self._view[base:base + self._lens[(self._first + i) % self._capacity]]

    def placed(self, newest, start):
        """The newest frames' places were in the batch buffer: it now lies from `start` in the file."""
        offsets = self.offsets
        capacity = self._capacity
        slot = (self._first + self._count - newest) % capacity
        for _ in range(newest):
            offsets[slot] += start
            slot = slot + 1 if slot + 1 < capacity else 0

    def drop_newest(self):
        if self._count:
            self._count -= 1
            self._made -= 1

    def drop_first(self, k):
        k = min(k, self._count)
        self._first = (self._first + k) % self._capacity
        self._count -= k
