# The boot counter: one more at every start of the board, kept in the state dir across resets and
# power cuts (docs/host-link.md, "Boot counter"). The host tells boots apart by it: a counter that
# went back would make the host drop the new boot's reports as duplicates of the old ones.
#
# Kept in a Journal (firmware/link/journal.py, two files "boot.0"/"boot.1", every record under
# CRCs and a generation): each boot appends its number (one flash write) and, when the file is
# three quarters full, checkpoints it (one write and one remove). The new number is written
# before any frame carries it, so a power cut during the write loses a boot that sent nothing.
#
# A counter that cannot be read is never taken as 0: the board jumps ahead of the last number
# it can still read (or to JUMP when none) and says so (the boot report's "boot_counter" fault).
import struct

from firmware.link import journal as journal_mod

# copies of firmware.link.frame (tests/host/test_const_copies.py)
_MAX_NUMBER = const(999999999)
# copies of firmware.link.record (tests/host/test_const_copies.py)
_CORRUPT = const(2)
_OVERHEAD = const(15)

NAME = "boot"
JOURNAL_BYTES = const(256)     # two files of at most 128 bytes: five boots a file, then a checkpoint
JUMP = const(1000000)          # how far an unreadable counter jumps ahead
_KIND = const(1)
_FORMAT = "<I"


def _value(payload):
    if len(payload) != 4:
        raise journal_mod.JournalError("boot counter record of %d bytes" % len(payload))
    return struct.unpack(_FORMAT, payload)[0]


def _last(journal):
    """The last counter the journal holds (0: none), and what was wrong reading it ("" if nothing)."""
    last = 0
    try:
        for kind, payload in journal.records():
            last = _value(payload)
    except journal_mod.JournalError as exc:
        return last, str(exc)
    if journal.status == _CORRUPT:
        return last, journal.detail
    return last, ""


def next_boot(state_dir, fs=None):
    """This boot's counter, written to flash before it is returned; (counter, problem).

    problem is "" when the counter was read cleanly (a first boot, or a torn write a power cut
    left, which cost nothing); otherwise it says what was wrong, and the counter jumped ahead.
    A counter that cannot be written is a problem too (the next boot may give the same number).
    """
    try:
        journal = journal_mod.Journal(state_dir, NAME, fs, JOURNAL_BYTES)
        last, problem = _last(journal)
    except (OSError, journal_mod.JournalError) as exc:
        journal = None
        last, problem = 0, "boot counter unreadable: %s" % exc
    boot = last + 1
    if problem:
        boot = last + JUMP if last else JUMP
    if boot > _MAX_NUMBER:
        boot = JUMP              # after nine hundred million boots: the host sees a boot going back
    payload = struct.pack(_FORMAT, boot)
    try:
        if journal is None:
            journal = _fresh(state_dir, fs)
        if problem or journal.nearly_full or journal.room < len(payload) + _OVERHEAD:
            # A whole new file from the new number (the damaged or full one is removed after it).
            journal.compact(((_KIND, payload),))
        else:
            journal.append(_KIND, payload)
    except (OSError, journal_mod.JournalError) as exc:
        problem = (problem + "; " if problem else "") + "boot counter %d not saved: %s" % (boot, exc)
    return boot, problem


def _fresh(state_dir, fs):
    """A journal over files that could not be read at all: both are removed first."""
    files = journal_mod.FlashFiles() if fs is None else fs
    for suffix in (".0", ".1"):
        try:
            files.remove(journal_mod.path(state_dir, NAME + suffix))
        except OSError:
            pass
    return journal_mod.Journal(state_dir, NAME, fs, JOURNAL_BYTES)
