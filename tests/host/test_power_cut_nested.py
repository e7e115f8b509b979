"""A second power cut during the Craps dealer's CONFIRM that closes the first cut's reset_in_round alarm.

hostsim.headless._power_back gives the inputs the dead board had taken but not journalled to the new
boot after that CONFIRM; when the power went again during the press (then_cut_after), they went into
the queue of the board that had just died, and were lost: a bet reading missing from the host's view.
"""
import json
import os
import shutil
import tempfile

from hostsim.headless import board_path
from tools.replay import replay

TABLE = os.path.join(os.path.dirname(__file__), "..", "..", "boards", "tables", "sim-craps.json")
GAME = ("bets", "throw", "puck", "shooter", "bet_refused")


def _session(rounds):
    lines = []
    for i in range(rounds):
        lines.append({"bets": {"1": {"pass": 10, "field": 5}, "2": {"dont_pass": 10}}})
        lines.append({"dice": [2, 4]})
        bets = {"1": {"pass_odds": 20}}
        if i % 3 == 0:
            bets["2"] = {"big_number_6": 6 if i == 0 else 30}
        lines.append({"bets": bets})
        lines += [{"dice": [4, 4]}, {"dice": [1, 2]} if i % 2 else {"dice": [5, 5]}, {"dice": [3, 3]}]
    return [json.dumps(line).encode() for line in lines]


def _game_view(cut=None, then=()):
    out = []
    state = tempfile.mkdtemp(prefix="nested-")
    try:
        replay(_session(60), TABLE, board_path("sim"), state, out.append,
               cut_after_writes=10 ** 9 if cut is None else cut, then_cut_after=then)
    finally:
        shutil.rmtree(state, ignore_errors=True)
    return [dict((k, v) for k, v in r.items() if k != "seq") for r in map(json.loads, out) if r.get("event") in GAME]


def test_inputs_lost_at_a_cut_reach_the_board_up_after_a_cut_during_confirm():
    # The first cut takes the append of bet reading 74 (Craps, point on); the next boot's 22nd write comes
    # while the dealer's CONFIRM closes its reset_in_round alarm.
    assert _game_view(822, (21,)) == _game_view()
