# The console's audit log: on flash, append-only for the console, kept across reboots, a bounded ring.
from firmware.console import audit as audit_mod
from firmware.console.audit import AuditLog
from firmware.link.journal import Journal
from tests.firmware.console_rig import boot_with_pin, console_reports, login, typed
from tests.firmware.scratch import ScratchDir
from tests.firmware.test_main import _boot, _run


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
        n = 200
        for i in range(n):
            log.add(i, "command", "lamp seat%d" % i)
        again = AuditLog(state)
        kept = again.last(audit_mod.KEEP)
        assert len(kept) == audit_mod.KEEP and kept[-1] == "%d command lamp seat%d" % (n - 1, n - 1)
        assert again.count >= audit_mod.KEEP and again.problem == ""


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

        ctx.console.log = Broken()
        reply = typed(ctx, machine, "lamp all")
        assert reply[0].startswith("error: audit log not written (") and reply[0].endswith("): refused")
        _run(ctx, 2)
        assert ctx.table.state != 3                        # no lamp check
        assert console_reports(machine)[-1] == {"event": "console_error", "error": "audit_failed", "line": "lamp all"}


def test_a_damaged_audit_log_is_a_selftest_finding_not_a_crash():
    with ScratchDir() as state:
        Journal(state, audit_mod.NAME, max_bytes=audit_mod.MAX_BYTES).append(1, b"1 login")
        with open(state + "/audit.0", "r+b") as f:
            f.seek(20)
            f.write(b"\xff")
        ctx, machine, _ = _boot(state, "baccarat")
        _run(ctx)
        lines = typed(ctx, machine, "selftest")
        assert [line for line in lines if line.startswith("flash: audit log damaged at boot")], lines
        assert lines[-1].startswith("selftest: ") and lines[-1] != "selftest: ok"
