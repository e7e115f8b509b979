"""A settings change survives a reset: the next boot runs the new table file and resumes the table journal
(its snapshot taken under the new settings at the change), and the simulator keeps the board's copy of the
table file unless another file is deployed (issues 12, 13)."""
import io
import json
import os
import shutil

from hostsim.flash import TABLE_ON_FLASH, table_on_flash
from tools import pin as pin_tool
from tools.replay import main as replay_main

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPTS = os.path.join(ROOT, "tests", "host", "replay_scripts")
CRAPS = os.path.join(ROOT, "boards", "tables", "sim-craps.json")


def _replay(state, path):
    out, err = io.StringIO(), io.StringIO()
    assert replay_main(["--table", CRAPS, "--state-dir", state, path], stdin=io.BytesIO(), stdout=out,
                       stderr=err) == 0, err.getvalue()
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_a_changed_setting_is_still_in_force_after_a_reset_and_the_table_resumes(tmp_path, monkeypatch):
    state = str(tmp_path / "flash")
    os.makedirs(state)
    with open(os.path.join(SCRIPTS, "craps_settings.pin")) as f:
        monkeypatch.setattr("sys.stdin", io.StringIO(f.read()))
    assert pin_tool.main(["--state-dir", state, "--stdin"]) == 0
    first = _replay(state, os.path.join(SCRIPTS, "craps_settings.in.jsonl"))
    changed = next(r for r in first if r.get("event") == "settings_changed")
    script = tmp_path / "again.jsonl"
    # The reset came with the dice in play (come_out): recovery holds the table (reset_in_round: a throw may
    # have come while the board was off) until the dealer vouches with CONFIRM; nothing else is wrong.
    script.write_text('{"button": "confirm"}\n{"bets": {"1": {"field": 10}}}\n{"dice": [6, 6]}\n')
    again = _replay(state, str(script))
    boot = next(r for r in again if r.get("event") == "boot")
    recovered = next(r for r in again if r.get("event") == "recovered")
    assert boot["settings"] == changed["settings"]            # the new table file, not the one given
    assert recovered["resumed"] is True and "error" not in recovered and recovered["state"] == "come_out"
    assert [r["fault"] for r in again if r.get("event") == "fault"] == ["reset_in_round"], again
    assert [(r["fault"], r["by"]) for r in again if r.get("event") == "fault_ack"] == [("reset_in_round", "confirm")]
    throw = [r for r in again if r.get("event") == "throw"]
    assert throw[-1]["dice"] == [6, 6] and throw[-1]["nets"] == {"1": {"field": 30}}   # Field 12 at 3:1 still


def test_the_simulator_keeps_its_copy_until_another_file_is_deployed(tmp_path):
    state = str(tmp_path)
    given = tmp_path / "given.json"
    shutil.copyfile(CRAPS, given)
    target = table_on_flash(str(given), state)
    assert target == os.path.join(state, TABLE_ON_FLASH)
    with open(target, "w") as f:
        f.write(given.read_text().replace('"field_12": 2', '"field_12": 3'))   # the console's change
    changed = open(target).read()
    table_on_flash(str(given), state)                        # the same file booted again: kept
    assert open(target).read() == changed
    given.write_text(given.read_text().replace('"minimum": 5', '"minimum": 10'))
    table_on_flash(str(given), state)                        # another file deployed: copied
    assert open(target).read() == given.read_text()
