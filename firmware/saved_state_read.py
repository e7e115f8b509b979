# What survives a reset, read back at boot (firmware/boot_steps.py; boot-only, parts.BOOT_ONLY): the reset's
# cause (the boot report's, a refusal's), the crash log taken out of the way and reported once, the
# unacknowledged fault put back. The writing side, which a running table uses, is firmware/saved_state.py (the
# files' names and formats, and keep_fault).
import os

from firmware.saved_state import CRASH_LOG, CRASH_PREVIOUS, PENDING_FAULT, missing, opener, path

# copies of firmware.faults (tests/host/test_const_copies.py)
_FAULT_RECORD_BAD = const(9)
# copies of firmware.events (tests/host/test_const_copies.py)
_FAULT = const(8)
_FAULT_RESTORED = const(11)

_SAVED_UNKNOWN = const(-1)        # ctx.saved_fault_code: the record on flash is unreadable, rewritten at once

_RECORD_MAX = const(32)           # the longest pending-fault record saved_state.py writes, with room to spare
_CODE_MAX = const(255)

# -- the reset's cause --------------------------------------------------------------
_RESET_CAUSES = ("PWRON_RESET", "HARD_RESET", "WDT_RESET", "DEEPSLEEP_RESET", "SOFT_RESET")


def reset_cause_name(machine):
    """machine.reset_cause() as its name (PWRON_RESET...); "reset_N" for a number no name has."""
    if not hasattr(machine, "reset_cause"):
        return "unknown"
    cause = machine.reset_cause()
    for name in _RESET_CAUSES:
        if getattr(machine, name, None) == cause:
            return name
    return "reset_%d" % cause


# -- crash log -------------------------------------------------------------------
def take_crash_record(state_dir, fs=os):
    """The crash log's text, taken out of crash.log so no later boot reports it again; "" if none.

    The record moves to crash.prev. Where rename does not replace an existing
    file, crash.prev is removed first; if the log still cannot be moved it is
    copied and removed, or emptied. A log that cannot be taken out of the way
    at all is not reported: reporting it would fault the table on every boot.
    """
    log = path(state_dir, CRASH_LOG)
    try:
        with opener(fs)(log, "rb") as f:
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
        with opener(fs)(previous, "wb") as f:
            f.write(data)
    except OSError:
        pass                      # the copy is a courtesy; removing the log is what counts
    try:
        fs.remove(log)
        return True
    except OSError:
        pass
    try:
        with opener(fs)(log, "w"):
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
        with opener(fs)(name, "rb") as f:
            data = f.read(_RECORD_MAX + 1)
    except OSError as exc:
        if missing(name, fs):
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


def restore_fault(ctx):
    """A fault nobody acknowledged before the reset puts the table straight back into FAULT."""
    try:
        code, detail = load_fault(ctx.state_dir, ctx.fs)
    except ValueError:
        ctx.saved_fault_code = _SAVED_UNKNOWN
        ctx.queue.put(_FAULT, _FAULT_RECORD_BAD, 0)
        return
    ctx.saved_fault_code = code
    ctx.saved_fault_detail = detail
    if code:
        ctx.queue.put(_FAULT_RESTORED, code, detail)
