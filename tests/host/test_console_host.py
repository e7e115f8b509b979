"""The technician console from outside: fuzzed bytes change nothing without a login, the audit log
survives a power cut at any flash write, and a person's terminal (pyserial) on the simulator's pty."""
import os
import re
import subprocess
import sys
import time

import serial
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware import table_codes as t
from firmware.console.audit import AuditLog
from firmware.console.pins import provision
from hostsim.flash import FlashFS, PowerCut
from tests.firmware.console_rig import PIN, boot_with_pin, console_reports
from tests.firmware.scratch import ScratchDir
from tests.firmware.test_main import _run
from tools import pin as pin_tool

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_WORDS = [b"lamp all", b"lamp tie", b"lights test", b"display test", b"reboot", b"passwd", b"login", b"logout",
          b"status", b"help lamp", b"audit 3", b"selftest", b"123456", b"246811", b"\r", b"\n", b"\x03", b"\x7f",
          b"\x08", b"\x1b[A", b"\x1b", b"\x00", b"\xff", b"set commission B", b"set decks 6", b"commit R-1",
          b"discard", b"settings"]
_INPUT = st.lists(st.one_of(st.sampled_from(_WORDS), st.binary(max_size=24)), max_size=24).map(b"".join)
_UNAUTHORISED = ("login_failed", "lockout", "login_locked")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=_INPUT)
def test_fuzzed_console_bytes_never_raise_and_change_nothing_without_the_pin(data):
    with ScratchDir() as state:
        ctx, machine, _ = boot_with_pin(state)
        colours = list(ctx.table.lights.colours)
        shown = list(ctx.hw.displays["dealer"].lines)
        rules = ctx.config["rules"].as_pairs()
        machine.usb.feed(data + b"\r")
        _run(ctx, 2 + len(data) // 16)
        _run(ctx, 40)                                    # anything it could have started has run
        assert not ctx.console.auth.logged_in
        assert ctx.table.state == t.READY and ctx.table.lights.colours == colours
        assert ctx.hw.displays["dealer"].lines == shown and machine.resets == 0
        assert ctx.config["rules"].as_pairs() == rules and ctx.console.change.pending is None
        assert ctx.console.change.staged == {} and not os.path.exists(os.path.join(state, "settings.pending"))
        assert [e.split()[1] for e in AuditLog(state).last()] == \
            [e.split()[1] for e in AuditLog(state).last() if e.split()[1] in _UNAUTHORISED]
        actions = [r.get("action") for r in console_reports(machine) if r["event"] == "console"]
        assert set(actions) <= set(_UNAUTHORISED), actions


def test_the_audit_log_keeps_every_entry_added_before_a_power_cut_at_any_write():
    entries = ["%d command lamp seat%d" % (n, n) for n in range(90)]     # past a compaction

    def play(flash):
        log = AuditLog(flash.root, fs=flash)
        added = 0
        for n, entry in enumerate(entries):
            try:
                log.add(n, "command", "lamp seat%d" % n)
            except PowerCut:
                return added
            added += 1
        return added

    with FlashFS() as flash:
        play(flash)
        total = flash.writes
    for cut in range(0, total, 3):
        for torn in (False, True):
            with FlashFS(cut_after_writes=cut, torn=torn) as flash:
                added = play(flash)
                got = AuditLog(flash.root, fs=flash.rebooted()).last(64)
                assert got in (entries[:added][-64:], entries[:added + 1][-64:]), (cut, torn)


def test_tools_pin_writes_a_hash_and_refuses_a_bad_pin(tmp_path):
    import io
    err = io.StringIO()
    assert pin_tool.main(["--state-dir", str(tmp_path / "a"), "--stdin"], stdin=io.StringIO("12345a\n"),
                         stderr=err) == 2
    assert err.getvalue() == "pin: a PIN is digits only; nothing written\n" and not (tmp_path / "a").exists()
    answers = iter(["135790", "135791"])
    assert pin_tool.main(["--state-dir", str(tmp_path / "b")], stderr=err, ask=lambda prompt: next(answers)) == 2
    assert pin_tool.main(["--state-dir", str(tmp_path / "c"), "--stdin"], stdin=io.StringIO("135790\n"),
                         stderr=err) == 0
    assert b"135790" not in (tmp_path / "c" / "pins.0").read_bytes()
    from firmware.console.auth import PinStore
    assert PinStore(str(tmp_path / "c")).matches(b"135790")


def test_tools_pin_says_what_went_wrong_in_one_line(tmp_path):
    # Before: tracebacks (FileExistsError, NotADirectoryError; EOFError with no terminal, KeyboardInterrupt).
    import io
    afile = tmp_path / "afile"
    afile.write_text("")
    for state in (afile, afile / "below"):
        err = io.StringIO()
        assert pin_tool.main(["--state-dir", str(state), "--stdin"], stdin=io.StringIO("135790\n"), stderr=err) == 2
        assert err.getvalue().startswith("pin: %s: " % state) and err.getvalue().endswith("; nothing written\n")

    def gone(prompt):
        raise EOFError()

    def interrupted(prompt):
        raise KeyboardInterrupt()
    for ask in (gone, interrupted):
        err = io.StringIO()
        assert pin_tool.main(["--state-dir", str(tmp_path / "d")], stderr=err, ask=ask) == 2
        assert err.getvalue() == "\npin: no PIN typed; nothing written\n" and not (tmp_path / "d").exists()


def _read_until(term, want, timeout=10.0):
    got = b""
    end = time.monotonic() + timeout
    while time.monotonic() < end and want not in got:
        got += term.read(term.in_waiting or 1)
    assert want in got, (want, got)
    return got


def test_a_technician_on_the_simulator_console_pty_with_pyserial(tmp_path):
    provision(str(tmp_path), PIN)
    proc = subprocess.Popen([sys.executable, "-u", "-m", "hostsim", "--no-ui", "--no-demo", "--seconds", "15",
                             "--state-dir", str(tmp_path)], cwd=REPO, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True)
    try:
        path = None
        for line in proc.stdout:
            m = re.match(r"\s+console\s+(/dev/pts/\d+)", line)
            if m:
                path = m.group(1)
            if '"state": "ready"' in line:             # past the boot lamp test
                break
        assert path is not None
        with serial.Serial(path, 115200, timeout=0.2) as term:
            term.write(b"\r")                          # the boot's prompt went out before we attached
            _read_until(term, b"> ")
            term.write(b"versoin\x7f\x7f\x7fion\r")           # a typo erased with Backspace
            assert b"table firmware" in _read_until(term, b"\r\n> ")
            term.write(b"lamp all\r")
            assert b"error: lamp needs a technician login" in _read_until(term, b"\r\n> ")
            term.write(b"login\r")
            _read_until(term, b"PIN: ")
            term.write(PIN.encode() + b"\r")
            got = _read_until(term, b"\r\n# ")
            assert b"******" in got and PIN.encode() not in got
            term.write(b"lamp al\x03")                    # Ctrl-C: the line is cancelled
            assert b"^C" in _read_until(term, b"# ")
            term.write(b"lamp all\r")
            assert b"ok" in _read_until(term, b"\r\n# ")
            term.write(b"lamp off\r\nlogout\r\n")
            _read_until(term, b"logged out\r\n> ")
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, err
    assert '"action": "login"' in out and '"line": "lamp all"' in out and '"lamp": "all"' in out
    assert '"action": "logout"' in out and PIN not in out
    assert [e.split(" ", 1)[1] for e in AuditLog(str(tmp_path)).last()] == [
        "login", "command lamp all", "command lamp off", "logout"]
