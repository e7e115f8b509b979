"""Every Craps bet zone through tools.replay, decided on its numbers (Craps arts. 5-6).

For each zone of the bet vocabulary (firmware.games.craps.zones) a replay places
it (with the line bet its odds need; a come bet's come point, "come_6", is a come
bet that travelled there), then throws dice that decide it; every
`throw` report must equal what a fresh engine decides on the same bets and
throws (the engine itself is checked against independent restatements in
test_craps_props.py: this proves the table wires every kind through).
"""
import io
import json
import os

import pytest

from firmware import table_config
from firmware.games.craps.rules import NET, SEAT, CrapsTable
from firmware.games.craps import bets as B
from firmware.games.craps import codes as BC
from firmware.games.craps.zones import KIND_NUMBER, ZONES
from tests.host.test_sim_craps import _oracle_place, _oracle_travel
from tools import replay as replay_tool

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TABLE = os.path.join(REPO, "boards", "tables", "sim-craps.json")
# Throws: a come-out 6 (the point), then numbers that decide every kind: 2, 3, 11, 12 (one-roll props),
# hard and easy 4/6/8/10, 5, 9, then 6 (the point made), a come-out 7 and a seven-out.
_THROWS = ([3, 3], [1, 1], [1, 2], [5, 6], [6, 6], [2, 2], [1, 3], [4, 4], [2, 6], [5, 5], [4, 6], [2, 3],
           [4, 5], [3, 3], [3, 4], [2, 4], [3, 4])


def _stake(minimum):
    """60 at a 5 table: a multiple of the minimum (art. 5(6)) that every payout pays exactly (the horn's
    four parts, 6:5, 3:2, 5:6, 2:3 odds, 7:6 big numbers; art. 6), and 1x odds of a line bet of the same."""
    return minimum * 12


def _reading(zone, minimum):
    """The bets for one zone at seat 1, in the order the table places them (line bets before odds)."""
    bets = {}
    if zone.startswith("pass_odds"):
        bets["pass"] = _stake(minimum)
    elif zone.startswith("dont_pass_odds"):
        bets["dont_pass"] = _stake(minimum)
    bets[zone] = _stake(minimum)
    return bets


def _zone_lines(zone, minimum):
    """Come-out 6 first; odds, come bets and their odds need the point or a come point on the table."""
    lines = []
    kind, number = KIND_NUMBER[ZONES.index(zone)]
    if kind in (BC.COME, BC.DONT_COME) and number:
        # a come bet's come point (art. 5(2)(5), (6)): placed on come, it travels there with its first roll
        lines += [{"bets": {"1": {"pass": _stake(minimum)}}}, {"dice": [3, 3]},
                  {"bets": {"1": {B.KIND_NAMES[kind]: _stake(minimum)}}},
                  {"dice": [number // 2, number - number // 2]}]
    elif zone.startswith(("pass_odds", "dont_pass_odds", "come", "dont_come")):
        line = "pass" if zone.startswith("pass_odds") else "dont_pass" if zone.startswith("dont_pass_odds") else None
        if zone.startswith(("come_odds", "dont_come_odds")):
            number = int(zone.rsplit("_", 1)[1])
            come = "come" if zone.startswith("come_odds") else "dont_come"
            lines += [{"bets": {"1": {"pass": _stake(minimum)}}}, {"dice": [3, 3]},
                      {"bets": {"1": {come: _stake(minimum)}}}, {"dice": [number // 2, number - number // 2]},
                      {"bets": {"1": {zone: _stake(minimum)}}}]
        else:
            if line:
                lines += [{"bets": {"1": {line: _stake(minimum)}}}, {"dice": [3, 3]},
                          {"bets": {"1": {zone: _stake(minimum)}}}]
            else:                           # come, dont_come: decided on their own come-out (11), or they travel
                lines += [{"dice": [3, 3]}, {"bets": {"1": {zone: _stake(minimum)}}}, {"dice": [5, 6]}]
    else:
        lines.append({"bets": {"1": _reading(zone, minimum)}})
    return lines + [{"dice": d} for d in _THROWS]


def _replay(tmp_path, lines):
    path = tmp_path / "in.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    out, err = io.StringIO(), io.StringIO()
    status = replay_tool.main(["--table", TABLE, str(path)], stdout=out, stderr=err)
    assert status == 0, err.getvalue()
    return [json.loads(line) for line in out.getvalue().splitlines()]


@pytest.mark.parametrize("zone", ZONES)
def test_every_zone_is_placed_and_decided_as_the_engine_decides(tmp_path, zone):
    settings = table_config.load(TABLE)["rules"]
    reports = _replay(tmp_path, _zone_lines(zone, settings.minimum))
    assert not [r for r in reports if r["event"] in ("fault", "bet_refused")], reports
    engine = CrapsTable(settings)
    bet_zone = {}
    decided = set()
    for report in reports:
        if report["event"] == "bets":
            for seat, row in report["placed"].items():
                for name in ZONES:
                    if name in row:
                        _oracle_place(engine, int(seat) - 1, name, row[name], bet_zone)
        elif report["event"] == "throw":
            resolved = engine.roll({"dice": report["dice"]})
            assert report["point"] == (engine.point or None)
            assert report["shooter_change"] == engine.shooter_changed
            nets = {}
            for r in resolved:
                name = bet_zone.pop(r[0])
                row = nets.setdefault(str(r[SEAT] + 1), {})
                row[name] = row.get(name, 0) + r[NET]
                decided.add(name)
            _oracle_travel(engine, bet_zone)
            assert report.get("nets", {}) == nets
    assert zone in decided                  # the zone itself was decided on its numbers


def test_a_host_hand_line_at_a_craps_table_is_the_request_alone(tmp_path):
    # The replay turned the shoe on before sending the request, as for an Omaha hand: at a Craps table the
    # shoe's HELLO landed on the port its game does not read, an unexpected_input fault holding the table.
    reports = _replay(tmp_path, [{"hand": {}}, {"roads": True}, {"dice": [3, 4]}])
    assert [(r["event"], r.get("error"), r.get("request")) for r in reports[3:5]] == [
        ("host_error", "not served by this table", "hand"), ("host_error", "not served by this table", "roads")]
    assert not [r for r in reports if r["event"] == "fault"], reports
    assert [r["valid"] for r in reports if r["event"] == "throw"] == [True]     # the table plays on
