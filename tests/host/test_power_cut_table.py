"""A power cut after every single flash write of a Baccarat round, a Craps point cycle and an Omaha hand
(issue 12): the host's view is the uncut run's, each report exactly once, in order.

Each script (tests/host/power_cut_scripts/) runs once uncut on simulated flash (hostsim.flash.FlashFS),
counting its flash writes W; then once for every N in 0..W-1 with the power cut at write N+1, that
write not done at all, and once more with it torn (half its bytes written). The board boots again on
the same flash, recovers (firmware/recovery.py: the snapshot, the journalled events again, their reports
once), the input it had taken in but not journalled is given again (as a dealer repeats what a dead
board did not take: hostsim/headless.py), and the script goes on. The host's view, through the real
host client, must then be the uncut run's with exactly this left out:
  - the "seq" field (each boot numbers its reports from 1);
  - each boot's own reports: "boot", the lamp test's "state" reports (starting, and the first state
    after it), and "recovered" (checked on its own: every recovery resumed, none voided: the journal
    had every event the board took, so no round is void under Baccarat art. 10 or Omaha art. 9).
Nothing else: every game report is there, once, in the uncut order.
"""
import json
import os
import tempfile

import pytest

from hostsim.headless import board_path
from tools.replay import replay

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.join(HERE, "power_cut_scripts")
TABLES = os.path.join(os.path.dirname(HERE), "..", "boards", "tables")
GAMES = (
    ("baccarat_round", os.path.join(SCRIPTS, "baccarat_round.table.json")),
    ("craps_point_cycle", os.path.join(TABLES, "sim-craps.json")),
    ("omaha_hand", os.path.join(TABLES, "sim-omaha.json")),
)
_BOOT_OWN = ("boot", "recovered")


def _run(name, table_file, cut=None, torn=False):
    """(reports as dicts, the HeadlessTable) of one replay on fresh simulated flash."""
    lines = []
    tables = []
    state = tempfile.mkdtemp(prefix="cut-")
    with open(os.path.join(SCRIPTS, name + ".in.jsonl"), "rb") as f:
        replay(f, table_file, board_path("sim"), state, lines.append, started=tables.append,
               cut_after_writes=10 ** 9 if cut is None else cut, torn=torn)
    return [json.loads(line) for line in lines], tables[0]


def host_view(reports):
    """The reports without what legitimately differs after a reset (the module's docstring)."""
    view = []
    booting = False
    for report in reports:
        event = report["event"]
        if event == "boot":
            booting = True
        if event in _BOOT_OWN:
            continue
        if event == "state" and booting:
            if report["state"] != "starting":
                booting = False       # the lamp test's end: the last of the boot's own
            continue
        view.append(dict((k, v) for k, v in report.items() if k != "seq"))
    return view


@pytest.mark.parametrize("name, table_file", GAMES, ids=[g[0] for g in GAMES])
def test_a_power_cut_at_every_flash_write_loses_nothing_and_duplicates_nothing(name, table_file):
    reference, table = _run(name, table_file)
    writes = table.total_flash_writes()
    expected = host_view(reference)
    assert len(expected) >= 8 and writes >= 20
    points = 0
    recoveries = 0
    for torn in (False, True):
        for cut in range(writes):
            reports, table = _run(name, table_file, cut, torn)
            got = host_view(reports)
            where = "%s cut after write %d%s" % (name, cut, " torn" if torn else "")
            assert table.power_cuts == 1, where
            assert got == expected, "%s:\n%s" % (where, _diff(got, expected))
            recovered = [r for r in reports if r["event"] == "recovered"]
            assert all(r["resumed"] for r in recovered), where
            recoveries += len(recovered)
            points += 1
    print("%s: %d flash writes uncut, %d cut points exercised (whole and torn), %d recoveries"
          % (name, writes, points, recoveries))
    assert points == 2 * writes and recoveries > writes


def _diff(got, expected):
    for i in range(max(len(got), len(expected))):
        a = got[i] if i < len(got) else None
        b = expected[i] if i < len(expected) else None
        if a != b:
            return "first difference at %d:\n got      %s\n expected %s" % (i, a, b)
    return "(same)"
