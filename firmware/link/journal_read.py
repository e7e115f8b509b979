# A journal's files read back when it is opened (firmware/link/journal.py, Journal.__init__): each file
# checked record by record, the newest good one made live, what is bad noted and set aside. Journals are
# opened at boot (the table journal, the link store, recall, the boot counter, the console's PIN record and
# audit), so this module is boot-only (firmware/parts.py, BOOT_ONLY): a running table keeps none of it; a
# journal opened later imports it again, released with the boot-only modules (issue 14).
from firmware.link import record

# copies of firmware.link.record (tests/host/test_const_copies.py)
_CLEAN = const(0)
# The host link store's record kinds (firmware/link/held_frames.py's _DROP, _MARK: its own, private; a
# store reopened in tests/firmware/test_journal_store.py reads back what it wrote)
_DROP = const(2)
_MARK = const(3)
_BATCH = const(5)
_BATCH_END_SIZE = const(5)   # a BATCH of no frame, its end alone: the REFUSED count (journal_store.py)


def load(journal):
    """The journal's two files surveyed: the live one, its good bytes and last generation; the others stale."""
    found = []
    for index in (0, 1):
        size = _size(journal, journal._names[index])
        if size:                            # not missing, nor created and never written
            with journal._fs.open(journal._names[index], "rb") as f:
                found.append((index, size) + survey(f, size))
    live = None
    for f in found:
        if f[2] is not None and (live is None or record.newer(f[2], live[2])):
            live = f
    for index, size, base_gen, end, gen, status, detail in found:
        if live is not None and index == live[0]:
            continue
        if status != _CLEAN:                # a torn checkpoint, or bits gone bad: say so
            _note(journal, index, status, size - end if base_gen is not None else size, detail)
        journal._stale.append(index)        # superseded or bad: removed before the next write
    if live is None:
        return
    index, size, base_gen, end, gen, status, detail = live
    if status != _CLEAN:
        _note(journal, index, status, size - end, detail)
        journal._damaged = True
    journal._live = index
    journal.used = end
    journal._gen = gen


def survey(f, size):
    """A whole file checked: (base generation or None, good bytes, last generation, status, detail)."""
    reader = record.Reader(f, size)
    base_gen = reader.gen if reader.next() is not None else None
    while reader.next() is not None:
        pass
    return base_gen, reader.end, reader.gen, reader.status, reader.detail


def _size(journal, name):
    try:
        return journal._fs.stat(name)[6]
    except OSError:
        return None


def _note(journal, index, status, discarded, detail):
    journal.status = max(journal.status, status)
    journal.discarded += discarded
    journal.detail += "%s%s: %s (%d bytes discarded)" % (
        "; " if journal.detail else "", journal._names[index], detail, discarded)


def load_frames(store):
    """The host link store's records read back at boot (firmware/link/journal_store.py, JournalStore): its
    held frames into the RAM index, acknowledged ones dropped, its mark and the newest frame's position.
    ValueError, IndexError or JournalError for a record that does not read as frames."""
    import struct
    from firmware.link.held_frames import frames_of
    ram = store._ram
    for kind, payload, at in store._journal.records_at():
        if kind == _DROP:
            boot, seq = struct.unpack("<II", payload)            # (journal_store's _DROP_FORMAT)
            ram.drop_through(boot, seq)
        elif kind == _MARK:
            boot, seq, event, reports = struct.unpack("<IIIH", payload)    # (held_frames' _MARK_FORMAT)
            store._prev_boot, store._prev_seq = boot, seq
            store._mark_event, store._mark_reports = event, reports
        elif kind == _BATCH and len(payload) == _BATCH_END_SIZE:
            count, frames = struct.unpack("<IB", payload)
            if frames:
                raise ValueError("a batch of %d frames in %d bytes" % (frames, len(payload)))
            store.own_refused = count     # the REFUSED count: the newest says all (a later LOST frame spends it)
        else:
            for boot, seq, event, report, whole, k, n in frames_of(kind, payload):
                ram.append(boot, seq, payload[k:k + n], n, at + k)
                store._prev_boot, store._prev_seq = boot, seq
                if whole and event:
                    store._mark_event, store._mark_reports = event, report + 1
                if store.own_refused and _is_lost(payload, k, n):
                    store.own_refused = 0     # a LOST frame stored after the count: it counts them


def _is_lost(payload, k, n):
    """The frame at payload[k:k + n] is a LOST frame ("#b.s stamp LOST count*CRC": its type the third word)."""
    head = bytes(payload[k:k + (n if n < 48 else 48)])
    i = head.find(b" ", head.find(b" ") + 1)
    return i > 0 and head[i + 1:i + 6] == b"LOST "
