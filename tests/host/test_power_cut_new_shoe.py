"""A power cut at every flash write while a new Baccarat shoe comes in under a settings change pending (docs/console.md,
"Changing the settings"): put in during an alarm (held until the dealer closes it), straight over the shoe in play, or
by the dealer's long SHOE CHANGE (between rounds or in an alarm). Whatever write the power goes at, whole or torn, the
host sees what it sees uncut: the old shoe out, settings_changed, the new shoe under the new settings, its burn and
its round. Until stop 69 a cut
during the old shoe's OUT, the change or the release lost the new shoe (its next card card_out_of_order).

The shoe and the change come first, in a run of their own on the simulated flash (a technician's login, `set decks
6`, `commit`): each cut run starts from a copy of it, a boot that finds the shoe in play and the change pending (it
says so again: settings_pending, set aside here with the other reports of a boot, test_power_cut_table.host_view),
so that every cut is a cut of what the new shoe sets off.
"""
import json
import os
import shutil
import tempfile

import pytest

from firmware.console.pins import provision
from hostsim.headless import board_path
from tests.host.test_power_cut_table import _diff, _flash_in_tmp_path, host_view  # noqa: F401 (autouse)
from tools.replay import replay

HERE = os.path.dirname(os.path.abspath(__file__))
TABLE = os.path.join(HERE, "..", "..", "boards", "tables", "sim-baccarat.json")
_BURN_8 = ["7c", "Qd", "2h", "As", "Tc", "5d", "8s", "3h"]       # eight burned: the table's 8 decks (art. 2(1))
_BURN_6 = ["6c", "2c", "3c", "4c", "5c", "6d"]                   # a 6: six burned in all
_ROUND = ['{"bets": {"3": {"banker": 100}}}', '{"card": "9h"}', '{"card": "2d"}', '{"card": "Kc"}',
          '{"card": "3s"}']                                       # Player's natural 9 (art. 9(1))
_NEW_SHOE = {
    "in_an_alarm": ['{"shoe_fault": 7}', '{"shoe": "new"}', '{"button": "confirm"}'],
    "over_the_shoe": ['{"shoe": "new"}'],
    "shoe_change": ['{"button": "shoe_change", "long": true}'],     # the dealer's: a new shoe (art. 3(2))
    "shoe_change_in_an_alarm": ['{"shoe_fault": 7}', '{"button": "shoe_change", "long": true}',
                                '{"button": "confirm"}'],          # (dropped in an alarm until stop 70)
}


def base_run(table, lines):
    """A state dir with the technician's PIN (246810) and `lines` replayed on it; what the replay printed."""
    state = tempfile.mkdtemp(prefix="base-")
    provision(state, "246810")
    out = []
    replay([line.encode() for line in lines], table, board_path("sim"), state, out.append)
    return state, out


def replay_on_copy(base, table, lines, cut=None, torn=False):
    """`lines` replayed on a copy of the state dir `base` (cut after `cut` flash writes, whole or torn): (the
    reports with an "event", the HeadlessTable). The console's lines are left aside (its pending banner)."""
    out = []
    tables = []
    state = tempfile.mkdtemp(prefix="cut-")
    os.rmdir(state)
    shutil.copytree(base, state)
    replay([line.encode() for line in lines], table, board_path("sim"), state, out.append,
           started=tables.append, cut_after_writes=10 ** 9 if cut is None else cut, torn=torn)
    reports = [json.loads(line) for line in out]
    return [r for r in reports if "event" in r], tables[0]


def _shoe_and_change():
    """A state dir: the shoe in, burned, betting open; decks 6 committed, pending until the next new shoe."""
    lines = ['{"shoe": "new"}'] + ['{"card": "%s"}' % c for c in _BURN_8]
    lines += ['{"console": "%s"}' % typed for typed in ("login", "246810", "set decks 6", "commit DK-6", "logout")]
    state, out = base_run(TABLE, lines)
    assert any('"settings_pending"' in line for line in out)
    return state


def _run(base, how, cut=None, torn=False):
    script = _NEW_SHOE[how] + ['{"card": "%s"}' % c for c in _BURN_6] + _ROUND + ['{"wait_ms": 500}']
    return replay_on_copy(base, TABLE, script, cut, torn)


def _view(reports):
    """host_view without the boot's settings_pending, the dealer's button reports (a button let go while the board
    was off has no release report; a gesture the cut undid is made again whole: hostsim.flash) and settings_changed
    heard once more (a cut between its report and the pending record's removal: docs/console.md, "A reset")."""
    view = []
    for r in host_view(reports):
        if r["event"] in ("settings_pending", "button") or r["event"] == "settings_changed" and r in view:
            continue
        view.append(r)
    return view


@pytest.mark.parametrize("how", sorted(_NEW_SHOE))
def test_a_power_cut_at_every_write_loses_no_new_shoe_and_starts_none_twice(how):
    base = _shoe_and_change()
    reference, table = _run(base, how)
    expected = _view(reference)
    shoes = [(r["shoe"], r.get("decks")) for r in expected if r["event"] == "shoe" and r["shoe"] in ("new", "removed")]
    assert shoes[-2:] == [("removed", None), ("new", 6)], shoes
    assert [r["event"] for r in expected].count("settings_changed") == 1
    assert [(r["winner"], r["player_total"]) for r in expected if r["event"] == "result"] == [("player", 9)], how
    writes = table.total_flash_writes()
    assert writes >= 20
    for torn in (False, True):
        for cut in range(writes):
            reports, table = _run(base, how, cut, torn)
            where = "%s cut after write %d%s" % (how, cut, " torn" if torn else "")
            assert table.power_cuts == 1, where
            got = _view(reports)
            assert got == expected, "%s:\n%s" % (where, _diff(got, expected))
            assert not os.path.exists(os.path.join(table.state_dir, "settings.held")), where
