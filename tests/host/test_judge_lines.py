"""`python -m tools.judge` line handling: every input line gets exactly one answer line, whatever it holds.

Issue 8 item 8: `{"game":[1]}`, a deeply nested line and invalid UTF-8 each killed the judge with a
traceback and the following lines went unanswered. Bad requests are {"error": ...}; an engine
exception that is not a rules error is {"error": "internal error: TypeName: message"}.
"""
import io
import json
import os
import subprocess
import sys

from hypothesis import HealthCheck, given, settings, strategies as st

from tools import judge

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

GOOD = {"game": "hand5", "cards": ["Ah", "Kh", "Qh", "Jh", "Th"]}
GOOD_ANSWER = {"category": "straight_flush", "value": 7462}
DEEP = b"[" * 100000 + b"]" * 100000


def run_judge(data):
    """Feed raw bytes to the real command; the answers, one parsed dict per output line."""
    proc = subprocess.run([sys.executable, "-m", "tools.judge"], input=data, capture_output=True,
                          cwd=REPO, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == b"", proc.stderr
    return [json.loads(line) for line in proc.stdout.decode("ascii").splitlines()]


def test_issue_bad_lines_answered_and_the_next_line_still_judged():
    lines = [b'{"game":[1]}', DEEP, b'{"game": "hand5", "cards": ["\xff\xfe"]}', json.dumps(GOOD).encode()]
    out = run_judge(b"\n".join(lines) + b"\n")
    assert len(out) == 4
    assert list(out[0]) == ["error"] and "unknown game [1]" in out[0]["error"]
    assert out[1] == {"error": "not valid JSON: nested too deeply"}
    assert list(out[2]) == ["error"] and "not valid UTF-8" in out[2]["error"]
    assert out[3] == GOOD_ANSWER


def test_blank_lines_and_non_objects_each_get_an_error():
    good = json.dumps(GOOD).encode()
    data = b"\n".join([b"", b"   \t", good, b"[1, 2]", b"null", b'"hand5"', b"{\"game\": {}}", good]) + b"\r\n"
    out = run_judge(data)
    assert len(out) == 8
    assert out[0] == out[1] == {"error": "empty line: expected a JSON object"}
    assert out[2] == GOOD_ANSWER and out[7] == GOOD_ANSWER      # "\r\n" line ends work too
    for answer in out[3:6]:
        assert answer == {"error": "a request must be a JSON object"}
    assert out[6]["error"].startswith("unknown game {}")


def test_a_long_value_is_quoted_in_the_error_cut_to_60_characters():
    for name, quoted in (("x" * 58, repr("x" * 58)), ("x" * 59, repr("x" * 59)[:57] + "...")):
        error = judge.answer(json.dumps({"game": name}))["error"]
        assert error.startswith("unknown game %s: expected one of " % quoted), error
        assert len(quoted) == 60


def test_a_key_given_twice_or_nan_is_a_bad_request_not_the_last_value_judged():
    """json keeps the last of two keys: a lab's request naming two hands was judged on the second alone."""
    two_hands = (b'{"game": "hand5", "cards": ["2c", "3d", "4h", "5s", "7c"], '
                 b'"cards": ["Ah", "Kh", "Qh", "Jh", "Th"]}')
    nan = b'{"game": "hand5", "cards": ["Ah", "Kh", "Qh", "Jh", "Th"], "x": NaN}'
    good = json.dumps(GOOD).encode()
    out = run_judge(b"\n".join([two_hands, nan, good]) + b"\n")
    assert out == [{"error": "cards: key given twice in one object (remove one)"},
                   {"error": "NaN is not a JSON number"}, GOOD_ANSWER]


def test_last_line_without_newline_is_answered():
    out = run_judge(b"\n" + json.dumps(GOOD).encode())
    assert out == [{"error": "empty line: expected a JSON object"}, GOOD_ANSWER]


def test_a_reader_that_stops_reading_ends_the_judge_quietly(monkeypatch):
    # `... | python -m tools.judge | head -1`: the next answer's write raises BrokenPipeError; the judge ends with
    # status 0, fd 1 pointed at /dev/null (tools/pipe.py), no traceback, the rest of its input unread.
    class Closed:
        writes = 0

        def write(self, text):
            Closed.writes += 1
            raise BrokenPipeError(32, "Broken pipe")

        def flush(self):
            pass

    gone = []
    monkeypatch.setattr(judge, "stdout_gone", gone.append)
    out = Closed()
    lines = io.BytesIO((json.dumps(GOOD) + "\n").encode() * 3)
    assert judge.main(stdin=lines, stdout=out) == 0 and gone == [out] and Closed.writes == 1


def test_missing_and_wrong_typed_fields_are_bad_requests_not_internal_errors():
    requests = [
        {"game": "hand5"},
        {"game": "hand5", "cards": [[1], 2, 3, 4, 5]},
        {"game": "craps", "minimum": 5, "field_12": 2, "max_odds": [3, 4, 5], "rolls": [],
         "bets": [{"id": "a", "type": "pass_odds", "amount": 1, "at": 0, "on": [1]}]},   # was TypeError
        {"game": "craps", "minimum": 5, "field_12": 2, "max_odds": [3, 4, 5], "rolls": [], "bets": [{"id": "a"}]},
        {"game": "omaha_round", "structure": "pot_limit", "small_blind": 5, "big_blind": 10,
         "button": "\u00b2", "stacks": {"1": 100, "2": 100}, "deck": [], "actions": []},   # was ValueError
    ]
    out = run_judge(b"".join(json.dumps(r).encode() + b"\n" for r in requests))
    assert out[0] == {"error": "missing field 'cards'"}
    assert "card code must be a string" in out[1]["error"]
    assert out[2] == {"error": "bets[0].on must be the id (a string or a number) of an earlier bet"}
    assert out[3] == {"error": "missing field 'type'"}
    assert "button must be a seat number" in out[4]["error"]


def _boom(request):
    return {}["no such key"]            # an engine bug: a KeyError that is not about the request


def test_help_is_printed_and_an_argument_refused_rather_than_read_from_stdin():
    # `python -m tools.judge --help` printed nothing and sat waiting on the terminal's stdin: every
    # argument was ignored. Now --help prints the usage and games; any other argument is a usage error.
    proc = subprocess.run([sys.executable, "-m", "tools.judge", "--help"], input=b"", capture_output=True,
                          cwd=REPO, timeout=60)
    assert proc.returncode == 0 and proc.stderr == b""
    text = proc.stdout.decode()
    assert text.startswith("usage: python -m tools.judge") and "omaha_round" in text
    proc = subprocess.run([sys.executable, "-m", "tools.judge", "requests.jsonl"], input=json.dumps(GOOD).encode(),
                          capture_output=True, cwd=REPO, timeout=60)
    assert proc.returncode == 2 and proc.stdout == b""
    assert b"unrecognized arguments: requests.jsonl" in proc.stderr


def _unencodable(request):
    return {"value": object()}


def test_engine_fault_is_an_internal_error_with_its_type_and_the_judge_goes_on(monkeypatch):
    monkeypatch.setitem(judge.HANDLERS, "boom", (__name__, "_boom"))
    monkeypatch.setitem(judge.HANDLERS, "odd", (__name__, "_unencodable"))
    stdin = io.BytesIO(b'{"game": "boom"}\n{"game": "odd"}\n' + json.dumps(GOOD).encode() + b"\n")
    stdout = io.StringIO()
    assert judge.main(stdin, stdout) == 0
    out = [json.loads(line) for line in stdout.getvalue().splitlines()]
    assert out[0] == {"error": "internal error: KeyError: 'no such key'"}
    assert out[1]["error"].startswith("internal error: TypeError: Object of type object")
    assert out[2] == GOOD_ANSWER


# --- every kind of damage to valid requests: always one answer, never an internal error ---------------

VALID = [
    {"game": "baccarat", "method": 1, "commission": "A", "cards": ["9h", "5d", "Kc", "2s", "3c"],
     "bets": {"player": 100, "tie": 20}, "tie_option": "standing"},
    {"game": "baccarat_roads", "results": ["banker", {"winner": "player", "player_pair": True}, "tie"]},
    {"game": "craps", "field_12": 2, "max_odds": [3, 4, 5], "minimum": 5,
     "rolls": [[2, 2], [5, 6], [1, 3], {"dice": [3, 4], "valid": False}],
     "bets": [{"id": "p", "type": "pass", "amount": 10, "at": 0},
              {"id": "po", "type": "pass_odds", "amount": 20, "at": 1, "on": "p"},
              {"id": "h4", "type": "hard", "number": 4, "amount": 5, "at": 1},
              {"id": "s", "type": "big_or_small", "side": "small", "amount": 5, "at": 3}]},
    GOOD,
    {"game": "omaha_hand", "hole": ["Ah", "Kh", "2c", "3d"], "board": ["Qh", "Jh", "Th", "4s", "5s"]},
    {"game": "omaha_round", "structure": "pot_limit", "small_blind": 5, "big_blind": 10, "button": "1",
     "stacks": {"1": 1000, "2": 1000, "3": 1000},
     "deck": ["As", "Kd", "2c", "3d", "Ah", "Kh", "2d", "3h", "Ac", "Ks", "2h", "3s",
              "Qc", "Qd", "Qh", "4c", "5c", "7d", "9h", "8c", "8d", "Jc", "Jd"],
     "actions": [["1", "call"], ["2", "call"], ["3", "check"], ["2", "bet", 20], ["3", "fold"], ["1", "call"],
                 ["2", "check"], ["1", "check"], ["2", "check"], ["1", "check"]],
     "rake": {"percent": 5, "cap_big_blinds": 5}},
]
_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-10 ** 20, 10 ** 20), st.floats(), st.text(max_size=4),
                     st.sampled_from(["", "1", "Ah", "pass", "player", "\u00b2", "1e400"]))
_VALUES = st.recursive(_SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                         st.dictionaries(st.text(max_size=3), inner, max_size=3)),
                       max_leaves=6)


def _paths(obj, prefix=()):
    if prefix:
        yield prefix
    items = obj.items() if isinstance(obj, dict) else enumerate(obj) if isinstance(obj, list) else ()
    for key, value in items:
        yield from _paths(value, prefix + (key,))


@st.composite
def _damaged(draw):
    request = json.loads(json.dumps(draw(st.sampled_from(VALID))))
    for _ in range(draw(st.integers(1, 3))):
        paths = [p for p in _paths(request) if p != ("game",)]
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent = request
        for key in path[:-1]:
            parent = parent[key]
        if draw(st.booleans()):
            del parent[path[-1]]
        else:
            parent[path[-1]] = draw(_VALUES)
    return request


def test_valid_requests_are_answered():
    for request in VALID:
        assert "error" not in judge.answer(json.dumps(request)), request


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(_damaged())
def test_damaged_requests_get_one_answer_and_never_an_internal_error(request):
    answer = judge.answer(json.dumps(request))
    assert isinstance(answer, dict)
    assert not answer.get("error", "").startswith(judge.INTERNAL_ERROR), (request, answer)
    json.dumps(answer)
