"""A power cut at every flash write around the boundary where a committed settings change runs (docs/console.md,
"Changing the settings"): Craps at a new shooter's come-out (the seven-out), Omaha between hands (the hand's end),
Baccarat when the shoe is taken out (art. 18). Whatever write the power goes at, whole or torn, the host sees what
it sees uncut: the game's reports in the uncut order, settings_changed once (twice at most after a cut between its
report and the pending record's removal, which test_power_cut_new_shoe._view sets aside), and the next round
played under the new settings (the field's 12 paid 3:1, the blinds 10/20, the new shoe's 6 decks).

The commit itself is cut at every write in tests/host/test_console_settings_host.py and test_console_host.py;
here each script's cuts are the writes from the last input before the boundary to the first round after it (the
window: a prefix of the script run uncut counts the writes before it), so every cut is one of the change running.
"""
import os

import pytest

from tests.host.test_power_cut_new_shoe import _view, base_run, replay_on_copy
from tests.host.test_power_cut_table import _diff, _flash_in_tmp_path  # noqa: F401 (autouse)

TABLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "boards", "tables")


def _console(*typed):
    return ['{"console": "%s"}' % line for line in ("login", "246810") + typed + ("logout",)]


def _cards(*codes):
    return ['{"card": "%s"}' % code for code in codes]


_HAND = ['{"hand": {"button": 1, "stacks": {"1": 1000, "2": 1000}}}'] + _cards("Ah", "2c", "Ad", "3d", "Kh", "8h",
                                                                             "Kd", "9s")
# game: (table, the base run (the change committed), the script: (before the window, the window, after it))
_SCRIPTS = {
    # A natural 11 on the come-out (the shooter has rolled: the change waits for the next one), the change
    # committed; the next boot raises reset_in_round (the dice were in play), the dealer vouches (CONFIRM).
    # Point 6, seven-out: the next shooter's come-out runs the change (Craps art. 4); a field bet's 12 pays
    # 3:1 under it (art. 6(12), field_12).
    "craps": ("sim-craps.json",
              ['{"bets": {"1": {"pass": 10}}}', '{"dice": [5, 6]}'] + _console("set field_12 3", "commit F-3"),
              (['{"button": "confirm"}', '{"bets": {"1": {"pass": 10}}}', '{"dice": [2, 4]}'],
               ['{"dice": [3, 4]}', '{"bets": {"2": {"field": 10}}}'],
               ['{"dice": [6, 6]}', '{"wait_ms": 500}'])),
    # The change committed during a hand (in the script: a boot inside a hand restarts the shoe, an alarm of
    # its own); seat 2 folds, the hand ends and the change runs (Omaha art. 5: the blinds); the next hand's
    # blinds are 10/20.
    "omaha": ("sim-omaha.json",
              [],
              (_HAND + _console("set small_blind 10", "set big_blind 20", "commit BL-20"),
               ['{"action": {"seat": 2, "act": "fold"}}', '{"hand": {"button": 2, "stacks": {"1": 1005, "2": 995}}}'],
               _cards("Qh", "2s", "Qd", "3s", "Jh", "8c", "Jd", "9c") + ['{"action": {"seat": 1, "act": "fold"}}',
                                                                         '{"wait_ms": 500}'])),
    # The shoe in play burned, decks 6 committed; the shoe taken out runs the change (art. 18), the next shoe
    # is a 6-deck one (art. 2(1)), its burn and a round under it.
    "baccarat": ("sim-baccarat.json",
                 ['{"shoe": "new"}'] + _cards("7c", "Qd", "2h", "As", "Tc", "5d", "8s", "3h") + _console(
                     "set decks 6", "commit DK-6"),
                 ([],
                  ['{"shoe": "out"}', '{"wait_ms": 300}', '{"shoe": "new"}'],
                  _cards("6c", "2c", "3c", "4c", "5c", "6d") + ['{"bets": {"3": {"banker": 100}}}'] + _cards(
                      "9h", "2d", "Kc", "3s") + ['{"wait_ms": 500}'])),
}


def _base(game):
    table, lines, _ = _SCRIPTS[game]
    return base_run(os.path.join(TABLES, table), lines)[0]


def _run(game, base, lines, cut=None, torn=False):
    return replay_on_copy(base, os.path.join(TABLES, _SCRIPTS[game][0]), lines, cut, torn)


def _played_under_the_change(game, view):
    if game == "craps":
        field = [r["nets"]["2"] for r in view if r["event"] == "throw" and r["dice"] == [6, 6]]
        return field == [{"field": 30}]
    if game == "omaha":
        return [r["blinds"] for r in view if r["event"] == "hand_start"] == [{"2": 5, "1": 10}, {"1": 10, "2": 20}]
    return [r.get("decks") for r in view if r["event"] == "shoe" and r["shoe"] == "new"] == [6]


@pytest.mark.parametrize("game", sorted(_SCRIPTS))
def test_a_power_cut_at_every_write_where_a_change_runs_keeps_the_game_and_runs_it_once(game):
    base = _base(game)
    before, window, after = _SCRIPTS[game][2]
    reference, table = _run(game, base, before + window + after)
    expected = _view(reference)
    assert [r["event"] for r in expected].count("settings_changed") == 1, expected
    assert _played_under_the_change(game, expected), expected
    first = _run(game, base, before)[1].total_flash_writes()
    last = _run(game, base, before + window)[1].total_flash_writes()
    assert last - first >= 5, (first, last)
    for torn in (False, True):
        for cut in range(first, last + 1):
            reports, table = _run(game, base, before + window + after, cut, torn)
            where = "%s cut after write %d%s" % (game, cut, " torn" if torn else "")
            assert table.power_cuts == 1, where
            got = _view(reports)
            assert got == expected, "%s:\n%s" % (where, _diff(got, expected))
