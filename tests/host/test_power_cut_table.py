"""A power cut after every single flash write of a Baccarat round, a Craps point cycle and an Omaha hand
(issue 12): the host's view is the uncut run's, each report exactly once, in order.

Each script (tests/host/power_cut_scripts/) runs once uncut on simulated flash (hostsim.flash.FlashFS),
counting its flash writes W; then once for every N in 0..W-1 with the power cut at write N+1, that
write not done at all, and once more with it torn (half its bytes written). The board boots again on
the same flash, recovers (firmware/recovery.py: the snapshot, the journalled events again, their reports
once), the input it had taken in but not journalled is given again (as a dealer repeats what a dead
board did not take: hostsim/headless.py), and the script goes on. The host's view, through the real
host client, must then be the uncut run's with exactly this left out:
  - the "seq" field (each boot numbers its reports from 1);
  - each boot's own reports: "boot", the lamp test's "state" reports (starting, and the first state
    after it), and "recovered" (checked on its own: every recovery resumed: the journal had every
    event the board took);
  - a recovery inside a deal (Baccarat dealing or burning, an Omaha hand dealing) raises the alarm
    reset_in_round (a card may have left the shoe while the board was off: Baccarat art. 10, Omaha
    art. 9): its "state" "fault", its "fault", its "fault_ack" and the "state" report of going back,
    set aside after checking there is one exactly for each such recovery, closed by the next card
    the script deals (a rescan: the card read again). No round here is voided: the dealer's next card
    closes the alarm, as the script deals it.
Nothing else: every game report is there, once, in the uncut order. And the recall (the rounds the
table keeps for the regulator, firmware/round_recall.py) holds what the uncut run's holds: every round
once, numbered the same, whichever write the cut stopped (the recall's own after the result's report
was stored included: the recovery keeps a replayed round whose event is past the newest one kept).
"""
import json
import os
import tempfile

import pytest

from hostsim.headless import board_path
from tools.replay import replay

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.join(HERE, "power_cut_scripts")
TABLES = os.path.join(os.path.dirname(HERE), "..", "boards", "tables")
GAMES = (
    ("baccarat_round", os.path.join(SCRIPTS, "baccarat_round.table.json")),
    ("craps_point_cycle", os.path.join(TABLES, "sim-craps.json")),
    ("omaha_hand", os.path.join(TABLES, "sim-omaha.json")),
)
_BOOT_OWN = ("boot", "recovered")
_SECOND_CUTS = 12                     # a double cut: the second at each of the next boot's first writes
_ALARM = "reset_in_round"


@pytest.fixture(autouse=True)
def _flash_in_tmp_path(tmp_path, monkeypatch):
    """Every simulated flash of this module (tempfile.mkdtemp below) in the test's own tmp_path, which pytest
    removes: in /tmp they stayed, about 1,500 folders at each run of the suite."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))


def _run(name, table_file, cut=None, torn=False):
    """(reports as dicts, the HeadlessTable) of one replay on fresh simulated flash."""
    lines = []
    tables = []
    state = tempfile.mkdtemp(prefix="cut-")
    with open(os.path.join(SCRIPTS, name + ".in.jsonl"), "rb") as f:
        replay(f, table_file, board_path("sim"), state, lines.append, started=tables.append,
               cut_after_writes=10 ** 9 if cut is None else cut, torn=torn)
    return [json.loads(line) for line in lines], tables[0]


def host_view(reports):
    """The reports without what legitimately differs after a reset (the module's docstring)."""
    view = []
    booting = False
    recovered_in = None               # the state the last recovery resumed
    resumed = None                    # after the alarm closed: the state it goes back to (no change)
    vouching = False                  # the alarm raised: the dealer's CONFIRM press and release set aside
    game = None                       # the boot report's: only a Craps dealer vouches with CONFIRM
    for report in reports:
        event = report["event"]
        if event == "boot":
            booting = True
            game = report["game"]
        if event == "recovered" and report["state"] != "fault":
            # (a recovery in "fault": the last boot's alarm still open, the table held where that boot's
            # recovery resumed it, which the alarm's close goes back to: a second cut before the dealer
            # closed it)
            recovered_in = report["state"]
        if event in _BOOT_OWN:
            continue
        if event == "state" and booting:
            if report["state"] != "starting":
                booting = False       # the lamp test's end: the last of the boot's own
            continue
        if report.get("fault") == _ALARM:
            if event == "fault":
                assert view and view[-1] == {"table": report["table"], "event": "state", "state": "fault"}
                view.pop()            # its state report
                vouching = game == "craps"  # a Craps dealer's CONFIRM closes it (hostsim.headless); a card
                                            # read closes the others, and their CONFIRM presses stay in view
            else:
                resumed = recovered_in
            continue
        if event == "button" and report["button"] == "confirm" and vouching:
            vouching = report["pressed"] or resumed is None     # its press and its release: the dealer's
            continue
        if event == "state" and resumed is not None:
            back, resumed = resumed, None
            if report["state"] == back:
                continue              # back where the alarm held the table: no change of state
        view.append(dict((k, v) for k, v in report.items() if k != "seq"))
    return view


def test_host_view_sets_aside_only_a_craps_dealers_confirm_after_the_alarm():
    # The dealer's CONFIRM that closes the alarm is set aside at Craps only; at Baccarat a card read closes it,
    # and a CONFIRM press there is the table's own report, kept (a cut run that lost one must not pass).
    def reports(game):
        return [{"table": "T", "event": "boot", "game": game}, {"table": "T", "event": "state", "state": "starting"},
                {"table": "T", "event": "state", "state": "ready"}, {"table": "T", "event": "recovered", "state": "x"},
                {"table": "T", "event": "state", "state": "fault"},
                {"table": "T", "event": "fault", "fault": _ALARM},
                {"table": "T", "event": "button", "button": "confirm", "pressed": True},
                {"table": "T", "event": "button", "button": "confirm", "pressed": False}]
    assert [r.get("button") for r in host_view(reports("craps"))] == []
    assert [r.get("button") for r in host_view(reports("baccarat"))] == ["confirm", "confirm"]


def _alarms_as_the_rules_say(reports, where):
    """A recovery inside a deal (Baccarat dealing or burning, an Omaha hand dealing) raises
    reset_in_round, closed by the next card read (a rescan); so does a recovery at a Craps table in play
    (come_out or point: a throw may have come while the board was off), closed by the dealer's CONFIRM
    (hostsim.headless: the dealer vouches, then the dice are read again); nowhere else."""
    in_play = [r for r in reports if r["event"] == "recovered"
               and r["state"] in ("burning", "dealing", "come_out", "point")]
    raised = [r for r in reports if r["event"] == "fault" and r.get("fault") == _ALARM]
    closed = [r for r in reports if r["event"] == "fault_ack" and r["fault"] == _ALARM]
    assert len(raised) == len(in_play) == len(closed), where
    dice = [r for r in in_play if r["state"] in ("come_out", "point")]
    assert all(r["by"] == ("confirm" if dice else "rescan") for r in closed), where
    return len(raised)


@pytest.mark.parametrize("name, table_file", GAMES, ids=[g[0] for g in GAMES])
def test_a_power_cut_at_every_flash_write_loses_nothing_and_duplicates_nothing(name, table_file):
    reference, table = _run(name, table_file)
    writes = table.total_flash_writes()
    expected = host_view(reference)
    rounds = table.ctx.recall.recall.last()
    assert rounds, name
    assert len(expected) >= 8 and writes >= 20
    points = 0
    recoveries = 0
    alarms = 0
    for torn in (False, True):
        for cut in range(writes):
            reports, table = _run(name, table_file, cut, torn)
            got = host_view(reports)
            where = "%s cut after write %d%s" % (name, cut, " torn" if torn else "")
            assert table.power_cuts == 1, where
            assert got == expected, "%s:\n%s" % (where, _diff(got, expected))
            assert table.ctx.recall.recall.last() == rounds, where
            recovered = [r for r in reports if r["event"] == "recovered"]
            assert all(r["resumed"] for r in recovered), where
            recoveries += len(recovered)
            alarms += _alarms_as_the_rules_say(reports, where)
            points += 1
    print("%s: %d flash writes uncut, %d cut points exercised (whole and torn), %d recoveries, "
          "%d of them inside a deal (reset_in_round, closed by the card read again)"
          % (name, writes, points, recoveries, alarms))
    assert points == 2 * writes and recoveries > writes


def _diff(got, expected):
    for i in range(max(len(got), len(expected))):
        a = got[i] if i < len(got) else None
        b = expected[i] if i < len(expected) else None
        if a != b:
            return "first difference at %d:\n got      %s\n expected %s" % (i, a, b)
    return "(same)"


# -- wear: flash writes a round (docs/performance.md, "The journal's flash writes") ----------------
def _session(game, rounds):
    """`rounds` rounds of one game, each like the cut scripts' one (distinct cards, so a shoe holds them)."""
    lines = []
    for i in range(rounds):
        if game == "baccarat_round":
            if i == 0:
                lines += ['{"shoe": "new"}', '{"card": "2c"}', '{"card": "5d"}', '{"card": "6d"}']
            s1, s2 = "cdhs"[i % 4], "cdhs"[(i + 1) % 4]
            cards = [("9" if i % 2 == 0 else "8") + s1, "2" + s2, "TJQK"[(i // 4) % 4] + s1, "3" + s2]
            lines.append('{"bets": {"3": {"banker": 100}, "5": {"player": 50}}}')
            lines += ['{"card": "%s"}' % c for c in cards]       # a natural: four cards (art. 9(1))
        elif game == "craps_point_cycle":
            lines += ['{"bets": {"1": {"pass": 10}}}', '{"dice": [2, 4]}', '{"dice": [3, 3]}']
        else:
            lines.append('{"hand": {"button": 1, "stacks": {"1": 1000, "2": 1000}}}' if i == 0 else '{"hand": {}}')
            lines += ['{"card": "%s"}' % c for c in ("Ah", "2c", "Ad", "3d", "Kh", "8h", "Kd", "9s")]
            lines.append('{"action": {"seat": %d, "act": "fold"}}' % (2 if i % 2 == 0 else 1))
    return [line.encode() for line in lines]


def _counts(name, table_file, rounds):
    out = []
    tables = []
    state = tempfile.mkdtemp(prefix="wear-")
    replay(_session(name, rounds), table_file, board_path("sim"), state, out.append, started=tables.append,
           cut_after_writes=10 ** 9)
    table = tables[0]
    assert not [line for line in out if '"fault"' in line], name
    on_flash = sum(os.path.getsize(os.path.join(state, n)) for n in os.listdir(state))
    return (table.total_flash_writes(), table.fs.bytes_written, table.ctx.journal.journal.writes,
            table.ctx.sender.store.writes, len(out), on_flash)


@pytest.mark.parametrize("name, table_file", GAMES, ids=[g[0] for g in GAMES])
def test_writes_per_round_and_flash_used(name, table_file):
    """Rounds 2 to 11 of a session, averaged: counts, not timings (any machine gives the same)."""
    one = _counts(name, table_file, 1)
    eleven = _counts(name, table_file, 11)
    per = [(b - a) / 10.0 for a, b in zip(one, eleven)]
    print("%s: a round: %.1f flash writes (table journal %.1f, host link %.1f), %.0f bytes written, "
          "%.1f reports; after 11 rounds %d bytes on flash" % (name, per[0], per[2], per[3], per[1], per[4],
                                                                eleven[5]))
    events = {"baccarat_round": 5, "craps_point_cycle": 3, "omaha_hand": 12}[name]
    assert per[2] == events                       # one record an event; no checkpoint due yet
    # The link store writes an event's frames as one record (firmware/link/journal_store.py), plus a record
    # an acknowledgement: 1.12, 0.87 and 1.44 writes a report (1.94, 1.59 and 2.01 at a record a frame).
    assert per[3] <= 1.5 * per[4]
    assert eleven[5] < 40000                      # the state dir: boot counter, table journal, link store


def test_a_power_cut_line_mid_round_resumes_the_round_and_the_host_sees_each_report_once():
    """{"power_cut": true} between two cards of a Baccarat round (docs/protocol.md, "Replay input")."""
    with open(os.path.join(SCRIPTS, "baccarat_round.in.jsonl"), "rb") as f:
        script = f.read().splitlines()
    reference, _ = _run("baccarat_round", GAMES[0][1])
    cut = script[:6] + [b'{"power_cut": true}'] + script[6:]     # after the first card of the round
    lines = []
    tables = []
    replay(cut, GAMES[0][1], board_path("sim"), tempfile.mkdtemp(prefix="cut-"), lines.append,
           started=tables.append)
    reports = [json.loads(line) for line in lines]
    assert tables[0].power_cuts == 1 and tables[0].fs is None       # the state dir as it is: no FlashFS
    assert host_view(reports) == host_view(reference)
    recovered = [r for r in reports if r["event"] == "recovered"]
    assert [(r["state"], r["resumed"], r["in_round"], r["torn"]) for r in recovered] == \
        [("dealing", True, True, False)]
    boots = [r for r in reports if r["event"] == "boot"]
    assert [r["reset_cause"] for r in boots] == ["PWRON_RESET", "PWRON_RESET"]


def test_the_command_line_cuts_where_it_is_told_and_refuses_a_negative_count():
    import io

    from tools import replay as replay_tool

    script = os.path.join(SCRIPTS, "craps_point_cycle.in.jsonl")
    table_file = GAMES[1][1]
    reference, _ = _run("craps_point_cycle", table_file)
    out, err = io.StringIO(), io.StringIO()
    status = replay_tool.main(["--table", table_file, "--cut-after-writes", "20", "--torn", script],
                              stdout=out, stderr=err)
    assert status == 0, err.getvalue()
    reports = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [r["event"] for r in reports].count("boot") == 2
    assert host_view(reports) == host_view(reference)
    err = io.StringIO()
    status = replay_tool.main(["--table", table_file, "--cut-after-writes", "-1", script],
                              stdout=io.StringIO(), stderr=err)
    assert status == 2 and "cut_after_writes must be >= 0" in err.getvalue()


@pytest.mark.parametrize("name,table_file", GAMES, ids=[g[0] for g in GAMES])
def test_a_second_cut_during_the_boot_that_recovers_from_the_first_loses_nothing_either(name, table_file):
    """The power goes again while the board recovers (replaying, re-sending, taking its first snapshot, or
    later, before the dealer has closed the first recovery's alarm): every third first cut point, then each
    of the next boot's first 12 flash writes. (At Baccarat the 11th and 12th cut a boot whose recovery
    found the first's reset_in_round still open: its `recovered` says "fault".)"""
    reference, table = _run(name, table_file)
    expected = host_view(reference)
    rounds = table.ctx.recall.recall.last()
    points = 0
    for first in range(0, table.total_flash_writes(), 3):
        for second in range(_SECOND_CUTS):
            lines = []
            tables = []
            with open(os.path.join(SCRIPTS, name + ".in.jsonl"), "rb") as f:
                replay(f, table_file, board_path("sim"), tempfile.mkdtemp(prefix="cut2-"), lines.append,
                       started=tables.append, cut_after_writes=first, then_cut_after=[second])
            where = "cut after write %d, then after the next boot's write %d" % (first, second)
            assert tables[0].power_cuts == 2, where
            got = host_view([json.loads(line) for line in lines])
            assert got == expected, "%s:\n%s" % (where, _diff(got, expected))
            assert tables[0].ctx.recall.recall.last() == rounds, where
            points += 1
    print("%s: %d double cut points" % (name, points))
    assert points == _SECOND_CUTS * len(range(0, table.total_flash_writes(), 3))


def test_a_reset_mid_deal_holds_the_round_for_the_dealer_who_may_void_it():
    """Baccarat art. 10: after the power came back inside a deal, a card may have left the shoe unseen:
    reset_in_round holds the round; a long VOID voids it, every bet returned."""
    with open(os.path.join(SCRIPTS, "baccarat_round.in.jsonl"), "rb") as f:
        script = f.read().splitlines()
    lines = []
    replay(script[:6] + [b'{"power_cut": true}', b'{"button": "void", "long": true}'], GAMES[0][1],
           board_path("sim"), tempfile.mkdtemp(prefix="cut-"), lines.append)
    reports = [json.loads(line) for line in lines]
    faults_raised = [r["fault"] for r in reports if r["event"] == "fault"]
    assert faults_raised == [_ALARM]
    assert [(r["fault"], r["by"]) for r in reports if r["event"] == "fault_ack"] == [(_ALARM, "void")]
    results = [r for r in reports if r["event"] == "result"]
    assert len(results) == 1 and results[0]["void"] is True and results[0]["round"] == 1
    assert all(v == 0 for seat in results[0]["nets"].values() for v in seat.values())
