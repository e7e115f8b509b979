"""Rules judge, Omaha requests, through the real command: python -m tools.judge (JSON Lines)."""
import json
import os
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Seats 1-3, button 1: seat 2 small blind, seat 3 big blind. Dealing order 2, 3, 1.
# Seat 1 (2c Kh Ac 3s) and seat 2 (As 3d 2d Ks) both play A-K with Q-Q-8: a split pot.
DECK = ["As", "Kd", "2c", "3d", "Ah", "Kh", "2d", "3h", "Ac", "Ks", "2h", "3s",
        "Qc", "Qd", "Qh", "4c", "5c", "7d", "9h", "8c", "8d", "Jc", "Jd"]
ROUND = {
    "game": "omaha_round", "structure": "pot_limit", "small_blind": 5, "big_blind": 10, "button": "1",
    "stacks": {"1": 1000, "2": 1000, "3": 1000}, "deck": DECK,
    "actions": [["1", "call"], ["2", "call"], ["3", "check"], ["2", "bet", 20], ["3", "fold"], ["1", "call"],
                ["2", "check"], ["1", "check"], ["2", "check"], ["1", "check"]],
    "rake": {"percent": 5, "cap_big_blinds": 5}, "odd_chip": "croupier",
}


def judge(*requests):
    lines = "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in requests)
    proc = subprocess.run([sys.executable, "-m", "tools.judge"], input=lines, capture_output=True,
                          text=True, cwd=REPO, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    return [json.loads(line) for line in proc.stdout.splitlines()]


def test_hand5_categories_and_values():
    out = judge({"game": "hand5", "cards": ["As", "Ks", "Qs", "Js", "Ts"]},
                {"game": "hand5", "cards": ["Kc", "Kd", "Kh", "4s", "4d"]},
                {"game": "hand5", "cards": ["5c", "4d", "3h", "2s", "Ad"]},
                {"game": "hand5", "cards": ["7c", "5d", "4h", "3s", "2d"]})
    assert out == [{"category": "straight_flush", "value": 7462},
                   {"category": "full_house", "value": 7275},
                   {"category": "straight", "value": 5854},
                   {"category": "high_card", "value": 1}]


def test_omaha_hand_exactly_two_hole_cards():
    out = judge({"game": "omaha_hand", "hole": ["Ah", "Kh", "Qh", "Jh"], "board": ["2h", "3c", "7d", "9s", "Tc"]},
                {"game": "omaha_hand", "hole": ["Ah", "Kh", "2c", "3d"], "board": ["4h", "7h", "9h", "Ts", "Js"]})
    assert out[0] == {"best": ["Ah", "Kh", "7d", "9s", "Tc"], "category": "high_card", "value": out[0]["value"]}
    assert out[1] == {"best": ["Ah", "Kh", "4h", "7h", "9h"], "category": "flush", "value": out[1]["value"]}
    assert 5864 <= out[1]["value"] <= 7140  # the flush classes


def test_omaha_round_split_pot_rake_and_odd_chip():
    (out,) = judge(ROUND)
    assert out == {
        "hole": {"1": ["2c", "Kh", "Ac", "3s"], "2": ["As", "3d", "2d", "Ks"], "3": ["Kd", "Ah", "3h", "2h"]},
        "board": ["Qd", "Qh", "4c", "7d", "8c"],
        "pots": [{"amount": 70, "eligible": ["1", "2"], "winners": ["1", "2"]}],
        "rake": 3,
        "stacks": {"1": 1004, "2": 1003, "3": 990},
    }


def test_omaha_round_button_odd_chip_option():
    (out,) = judge(dict(ROUND, odd_chip="button"))
    assert out["stacks"] == {"1": 1003, "2": 1004, "3": 990}


def test_omaha_round_side_pots_no_limit():
    request = {
        "game": "omaha_round", "structure": "no_limit", "small_blind": 5, "big_blind": 10, "button": "1",
        "stacks": {"1": 50, "2": 150, "3": 300},
        # dealing order 2, 3, 1; burns 3c 3d 3h; board 2s 7h 8d Jc Kd
        "deck": ["Jd", "8c", "Kc", "Jh", "8h", "Kh", "5d", "5h", "5c", "6d", "6h", "6c",
                 "3c", "2s", "7h", "8d", "3d", "Jc", "3h", "Kd"],
        "actions": [["1", "raise", 50], ["2", "raise", 150], ["3", "call"]],
    }
    over_stack = dict(request, actions=[["1", "raise", 50], ["2", "raise", 100000], ["3", "call"]])
    out, same = judge(request, over_stack)
    assert same == out  # a raise beyond the stack is the all-in
    assert out["pots"] == [{"amount": 150, "eligible": ["1", "2", "3"], "winners": ["1"]},
                           {"amount": 200, "eligible": ["2", "3"], "winners": ["2"]}]
    assert out["rake"] == 0 and out["stacks"] == {"1": 150, "2": 200, "3": 150}
    assert out["board"] == ["2s", "7h", "8d", "Jc", "Kd"]


def test_omaha_round_fold_ends_early_board_as_dealt():
    request = dict(ROUND, actions=[["1", "fold"], ["2", "fold"]])
    (out,) = judge(request)
    assert out["board"] == [] and out["rake"] == 0
    assert out["pots"] == [{"amount": 10, "eligible": ["3"], "winners": ["3"]}]
    assert out["stacks"] == {"1": 1000, "2": 995, "3": 1005}


def test_illegal_actions_answer_error_with_index():
    over_pot = dict(ROUND, actions=[["1", "raise", 100]])
    out_of_turn = dict(ROUND, actions=[["1", "call"], ["3", "check"]])
    after_end = dict(ROUND, actions=ROUND["actions"] + [["1", "check"]])
    bad_seat = dict(ROUND, actions=[["x", "call"]])
    out = judge(over_pot, out_of_turn, after_end, bad_seat)
    assert out[0] == {"error": "seat 1 raise to 100 refused: raise to 20..35 (POT MAX 35, art. 11(2))", "at": 0}
    assert out[1]["at"] == 1 and "seat 2 is to act" in out[1]["error"]
    assert out[2]["at"] == 10 and "after the hand is over" in out[2]["error"]
    assert out[3]["at"] == 0 and "seat number" in out[3]["error"]


def test_misdeal_entry_voids_and_refunds():
    (out,) = judge(dict(ROUND, actions=[["1", "call"], ["dealer", "misdeal"]]))
    assert out["void"] is True and out["pots"] == [] and out["rake"] == 0
    assert out["stacks"] == {"1": 1000, "2": 1000, "3": 1000}


def test_bad_lines_are_answered_and_the_judge_goes_on():
    out = judge("not json",
                {"game": "hand5", "cards": ["As", "Ks"]},
                {"game": "hand5", "cards": ["As", "As", "Qs", "Js", "Ts"]},
                {"game": "omaha_hand", "hole": ["Zz", "Kh", "Qh", "Jh"], "board": ["2h", "3c", "7d", "9s", "Tc"]},
                dict(ROUND, rake={"percent": 7}),
                dict(ROUND, deck=DECK[:14]),
                {key: value for key, value in ROUND.items() if key != "stacks"},
                dict(ROUND, deck=DECK[:3] + DECK[2:]),
                {"game": "hand5", "cards": ["2c", "2d", "2h", "2s", "3d"]})
    assert len(out) == 9
    for answer in out[:8]:
        assert set(answer) == {"error"}, answer
    assert "5 card" in out[1]["error"]
    assert "twice" in out[2]["error"]
    assert "Zz" in out[3]["error"]
    assert "rake_percent" in out[4]["error"]
    assert "deck ends" in out[5]["error"]
    assert out[6]["error"] == "missing field 'stacks'"
    assert "twice" in out[7]["error"]
    assert out[8] == {"category": "four_of_a_kind", "value": 7297}


def test_unknown_fields_are_refused_in_every_omaha_request():
    # hand5 and omaha_hand took any other field silently (omaha_round never did): a misspelt or
    # misplaced field must not pass as if it had been read.
    hand5 = {"game": "hand5", "cards": ["As", "Ks", "Qs", "Js", "Ts"]}
    hand = {"game": "omaha_hand", "hole": ["As", "Ks", "Qs", "Js"], "board": ["2c", "3d", "4h", "5s", "9c"]}
    out = judge(dict(hand5, board=["2c"]), dict(hand, hole_cards=[]), dict(ROUND, odd_chips="button"), hand5, hand)
    assert out[0] == {"error": "unknown field 'board': expected cards"}
    assert out[1] == {"error": "unknown field 'hole_cards': expected hole, board"}
    assert list(out[2]) == ["error"] and out[2]["error"].startswith("unknown field 'odd_chips': expected structure")
    assert out[3] == {"category": "straight_flush", "value": 7462}
    assert out[4]["category"] == "high_card"
