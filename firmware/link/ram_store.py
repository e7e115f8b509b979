# A store of frames in RAM only: a bounded FIFO of slots, lost at a reset (the interface: firmware/link/store.py).
# A board keeps its unacknowledged frames on flash (firmware/link/journal_store.py); this one serves the boot
# refusal's one-off sender (firmware/boot_refusal.py, boot-only), the tests and the host's tools. Apart from
# firmware/link/store.py so that a running table never has it in its heap (issue 14: its class, dict and
# functions, ~0.4 KB with the code in flash).
from firmware.link.store import Held


class RamStore(Held):
    """capacity slots of slot_size bytes, allocated once; lost at a reset."""

    own_refused = 0          # no count of refused reports survives a reset here (journal_store.py's does)

    def __init__(self, capacity, slot_size):
        Held.__init__(self, capacity, slot_size)
        self._data = bytearray(capacity * slot_size)
        self._view = memoryview(self._data)

    def append(self, boot, seq, data, n, whole=True):
        slot = self._new_slot(boot, seq, n)
        base = slot * self._slot
        self._data[base:base + n] = memoryview(data)[:n]
        self._count += 1

    def append_lost(self, boot, seq, data, n):
        """A LOST frame: nothing on flash to tag (journal_store.py's)."""
        self.append(boot, seq, data, n)

    def append_run(self, boot, seq, enc, n, view, most, part, last, whole):
        """A slot a frame: nothing to gain from a report's frames at once; False, the caller append()s them."""
        return False

    def flush(self):
        """Nothing to write: RAM is all this store has."""

    def refused_report(self):
        """Nothing to keep: the sender's count is all (journal_store.py keeps a boot's own on flash)."""

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

    def run(self, i, limit, room, first):
        """Slots of one size: no two frames lie side by side, a run is one frame."""
        return i if 0 <= room < self.length_at(i) and not first else i + 1

    def run_view(self, i, j):
        return self.view(i)
