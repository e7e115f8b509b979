"""tools.replay with the host away: {"host": "away"} cuts the host line both ways until {"host": "back"} (or the
end of the input); what the board refused meanwhile, its store full, is printed as link_lost in its place.

docs/protocol.md, "Replay input"; docs/host-link.md, "When the host is away". The golden run is
tests/host/replay_scripts/craps_host_away (test_replay.py replays it byte for byte).
"""
import io
import json
import os

import pytest

from firmware.link import sender as sender_mod
from hostsim.headless import HeadlessTable
from tests.host.replay_seq import lost_total, seq_problems
from tools import replay as replay_tool
from tools.replay_input import run_line

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPTS = os.path.join(REPO, "tests", "host", "replay_scripts")
BOARD = os.path.join(REPO, "boards", "sim.json")
CRAPS = os.path.join(REPO, "boards", "tables", "sim-craps.json")
AWAY, BACK = {"host": "away"}, {"host": "back"}
POINT_6 = [{"bets": {"1": {"pass": 10}}}, {"dice": [2, 4]}]
NOTHING_DECIDED = {"dice": [3, 5]}                  # an easy 8 with the point at 6
POINT_MADE = {"dice": [1, 5]}


def _run(tmp_path, lines, *extra, state="state", table=CRAPS):
    """tools.replay.main in this process -> (status, output lines, stderr)."""
    path = tmp_path / ("%s.jsonl" % state)
    path.write_text("".join((l if isinstance(l, str) else json.dumps(l)) + "\n" for l in lines))
    out, err = io.StringIO(), io.StringIO()
    status = replay_tool.main(["--table", table, "--state-dir", str(tmp_path / state), *extra, str(path)],
                              stdout=out, stderr=err)
    return status, out.getvalue().splitlines(), err.getvalue()


def _reports(lines):
    return [json.loads(line) for line in lines]


def _long_absence(throws=70):
    return POINT_6 + [AWAY] + [NOTHING_DECIDED] * throws + [BACK, {"wait_ms": 10000}, POINT_MADE]


# -- the invariant the tests lean on can fail -------------------------------------------------------
def test_the_seq_check_finds_a_gap_no_notice_accounts_for():
    seq = lambda n: json.dumps({"seq": n, "event": "x"})            # noqa: E731
    lost = lambda n: json.dumps({"event": "link_lost", "reports": n})   # noqa: E731
    assert seq_problems([seq(1), seq(2), lost(2), seq(5)]) == []
    assert seq_problems([seq(1), seq(2), seq(5)]) and seq_problems([seq(1), lost(1), seq(4)])
    assert seq_problems([seq(1), seq(2), lost(2), seq(1)]) == []      # the last two of a boot: not checkable
    assert seq_problems([seq(1), seq(2), lost(2), seq(3)])            # 2 counted, none missing
    assert seq_problems([seq(1), seq(2), seq(3), lost(2), seq(3)]) == []     # a boot whose first two were refused
    assert seq_problems([seq(1), seq(2), seq(3), seq(3)])            # ... with no notice: unaccounted


# -- a long absence: the store fills, the board refuses reports, the host is told ----------------
def test_a_long_absence_raises_the_backlog_then_prints_the_lost_count_in_place_of_the_refused_reports(tmp_path):
    status, lines, err = _run(tmp_path, _long_absence())
    assert status == 0, err
    reports = _reports(lines)
    notices = [r for r in reports if r.get("event") == "link_lost"]
    assert notices and all(set(n) == {"event", "reports"} and n["reports"] > 0 for n in notices)
    assert seq_problems(lines) == []                       # every missing seq counted, none twice
    seqs = [r["seq"] for r in reports if "seq" in r]
    assert len(set(range(1, seqs[-1] + 1)) - set(seqs)) == lost_total(lines) > 0
    # The table's alarm as the firmware reports it: raised at 75 % of the 64 frames, cleared at 50 %.
    backlog = [r for r in reports if r.get("fault") == "link_backlog"]
    assert backlog[0]["frames_held"] == 48 and "cleared" not in backlog[0]
    assert backlog[-1].get("cleared") is True and backlog[-1]["frames_held"] <= 32
    at = reports.index(notices[0])
    assert reports.index(backlog[0]) < at < reports.index(backlog[-1])
    # the point made after the host came back is paid, and printed once
    assert [r["nets"] for r in reports if r.get("dice") == [1, 5]] == [{"1": {"pass": 10}}]


def test_the_golden_absence_refuses_a_come_out_while_the_backlog_is_up():
    with open(os.path.join(SCRIPTS, "craps_host_away.out.jsonl")) as f:
        lines = f.read().splitlines()
    reports = _reports(lines)
    assert seq_problems(lines) == [] and lost_total(lines) > 0
    refused = [r for r in reports if r.get("event") == "throw" and r["valid"] is False]
    assert refused and all(r["no_roll"] == "alarm" for r in refused)
    assert {"seq": refused[0]["seq"] + 2, "table": "SIM-C1", "event": "fault", "fault": "link_backlog",
            "card": None} in reports


def test_a_headless_table_without_notices_prints_none(tmp_path):
    """The default (hostsim.autoplay, the floor's simulated table) is unchanged: the gap alone."""
    out = []
    table = HeadlessTable(BOARD, CRAPS, str(tmp_path), out.append)
    try:
        table.boot()
        table.wait_booted()
        for line in _long_absence():
            run_line(table, json.dumps(line))
        assert table.catch_up(replay_tool.CATCH_UP_MS)
    finally:
        table.close()
    assert out and not any("link_lost" in line for line in out) and seq_problems(out)


# -- a short absence: nothing lost, nothing shown --------------------------------------------------
def _golden(name):
    with open(os.path.join(SCRIPTS, name + ".in.jsonl")) as f:
        script = f.read().splitlines()
    with open(os.path.join(SCRIPTS, name + ".out.jsonl")) as f:
        return script, f.read().splitlines()


@pytest.mark.parametrize("extra", [(), ("--line-noise", "0.01", "--seed", "5")])
def test_a_short_absence_prints_exactly_what_the_script_without_it_prints(tmp_path, extra):
    script, expected = _golden("craps_point_cycle")
    away = script[:2] + [json.dumps(AWAY), json.dumps({"wait_ms": 20000})] + script[2:4] + [json.dumps(BACK)] \
        + script[4:]
    status, lines, err = _run(tmp_path, away, *extra)
    assert status == 0, err
    assert lines == expected


def test_input_that_ends_with_the_host_away_brings_it_back_for_the_catch_up(tmp_path):
    script, expected = _golden("craps_point_cycle")
    status, lines, err = _run(tmp_path, script[:3] + [json.dumps(AWAY)] + script[3:], state="short")
    assert (status, lines) == (0, expected), err
    long = _long_absence()[:-3]                          # away to the end: no back line
    status, lines, err = _run(tmp_path, long, state="long")
    status_back, lines_back, _ = _run(tmp_path, long + [BACK], state="back")
    assert status == status_back == 0, err
    assert lines == lines_back and lost_total(lines) > 0 and seq_problems(lines) == []


def test_a_long_absence_on_a_noisy_line_accounts_for_every_seq(tmp_path):
    """What the host had acknowledged when its line was cut depends on the noise (so when the alarm rises and
    how many reports the full store refuses): the output need not be the quiet line's, but adds up."""
    status, lines, err = _run(tmp_path, _long_absence(), "--line-noise", "0.01", "--seed", "3")
    assert status == 0, err
    assert seq_problems(lines) == [] and lost_total(lines) > 0
    assert [r["nets"] for r in _reports(lines) if r.get("dice") == [1, 5]] == [{"1": {"pass": 10}}]


# -- malformed host lines ----------------------------------------------------------------------------
@pytest.mark.parametrize("lines, message", [
    ([{"host": "gone"}], "line 1: unknown host word 'gone' (expected away, back)"),
    ([{"host": True}], "line 1: host must be a string, got a boolean"),
    ([{"host": ["away"]}], "line 1: host must be a string, got an array"),
    ([{"host": "away", "ms": 5}], "line 1: unknown key 'ms' in a host line (it takes no other key)"),
    ([{"host": "back"}], "line 1: the host is not away (no {\"host\": \"away\"} line before this one)"),
    ([AWAY, AWAY], "line 2: the host is away already"),
    ([AWAY, {"raw": {"port": "host", "hex": "0a"}}], "line 2: raw on the host port: the host is away (its line "
                                                       "is cut both ways); a {\"host\": \"back\"} line first"),
])
def test_a_malformed_host_line_is_status_2_naming_it(tmp_path, lines, message):
    status, out, err = _run(tmp_path, lines)
    assert status == 2 and err.startswith("replay: " + message) and err.count("\n") == 1
    assert [r["event"] for r in _reports(out)] == ["boot", "state", "state"]      # printed up to the line


@pytest.mark.parametrize("table, line", [("sim-baccarat", {"roads": True}), ("sim-omaha", {"hand": {}}),
                                          ("sim-craps", {"recall": 10}), ("sim-craps", {"open_bets": True})])
def test_a_host_request_while_the_host_is_away_is_refused(tmp_path, table, line):
    out, err = io.StringIO(), io.StringIO()
    path = tmp_path / "in.jsonl"
    path.write_text(json.dumps(AWAY) + "\n" + json.dumps(line) + "\n")
    status = replay_tool.main(["--table", os.path.join(REPO, "boards", "tables", table + ".json"), str(path)],
                              stdout=out, stderr=err)
    assert status == 2
    assert err.getvalue() == "replay: line 2: %s: the host is away (its line is cut both ways); a {\"host\": " \
                             "\"back\"} line first\n" % next(iter(line))


# -- away across a power cut -----------------------------------------------------------------------
def test_the_host_away_across_a_power_cut_hears_both_boots_when_back(tmp_path):
    lines = POINT_6 + [AWAY] + [NOTHING_DECIDED] * 30 + [{"power_cut": True}] + [NOTHING_DECIDED] * 40 \
        + [BACK, {"wait_ms": 10000}, POINT_MADE]
    status, out, err = _run(tmp_path, lines)
    assert status == 0, err
    reports = _reports(out)
    assert [r["event"] for r in reports].count("boot") == 2
    assert [r for r in reports if r["event"] == "recovered"][0]["state"] == "point"
    assert seq_problems(out) == [] and lost_total(out) > 0
    assert [r["nets"] for r in reports if r.get("dice") == [1, 5]] == [{"1": {"pass": 10}}]


_SEND = sender_mod.Sender.send
_INIT = sender_mod.Sender.__init__

class _ByBoot:
    """One replay's two sides by boot number, which its output does not carry (a boot's seqs start again at 1,
    and a boot the host never heard leaves no trace there): `made`, every report the firmware made, (boot, the
    seq send() gave it or 0: refused, the report, the frames held before it); `heard`, every report and link
    notice the host client delivered, ((boot, seq) of its frame, its JSON text). `keys`, beside `made`: which
    report it is across boots: a journalled event's (event, its place among that event's reports), the same
    when a replay after a reset makes it again (the link store's tag counts the reports stored, and those a
    replay skips: the host has them; those refused follow them: in one pass no acknowledgement frees a slot);
    a boot's own ("own", boot, its place in `made`)."""

    def __init__(self, monkeypatch):
        self.made = []
        self.keys = []
        self.heard = []
        self._refused = {}           # (boot, event) -> its reports refused so far in that boot
        self.carried = {}            # boot -> own reports of boots before it its sender started counting

        def logged_send(sender, payload, type=sender_mod.REPORT, checked=False):
            held = sender.held()
            event, stored = sender.store.event, sender.store.report
            seq = _SEND(sender, payload, type, checked)
            text = payload if isinstance(payload, str) else bytes(payload).decode()
            self.made.append((sender.boot, seq, json.loads(text), held))
            refused = self._refused.get((sender.boot, event), 0)
            self.keys.append((event, stored + refused) if event else ("own", sender.boot, len(self.made)))
            if not seq:
                self._refused[(sender.boot, event)] = refused + 1
            return seq

        def noted_init(sender, port, store, boot, *args, **kwargs):
            carried = store.own_refused     # the count a boot before left on flash (read first: the sender's
            _INIT(sender, port, store, boot, *args, **kwargs)     # LOST frame may spend it at once, with room)
            self.carried[boot] = carried

        monkeypatch.setattr(sender_mod.Sender, "send", logged_send)
        monkeypatch.setattr(sender_mod.Sender, "__init__", noted_init)

    def accounts(self):
        """(reports made, none heard: their keys, the LOST frames' count): every report made is delivered (a
        frame of it heard, in any boot that made it) or counted, once, whichever boot made it."""
        heard = set(position for position, _ in self.heard)
        delivered = set(key for key, (boot, seq, _, _) in zip(self.keys, self.made) if seq and (boot, seq) in heard)
        missing = set(self.keys) - delivered
        return len(missing), lost_total([text for _, text in self.heard])

    def replay(self, tmp_path, name, lines, **cuts):
        """tools.replay's replay() of lines (dicts) in a state dir of its own -> its output lines."""
        out = []
        replay_tool.replay([json.dumps(l) for l in lines], CRAPS, BOARD, str(tmp_path / name), out.append,
                           started=self._started, **cuts)
        return out

    def _started(self, table):
        client = table.client
        feed = client.feed

        def noted_feed(data):
            reports, reply = feed(data)
            for report, position in zip(reports, client.positions):
                self.heard.append((position, report if isinstance(report, str) else json.dumps(report)))
            return reports, reply

        client.feed = noted_feed

    def boot_reports(self):
        """{boot: how the host has its boot report} for each boot that made one: "first" (heard, the first
        report of its boot), "counted" (refused: a LOST frame of its boot counts it), "carried" (refused, its
        boot cut before a LOST frame: a later boot started with a count left on flash, its first LOST frame
        counts it), else "unaccounted"."""
        heard = dict(self.heard)
        lost_in = set(boot for (boot, _), text in self.heard if '"link_lost"' in text)
        found = {}
        for boot, seq, report, _ in self.made:
            if report["event"] == "boot":
                got = json.loads(heard.get((boot, seq), "{}"))
                if seq and got.get("event") == "boot" and got["seq"] == 1:
                    found[boot] = "first"
                elif not seq and boot in lost_in:
                    found[boot] = "counted"
                elif not seq and [later for later, count in self.carried.items() if later > boot and count]:
                    found[boot] = "carried"
                else:
                    found[boot] = "unaccounted"
        return found

    def full_at_boot(self):
        """The boots whose boot report found the store's 64 frames taken (the kept slots' case)."""
        return [boot for boot, _, report, held in self.made if report["event"] == "boot" and held >= 64]

    def seq_problems(self):
        """tests/host/replay_seq.py's check boot by boot: each boot's reports and notices as the host has them.
        A boot's first link_lost also counts the own reports of the boots before it that they refused and
        could not count before their power went (`carried`: no seq of this boot is theirs): those apart."""
        problems = []
        for boot in sorted(set(position[0] for position, _ in self.heard)):
            lines = [text for position, text in self.heard if position[0] == boot]
            carried = self.carried.get(boot, 0)
            for i, text in enumerate(lines):
                if carried and '"link_lost"' in text:
                    counted = json.loads(text)["reports"]
                    if counted < carried:
                        problems.append("boot %d: its first link_lost counts %d, %d carried" % (boot, counted, carried))
                    lines[i] = json.dumps({"event": "link_lost", "reports": counted - carried})
                    lines = lines if counted > carried else lines[:i] + lines[i + 1:]
                    break
            problems += ["boot %d: %s" % (boot, problem) for problem in seq_problems(lines)]
        return problems


def test_a_cut_while_the_host_is_away_or_catching_up_still_reports_the_boot(tmp_path, monkeypatch):
    """A power cut anywhere in a long absence and the catch-up after it. A cut while the store is full (the host
    away, or back but not yet caught up): the next boot's first frames take the slots kept for them
    (firmware/link/sender.py, boot_frames): the host hears its boot report (reset_cause, settings) as the
    first report of its boot. Before, the store refused them: the host heard a link_lost 2, then that boot
    from its seq 3."""
    cut = full = 0
    for writes in range(20, 320, 30):
        by_boot = _ByBoot(monkeypatch)
        out = by_boot.replay(tmp_path, "cut%d" % writes, _long_absence(), cut_after_writes=writes)
        assert seq_problems(out) == [] and by_boot.seq_problems() == [], writes
        boot_reports = by_boot.boot_reports()
        assert set(boot_reports.values()) == {"first"}, (writes, boot_reports)
        missing, counted = by_boot.accounts()      # none counted twice (a replay makes the refused again)
        assert missing == counted, (writes, missing, counted)
        cut += len(boot_reports) > 1        # (a run of fewer writes than that has no cut)
        full += len(by_boot.full_at_boot())
    assert cut >= 6 and full                # the case the kept slots are for was among them


def test_a_second_cut_while_the_store_is_still_full_loses_no_boot_report(tmp_path, monkeypatch):
    """The boot after a cut with the store full, cut in turn before the host came back (after 6, 9 or 12
    flash writes of its own: its boot report made; then its `recovered`, refused; then its reset_in_round
    fault too). Its boot report is heard, the first of its boot, from the kept slots. The boot after it finds
    them taken: the store refuses its boot report and the reports after it, and their LOST frame is the first
    thing after its OPEN. Before, the middle boot's own reports were refused, and lost with it uncounted: the
    host saw only a gap in the boot numbers. Its own reports past the kept slots, refused, are counted too:
    their count is on flash, the next boot's LOST frame counts them (before, lost with the boot: neither
    delivered nor counted, the one case the boot-by-boot check let pass). Every report made, in any boot, is
    delivered or counted once. (Checked boot by boot: tools.replay's output alone runs the boots' seqs
    together.)"""
    lines = POINT_6 + [AWAY] + [NOTHING_DECIDED] * 70 + [{"power_cut": True}] + [NOTHING_DECIDED] * 5 \
        + [BACK, {"wait_ms": 10000}, POINT_MADE]
    own_refused_then_cut = 0
    for second in (6, 9, 12):
        by_boot = _ByBoot(monkeypatch)
        by_boot.replay(tmp_path, "second%d" % second, lines, cut_after_writes=10 ** 6, then_cut_after=(second,))
        assert by_boot.boot_reports() == {1: "first", 2: "first", 3: "counted"}, second
        assert by_boot.full_at_boot() == [2, 3] and by_boot.seq_problems() == [], second
        third = [text for (boot, _), text in by_boot.heard if boot == 3]
        assert json.loads(third[0])["event"] == "link_lost", second
        own_refused = [r["event"] for (boot, seq, r, _), key in zip(by_boot.made, by_boot.keys)
                       if boot == 2 and not seq and key[0] == "own"]
        own_refused_then_cut += len(own_refused)
        missing, counted = by_boot.accounts()
        assert missing == counted, (second, missing, counted, own_refused)
    assert own_refused_then_cut                    # the case: boot 2's own reports refused, then its power cut


def test_a_third_cut_before_the_host_came_back_leaves_a_count_the_next_boot_says(tmp_path, monkeypatch):
    """Three cuts in a row with the store full: the third boot finds the kept slots taken (the second's frames
    hold them), the store refuses its boot report, and its power goes before its LOST frame. The count is on
    flash (firmware/link/journal_store.py, refused_report): the fourth boot starts with it and its first
    link_lost counts it. Every report made, in any boot, is delivered or counted once (found by a sweep of
    triple cuts; the boot-by-boot check read a boot's carried count after its sender had spent it)."""
    by_boot = _ByBoot(monkeypatch)
    by_boot.replay(tmp_path, "third", _long_absence(), cut_after_writes=212, then_cut_after=(7, 3))
    reports = by_boot.boot_reports()
    # (the fourth finds the kept slots taken too: its own boot report refused, counted by its LOST frame)
    assert reports == {1: "first", 2: "first", 3: "carried", 4: "counted"}, reports
    assert by_boot.carried[4] and by_boot.seq_problems() == []
    fourth = [json.loads(text) for (boot, _), text in by_boot.heard if boot == 4]
    assert fourth[0]["event"] == "link_lost" and fourth[0]["reports"] > by_boot.carried[4], fourth[:2]
    missing, counted = by_boot.accounts()
    assert missing == counted, (missing, counted)


def test_a_cut_in_the_boot_report_of_a_boot_after_a_cut_leaves_a_piece_the_host_reports(tmp_path, monkeypatch):
    """The middle boot cut after 3 flash writes: its OPEN and the first piece of its boot report are on flash,
    the cut is in the write of its last (event 0's frames are written at once). The host has what there is:
    a link_part_lost with the piece's text (reset_cause in it), then the next boot's boot report, the first of
    its boot (the kept slots it finds left hold it)."""
    lines = POINT_6 + [AWAY] + [NOTHING_DECIDED] * 70 + [{"power_cut": True}] + [NOTHING_DECIDED] * 5 \
        + [BACK, {"wait_ms": 10000}, POINT_MADE]
    by_boot = _ByBoot(monkeypatch)
    by_boot.replay(tmp_path, "second3", lines, cut_after_writes=10 ** 6, then_cut_after=(3,))
    assert by_boot.boot_reports() == {1: "first", 3: "first"}         # boot 2's was never made whole
    second = [json.loads(text) for (boot, _), text in by_boot.heard if boot == 2]
    assert [r["event"] for r in second] == ["link_part_lost"] and '"event": "boot"' in second[0]["text"]
    assert by_boot.seq_problems() == []


def test_a_baccarat_table_holds_the_first_card_of_a_round_while_the_host_is_away_and_deals_it_when_back(tmp_path):
    """docs/host-link.md's table: the round's first card in `betting` refused (`link_backlog` with the card), the
    full store's refusals counted; back, the backlog cleared, CONFIRM deals the held card as the round's first."""
    with open(os.path.join(SCRIPTS, "baccarat_round.in.jsonl")) as f:
        burn = f.read().splitlines()[:9]                        # a new shoe and its 8 burn cards
    rounds = []
    for suits in ("hdcs", "cshd", "dhsc", "schd") * 2:          # 9 2 K 3: Player's natural 9 each time
        rounds += [{"bets": {"3": {"banker": 100}}}] + [{"card": rank + suit} for rank, suit in zip("92K3", suits)]
    status, out, err = _run(tmp_path, burn + [AWAY] + rounds + [{"button": "confirm"}] * 6
                            + [BACK, {"wait_ms": 10000}, {"button": "confirm"}], state="baccarat",
                            table=os.path.join(REPO, "boards", "tables", "sim-baccarat.json"))
    assert status == 0, err
    reports = _reports(out)
    assert seq_problems(out) == [] and lost_total(out) > 0
    held = [r for r in reports if r.get("fault") == "link_backlog" and "card" in r]
    assert held and held[0]["card"] is not None
    cleared = [r for r in reports if r.get("fault") == "link_backlog" and r.get("cleared")]
    after = reports[reports.index(cleared[-1]):]
    dealt = [r for r in after if r.get("event") == "card"]
    assert dealt[0]["card"] == held[-1]["card"] and dealt[0]["to"] == "player"
    assert [r["event"] for r in after].index("round") < [r["event"] for r in after].index("card")


def test_after_a_cut_the_replay_waits_for_this_boots_lamp_test_not_an_earlier_boots_the_host_hears_late(tmp_path):
    """Found by a sweep of power cuts with host absences: a boot the host never heard (it was away) sends its
    `boot` and `state` reports after the next cut, before the new boot's own; the replay took them for the new
    boot past its lamp test and went on while it was still starting: no dealer's CONFIRM of its
    reset_in_round, every throw after it refused (no_roll "alarm"). The host's view of the game is the same
    with the absence as without it."""
    game = [{"dice": [3, 4]}, {"power_cut": True}, {"bets": {"11": {"hard_8": 50}}}, {"power_cut": True},
            {"dice": [4, 4]}, {"dice": [6, 6]}]
    away = [AWAY] + game[:2] + [BACK] + game[2:]
    views = []
    for name, lines in (("plain", game), ("away", away)):
        status, out, err = _run(tmp_path, lines, state=name)
        assert status == 0, err
        assert seq_problems(out) == []
        views.append([{k: v for k, v in r.items() if k != "seq"} for r in _reports(out)
                      if r.get("event") in ("throw", "bets", "puck", "fault_ack")])
    assert views[1] == views[0]
    assert views[0][-3:] == [{"table": "SIM-C1", "event": "throw", "dice": [4, 4], "valid": True, "point": 8,
                              "shooter_change": False, "nets": {"11": {"hard_8": 450}}},
                             {"table": "SIM-C1", "event": "puck", "puck": "on", "point": 8},
                             {"table": "SIM-C1", "event": "throw", "dice": [6, 6], "valid": True, "point": 8,
                              "shooter_change": False}]
