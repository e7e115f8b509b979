"""Recall over the host link and the console after a few rounds of each game, across a reboot
(tools.replay --state-dir D twice), a RECALL asked again over a noisy line until answered, and
tools.host --recall (issues 12, 13); tools.host --open-bets."""
import json
import os

import pytest

from firmware.link import frame as fm
from hostsim.headless import HeadlessTable, board_path
from hostsim.line_noise import LineNoise
from tools import host as host_mod
from tools.host import RecallAsker
from tools.replay import main as replay_main
from tests.host.test_host_client import _FakeSerial

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPTS = os.path.join(ROOT, "tests", "host", "replay_scripts")


def _replay(state, table, script_lines, path=None):
    import io
    if path is None:
        path = os.path.join(state, "input.jsonl")
        with open(path, "w") as f:
            f.write("".join(json.dumps(line) + "\n" for line in script_lines))
    out = io.StringIO()
    err = io.StringIO()
    assert replay_main(["--table", table, "--state-dir", state, path], stdout=out, stderr=err) == 0, err.getvalue()
    return [json.loads(line) for line in out.getvalue().splitlines()]


def _recall_frame_hex(count):
    return " ".join("%02x" % c for c in fm.encode(0, 0, "RECALL", "%d" % count))


_GAMES = [
    ("baccarat", "baccarat_round", "result", "round 1 9h 2d Kc 3s player 9-5  3:-110 5:+43"),
    ("craps", "craps_point_cycle", "throw", "throw 4 shooter 1 1-5 point_made  1:+34 2:-10"),
    ("omaha", "omaha_every_street", "hand_result", "hand 1 board "),
]


@pytest.mark.parametrize("game,script,event,last_line", _GAMES)
def test_recall_after_a_reboot_from_the_console_and_the_host_link(tmp_path, game, script, event, last_line):
    """A golden script's rounds on the simulated flash; the next boot (the same state dir) gives them
    back on the console (`recall`) and to the host's RECALL, one `recall` report a round."""
    state = str(tmp_path)
    table = os.path.join(ROOT, "boards", "tables", "sim-%s.json" % game)
    played = _replay(state, table, None, os.path.join(SCRIPTS, script + ".in.jsonl"))
    ends = [r for r in played if r.get("event") == event]
    assert ends
    again = _replay(state, table, [{"console": "recall 100"}, {"console": "recall x"},
                                   {"raw": {"port": "host", "hex": _recall_frame_hex(100)}}])
    console = [r["console"] for r in again if "console" in r]
    shown = console[1:console.index("> recall x")]
    assert console[0] == "> recall 100" and shown and all(len(line) < 80 for line in shown)
    assert shown[-1].startswith(last_line), shown
    # The reboot resumed the table from its journal and replayed the rounds' events: each round is
    # still kept once (a replayed result is not kept again).
    assert len(shown) == len(ends), shown
    assert console[console.index("> recall x") + 1] == "error: usage: recall [N] (N 1..100, default 10)"
    answers = [r for r in again if r.get("event") == "recall"]
    assert [a["index"] for a in answers] == list(range(1, len(shown) + 1))
    assert all(a["game"] == game and a["of"] == len(shown) and a["asked"] == 100 for a in answers)
    if game == "baccarat":
        assert [a["round"]["round"] for a in answers] == [r["round"] for r in ends]
        cards = answers[0]["round"]["cards"]
        assert sorted(cards) == sorted(ends[0]["player"] + ends[0]["banker"]) and cards[0] == ends[0]["player"][0]
    elif game == "craps":
        assert [a["round"]["dice"] for a in answers] == [r["dice"] for r in ends]
    else:
        result = ends[-1]
        kept = answers[-1]["round"]
        assert kept["hand"] == result["hand"] and kept["board"] == "".join(result["board"])
        assert kept["winners"] == _winnings(result) and kept["rake"] == result["rake"]
        assert "actions_cut" not in kept and len(" ".join(kept["actions"].values()).split()) == len(
            [r for r in played if r.get("event") == "action" and r["hand"] == result["hand"]])


def _winnings(result):
    won = {}
    for pot in result["pots"]:
        for seat, chips in pot["shares"].items():
            won[seat] = won.get(seat, 0) + chips
    return won


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_recall_lost_on_a_noisy_line_is_asked_again_and_answered_once_whole(tmp_path, seed):
    """Issue 12 (C): 2 % of bytes hit both ways. A RECALL the line damaged is dropped by the board as
    noise (counted, never acted on); the host asks again until the answer begins; the answer's reports
    come through the link's retransmissions complete and in order."""
    reports = []
    noise = (LineNoise(0.02, seed), LineNoise(0.02, seed + 1))
    table = HeadlessTable(board_path("sim"), os.path.join(ROOT, "boards", "tables", "sim-craps.json"), str(tmp_path),
                          lambda line: reports.append(json.loads(line)), noise)
    try:
        table.boot()
        table.wait_booted(120000)
        for d1, d2 in ((5, 6), (3, 3), (4, 1), (4, 3), (1, 1), (6, 6), (2, 5)):
            _throw(table, d1, d2)
        assert table.catch_up(120000)
        asker = RecallAsker(5, lambda: table.now_ms() / 1000.0, repeat_s=1.0)
        seen = len(reports)
        for _ in range(60000):
            frame = asker.due()
            if frame:
                table.io.send("host", noise[1].apply(frame))
            table.step()
            for report in reports[seen:]:
                asker.saw(report)
            seen = len(reports)
            if asker.done:
                break
        assert asker.done and asker.error is None
        answers = [r for r in reports if r.get("event") == "recall"]
        assert [a["index"] for a in answers[:5]] == [1, 2, 3, 4, 5]
        assert [a["round"]["dice"] for a in answers[:5]] == [[4, 1], [4, 3], [1, 1], [6, 6], [2, 5]]
        # Two copies of the request both reached the board: each is answered whole, the same rounds again.
        again = answers[5:]
        assert [a["index"] for a in again] == list(range(1, len(again) + 1))
        assert [a["round"] for a in again] == [a["round"] for a in answers[:len(again)]]
        print("seed %d: RECALL sent %d times, host noise lines %d" % (seed, asker.asked, table.ctx.host_noise))
    finally:
        table.close()


def _throw(table, d1, d2):
    from tools.replay_input import run_line
    run_line(table, json.dumps({"dice": [d1, d2]}))


TAG = 41          # the tag tools.host's request carries in these tests (tools.host.new_tag, drawn at random)


def _tools_host(monkeypatch, line, step_s, args):
    """`python -m tools.host /dev/ttyFAKE ARGS` on `line` (the board's side), its clock moving step_s seconds
    at every look, its requests tagged TAG -> its exit status."""
    clock = [0.0]

    def tick():
        clock[0] += step_s
        return clock[0]

    monkeypatch.setattr(host_mod, "_open", lambda port, baud: line)
    monkeypatch.setattr(host_mod.time, "monotonic", tick)
    monkeypatch.setattr(host_mod, "new_tag", lambda: TAG)
    return host_mod.main(["/dev/ttyFAKE"] + args)


def _host_recall(monkeypatch, capsys, line, n, step_s):
    """tools.host --recall n on `line` -> what it printed (its exit status must be 0)."""
    assert _tools_host(monkeypatch, line, step_s, ["--recall", str(n)]) == 0
    return capsys.readouterr()[0]


def test_tools_host_recall_asks_again_until_the_answer_begins_and_exits_at_its_end(monkeypatch, capsys):
    def report(seq, fields):
        return fm.encode(1, seq, "REPORT", json.dumps(dict({"seq": seq - 1, "table": "T"}, **fields)))

    answer = [report(2, {"event": "recall", "game": "craps", "asked": 2, "index": 1, "of": 2, "round": {"round": 1},
                         "tag": TAG}),
              report(3, {"event": "recall", "game": "craps", "asked": 2, "index": 2, "of": 2, "round": {"round": 2},
                         "tag": TAG})]
    line = _FakeSerial([fm.encode(1, 1, "OPEN", "-"), b"", b""] + answer + [b""] * 5)
    out = _host_recall(monkeypatch, capsys, line, 2, 2.0)
    assert [json.loads(l)["index"] for l in out.splitlines()] == [1, 2]
    assert bytes(line.written).count(fm.encode(0, TAG, "RECALL", "2")) >= 2      # asked again, then stopped
    assert line.closed


def test_tools_host_recall_refused_exits_1_and_a_bad_n_is_a_usage_error(monkeypatch, capsys):
    refusal = fm.encode(1, 2, "REPORT", json.dumps({"seq": 1, "table": "T", "event": "host_error",
                                                     "error": "recall unavailable (x)", "request": "recall",
                                                     "tag": TAG}))
    line = _FakeSerial([fm.encode(1, 1, "OPEN", "-"), refusal, b""])
    assert _tools_host(monkeypatch, line, 0.5, ["--recall", "5"]) == 1
    with pytest.raises(SystemExit):
        host_mod.main(["/dev/ttyFAKE", "--recall", "101"])
    assert "1..100" in capsys.readouterr().err


@pytest.mark.parametrize("seed", [1, 2])
def test_a_roads_request_lost_on_a_noisy_line_is_asked_again_and_answered(tmp_path, seed):
    """The same for a REQUEST (issue 12, C): `roads` asked again every second until its report comes."""
    from tools.host import HostClient
    reports = []
    noise = (LineNoise(0.02, seed), LineNoise(0.02, seed + 1))
    table = HeadlessTable(board_path("sim"), os.path.join(ROOT, "boards", "tables", "sim-baccarat.json"),
                          str(tmp_path), lambda line: reports.append(json.loads(line)), noise)
    try:
        from tools.replay_input import run_line
        table.boot()
        table.wait_booted(120000)
        with open(os.path.join(SCRIPTS, "baccarat_round.in.jsonl")) as f:
            for text in f:
                if text.strip():
                    run_line(table, text)
        asked = 0
        last = None
        for _ in range(60000):
            if not any(r.get("event") == "roads" for r in reports):
                if last is None or table.now_ms() - last >= 1000:
                    last = table.now_ms()
                    asked += 1
                    table.io.send("host", noise[1].apply(HostClient.request(b"roads")))
            elif table.caught_up():
                break
            table.step()
        roads = [r for r in reports if r.get("event") == "roads"]
        assert roads and all(r["bead_plate"] == ["P"] for r in roads)       # one round: Player's natural
        assert not [r for r in reports if r.get("event") == "host_error"]
        print("seed %d: roads asked %d times, %d answers" % (seed, asked, len(roads)))
    finally:
        table.close()


class _BoardAfterAsking(_FakeSerial):
    """Gives `before`, then `after` only once a RECALL frame is written after `before` was read."""

    def __init__(self, before, after, asked):
        super().__init__(before)
        self.after = after
        self.asked = asked
        self.mark = None
        self.waits = 0

    def read(self, n):
        if not self.chunks and self.after is not None:
            if self.mark is None:
                self.mark = len(self.written)
            if self.asked in bytes(self.written[self.mark:]):
                self.chunks, self.after = self.after, None
            elif self.waits < 100:
                self.waits += 1
                self.chunks = [b""]                    # else: given up waiting (KeyboardInterrupt)
        return super().read(n)


def test_tools_host_recall_asks_again_when_the_board_resets_mid_answer(monkeypatch, capsys):
    """The board keeps no request across a reset (its recovery does not answer again): an answer cut
    short by a reset is asked again when the board's new boot report comes, and followed to its end."""
    def report(boot, seq, fields):
        return fm.encode(boot, seq, "REPORT", json.dumps(dict({"seq": seq - 1, "table": "T"}, **fields)))

    def recall(boot, seq, index):
        return report(boot, seq, {"event": "recall", "game": "craps", "asked": 3, "index": index, "of": 3,
                                  "round": {"round": index}, "tag": TAG})

    first = [fm.encode(1, 1, "OPEN", "-"), recall(1, 2, 1), recall(1, 3, 2),
             fm.encode(2, 1, "OPEN", "1.3"), report(2, 2, {"event": "boot"})]
    again = [recall(2, 3, 1), recall(2, 4, 2), recall(2, 5, 3)] + [b""] * 3
    asked = fm.encode(0, TAG, "RECALL", "3")
    line = _BoardAfterAsking(first, again, asked)
    out = _host_recall(monkeypatch, capsys, line, 3, 0.5)
    shown = [json.loads(l) for l in out.splitlines()]
    assert [r.get("index") for r in shown] == [1, 2, None, 1, 2, 3]
    assert bytes(line.written[line.mark:]).count(asked) == 1 and line.chunks == [b""] * 3   # exited at its end


def _report(seq, fields):
    return fm.encode(1, seq, "REPORT", json.dumps(dict({"seq": seq - 1, "table": "T"}, **fields)))


def test_tools_host_open_bets_asks_again_while_the_board_says_so_and_exits_at_the_answer(monkeypatch, capsys):
    no_room = _report(2, {"event": "host_error", "request": "open_bets", "error": "open_bets refused: the answer "
                          "takes 3 frames, the host link has room for 0 now: ask again once it has caught up",
                          "tag": TAG})
    answer = _report(3, {"event": "open_bets", "point": 6, "shooter": 2, "count": 1, "bets": {"1": {"pass": 10}},
                         "tag": TAG})
    asked = host_mod.HostClient.request(b"open_bets", TAG)
    line = _BoardAfterAsking([fm.encode(1, 1, "OPEN", "-"), no_room], [answer] + [b""] * 3, asked)
    assert _tools_host(monkeypatch, line, 2.0, ["--open-bets"]) == 0
    shown = [json.loads(l) for l in capsys.readouterr()[0].splitlines()]
    assert [r["event"] for r in shown] == ["host_error", "open_bets"] and shown[1]["bets"] == {"1": {"pass": 10}}
    assert bytes(line.written).count(asked) >= 2 and line.chunks == [b""] * 3   # asked again, then done


def test_tools_host_open_bets_refused_for_good_exits_1_and_it_excludes_recall(monkeypatch, capsys):
    refusal = _report(2, {"event": "host_error", "error": "not served by this table", "request": "open_bets",
                          "tag": TAG})
    line = _FakeSerial([fm.encode(1, 1, "OPEN", "-"), refusal, b""])
    assert _tools_host(monkeypatch, line, 0.5, ["--open-bets"]) == 1
    assert bytes(line.written).count(host_mod.HostClient.request(b"open_bets", TAG)) == 1
    with pytest.raises(SystemExit):
        host_mod.main(["/dev/ttyFAKE", "--open-bets", "--recall", "3"])
    assert "not allowed with argument" in capsys.readouterr().err


class _BoardAskedAgain(_BoardAfterAsking):
    """_BoardAfterAsking with more phases: each of `phases` given once the request is written again after
    the one before was read."""

    def __init__(self, before, phases, asked):
        super().__init__(before, phases[0], asked)
        self.phases = phases[1:]

    def read(self, n):
        if not self.chunks and self.after is None and self.phases:
            self.after, self.phases, self.mark = self.phases[0], self.phases[1:], None
        return super().read(n)


def test_tools_host_open_bets_passes_over_an_answer_to_an_earlier_request(monkeypatch, capsys):
    """A run stopped before the board's answer was acknowledged leaves it on the board, sent to the next
    run first: the bets open then, not now. It is printed and passed over (no tag, or another run's);
    the run ends at the answer with its own tag (the board gives it back: firmware/host_port.py)."""
    older = _report(2, {"event": "open_bets", "point": None, "shooter": 1, "count": 1, "bets": {"1": {"pass": 10}}})
    other = _report(3, {"event": "open_bets", "point": None, "shooter": 1, "count": 1, "bets": {"1": {"pass": 10}},
                        "tag": TAG + 1})
    throw = _report(4, {"event": "throw", "dice": [3, 4]})
    answer = _report(5, {"event": "open_bets", "point": None, "shooter": 1, "count": 0, "bets": {}, "tag": TAG})
    asked = host_mod.HostClient.request(b"open_bets", TAG)
    line = _BoardAfterAsking([fm.encode(1, 1, "OPEN", "-"), older, other, throw], [answer] + [b""] * 3, asked)
    assert _tools_host(monkeypatch, line, 2.0, ["--open-bets"]) == 0
    shown = [json.loads(l) for l in capsys.readouterr()[0].splitlines()]
    assert [r["event"] for r in shown] == ["open_bets", "open_bets", "throw", "open_bets"]
    assert shown[-1]["count"] == 0 and line.chunks == [b""] * 3                      # the run's own answer: done


def test_tools_host_recall_follows_its_own_answer_not_an_earlier_one(monkeypatch, capsys):
    """An earlier run's RECALL answer still going out when this run asks: the board refuses this run's
    request (`recall busy`, with its tag); the run asks again and follows its own answer to its end,
    not the earlier one's (whose last report would have ended it with the wrong rounds)."""
    def recall(seq, index, of, tag):
        return _report(seq, {"event": "recall", "game": "craps", "asked": of, "index": index, "of": of,
                             "round": {"round": 10 * tag + index}, "tag": tag})

    busy = _report(4, {"event": "host_error", "request": "recall", "error": "recall busy: 1 of 2 rounds sent",
                       "tag": TAG})
    asked = fm.encode(0, TAG, "RECALL", "3")
    line = _BoardAskedAgain([fm.encode(1, 1, "OPEN", "-"), recall(2, 1, 2, 7)],
                            [[recall(3, 2, 2, 7), busy], [recall(5, 1, 3, TAG), recall(6, 2, 3, TAG),
                                                          recall(7, 3, 3, TAG)] + [b""] * 3], asked)
    out = _host_recall(monkeypatch, capsys, line, 3, 2.0)
    shown = [json.loads(l) for l in out.splitlines()]
    assert [(r["event"], r.get("tag"), r.get("index")) for r in shown] == [
        ("recall", 7, 1), ("recall", 7, 2), ("host_error", TAG, None),
        ("recall", TAG, 1), ("recall", TAG, 2), ("recall", TAG, 3)]
    assert line.chunks == [b""] * 3 and not line.phases                               # ended at its own last


def test_tools_host_untagged_asks_without_a_tag_and_takes_the_first_answer(monkeypatch, capsys):
    """--untagged: for a board whose firmware gives no tag back; the first open_bets answer ends it."""
    answer = _report(2, {"event": "open_bets", "point": None, "shooter": 1, "count": 0, "bets": {}})
    asked = host_mod.HostClient.request(b"open_bets")
    line = _BoardAfterAsking([fm.encode(1, 1, "OPEN", "-")], [answer] + [b""] * 3, asked)
    assert _tools_host(monkeypatch, line, 2.0, ["--open-bets", "--untagged"]) == 0
    assert [json.loads(l)["event"] for l in capsys.readouterr()[0].splitlines()] == ["open_bets"]
    assert bytes(line.written).count(asked) >= 1 and b"#0.%d " % TAG not in bytes(line.written)
    assert line.chunks == [b""] * 3                                                   # done at the answer
    with pytest.raises(SystemExit):
        host_mod.main(["/dev/ttyFAKE", "--untagged"])
    assert "--untagged goes with --recall N or --open-bets" in capsys.readouterr().err


def test_tools_host_says_so_when_the_answers_come_without_a_tag(monkeypatch, capsys):
    """A board whose firmware gives no tag back answers every request untagged: the run asks on (none is its
    answer) and, after UNTAGGED_HINT of them, says once what to do (--untagged); stopped here by the fake line
    running dry (KeyboardInterrupt)."""
    def untagged(seq):
        return _report(seq, {"event": "open_bets", "point": None, "shooter": 1, "count": 0, "bets": {}})

    asked = host_mod.HostClient.request(b"open_bets", TAG)
    phases = [[untagged(3 + k)] for k in range(4)]
    line = _BoardAskedAgain([fm.encode(1, 1, "OPEN", "-"), b""], [[untagged(2)]] + phases, asked)
    assert _tools_host(monkeypatch, line, 4.0, ["--open-bets"]) == 0
    out, err = capsys.readouterr()
    assert len(out.splitlines()) == 5
    assert err.count("open_bets reports without a tag came while asking with tag 41") == 1 and "--untagged" in err
