# The unacknowledged fault across a reset, for a table whose journal does not have it
# (firmware/recovery.py: a journal's replay raises it again; this serves the boots without one): kept
# in fault.pending (firmware/saved_state.py) once per change, put back as FAULT_RESTORED at boot
# (firmware/saved_state_read.py, boot-only).
from firmware import faults
from firmware.compat import const
from firmware.saved_state import save_fault as _save

# copies of firmware.events (tests/host/test_const_copies.py)
_FAULT = const(8)


def save_fault(ctx):
    """Keep the unacknowledged fault on flash (cleared by the acknowledgement), once per change."""
    table = ctx.table
    if table.closed_code:
        return                    # found again at every boot (firmware.program): never kept on flash
    code = table.fault_code
    # An evidence handle means nothing after a reset (the bytes stay in RAM): saved as 0.
    detail = 0 if faults.has_evidence(code) else table.fault_detail
    if code == ctx.saved_fault_code and detail == ctx.saved_fault_detail:
        return
    ctx.saved_fault_code = code
    ctx.saved_fault_detail = detail
    if not _save(ctx.state_dir, code, detail, ctx.fs) and code != faults.FAULT_RECORD_UNSAVED:
        ctx.queue.put(_FAULT, faults.FAULT_RECORD_UNSAVED, code)
