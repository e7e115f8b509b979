"""`make sim --game craps` plays a live table (issue 10): the stickman and bettors on TableIO, headless runs,
the engine as the oracle of every throw, injected invalid throws and cocked dice, the puck in the view."""
import io
import json
import os
import subprocess
import sys

import pytest
from rich.cells import cell_len
from rich.console import Console

from firmware import table_config
from firmware.games.craps import bets as B
from firmware.games.craps import codes as BC
from firmware.games.craps.rules import NET, RESULT, CrapsTable
from firmware.games.craps.zones import KIND_NUMBER, ZONES
from hostsim.craps_autoplay import CrapsRun, CrapsTally
from hostsim.craps_bettors import CrapsBettors
from hostsim.headless import board_path
from hostsim.sim import Quit, Sim
from hostsim.stickman import (COCKED, FAST_PACE, INVALID, INVALID_KINDS, LIVE_PACE, NOT_ROLLED, OFF_TABLE, SHORT,
                              SHORT_WALL)
from tests.host.link_frames import board_frame

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TABLE = os.path.join(REPO, "boards", "tables", "sim-craps.json")
SUMMARY_KEYS = {"game", "shooters", "throws", "no_rolls", "points_made", "seven_outs", "bets_placed", "bets_refused",
                "alarms", "reports", "seed", "virtual_s", "wall_s", "throws_per_s"}
NO_ROLL_KINDS = (OFF_TABLE, SHORT, NOT_ROLLED)          # art. 3(2)(1), 3(2)(2), 2(5)/3(3); short off a wall stands


def _run(tmp_path, seed=5, shooters=None, run=0, **rates):
    # A fresh state dir a run: one left by an earlier run would be resumed from its table journal.
    state = tmp_path / ("state%s-%d" % (seed, run))
    state.mkdir()
    run = CrapsRun(board_path("sim"), TABLE, str(state), seed=seed, **rates)
    run.log = []
    run.on_report = run.log.append
    if shooters is not None:
        try:
            run.play(shooters)
        finally:
            run.close()
    return run


def _events(run, event):
    return [r for r in run.log if r.get("event") == event]


@pytest.fixture(scope="module")
def thirty(tmp_path_factory):
    """One seeded headless run of 30 shooters, shared by the checks below."""
    return _run(tmp_path_factory.mktemp("craps30"), seed=30, shooters=30)


# -- headless runs ---------------------------------------------------------------------------------------------

def test_thirty_shooters_play_with_no_alarm_and_no_refused_bet(thirty):
    tally = thirty.tally
    assert tally.shooters == 30 and len(_events(thirty, "shooter")) == 30
    assert tally.alarms == 0 and tally.bets_refused == 0
    assert not _events(thirty, "bet_refused") and not _events(thirty, "fault")
    assert tally.throws == len(_events(thirty, "throw")) == len(thirty.stickman.sent)
    assert tally.seven_outs == 30            # the table's default: only a seven-out passes the dice (art. 4(2))
    assert tally.bets_placed > 100 and tally.no_rolls > 0 and tally.points_made > 0


def test_the_bettors_play_every_phase_of_the_layout(thirty):
    """Come-out line bets, odds within max_odds on line and come points, come bets, field, props, hard ways and
    big numbers all reach the table (art. 5(2)-(5)), and every stake is a multiple of the minimum (art. 5(6))."""
    settings = table_config.load(TABLE)["rules"]
    seen = set()
    for report in _events(thirty, "bets"):
        for row in report["placed"].values():
            for zone, amount in row.items():
                seen.add(zone.rsplit("_", 1)[0] if zone[-1].isdigit() else zone)
                assert amount % settings.minimum == 0 and 0 < amount <= settings.maximum
    assert {"pass", "dont_pass", "pass_odds", "dont_pass_odds", "come", "dont_come", "come_odds", "field",
            "hard", "big_number"} <= seen
    assert seen & {"any_craps", "any_seven", "eleven", "horn", "aces"}


def test_a_seed_replays_the_same_table(tmp_path):
    a = _run(tmp_path, seed=9, shooters=4)
    b = _run(tmp_path, seed=9, shooters=4, run=1)
    c = _run(tmp_path, seed=10, shooters=4)
    assert a.log == b.log and list(a.stickman.sent) == list(b.stickman.sent)
    assert [r for r in a.log if r.get("event") == "throw"] != [r for r in c.log if r.get("event") == "throw"]


def _oracle_place(engine, seat, zone, amount, bet_zone):
    """Place a reading's bet on the oracle engine as a dealer reads the layout: odds back the seat's line bet."""
    kind, number = KIND_NUMBER[ZONES.index(zone)]
    on = None
    if B.is_odds(kind):
        want = B.odds_parent_kind(kind)
        on = next(b.bet_id for b in engine.bets
                  if b.seat == seat and b.kind == want and b.number and (not number or b.number == number))
        number = 0
    bet_id, reason = engine.place_bet(seat, kind, amount, number, on)
    assert reason is None, (seat, zone, amount, reason)
    bet_zone[bet_id] = zone


def _oracle_travel(engine, bet_zone):
    """After a roll: a come / don't-come bet that got its come point is named by it, "come_6" (Craps art.
    5(2)(5), (6); docs/protocol.md "Craps tables")."""
    for b in engine.bets:
        if b.kind in (BC.COME, BC.DONT_COME) and b.number and bet_zone.get(b.bet_id) in ("come", "dont_come"):
            bet_zone[b.bet_id] = "%s_%d" % (bet_zone[b.bet_id], b.number)


def test_every_throw_decides_what_a_fresh_engine_decides_on_the_same_throws_and_bets(thirty):
    """The oracle: a fresh rules.CrapsTable fed the readings the table took and the throws the stickman sent
    gives each throw report's validity, point, shooter change and nets (Craps arts. 3-5)."""
    engine = CrapsTable(table_config.load(TABLE)["rules"])
    bet_zone = {}
    sent = list(thirty.stickman.sent)
    throws = 0
    for report in thirty.log:
        event = report.get("event")
        if event == "bets":
            for seat in sorted(report["placed"], key=int):
                row = report["placed"][seat]
                for zone in ZONES:                  # the controller's order: line bets before their odds
                    if zone in row:
                        _oracle_place(engine, int(seat) - 1, zone, row[zone], bet_zone)
        elif event == "throw":
            throw = sent[throws]
            throws += 1
            assert report["dice"] == [throw.d1, throw.d2] and report.get("flags", []) == list(throw.flags)
            assert report.get("cocked", []) == list(throw.cocked)
            dice = {"dice": [throw.d1, throw.d2], "flags": list(throw.flags), "cocked": list(throw.cocked)}
            resolved = engine.roll(dice)
            assert report["valid"] == (engine.last_no_roll is None)
            assert report["point"] == (engine.point or None)
            assert report["shooter_change"] == engine.shooter_changed
            nets = {}
            for r in resolved:
                row = nets.setdefault(str(r[1] + 1), {})
                zone = bet_zone.pop(r[0])
                row[zone] = row.get(zone, 0) + r[NET]
                assert r[RESULT] in ("win", "lose", "push")
            _oracle_travel(engine, bet_zone)
            assert report.get("nets", {}) == nets
    assert throws == len(sent) > 100


def test_injected_invalid_throws_are_no_rolls_with_their_reason_and_decide_nothing(tmp_path):
    run = _run(tmp_path, seed=4, invalid_rate=0.3, cocked_rate=0.2)
    try:
        for kind in (INVALID, COCKED):
            run.stickman.inject(kind)
        run.play(4)
    finally:
        run.close()
    throws = _events(run, "throw")
    sent = list(run.stickman.sent)
    assert len(throws) == len(sent) and run.tally.alarms == 0 and run.tally.bets_refused == 0
    kinds = set(t.kind for t in sent)
    assert set(INVALID_KINDS) | {COCKED} <= kinds
    point = None
    for throw, report in zip(sent, throws):
        if throw.kind in NO_ROLL_KINDS:
            assert report["valid"] is False and report["no_roll"] == throw.kind
            assert "nets" not in report and report["point"] == point and report["shooter_change"] is False
        else:
            assert report["valid"] is True and "no_roll" not in report
        if throw.kind == OFF_TABLE:
            assert report["dice"][1] is None and report["flags"] == ["off_table"]
        if throw.kind == SHORT_WALL:
            assert report["flags"] == ["short", "wall"]          # art. 3(2)(2): off a wall, the throw stands
        if throw.kind == COCKED:
            assert report["cocked"] == list(throw.cocked)        # art. 3(1): read as the larger visible face
        point = report["point"]
    assert run.tally.no_rolls == sum(1 for t in sent if t.kind in NO_ROLL_KINDS)


def test_the_stickman_waits_while_the_table_is_held_in_an_alarm(tmp_path):
    run = _run(tmp_path, seed=2)
    try:
        run.play(1)
        assert run.table.catch_up(5000)          # the host has every report so far (none comes late)
        stickman = run.stickman
        stickman.on_report({"event": "state", "state": "fault"})     # as the table reports an alarm
        before = len(stickman.sent)
        for _ in range(200):
            stickman.tick(run.table.now_ms())
            run.table.run_for(10)
        assert len(stickman.sent) == before and not run.table.io.waiting("bets")
    finally:
        run.close()


def test_a_come_out_held_for_the_link_backlog_is_confirmed_by_the_stickman_once_it_clears(tmp_path):
    """The table holds a come-out throw while its host link is backed up (the controller: "CONFIRM once the
    link catches up, and the shooter throws again"): the stickman does just that, and only then, so a
    floor's gateway restart does not leave the table held (tools.floor simulate, Mosquitto)."""
    from firmware.events import LINK_BACKLOG
    run = _run(tmp_path, seed=2)
    try:
        run.play(1)                                       # the first shooter's come-out is next
        assert run.table.catch_up(5000)
        queue = run.table.ctx.queue
        queue.put(LINK_BACKLOG, 1, 48)                    # as the Sender raises it at 48 frames held
        for _ in range(400):
            run.run_for(10)
            if any(r.get("no_roll") == "alarm" for r in _events(run, "throw")):
                break
        assert run.stickman.state == "fault" and _events(run, "throw")[-1]["no_roll"] == "alarm", run.log[-5:]
        acks = len(_events(run, "fault_ack"))
        run.run_for(2000)                                 # still backed up: nobody confirms
        assert run.stickman.state == "fault" and len(_events(run, "fault_ack")) == acks
        queue.put(LINK_BACKLOG, 0, 10)                    # the host acknowledged: the Sender clears it
        thrown = len(_events(run, "throw"))
        run.run_for(3000)
        acked = [(r["fault"], r["by"]) for r in _events(run, "fault_ack")[acks:]]
        assert acked == [("link_backlog", "confirm")], run.log[-8:]
        assert run.stickman.state != "fault" and len(_events(run, "throw")) > thrown     # the shooter threw again
    finally:
        run.close()


def test_a_refused_bet_is_a_mismatch_the_headless_run_fails_on(tmp_path, monkeypatch, capsys):
    """Bets the shadow engine would refuse, sent anyway (an uneven stake, art. 5(6)): the table refuses them,
    the summary counts them and the exit status is 1."""
    from hostsim import craps_autoplay

    monkeypatch.setattr(CrapsBettors, "stake", lambda self, kind, number, most=None: self.settings.minimum + 1)
    monkeypatch.setattr(CrapsBettors, "_place", lambda self, seat, z, amount: True)
    state = tmp_path / "state"
    state.mkdir()
    out = io.StringIO()
    status = craps_autoplay.headless(board_path("sim"), TABLE, str(state), 1, seed=3, out=out, err=io.StringIO())
    summary = json.loads(out.getvalue())
    assert status == 1 and summary["bets_refused"] > 0 and summary["alarms"] == 0


def test_the_tally_counts_points_made_and_refusals():
    tally = CrapsTally()
    for report in ({"event": "throw", "dice": [3, 3], "valid": True, "point": 6},
                   {"event": "throw", "dice": [2, None], "valid": False, "no_roll": "off_table", "point": 6},
                   {"event": "throw", "dice": [4, 4], "valid": True, "point": 6},      # a roll on the point: no point made
                   {"event": "throw", "dice": [4, 2], "valid": True, "point": None},
                   {"event": "bets", "placed": {"1": {"pass": 5, "field": 5}}, "refused": 1},
                   {"event": "bets", "accepted": False, "reason": "frame_crc"},
                   {"event": "shooter", "shooter": 2, "why": "seven_out"}):
        tally.add(report)
    assert (tally.throws, tally.no_rolls, tally.points_made, tally.bets_placed, tally.bets_refused,
            tally.shooters, tally.seven_outs) == (4, 1, 1, 2, 2, 1, 1)


def _cli(*args, timeout=120):
    return subprocess.run([sys.executable, "-m", "hostsim", *args], cwd=REPO, capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL)


def test_headless_craps_prints_one_summary_line():
    proc = _cli("--headless", "--game", "craps", "--rounds", "3", "--seed", "8")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert len(lines) == 1
    summary = json.loads(lines[0])
    assert set(summary) == SUMMARY_KEYS and summary["game"] == "craps"
    assert summary["shooters"] == 3 and summary["seed"] == 8 and summary["alarms"] == summary["bets_refused"] == 0


# -- the live view ------------------------------------------------------------------------------------------------

def _sim(tmp_path, **kwargs):
    return Sim(os.path.join(REPO, "boards", "sim.json"), TABLE, str(tmp_path), ports="loopback", ui=True,
               out=io.StringIO(), **kwargs)


def _screen(sim, width=80, height=24):
    console = Console(width=width, height=height, record=True, file=io.StringIO(), color_system="truecolor")
    console.print(sim.screen())
    return console.export_text().rstrip("\n").split("\n")


def test_the_view_fits_80x24_with_the_puck_the_point_zones_and_the_throw_keys(tmp_path, monkeypatch):
    sim = _sim(tmp_path)
    try:
        sim.dealer.on_report({"event": "state", "state": "point"})
        sim.dealer.on_report({"event": "puck", "puck": "on", "point": 6})
        for i in range(40):
            sim.tap.seen(board_frame(i, b'{"seq": %d, "table": "SIM-C1", "event": "state", "state": "point"}' % i))
        lines = _screen(sim)
        read, write = os.pipe()
        os.write(write, b"21")
        os.close(write)
        with open(read, "rb", buffering=0) as fake_stdin:
            monkeypatch.setattr("sys.stdin", fake_stdin)
            sim.read_stdin = True
            assert sim._read_keys() == []
        assert sim.dealer.pending == [COCKED, INVALID]
        queued = "\n".join(_screen(sim))
    finally:
        sim.close()
    assert len(lines) <= 24 and all(cell_len(line) <= 80 for line in lines)
    text = "\n".join(lines)
    assert "puck ON 6" in text and "point_6" in text and "point_10" in text
    assert lines[-2] == "faults: 1 invalid throw  2 cocked die"
    assert "next throw: cocked" in queued


def test_the_live_table_throws_at_a_watchable_pace_with_bets(tmp_path):
    out = io.StringIO()
    sim = Sim(os.path.join(REPO, "boards", "sim.json"), TABLE, str(tmp_path), ports="loopback", seconds=30,
              speed=15.0, seed=1, out=out)
    try:
        with pytest.raises(Quit):
            sim.run()
    finally:
        sim.close()
    reports = [json.loads(l[len("host: "):]) for l in out.getvalue().splitlines() if l.startswith("host: ")]
    assert not [r for r in reports if r["event"] in ("fault", "bet_refused")]
    assert any(r["event"] == "bets" and r.get("placed") for r in reports)
    throws = [r for r in reports if r["event"] == "throw"]
    assert 3 <= len(throws) <= 30 / (LIVE_PACE.throw_ms / 1000.0) + 1     # a throw every 2.5 s, no faster
    assert FAST_PACE.throw_ms < LIVE_PACE.throw_ms
