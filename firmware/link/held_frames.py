# The host link store's frames as records on flash (firmware/link/journal_store.py, JournalStore; docs/journal.md,
# "The host link's frames"): each frame of a record read (frames_of: at boot, firmware/link/journal_read.py, and
# after a compaction or a repair moved them), the compaction to the held frames at three quarters full (compact:
# a MARK entry, then a FRAME entry each) and where each held frame lies on flash then (locate). A running table
# compacts, so this module stays (it is not boot-only); the store's append, flush and runs do not call into it
# (a compaction or a repair does: the rare passes).
import struct

from firmware.link import journal as journal_mod

# The store's record kinds and layouts (journal_store.py writes BATCH and DROP records, this module FRAME and
# MARK entries; firmware/link/journal_read.py copies DROP, MARK, BATCH and their formats). A BATCH of no frame
# is the REFUSED count (journal_store.py's refused_report): frames_of() finds no frame in it.
_FRAME = const(1)
_DROP = const(2)
_MARK = const(3)
_FRAMES = const(4)
_BATCH = const(5)
_FRAME_HEAD = "<IIIHB"       # boot, seq, tag event, tag report, whole (1: not a PART)
_FRAME_HEAD_SIZE = const(15)
_ENTRY_HEAD = "<IIIHBH"      # in a FRAMES record, before each frame: its FRAME_HEAD, its length
_ENTRY_HEAD_SIZE = const(17)
# journal_store.py's (a BATCH record's heads and end: it writes them)
_BATCH_HEAD_SIZE = const(12)
_WHOLE = const(0x8000)
_BATCH_END_SIZE = const(5)

_MARK_FORMAT = "<IIIH"       # previous boot, previous seq, mark event, mark report
_PART_TYPE = b" PART "


def frames_of(kind, payload):
    """Each frame of a BATCH, FRAMES or FRAME record: (boot, seq, event, report, whole, k, n), its bytes at
    payload[k:k + n]. ValueError for a record that does not read as frames (at boot, after a compaction),
    before its first frame: read first to its end, a record gives all its frames or none. (Read as it went,
    a batch whose count was wrong gave a frame of another's bytes before the error, which the boot kept
    among the held frames: stop 70.)"""
    if kind != _FRAME:
        for _ in _frames(kind, payload):
            pass
    yield from _frames(kind, payload)


def _frames(kind, payload):
    end = len(payload)
    k = 0
    if kind == _FRAME:
        boot, seq, event, report, whole = struct.unpack_from(_FRAME_HEAD, payload, 0)
        yield boot, seq, event, report, whole, _FRAME_HEAD_SIZE, end - _FRAME_HEAD_SIZE
        return
    if kind == _FRAMES:
        while k < end:
            boot, seq, event, report, whole, n = struct.unpack_from(_ENTRY_HEAD, payload, k)
            k += _ENTRY_HEAD_SIZE
            if k + n > end:
                raise ValueError("a batch's frame cut short")
            yield boot, seq, event, report, whole, k, n
            k += n
        return
    if kind != _BATCH:
        raise ValueError("record of kind %d" % kind)
    if end < _BATCH_END_SIZE:
        raise ValueError("a batch record of %d bytes" % end)
    event, count = struct.unpack_from("<IB", payload, end - _BATCH_END_SIZE)
    heads = end - _BATCH_END_SIZE - count * _BATCH_HEAD_SIZE
    for i in range(count if heads >= 0 else 0):
        boot, seq, report, n = struct.unpack_from("<IIHH", payload, heads + i * _BATCH_HEAD_SIZE)
        if k + (n & ~_WHOLE) > heads:
            break
        yield boot, seq, event, report, 1 if n & _WHOLE else 0, k, n & ~_WHOLE
        k += n & ~_WHOLE
    if k != heads:
        raise ValueError("a batch's %d frames do not add up to its %d bytes" % (count, heads))


def is_whole(data, n):
    """Not a PART frame ("#b.s stamp PART ..."): the type is the third word of the header."""
    view = bytes(memoryview(data)[:n if n < 48 else 48])
    return _PART_TYPE not in view


def locate(store):
    """Where each of the store's held frames lies on flash, found again after a compaction or a repair moved them."""
    ram = store._ram
    count = ram.count()
    j = 0
    for kind, payload, at in store._journal.records_at():
        if kind != _DROP and kind != _MARK:
            # (_frames: read once. These records were read whole at boot or written by this boot.)
            for boot, seq, _, _, _, k, _ in _frames(kind, payload):
                if j < count and ram.boot_at(j) == boot and ram.seq_at(j) == seq:
                    ram.offsets[ram.slot_of(j)] = at + k
                    j += 1
    if j != count:
        raise journal_mod.JournalError("held frame %d.%d not found on flash" % (ram.boot_at(j), ram.seq_at(j)))


def compact(store, skip):
    """Restart the store's journal from the mark and the held frames after the first `skip` (being dropped)."""
    store._journal.compact(_Held(store, skip))
    store._pending = store._wholes = 0             # the held frames are on flash, pending ones too
    store._bytes = 0
    store._ram.drop_first(skip)
    locate(store)


def _entries(store, skip):
    yield _MARK, struct.pack(_MARK_FORMAT, store._prev_boot, store._prev_seq, store._mark_event,
                             store._mark_reports)
    ram = store._ram
    buf = bytearray(store._slot)
    for i in range(skip, ram.count()):
        n = ram.read(i, buf)
        # Stored as tagged with no event (0): loading it leaves the mark as the MARK entry says.
        whole = 1 if is_whole(buf, n) else 0
        head = struct.pack(_FRAME_HEAD, ram.boot_at(i), ram.seq_at(i), 0, 0, whole)
        yield _FRAME, head + bytes(buf[:n])
    if store.own_refused:
        # The count no stored LOST frame spends yet (journal_store.py, refused_report): after the frames, none
        # of which spends it (a LOST frame before it counted earlier refusals).
        yield _BATCH, struct.pack("<IB", store.own_refused, 0)


class _Held:
    """The compaction's entries, re-readable (the journal walks them twice: sizes, then bytes)."""

    def __init__(self, store, skip):
        self.store = store
        self.skip = skip

    def __iter__(self):
        return _entries(self.store, self.skip)
