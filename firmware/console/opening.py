# The console's boot (boot-only: firmware/parts.py, BOOT_ONLY): its flash records opened, the login's counts
# read back, what was found damaged reported. Later wakes of the console (parts.ConsoleState) make the shell
# from what it kept of these instead of reading them again.
from firmware.console.audit import AuditLog
from firmware.console.auth import NO_PIN_TEXT, Auth, PinStore
from firmware.link.journal import JournalError

# copies of firmware.link.record (tests/host/test_const_copies.py)
_TORN = const(1)


def read(con):
    """The audit log and the PIN record opened (a test's fake fs without open() means the board's own),
    the login's counts read back from the log: a lockout running at the reset runs again (auth.py)."""
    ctx = con.ctx
    fs = ctx.fs if hasattr(ctx.fs, "open") else None
    con.log = _open(con, AuditLog, "audit log", ctx.state_dir, fs)
    con.pins = _open(con, PinStore, "PIN record", ctx.state_dir, fs)
    if con.log is not None and con.log.problem:
        con.problems.append(con.log.problem)
    con.auth = Auth(con.pins)
    if con.log is not None:
        try:
            con.auth.restore(con.log.last())
        except (JournalError, OSError, UnicodeError) as exc:
            con.problems.append("audit log unreadable (%s)" % exc)


def _open(con, cls, what, state_dir, fs):
    try:
        return cls(state_dir, fs)
    except (OSError, JournalError, ValueError) as exc:
        con.problems.append("%s unavailable (%s)" % (what, exc))
        return None


def report_boot(con, reporter):
    """At boot, the console's records found damaged or unreadable on flash are fault reports, as recall's
    are (the table plays on; selftest lists them): the audit log (entries set aside) and the PIN record
    (no login until a PIN is provisioned again). A PIN never provisioned is no damage."""
    problems = list(con.problems)
    pins = con.pins
    if pins is not None and pins.problem not in ("", NO_PIN_TEXT) and pins.journal.status != _TORN:
        problems.append(pins.problem)       # (torn: a provisioning cut short, never a PIN: none yet)
    for problem in problems:
        reporter.emit("fault", {"fault": "console_damaged", "text": problem[:160]})
