# The unacknowledged fault across a reset, for a table whose journal does not have it
# (firmware/recovery.py: a journal's replay raises it again; this serves the boots without one): kept
# in fault.pending (firmware/saved_state.py) once per change, put back as FAULT_RESTORED at boot.
from firmware import fault_kinds
from firmware.saved_state import load_fault, save_fault as _save

# copies of firmware.events (tests/host/test_const_copies.py)
_FAULT = const(8)
_FAULT_RESTORED = const(11)
# copies of firmware.faults (tests/host/test_const_copies.py)
_FAULT_RECORD_BAD = const(9)
_FAULT_RECORD_UNSAVED = const(10)

_SAVED_UNKNOWN = const(-1)  # the pending-fault record on flash is unreadable: rewrite it at once


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


def save_fault(ctx):
    """Keep the unacknowledged fault on flash (cleared by the acknowledgement), once per change."""
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
    if not _save(ctx.state_dir, code, detail, ctx.fs) and code != _FAULT_RECORD_UNSAVED:
        ctx.queue.put(_FAULT, _FAULT_RECORD_UNSAVED, code)
