"""The simulated Omaha table end to end: the unchanged firmware (keypad, shoe, Omaha controller) on the
simulated board, the dealer keying buy-ins, hands and the players' actions, cards dealt through the
shoe; every hand has its hand_result, the chips are conserved, and every report is what the engine's
own copy of the hand says (hostsim.omaha_autoplay, hostsim.omaha_dealer, hostsim.omaha_players)."""
import json
import os
import subprocess
import sys

from firmware import cards
from hostsim.omaha_autoplay import OmahaRun, OmahaTally, failed

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BOARD = os.path.join(REPO, "boards", "sim.json")
TABLE = os.path.join(REPO, "boards", "tables", "sim-omaha.json")


def _play(tmp_path, hands, seed, players=6):
    run = OmahaRun(BOARD, TABLE, str(tmp_path), seed=seed, players=players)
    reports = []
    run.on_report = reports.append
    try:
        run.play(hands)
    finally:
        run.close()
    return run, reports


def test_headless_omaha_plays_hands_end_to_end_with_chips_conserved(tmp_path):
    run, reports = _play(tmp_path, 25, seed=7)
    tally = run.tally
    assert tally.hands == 25
    assert [r["hand"] for r in tally.last_results] == list(range(1, 26))      # every hand_result, in order
    assert tally.chips_conserved() and tally.bought_in > 0
    assert tally.refusals == tally.alarms == tally.host_errors == tally.results_missing == 0   # no shoe_restarted
    assert not any(r.get("event") in ("fault", "fault_ack") for r in reports)
    assert run.dealer.mismatches == []                 # every report as the engine's copy has it
    assert tally.showdowns > 0 and tally.won_by_folds > 0
    for result in tally.last_results:
        assert not result["void"]
        assert sum(result["stacks"].values()) + result["rake"] == \
            sum(next(r for r in reports if r.get("event") == "hand_start"
                     and r["hand"] == result["hand"])["stacks"].values())


def test_the_cards_reach_the_table_in_the_order_the_dealer_dealt_them(tmp_path):
    run, reports = _play(tmp_path, 8, seed=3, players=4)
    dealt = {}
    for r in reports:
        if r.get("event") == "dealt":
            dealt.setdefault(r["hand"], []).append(r)
    for hand, rows in dealt.items():
        start = next(r for r in reports if r.get("event") == "hand_start" and r["hand"] == hand)
        n = len(start["players"])
        holes = [r for r in rows if r["to"] == "hole"]
        # art. 6(1): one at a time, clockwise from the button's left, four rounds
        assert [r["seat"] for r in holes] == start["players"] * 4
        rest = [(r["to"], r.get("street")) for r in rows[4 * n:]]
        full = [("burn", None), ("board", "flop"), ("board", "flop"), ("board", "flop"), ("burn", None),
                ("board", "turn"), ("burn", None), ("board", "river")]
        assert rest == full[:len(rest)]
        assert len({r["card"] for r in rows}) == len(rows)                  # one deck: no card twice
        assert all(cards.parse(r["card"]) >= 0 for r in rows)


def test_busted_players_buy_in_again_and_the_table_keeps_going(tmp_path):
    run, reports = _play(tmp_path, 60, seed=11, players=3)
    seat_reports = [r for r in reports if r.get("event") == "seat"]
    assert len(seat_reports) > 3                       # more buy-ins than the first three
    assert run.tally.chips_conserved() and run.tally.hands == 60


def test_the_command_line_prints_one_omaha_summary(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "hostsim", "--headless", "--game", "omaha", "--rounds", "6",
                           "--seed", "5", "--players", "3"], cwd=REPO, capture_output=True, text=True,
                          timeout=300, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert len(lines) == 1
    summary = json.loads(lines[0])
    assert summary["game"] == "omaha" and summary["hands"] == 6 and summary["chips_conserved"] is True
    assert summary["refusals"] == summary["alarms"] == summary["mismatches"] == 0 and summary["seed"] == 5


def test_the_tally_counts_side_pots_all_ins_errors_and_missing_results_and_fails_on_each():
    tally = OmahaTally()
    clean = tally.summary(seed=1, virtual_ms=0, wall_s=0)
    assert (clean["unanswered"], clean["mismatches"], clean["side_pots"], clean["all_ins"]) == (0, 0, 0, 0)
    assert not failed(clean)                    # a tally no run is attached to: nothing unanswered
    for report in ({"event": "seat", "seat": 1, "stack": 1000}, {"event": "seat", "seat": 2, "stack": 1000},
                   {"event": "seat", "seat": 3, "stack": 500},
                   {"event": "hand_start", "hand": 1},
                   {"event": "action", "seat": "3", "act": "raise", "all_in": True},
                   {"event": "action", "seat": "1", "act": "call", "all_in": False},
                   {"event": "hand_result", "hand": 1, "pots": [{"amount": 1500}, {"amount": 900}], "rake": 5,
                    "shown": {"1": []}, "stacks": {"1": 1895, "2": 600, "3": 0}},
                   {"event": "hand_start", "hand": 2},
                   {"event": "hand_result", "hand": 2, "void": True, "stacks": {"1": 1895, "2": 600}},
                   {"event": "hand_start", "hand": 3},
                   {"event": "hand_start", "hand": 4},
                   {"event": "hand_result", "hand": 4, "pots": [{"amount": 20}], "rake": 0,
                    "stacks": {"1": 1895, "2": 600}}):
        tally.add(report)
    summary = tally.summary(seed=1, virtual_ms=0, wall_s=0)
    assert (summary["hands"], summary["showdowns"], summary["won_by_folds"], summary["void"], summary["side_pots"],
            summary["all_ins"], summary["rake"], summary["results_missing"]) == (3, 1, 1, 1, 1, 1, 5, 1)
    assert summary["bought_in"] == 2500 and summary["stacks"] == 2495 and summary["chips_conserved"]
    assert failed(summary)                      # hand 3 has no hand_result
    late = OmahaTally()                           # a result before any start (a run joined mid-hand), then one for
    for report in ({"event": "hand_result", "hand": 6, "void": True},           # an earlier hand than the newest
                   {"event": "hand_start", "hand": 7}, {"event": "hand_result", "hand": 6, "void": True},
                   {"event": "hand_start", "hand": 8}):
        late.add(report)
    assert late.summary(seed=1, virtual_ms=0, wall_s=0)["results_missing"] == 1      # hand 7's
    for report in ({"event": "host_error", "error": "hand refused"}, {"event": "action_refused", "seat": "2"}):
        one = OmahaTally()
        one.add(report)
        counts = one.summary(seed=1, virtual_ms=0, wall_s=0)
        assert (counts["host_errors"], counts["refusals"]) == ((1, 0) if report["event"] == "host_error" else (0, 1))
        assert failed(counts), report
