"""Settings changed at the console from outside: pyserial on the simulator's pty, a technician typing in a
terminal in tmux, and power cuts at every flash write of the change (Baccarat art. 18)."""
import json
import os
import re
import shutil
import subprocess
import sys
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
import serial

from firmware.console.audit import AuditLog
from firmware.console.pins import provision
from firmware.host_port import settings_digest
from tests.firmware.console_rig import PIN
from tests.host.test_console_host import _read_until

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SIM_TABLE = os.path.join(REPO, "boards", "tables", "sim-%s.json")


def _sim(state, game, seconds):
    return subprocess.Popen([sys.executable, "-u", "-m", "hostsim", "--game", game, "--no-ui", "--no-demo",
                             "--seconds", str(seconds), "--state-dir", str(state)], cwd=REPO,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True)


def _reports(out):
    return [json.loads(line.split(" ", 1)[1]) for line in out.splitlines() if line.startswith("host: {")]


def _file(path):
    with open(path) as f:
        return json.load(f)


def test_a_craps_payout_option_changed_over_the_pty_with_pyserial_and_after_a_reboot(tmp_path):
    provision(str(tmp_path), PIN)
    before = _file(SIM_TABLE % "craps")
    proc = _sim(tmp_path, "craps", 20)
    try:
        path = None
        early = ""
        for line in proc.stdout:
            early += line
            m = re.match(r"\s+console\s+(/dev/pts/\d+)", line)
            if m:
                path = m.group(1)
            if '"state": "ready"' in line:
                break
        assert path is not None
        with serial.Serial(path, 115200, timeout=0.2) as term:
            term.write(b"\r")
            _read_until(term, b"> ")
            term.write(b"set field_12 3\r")
            assert b"error: set needs a technician login" in _read_until(term, b"\r\n> ")
            term.write(b"login\r")
            _read_until(term, b"PIN: ")
            term.write(PIN.encode() + b"\r")
            _read_until(term, b"\r\n# ")
            term.write(b"set field_12 4\r")                  # Craps art. 6(12): 2:1 or 3:1 only
            assert b"error: field_12 must be 2 or 3" in _read_until(term, b"\r\n# ")
            term.write(b"set field_12 3\r")
            assert b"staged field_12 2 -> 3" in _read_until(term, b"\r\n# ")
            term.write(b"commit FLD/2026.3\r")
            got = _read_until(term, b"ref FLD/2026.3)\r\n# ")   # the first shooter's come-out: at once
            assert b"committed (ref FLD/2026.3): field_12 3; applied at the next new shooter" in got
            assert b"settings changed (" in got
            term.write(b"reboot\r")
            _read_until(term, b"> ")                          # the board came back
            term.write(b"settings\r")
            assert re.search(rb"field_12 +3\r\n", _read_until(term, b"\r\n> "))
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, err
    reports = _reports(early + out)
    changed = [r for r in reports if r["event"] == "settings_changed"]
    boots = [r for r in reports if r["event"] == "boot"]
    assert len(changed) == 1 and changed[0]["ref"] == "FLD/2026.3" and changed[0]["changes"] == {"field_12": [2, 3]}
    assert len(boots) == 2 and boots[1]["settings"] == changed[0]["settings"] != boots[0]["settings"]
    flash_file = _file(str(tmp_path / "table.json"))
    assert flash_file["settings"]["field_12"] == 3 and settings_digest(flash_file) == changed[0]["settings"]
    assert _file(SIM_TABLE % "craps") == before                 # the repo's table file is never written
    assert [e.split(" ", 1)[1] for e in AuditLog(str(tmp_path)).last()][:4] == [
        "login", "command commit FLD/2026.3", "settings field_12 2 -> 3 ref FLD/2026.3",
        "settings_applied %s ref FLD/2026.3" % changed[0]["settings"]]


class _Tmux:
    """A tmux server of our own (its own socket), so nothing else's sessions are touched."""

    def __init__(self, tmp_path):
        self.socket = str(tmp_path / "tmux.sock")

    def __call__(self, *args, check=True):
        return subprocess.run(["tmux", "-S", self.socket] + list(args), capture_output=True, text=True,
                              check=check).stdout

    def screen(self, target):
        return self("capture-pane", "-p", "-J", "-S", "-200", "-t", target)

    def wait_for(self, target, text, timeout=30.0):
        end = time.monotonic() + timeout
        shown = ""
        while time.monotonic() < end:
            shown = self.screen(target)
            if text in shown:
                return shown
            time.sleep(0.1)
        raise AssertionError("%r never shown in %s:\n%s" % (text, target, shown))

    def type(self, target, line):
        self("send-keys", "-t", target, "-l", line)
        self("send-keys", "-t", target, "Enter")


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_a_technician_types_a_change_in_a_terminal_in_tmux(tmp_path):
    """As a person would: the simulator in one tmux window, a serial terminal (pyserial's miniterm, as
    picocom would be) on its console pty in another; keys typed, the screen read back."""
    provision(str(tmp_path), PIN)
    before = _file(SIM_TABLE % "baccarat")
    tmux = _Tmux(tmp_path)
    sim = "cd %s && %s -u -m hostsim --no-ui --no-demo --seconds 300 --state-dir %s" % (
        REPO, sys.executable, tmp_path)
    tmux("new-session", "-d", "-s", "table", "-x", "200", "-y", "50", sim)
    try:
        shown = tmux.wait_for("table:0", '"state": "ready"')
        path = re.search(r"console\s+(/dev/pts/\d+)", shown).group(1)
        tmux("new-window", "-t", "table", "-n", "term",
             "%s -m serial.tools.miniterm --eol CR --raw %s 115200" % (sys.executable, path))
        tmux.wait_for("table:term", "Quit: Ctrl+]")
        tmux.type("table:term", "")                         # the prompt went out before the terminal opened
        tmux.wait_for("table:term", "> ")
        tmux.type("table:term", "set commission B")
        tmux.wait_for("table:term", "error: set needs a technician login (type login)")
        tmux.type("table:term", "login")
        tmux.wait_for("table:term", "PIN: ")
        tmux.type("table:term", PIN)
        tmux.wait_for("table:term", "logged in (idle logout after 5 min)")
        tmux.type("table:term", "set decks 13")
        tmux.wait_for("table:term", "expected one of 6, 7, 8, 9, 10, 11, 12 (Baccarat art. 1)")
        tmux.type("table:term", "set commission B")
        tmux.wait_for("table:term", "staged commission A -> B (commit REF to apply at the next new shoe)")
        tmux.type("table:term", "commit CAB-2026-17")
        shown = tmux.wait_for("table:term", "settings changed (")      # no shoe in play: the boundary
        assert "committed (ref CAB-2026-17): commission B; applied at the next new shoe" in shown
        assert PIN not in shown and "******" in shown
        tmux.type("table:term", "settings")
        shown = tmux.wait_for("table:term", "burn_each_round")
        assert re.search(r"commission +B", shown)
        host = tmux.wait_for("table:0", '"event": "settings_changed"')
        changed = [json.loads(line.split(" ", 1)[1]) for line in host.splitlines()
                   if line.startswith("host: {") and "settings_changed" in line]
        assert changed[0]["ref"] == "CAB-2026-17" and changed[0]["changes"] == {"commission": ["A", "B"]}
        assert settings_digest(_file(str(tmp_path / "table.json"))) == changed[0]["settings"]
    finally:
        tmux("kill-server", check=False)
    assert _file(SIM_TABLE % "baccarat") == before


def _typed(ctx, machine, line, passes=3):
    from tests.firmware.test_main import _run
    machine.usb.feed(line.encode() + b"\r")
    _run(ctx, passes)


def _change_on_flash(root, cut, torn):
    """Boot on the simulated flash (cut at write `cut`), log in, change commission A -> B at a table with no
    shoe in (the boundary: it runs at once). Returns (whether the power was cut, the flash writes done)."""
    from firmware import startup
    from hostsim.flash import FlashFS, PowerCut
    from tests.firmware.fakes import FakeLCD, FakeMachine, FakeNeoPixelModule, FakeUART
    from tests.firmware.test_main import _run

    flash = FlashFS(root, cut_after_writes=cut, torn=torn)
    machine = FakeMachine()
    machine.usb = FakeUART()
    try:
        ctx = startup.boot(machine, FakeNeoPixelModule(), "boards/pico.json", os.path.join(root, "table.json"), root,
                        FakeLCD, machine.usb, fs=flash)
        _run(ctx)
        for line in ("login", PIN, "set commission B", "commit CAB-9"):
            _typed(ctx, machine, line)
        _run(ctx, 5)
    except PowerCut:
        return True, flash.writes, _host_line(machine)
    return False, flash.writes, _host_line(machine)


def _host_line(machine):
    """The host-link frames that boot wrote (the pico's host UART)."""
    return bytes(machine.uarts[1].tx) if 1 in machine.uarts else b""


def test_a_power_cut_at_any_flash_write_of_a_change_leaves_old_or_new_settings_never_a_broken_table(tmp_path):
    from firmware import startup, table_config
    from hostsim.flash import FlashFS
    from tests.firmware.fakes import FakeLCD, FakeMachine, FakeNeoPixelModule, FakeUART
    from tests.firmware.test_main import _run
    from tools.host import HostClient

    def fresh(root):
        os.makedirs(root)
        provision(root, PIN)
        shutil.copyfile(SIM_TABLE % "baccarat", os.path.join(root, "table.json"))

    fresh(str(tmp_path / "count"))
    cut_short, total, _ = _change_on_flash(str(tmp_path / "count"), None, False)
    assert not cut_short and total > 8            # boot, login, audit entries, pending record, table file
    assert table_config.load(str(tmp_path / "count" / "table.json"))["rules"].commission == "B"
    for cut in range(total):
        for torn in (False, True):
            root = str(tmp_path / ("cut%d%s" % (cut, "t" if torn else "")))
            fresh(root)
            cut_short, _, before = _change_on_flash(root, cut, torn)
            assert cut_short
            machine = FakeMachine()
            machine.usb = FakeUART()
            ctx = startup.boot(machine, FakeNeoPixelModule(), "boards/pico.json", os.path.join(root, "table.json"),
                            root, FakeLCD, machine.usb, fs=FlashFS(root))          # the power comes back
            _run(ctx)
            commission = ctx.config["rules"].commission
            assert commission in ("A", "B"), (cut, torn)
            on_file = table_config.load(os.path.join(root, "table.json"))["rules"].commission
            assert on_file == commission, (cut, torn)
            audit = [e.split(" ", 1)[1] for e in AuditLog(root).last()]
            applied = [e for e in audit if e.startswith("settings_applied ")]
            # A change runs only with its audit entries: the commit's (who typed what, with the approval
            # reference) and the boundary's. A commit the cut stopped before its pending record was whole
            # leaves its entries and no settings_applied: the log tells what was typed, and that it never ran.
            assert (commission == "B") == (len(applied) >= 1), (cut, torn, audit)
            if commission == "B":
                assert "settings commission A -> B ref CAB-9" in audit, (cut, torn, audit)
            left = os.listdir(root)
            assert "settings.pending" not in left and "table.json.new" not in left, (cut, torn, left)
            # The table resumes from its journal whichever side of the rename the cut came (no journal_bad),
            # and the host hears settings_changed if the change ran (a cut between its report reaching
            # flash and the pending record's removal may repeat it after the boot), never if it did not.
            after = HostClient().feed(_host_line(machine))[0]
            assert [r for r in after if r["event"] == "fault"] == [], (cut, torn, after)
            assert False not in [r["resumed"] for r in after if r["event"] == "recovered"], (cut, torn, after)
            heard = [r for r in HostClient().feed(before + _host_line(machine))[0]
                     if r["event"] == "settings_changed"]
            assert (commission == "B") == (len(heard) >= 1) and len(heard) <= 2, (cut, torn, heard)


_GAMES = ("baccarat", "craps", "omaha")
_VALUE_WORDS = st.sampled_from(["1", "2", "3", "6", "13", "-1", "0", "A", "B", "b", "true", "false", "none",
                                "3,4,5", "hard,big_number", "no_limit", "pot_limit", "standing", "1.5", "",
                                "99999999999999999999", ",", "x,", "decks"])
_KEYS = st.sampled_from(["method", "commission", "tie_option", "decks", "burn", "cut_card", "demo_rounds", "dealer",
                         "burn_each_round", "minimum", "maximum", "field_12", "max_odds", "seats",
                         "off_on_come_out", "take_down", "shooter_change_on_come_out_craps", "max_open_bets",
                         "structure", "small_blind", "big_blind", "rake_percent", "rake_cap_big_blinds", "odd_chip",
                         "heads_up", "tie_payout", "SETTINGS"])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(_GAMES), lines=st.lists(st.tuples(_KEYS, st.one_of(_VALUE_WORDS, st.text(
    alphabet=st.characters(min_codepoint=33, max_codepoint=126), max_size=12))), min_size=1, max_size=6))
def test_fuzzed_set_lines_answer_one_line_and_stage_only_what_the_table_file_would_take(game, lines):
    from firmware.settings_change import proposed, validate
    from tests.firmware.console_rig import boot_with_pin, login, typed
    from tests.firmware.scratch import ScratchDir

    with ScratchDir() as state:
        ctx, machine, _ = boot_with_pin(state, game)
        login(ctx, machine)
        running = ctx.config["rules"].as_pairs()
        for key, value in lines:
            reply = typed(ctx, machine, "set %s %s" % (key, value))
            assert len(reply) == 1 and (reply[0].startswith("staged ") or reply[0].startswith("error: ")
                                        or reply[0].endswith(" already: nothing staged for it")), reply
            validate(ctx.config, proposed(ctx.console))      # what is staged, the table file takes
        assert ctx.config["rules"].as_pairs() == running              # staged only: nothing runs uncommitted
        assert ctx.console.change.pending is None
