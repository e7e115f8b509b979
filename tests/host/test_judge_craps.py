"""Craps rules judge (issue 4): the issue's example byte-for-byte in meaning, bad lines, rejections."""
import json
import os
import subprocess
import sys

from tools.judge_craps import judge

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

EXAMPLE_REQUEST = (
    '{"game":"craps","field_12":2,"max_odds":[3,4,5],"minimum":5,"rolls":[[2,2],[5,6],[1,3],[3,4]],'
    '"bets":[{"id":"p","type":"pass","amount":10,"at":0},{"id":"po","type":"pass_odds","amount":20,"at":1,"on":"p"},'
    '{"id":"h4","type":"hard","number":4,"amount":5,"at":1},{"id":"b6","type":"big_number","number":6,"amount":30,"at":1},'
    '{"id":"f","type":"field","amount":5,"at":2},{"id":"s","type":"big_or_small","side":"small","amount":5,"at":3}]}'
)
EXAMPLE_RESPONSE = (
    '{"points":[4,4,null,null],"bets":[{"id":"p","result":"win","net":10,"roll":2},'
    '{"id":"po","result":"win","net":40,"roll":2},{"id":"h4","result":"lose","net":-5,"roll":2},'
    '{"id":"b6","result":"lose","net":-30,"roll":3},{"id":"f","result":"win","net":5,"roll":2},'
    '{"id":"s","result":"lose","net":-5,"roll":3}],"shooter_changes":[]}'
)


def run_judge(lines):
    proc = subprocess.run([sys.executable, "-m", "tools.judge"], input="".join(l + "\n" for l in lines),
                          capture_output=True, text=True, cwd=REPO, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    return [json.loads(l) for l in proc.stdout.splitlines()]


def base(**extra):
    req = {"game": "craps", "field_12": 2, "max_odds": [3, 4, 5], "minimum": 5}
    req.update(extra)
    return req


def test_issue_example_through_the_cli():
    out = run_judge([EXAMPLE_REQUEST])
    assert out == [json.loads(EXAMPLE_RESPONSE)]
    # same key order as the issue, too
    assert json.dumps(out[0], separators=(",", ":")) == EXAMPLE_RESPONSE


def test_bad_lines_answer_error_and_the_judge_goes_on():
    bad_die = json.dumps(base(rolls=[[3, 4], [7, 1]], bets=[{"id": "f", "type": "field", "amount": 5, "at": 1}]))
    lines = [
        "not json",
        '{"game":"craps"}',
        json.dumps(base(rolls=[], bets=[{"id": "x", "type": "place_6", "amount": 5, "at": 0}])),
        json.dumps(base(field_12=5, rolls=[], bets=[])),
        bad_die,
        json.dumps(base(rolls=[[1, 1]], bets=[{"id": "x", "type": "field", "amount": 5, "at": 2}])),
        json.dumps(base(rolls=[[1, 1]], bets=[{"id": "x", "type": "pass_odds", "amount": 5, "at": 0, "on": "nope"}])),
        EXAMPLE_REQUEST,
    ]
    out = run_judge(lines)
    assert len(out) == len(lines)
    for o in out[:-1]:
        assert set(o) <= {"error", "at"} and o["error"], o
    assert "'minimum' is required" in out[1]["error"]
    assert "place_6" in out[2]["error"]
    assert "field_12" in out[3]["error"]
    assert out[4]["at"] == 1 and "1..6" in out[4]["error"]
    assert "at must be 0..1" in out[5]["error"]
    assert out[-1] == json.loads(EXAMPLE_RESPONSE)



def test_a_bet_with_a_word_its_type_does_not_take_is_an_error_naming_it():
    lines = [json.dumps(base(rolls=[[3, 4]], bets=[dict({"id": "x", "amount": 5, "at": 0}, **extra)]))
             for extra in ({"type": "field", "side": "big"}, {"type": "field", "number": 4},
                           {"type": "big_or_small", "side": "middle"})]
    assert [o["error"] for o in run_judge(lines)] == [
        "bets[0]: field takes no side", "bets[0]: field takes no number",
        'bets[0]: big_or_small needs "side": "big" or "small"']


def test_rejections_carry_reasons():
    req = base(rolls=[[2, 2], [3, 3]], bets=[
        {"id": "c", "type": "come", "amount": 5, "at": 0},               # no point yet
        {"id": "p", "type": "pass", "amount": 10, "at": 0},
        {"id": "po", "type": "pass_odds", "amount": 10, "at": 0, "on": "p"},   # no point yet
        {"id": "po2", "type": "pass_odds", "amount": 40, "at": 1, "on": "p"},  # over 3x on 4
        {"id": "b6", "type": "big_number", "number": 6, "amount": 5, "at": 1},  # 7:6 not exact
        {"id": "m", "type": "field", "amount": 3, "at": 0},              # not a multiple of 5
        {"id": "co", "type": "come_odds", "amount": 10, "at": 1, "on": "c"},   # its come bet was rejected
    ])
    out = {b["id"]: b for b in judge(req)["bets"]}
    for bid, text in (("c", "art. 5(2)(5)"), ("po", "has a point"), ("po2", "max_odds"), ("b6", "multiple of 6"),
                      ("m", "art. 5(6)"), ("co", "is not open")):
        assert out[bid]["result"] == "rejected" and out[bid]["net"] == 0 and out[bid]["roll"] is None
        assert text in out[bid]["reason"], (bid, out[bid]["reason"])
    assert out["p"] == {"id": "p", "result": "open", "net": 0, "roll": None}


def test_invalid_throw_object_is_no_roll():
    req = base(rolls=[{"dice": [3, 4], "valid": False}, [3, 4]], bets=[{"id": "a", "type": "any_seven",
                                                                     "amount": 5, "at": 0}])
    res = judge(req)
    assert res["bets"] == [{"id": "a", "result": "win", "net": 20, "roll": 1}]
    assert res["points"] == [None, None]


def test_shooter_changes_and_option():
    rolls = [[1, 1], [2, 2], [3, 4], [6, 6]]
    assert judge(base(rolls=rolls, bets=[]))["shooter_changes"] == [2]
    res = judge(base(rolls=rolls, bets=[], shooter_change_on_come_out_craps=True))
    assert res["shooter_changes"] == [0, 2, 3]


def test_off_on_come_out_in_the_judge():
    bets = [{"id": "h", "type": "hard", "number": 6, "amount": 5, "at": 0}]
    assert judge(base(rolls=[[3, 4]], bets=bets))["bets"][0]["result"] == "lose"
    res = judge(base(rolls=[[3, 4]], bets=bets, off_on_come_out=["hard"]))
    assert res["bets"][0] == {"id": "h", "result": "open", "net": 0, "roll": None}


def test_come_and_dont_come_with_odds_and_seats():
    req = base(rolls=[[4, 4], [2, 3], [1, 4], [1, 1], [3, 4]], bets=[
        {"id": "p", "type": "pass", "amount": 10, "at": 0},
        {"id": "c", "type": "come", "amount": 10, "at": 1, "seat": 2},
        {"id": "co", "type": "come_odds", "amount": 40, "at": 2, "on": "c", "seat": 2},
        {"id": "dc", "type": "dont_come", "amount": 10, "at": 3, "seat": 3},
        {"id": "h", "type": "horn", "amount": 20, "at": 3},
    ])
    out = {b["id"]: b for b in judge(req)["bets"]}
    assert out["c"] == {"id": "c", "result": "win", "net": 10, "roll": 2}
    assert out["co"] == {"id": "co", "result": "win", "net": 60, "roll": 2}
    assert out["dc"] == {"id": "dc", "result": "win", "net": 10, "roll": 3}
    assert out["h"] == {"id": "h", "result": "win", "net": 135, "roll": 3}
    assert out["p"] == {"id": "p", "result": "lose", "net": -10, "roll": 4}
