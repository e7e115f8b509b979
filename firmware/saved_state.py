# What survives a reset, in the state dir: the crash log and the unacknowledged fault.
#
# rename/remove/stat come from `fs` (the os module by default): behaviour
# differs between filesystems (MicroPython's littlefs/FAT rename may refuse to
# replace an existing file), and the tests pass a fake that does.
# Files are opened through fs too (fs.open; the builtin open for the os module), so
# the simulated flash (hostsim/flash.py) can cut the power during any write. Each
# record is one small file, and a record that cannot be read is itself a fault,
# never a crash; the table's own state is in the table journal (firmware/recovery.py). Read back at boot
# by firmware/saved_state_read.py (boot-only).
import os

from firmware import fault_kinds
from firmware.compat import format_exception

# copies of firmware.faults (tests/host/test_const_copies.py)
_FAULT_RECORD_UNSAVED = const(10)
# copies of firmware.events (tests/host/test_const_copies.py)
_FAULT = const(8)

CRASH_LOG = "crash.log"
CRASH_PREVIOUS = "crash.prev"
_CRASH_LOG_MAX = const(2048)
PENDING_FAULT = "fault.pending"   # "CODE DETAIL\n" while a fault waits for the dealer's CONFIRM


def path(state_dir, name):
    return name if not state_dir else state_dir + "/" + name


class FlashFiles:
    """The board's own filesystem as the journal reaches it (firmware/link/journal.py): the builtin open,
    os for the rest (called as they are: no Python call of its own around each, as a journal's append opens
    its file but the table journal's, kept open)."""

    open = staticmethod(open)
    remove = staticmethod(os.remove)
    rename = staticmethod(os.rename)
    stat = staticmethod(os.stat)


def opener(fs):
    """The open that reaches the state dir: the builtin one for the board's own files (fs None or os),
    else fs.open (hostsim.flash.FlashFS: every write counted, a power cut at any one)."""
    return open if fs is None or fs is os else fs.open


def missing(name, fs):
    # Asked of the filesystem, not read from errno: ports number errors differently.
    try:
        fs.stat(name)
        return False
    except OSError:
        return True


# -- crash log -------------------------------------------------------------------
def record_crash(exc, state_dir="", fs=None, note=""):
    """Append the traceback to crash.log (bounded), for the next boot to report.

    note: a line put before the traceback (firmware/recovery.py's crash_note()); kept when the log is
    cut to its bound, which takes the oldest text first."""
    text = format_exception(exc)
    open_file = opener(fs)
    try:
        try:
            with open_file(path(state_dir, CRASH_LOG)) as f:
                old = f.read()
        except (OSError, ValueError):   # none yet, or unreadable: start afresh
            old = ""
        if note:
            note += "\n"
            text = note + text[-(_CRASH_LOG_MAX - len(note)):]
        text = (old + text)[-_CRASH_LOG_MAX:]
        with open_file(path(state_dir, CRASH_LOG), "w") as f:
            f.write(text)
    except OSError:
        pass                      # a full or read-only filesystem must not stop the reset
    return text


# -- the unacknowledged fault --------------------------------------------------------
def save_fault(state_dir, code, detail, fs=os):
    """Save the unacknowledged fault (code 0: none, the record is removed); False if it could not be."""
    name = path(state_dir, PENDING_FAULT)
    try:
        if code == 0:
            try:
                fs.remove(name)
            except OSError:
                if not missing(name, fs):
                    raise
        else:
            with opener(fs)(name, "w") as f:
                f.write("%d %d\n" % (code, detail))
    except OSError:
        return False
    return True


def keep_fault(ctx):
    """Keep the table's unacknowledged fault on flash (cleared by the acknowledgement), once per change
    (firmware/main.py, before its reports go out); for a table whose journal does not have it (a journal's
    replay raises it again), put back as FAULT_RESTORED at boot (firmware/saved_state_read.py)."""
    table = ctx.table
    if table.closed_code:
        return                    # found again at every boot (firmware.program): never kept on flash
    code = table.fault_code
    # An evidence handle means nothing after a reset (the bytes stay in RAM): saved as 0.
    detail = 0 if fault_kinds.has_evidence(code) else table.fault_detail
    if code == ctx.saved_fault_code and detail == ctx.saved_fault_detail:
        return
    ctx.saved_fault_code = code
    ctx.saved_fault_detail = detail
    if not save_fault(ctx.state_dir, code, detail, ctx.fs) and code != _FAULT_RECORD_UNSAVED:
        ctx.queue.put(_FAULT, _FAULT_RECORD_UNSAVED, code)
