# What survives a reset, in the state dir: the crash log and the unacknowledged fault.
#
# rename/remove/stat come from `fs` (the os module by default): behaviour
# differs between filesystems (MicroPython's littlefs/FAT rename may refuse to
# replace an existing file), and the tests pass a fake that does.
# Files are opened through fs too (fs.open; the builtin open for the os module), so
# the simulated flash (hostsim/flash.py) can cut the power during any write. Each
# record is one small file, and a record that cannot be read is itself a fault,
# never a crash; the table's own state is in the table journal (firmware/recovery.py).
import os

from firmware.compat import format_exception

CRASH_LOG = "crash.log"
CRASH_PREVIOUS = "crash.prev"
_CRASH_LOG_MAX = const(2048)
PENDING_FAULT = "fault.pending"   # "CODE DETAIL\n" while a fault waits for the dealer's CONFIRM

_RECORD_MAX = const(32)           # longest pending-fault record we write, with room to spare
_CODE_MAX = const(255)


def path(state_dir, name):
    return name if not state_dir else state_dir + "/" + name


class FlashFiles:
    """The board's own filesystem as the journal reaches it (firmware/link/journal.py): the builtin open,
    os for the rest (called as they are: no Python call of its own around each, as every journal write of
    a pass opens a file)."""

    open = staticmethod(open)
    remove = staticmethod(os.remove)
    rename = staticmethod(os.rename)
    stat = staticmethod(os.stat)


def _open(fs):
    """The open that reaches the state dir: the builtin one for the board's own files (fs None or os),
    else fs.open (hostsim.flash.FlashFS: every write counted, a power cut at any one)."""
    return open if fs is None or fs is os else fs.open


def _missing(name, fs):
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
    opener = _open(fs)
    try:
        try:
            with opener(path(state_dir, CRASH_LOG)) as f:
                old = f.read()
        except (OSError, ValueError):   # none yet, or unreadable: start afresh
            old = ""
        if note:
            note += "\n"
            text = note + text[-(_CRASH_LOG_MAX - len(note)):]
        text = (old + text)[-_CRASH_LOG_MAX:]
        with opener(path(state_dir, CRASH_LOG), "w") as f:
            f.write(text)
    except OSError:
        pass                      # a full or read-only filesystem must not stop the reset
    return text


def take_crash_record(state_dir, fs=os):
    """The crash log's text, taken out of crash.log so no later boot reports it again; "" if none.

    The record moves to crash.prev. Where rename does not replace an existing
    file, crash.prev is removed first; if the log still cannot be moved it is
    copied and removed, or emptied. A log that cannot be taken out of the way
    at all is not reported: reporting it would fault the table on every boot.
    """
    log = path(state_dir, CRASH_LOG)
    try:
        with _open(fs)(log, "rb") as f:
            data = f.read()
    except OSError:
        return ""
    try:
        text = data.decode()
    except UnicodeError:
        text = "crash.log unreadable (%d bytes, not text)\n" % len(data)
    if not _take_out(log, path(state_dir, CRASH_PREVIOUS), data, fs):
        return ""
    return text if text.strip() else ""


def _take_out(log, previous, data, fs):
    try:
        fs.remove(previous)
    except OSError:
        pass                      # none yet
    try:
        fs.rename(log, previous)
        return True
    except OSError:
        pass
    try:
        with _open(fs)(previous, "wb") as f:
            f.write(data)
    except OSError:
        pass                      # the copy is a courtesy; removing the log is what counts
    try:
        fs.remove(log)
        return True
    except OSError:
        pass
    try:
        with _open(fs)(log, "w"):
            return True           # an empty log reports nothing
    except OSError:
        return False


# -- the unacknowledged fault --------------------------------------------------------
def load_fault(state_dir, fs=os):
    """(code, detail) of the fault saved before the reset; (0, 0) if none.

    ValueError if the record cannot be read or is torn (no end of line, not two
    numbers, a code out of range): the caller raises that as a fault of its own.
    """
    name = path(state_dir, PENDING_FAULT)
    try:
        with _open(fs)(name, "rb") as f:
            data = f.read(_RECORD_MAX + 1)
    except OSError as exc:
        if _missing(name, fs):
            return 0, 0
        raise ValueError("pending fault record unreadable: %s" % exc)
    if len(data) > _RECORD_MAX or not data.endswith(b"\n"):
        raise ValueError("pending fault record torn or too long (%d bytes)" % len(data))
    words = data.split()
    if len(words) != 2:
        raise ValueError("pending fault record is not CODE DETAIL")
    code = int(words[0].decode())         # UnicodeError and bad numbers are ValueErrors too
    detail = int(words[1].decode())
    if not 0 < code <= _CODE_MAX:
        raise ValueError("pending fault code %d out of range" % code)
    return code, detail


def save_fault(state_dir, code, detail, fs=os):
    """Save the unacknowledged fault (code 0: none, the record is removed); False if it could not be."""
    name = path(state_dir, PENDING_FAULT)
    try:
        if code == 0:
            try:
                fs.remove(name)
            except OSError:
                if not _missing(name, fs):
                    raise
        else:
            with _open(fs)(name, "w") as f:
                f.write("%d %d\n" % (code, detail))
    except OSError:
        return False
    return True
