"""The Omaha golden replays agree with a fresh engine: every settled hand the table reported
(tests/host/replay_scripts/omaha_*.out.jsonl) is played again through firmware.games.omaha.whole_hand.play_hand
from what the reports say left the shoe and was keyed (hand_start, dealt, action), and its pots,
winners, shares, rake and stacks must be the ones the table reported. The scripts themselves are
checked byte for byte by test_replay.py; this shows the bytes are right (Omaha arts. 5-10, 16)."""
import glob
import json
import os

import pytest

from firmware import cards
from firmware.games.omaha.whole_hand import play_hand
from firmware.games.omaha.settings import load_settings

SCRIPTS = os.path.join(os.path.dirname(__file__), "replay_scripts")
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUTPUTS = sorted(glob.glob(os.path.join(SCRIPTS, "omaha_*.out.jsonl")))


def _settings(out_path):
    """The table file's settings, as a dict (a settings_changed report changes them: _hands)."""
    own = out_path.replace(".out.jsonl", ".table.json")
    path = own if os.path.exists(own) else os.path.join(REPO, "boards", "tables", "sim-omaha.json")
    with open(path) as f:
        return json.load(f)["settings"]


def _hands(reports, settings):
    """[(hand_start, [dealt...], [action...], hand_result, the settings it started under)] of every hand in the
    reports; a settings change made at the console (settings_changed) holds from the next hand on."""
    hands = []
    current = None
    settings = dict(settings)
    for r in reports:
        event = r.get("event")                    # console lines ({"console": ...}) have none
        if event == "settings_changed":
            for key, (_, new) in r["changes"].items():
                settings[key] = new
        elif event == "hand_start":
            current = (r, [], [], [], load_settings(dict(settings)))
        elif event == "dealt" and current is not None:
            current[1].append(r)
        elif event == "action" and current is not None:
            current[2].append(r)
        elif event == "hand_result" and current is not None:
            current[3].append(r)
            hands.append((current[0], current[1], current[2], r, current[4]))
            current = None
    return hands


def _replayed(settings, start, dealt, actions):
    deck = [cards.parse(d["card"]) for d in dealt if d["to"] != "discard"]
    moves = []
    for a in actions:
        move = [int(a["seat"]), a["act"]]
        if a["act"] in ("bet", "raise"):
            move.append(a["amount"])
        moves.append(move)
    stacks = [(int(seat), chips) for seat, chips in start["stacks"].items()]
    return play_hand(settings, int(start["button"]), stacks, deck, moves)


@pytest.mark.parametrize("out_path", OUTPUTS, ids=[os.path.basename(p) for p in OUTPUTS])
def test_every_settled_hand_is_the_engines(out_path):
    with open(out_path) as f:
        reports = [json.loads(line) for line in f]
    settled = 0
    for start, dealt, actions, result, settings in _hands(reports, _settings(out_path)):
        assert [d["seat"] for d in dealt if d["to"] == "hole"][:len(start["players"])] == start["players"]  # art. 6(1)
        if result["void"]:
            assert result["stacks"] == {s: c for s, c in start["stacks"].items()}        # art. 9(2): all returned
            assert result["pots"] == [] and result["rake"] == 0
            continue
        _, engine = _replayed(settings, start, dealt, actions)
        pots = [{"amount": p.amount, "eligible": [str(s) for s in p.eligible], "winners": [str(s) for s in p.winners],
                 "shares": {str(s): c for s, c in p.shares}} for p in engine.pots]
        assert result["pots"] == pots
        assert result["rake"] == engine.rake
        assert result["stacks"] == {str(s): c for s, c in engine.stacks}
        assert sum(result["stacks"].values()) + result["rake"] == sum(start["stacks"].values())
        settled += 1
    assert settled or "misdeal" in out_path


def test_the_scripts_cover_what_issue_11_asks_for():
    """Every street, side pots with several all-ins, heads-up raising, odd chips, a misdeal, illegal entries."""
    seen = {}
    most_raises = 0                                       # raises in one betting round of one script
    for path in OUTPUTS:
        rounds = {}
        with open(path) as f:
            for line in f:
                r = json.loads(line)
                seen.setdefault(r.get("event"), []).append(r)
                if r.get("event") == "action" and r["act"] == "raise":
                    key = (r["hand"], r["street"])
                    rounds[key] = rounds.get(key, 0) + 1
        most_raises = max([most_raises] + list(rounds.values()))
    streets = set(r["street"] for r in seen["action"])
    assert streets == {"preflop", "flop", "turn", "river"}
    assert any(len(r["pots"]) >= 3 for r in seen["hand_result"])                          # side pots
    assert sum(1 for r in seen["action"] if r["all_in"]) >= 3
    assert any(len(p["winners"]) == 2 and len(set(p["shares"].values())) == 2
               for r in seen["hand_result"] for p in r["pots"])                           # an odd chip, art. 10(5)
    assert any(r["void"] for r in seen["hand_result"])                                    # art. 9(2)
    assert len(seen["action_refused"]) >= 8
    assert most_raises >= 4                               # heads-up, beyond the cap of 3 (art. 12(2), (4))
