# The console's audit log: on flash, append-only for the console, kept across reboots, a bounded ring.
from firmware.console import audit as audit_mod
from firmware.console.audit import AuditLog
from firmware.link.journal import Journal
from tests.firmware.console_rig import boot_with_pin, console_reports, login, typed
from tests.firmware.fakes import ReadsFailFS
from tests.firmware.scratch import ScratchDir
from tests.firmware.test_main import _boot, _host, _run


def test_entries_are_kept_in_order_and_survive_a_new_boot():
    with ScratchDir() as state:
        log = AuditLog(state)
        log.add(5, "login")
        log.add(7, "command", "lamp all")
        log.add(9, "login_failed", "2")
        assert AuditLog(state).last() == ["5 login", "7 command lamp all", "9 login_failed 2"]
        assert AuditLog(state).last(2) == ["7 command lamp all", "9 login_failed 2"]


def test_the_ring_keeps_the_last_entries_when_the_file_is_full():
    with ScratchDir() as state:
        log = AuditLog(state)
        n = 400                                      # ~100 bytes each: the 16 KB fill, and compact, several times
        pad = "x" * 80
        for i in range(n):
            log.add(i, "command", "lamp seat%d %s" % (i, pad))
        again = AuditLog(state)
        kept = again.last(audit_mod.KEEP)
        assert kept == ["%d command lamp seat%d %s" % (i, i, pad) for i in range(n - audit_mod.KEEP, n)]
        assert audit_mod.KEEP <= again.count < n and again.problem == ""


def test_a_long_detail_is_cut_to_the_entry_size():
    with ScratchDir() as state:
        log = AuditLog(state)
        log.add(1, "command", "x" * 500)
        assert len(log.last()[0]) == audit_mod.ENTRY_MAX


def test_console_actions_reach_the_audit_log_and_the_host_in_the_same_order():
    with ScratchDir() as state:
        ctx, machine, _ = boot_with_pin(state)
        typed(ctx, machine, "login")
        typed(ctx, machine, "111111")
        login(ctx, machine)
        typed(ctx, machine, "lamp all")
        typed(ctx, machine, "lamp off")
        typed(ctx, machine, "logout")
        words = [e.split(" ", 1)[1] for e in AuditLog(state).last()]
        assert words == ["login_failed 1", "login", "command lamp all", "command lamp off", "logout"]
        reports = [(r["action"], r.get("line", r.get("failures"))) for r in console_reports(machine)]
        assert reports == [("login_failed", 1), ("login", None), ("command", "lamp all"), ("command", "lamp off"),
                           ("logout", None)]


def test_no_command_edits_the_audit_log_and_audit_shows_the_last_entries():
    with ScratchDir() as state:
        ctx, machine, _ = boot_with_pin(state)
        login(ctx, machine)
        for line in ("audit", "audit 1"):
            typed(ctx, machine, line)
        assert typed(ctx, machine, "audit 1")[0].endswith(" login")
        assert typed(ctx, machine, "audit 0")[0].startswith("error: usage: audit [N]")
        from firmware.console.commands import TABLE
        assert not [name for name in TABLE if "audit" in name and TABLE[name].login]   # read only
        assert ctx.console.log.count == 1


def test_an_audit_log_that_cannot_be_written_refuses_the_change():
    with ScratchDir() as state:
        ctx, machine, _ = boot_with_pin(state)
        login(ctx, machine)

        class Broken:
            count = 0

            def add(self, *args):
                raise OSError(28)                          # ENOSPC

        ctx.console.wake().log = Broken()
        reply = typed(ctx, machine, "lamp all")
        assert reply[0].startswith("error: audit log not written (") and reply[0].endswith("): refused")
        _run(ctx, 2)
        assert ctx.table.state != 3                        # no lamp check
        assert console_reports(machine)[-1] == {"event": "console_error", "error": "audit_failed", "line": "lamp all"}


def _damage(path, at):
    """The byte at `at` inverted: damage whatever it held (the PIN record's salt is random: writing 0xff
    left a record whose byte was 0xff already whole, one boot in 256, and the test failed)."""
    with open(path, "r+b") as f:
        f.seek(at)
        byte = f.read(1)[0]
        f.seek(at)
        f.write(bytes((byte ^ 0xFF,)))

def test_a_damaged_audit_log_is_a_selftest_finding_not_a_crash():
    with ScratchDir() as state:
        Journal(state, audit_mod.NAME, max_bytes=audit_mod.MAX_BYTES).append(1, b"1 login")
        _damage(state + "/audit.0", 20)
        ctx, machine, _ = _boot(state, "baccarat")
        _run(ctx)
        lines = typed(ctx, machine, "selftest")
        assert [line for line in lines if line.startswith("flash: audit log damaged at boot")], lines
        assert lines[-1].startswith("selftest: ") and lines[-1] != "selftest: ok"


def test_the_audit_log_or_pin_record_damaged_at_boot_is_reported_to_the_host():
    # The audit log is the record of every technician action: one found damaged at boot (its entries from
    # the damage on set aside) was shown only by the console's selftest, never reported, unlike recall's
    # recall_damaged. Likewise a damaged PIN record, which refuses every login.
    with ScratchDir() as state:
        ctx, machine, _ = _boot(state, "baccarat")       # a new table: no PIN, no audit log: nothing to report
        _run(ctx)
        assert [r for r in _host(machine) if r.get("fault") == "console_damaged"] == []
    with ScratchDir() as state:
        Journal(state, audit_mod.NAME, max_bytes=audit_mod.MAX_BYTES).append(1, b"1 login")
        _damage(state + "/audit.0", 20)
        boot_with_pin(state)                              # provisions the PIN, boots once
        _damage(state + "/pins.0", 20)
        ctx, machine, _ = _boot(state, "baccarat")
        _run(ctx)
        texts = [r["text"] for r in _host(machine) if r.get("fault") == "console_damaged"]
        assert len(texts) == 2, texts
        assert texts[0].startswith("audit log damaged at boot: ") and texts[1].startswith("PIN record damaged ("), texts
        assert [r["event"] for r in _host(machine)][:1] == ["boot"]


def test_a_torn_last_entry_is_no_damage():
    # A power cut during an entry's write leaves it torn: the action it was written for never ran (the
    # entry comes first). selftest called that "audit log damaged at boot", and the host would hear it.
    with ScratchDir() as state:
        log = AuditLog(state)
        log.add(1, "login")
        log.add(2, "command", "lamp all")
        with open(state + "/audit.0", "rb") as f:
            data = f.read()
        with open(state + "/audit.0", "wb") as f:
            f.write(data[:-5])                            # the last entry cut short
        again = AuditLog(state)
        assert again.last() == ["1 login"] and again.problem == ""
        ctx, machine, _ = _boot(state, "baccarat")
        _run(ctx)
        assert [r for r in _host(machine) if r.get("fault") == "console_damaged"] == []
        assert not [line for line in typed(ctx, machine, "selftest") if line.startswith("flash: audit")]



def test_an_audit_log_that_cannot_be_read_at_boot_refuses_logins_and_is_reported():
    # The audit log is the record of every technician action: with its file unreadable, no action can be
    # audited, so none is taken (a login is refused, as any action whose entry cannot be written), the
    # host hears why (console_damaged) and the table plays on. Neither path was tested (stop 66).
    with ScratchDir() as state:
        boot_with_pin(state)
        ctx, machine, _ = boot_with_pin(state)            # one login audited: the log has a file
        login(ctx, machine)
        fs = ReadsFailFS("/audit.")
        ctx, machine, _ = _boot(state, "baccarat", fs=fs)
        _run(ctx)
        assert fs.opens >= 1 and ctx.console.log is None
        texts = [r["text"] for r in _host(machine) if r.get("fault") == "console_damaged"]
        assert len(texts) == 1 and texts[0] == "audit log unavailable (%s)" % OSError(5), texts
        assert typed(ctx, machine, "login") == []
        reply = typed(ctx, machine, "246810")
        assert reply[0].startswith("error: audit log not written (no audit log): refused"), reply
        assert typed(ctx, machine, "lamp all")[0].startswith("error: lamp needs a technician login"), "not logged in"
        assert typed(ctx, machine, "audit") == ["audit log unavailable (%s)" % OSError(5)]
        assert "flash: audit log unavailable (%s)" % OSError(5) in typed(ctx, machine, "selftest")


def test_an_audit_log_whose_entries_cannot_be_read_back_is_reported_and_still_written():
    # The files open at boot (surveyed) but the entries' read fails (an I/O error on the second read):
    # the log is kept for appending, its problem reported to the host and listed by selftest.
    with ScratchDir() as state:
        ctx, machine, _ = boot_with_pin(state)
        login(ctx, machine)
        fs = ReadsFailFS("/audit.", fail_from=1)
        ctx, machine, _ = _boot(state, "baccarat", fs=fs)
        _run(ctx)
        texts = [r["text"] for r in _host(machine) if r.get("fault") == "console_damaged"]
        assert len(texts) == 1 and texts[0].startswith("audit log unreadable ("), texts
        assert ctx.console.log is not None
        fs.opens, fs.fail_from = 0, 2            # the files surveyed, the entries counted, the login's read fails
        ctx, machine, _ = _boot(state, "baccarat", fs=fs)
        _run(ctx)
        texts = [r["text"] for r in _host(machine) if r.get("fault") == "console_damaged"]
        assert fs.opens == 3 and len(texts) == 1 and texts[0] == "audit log unreadable (%s)" % OSError(5), texts
        login(ctx, machine)                               # its entry appended: the log is still written
        # `audit` reads the entries back: the read failing was an exception out of the command, which
        # crashed the main loop and reset the table (anyone at the console could, no login needed)
        assert typed(ctx, machine, "audit") == ["audit log unreadable (%s)" % OSError(5)]
        assert [line for line in typed(ctx, machine, "selftest") if line.startswith("flash: audit log unreadable")]


def test_a_pin_record_that_cannot_be_read_at_boot_refuses_logins_and_is_reported():
    with ScratchDir() as state:
        boot_with_pin(state)
        fs = ReadsFailFS("/pins.")
        ctx, machine, _ = _boot(state, "baccarat", fs=fs)
        _run(ctx)
        assert fs.opens == 1 and ctx.console.pins is None
        texts = [r["text"] for r in _host(machine) if r.get("fault") == "console_damaged"]
        assert texts == ["PIN record unavailable (%s)" % OSError(5)], texts
        lines = typed(ctx, machine, "selftest")
        assert "technician PIN: unavailable" in lines and "flash: PIN record unavailable (%s)" % OSError(5) in lines
        assert typed(ctx, machine, "login") == ['error: login refused: PIN record unavailable (docs/console.md, "PIN")']

