# A journal's files read back when it is opened (firmware/link/journal.py, Journal.__init__): each file
# checked record by record, the newest good one made live, what is bad noted and set aside. Journals are
# opened at boot (the table journal, the link store, recall, the boot counter, the console's PIN record and
# audit), so this module is boot-only (firmware/parts.py, BOOT_ONLY): a running table keeps none of it; a
# journal opened later imports it again, released with the boot-only modules (issue 14).
from firmware.link import record

# copies of firmware.link.record (tests/host/test_const_copies.py)
_CLEAN = const(0)


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
