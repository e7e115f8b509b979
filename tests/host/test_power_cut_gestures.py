"""A power cut at every flash write of a script with dealer buttons and device lines the table refuses
(hostsim/headless.py, hostsim/flash.py: what the dead board took in but had not journalled is given
again; docs/journal.md, "What the simulator does at a cut").

- tests/host/power_cut_scripts/baccarat_void.in.jsonl: a round held by card_unreadable, voided by a long
  VOID (Baccarat art. 10), then a round played. A cut inside the long press (before its long press was
  posted, or with its press or long press taken and not journalled) used to lose the void: the board
  came back without it, the dealer's next cards closed the alarm as a rescan and the voided round was
  settled. The dealer now makes the gesture again whole (press, hold, release).
- tests/host/power_cut_scripts/craps_refused_lines.in.jsonl: a dice face 7 (Craps art. 1(2):
  dice_bad_face), a frame with a bad checksum, bytes on the shoe port a Craps table does not use
  (unexpected_input), each closed by CONFIRM, and a long DEAL (the shooter stops, art. 4(1)). A refused
  line whose fault was being journalled at the cut used to be lost: the table went on as if the line had
  never come, and threw the next dice unheld.

At every cut (whole; torn at every third write) the host sees the uncut run's results, throws, shooter
changes and device faults, each once, in order; and in the boot that ran to the end every press
reported after its recovery is released. Left aside, as in tests/host/test_power_cut_table.py: each
boot's own reports and the reset_in_round alarm a recovery inside a deal raises (closed by the next card,
or by the repeated VOID, which then names it: one alarm is in force at a time, docs/protocol.md).
"""
import os

import pytest

# The uncut and cut replays on fresh simulated flash, in the test's tmp_path (the autouse fixture, imported
# so that it applies here too), as tests/host/test_power_cut_table.py runs its scripts.
from tests.host.test_power_cut_table import SCRIPTS, TABLES, _flash_in_tmp_path, _run  # noqa: F401

CASES = (
    ("baccarat_void", os.path.join(SCRIPTS, "baccarat_round.table.json"), ("result",), 2),
    ("craps_refused_lines", os.path.join(TABLES, "sim-craps.json"), ("throw", "shooter", "fault"), 7),
)
_ALARM = "reset_in_round"


def _game_view(reports, kinds):
    return [dict((k, v) for k, v in r.items() if k != "seq") for r in reports
            if r["event"] in kinds and r.get("fault") != _ALARM]


def _unreleased(reports):
    """The presses of the last boot, after its recovery, that have no release."""
    last_boot = max(i for i, r in enumerate(reports) if r["event"] == "boot")
    recovered = [i for i, r in enumerate(reports) if r["event"] == "recovered" and i > last_boot]
    down = {}
    for report in reports[recovered[0] + 1 if recovered else last_boot:]:
        if report["event"] == "button" and not report.get("long"):
            if report["pressed"]:
                down[report["button"]] = report
            else:
                down.pop(report["button"], None)
    return list(down.values())


@pytest.mark.parametrize("name, table_file, kinds, count", CASES, ids=[c[0] for c in CASES])
def test_a_cut_at_every_write_keeps_every_gesture_and_every_refused_line(name, table_file, kinds, count):
    reference, table = _run(name, table_file)
    expected = _game_view(reference, kinds)
    assert len(expected) == count and not _unreleased(reference)
    writes = table.total_flash_writes()
    points = given = 0
    for cut in range(writes):
        for torn in (False, True) if cut % 3 == 0 else (False,):
            reports, cut_table = _run(name, table_file, cut, torn)
            where = "%s, cut after write %d%s" % (name, cut, " (torn)" if torn else "")
            assert cut_table.power_cuts == 1, where
            assert _game_view(reports, kinds) == expected, where
            assert not _unreleased(reports), where
            assert all(r["resumed"] for r in reports if r["event"] == "recovered"), where
            points += 1
            given += cut_table.given_again
    print("%s: %d flash writes, %d cut points, %d inputs given again" % (name, writes, points, given))
    assert given > 0
