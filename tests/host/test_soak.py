"""Soak and fuzz: the unchanged firmware on long random scripts, held to the host's invariants.

tests/host/soak_scripts.py makes the scripts (legal play mixed with what a casino floor throws at a
table: unreadable cards, double pulls, damaged frames, sensor faults, restarts, illegal bets, garbage
bytes on every port, console lines, buttons, power cuts) and tests/host/soak_rig.py checks the host's
view: reports numbered without a gap in every boot, no crash record, every Baccarat result the rules judge's
with the nets of its bets (arts. 7-9, 16, 17), every Craps bet's net the judge's over the rolls it saw (arts.
5, 6), every Omaha hand's chips conserved and every one not void the rules judge's (its pots, winners, rake
and stacks, arts. 5-16), and no alarm left that CONFIRM
or a long VOID cannot close. Differentials: garbage on the shoe, dice, host and console ports (the
dealer confirming a reader's alarm) and power cuts anywhere change no game report; garbage on the bet
reader's port changes no round, card, result or net (only its own fault reports are added).

Seed-fixed here, a few hundred rounds, so `make test` stays quick; the long runs (thousands of rounds,
hundreds of seeds) are `python -m tests.host.soak_rig` and docs/hostsim.md, "Soak and fuzz".
"""
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from hostsim import hardware
from hostsim.headless import HeadlessTable, board_path
from tests.host import soak_rig as R, soak_scripts as S
from tools.replay_input import run_line


def test_baccarat_soak_with_every_mess_keeps_the_invariants():
    lines = S.baccarat_script(random.Random(7), 120)
    settled = R.check_baccarat(R.run(lines))
    assert len(settled) >= 40
    assert any(nets for _r, _w, nets in settled)          # bets were read and settled


def test_baccarat_long_shoe_every_result_is_the_judges():
    """A few hundred rounds of legal play, a new shoe when one runs out: every result and net agrees."""
    lines = S.clean_baccarat_script(random.Random(11), 300)
    settled = R.check_baccarat(R.run(lines))
    assert len(settled) == 300
    assert all(w is not None for _r, w, _n in settled)    # nothing voided with nothing wrong


def test_baccarat_garbage_and_power_cuts_change_no_game_report():
    rng = random.Random(3)
    clean = S.clean_baccarat_script(rng, 40)
    base = R.run(clean, closing=False)
    view = R.game_view(base)
    assert sum(1 for r in view if r["event"] == "result") == 40
    noisy = R.run(S.with_garbage(rng, clean, ports=("shoe", "dice", "host", "console")), closing=False)
    R.check_baccarat(noisy)
    assert R.first_difference(view, R.game_view(noisy)) is None
    cut = R.run(S.with_power_cuts(rng, clean, rate=0.08), closing=False)
    R.check_baccarat(cut)
    assert sum(1 for r in cut if r.get("event") == "boot") > 3
    events = ("round", "card", "result", "shoe")
    assert R.first_difference(R.game_view(base, events), R.game_view(cut, events)) is None


def test_craps_soak_keeps_the_invariants():
    assert R.check_craps(R.run(S.craps_script(random.Random(5), 150), game="craps")) >= 130


def test_omaha_soak_keeps_the_invariants():
    assert R.check_omaha(R.run(S.omaha_script(random.Random(5), 6), game="omaha")) == 6


def test_craps_legal_play_every_bet_is_the_judges():
    """Legal readings before most rolls (line bets, come and don't-come, odds behind them, one-roll bets, the
    Field, hard ways, big numbers, take-downs the table allows): the table refuses none, and every bet's net,
    at the roll that decides it, is the rules judge's (tests/host/soak_craps.py; Craps arts. 5, 6)."""
    from tests.host import soak_craps
    seen = R.run(S.clean_craps_script(random.Random(4), 150), game="craps")
    reports = R.check_common(seen)
    assert soak_craps.judge_every_bet(reports, S.table_settings("craps")) == 150
    assert not [r for r in reports if r["event"] in ("bet_refused", "bets_refused_more", "fault")]
    decided = {zone for r in reports if r["event"] == "throw" for zones in r.get("nets", {}).values() for zone in zones}
    for zone in ("pass", "dont_pass", "pass_odds", "field", "hard_8"):
        assert zone in decided, (zone, decided)
    assert any(zone.startswith("come_odds_") for zone in decided) and any(z.startswith("come_") for z in decided)
    assert [r for r in reports if r["event"] == "bet_taken_down"]
    R.check_craps(seen)


def test_the_craps_ledger_has_teeth():
    """The same rolls judged under other odds limits find a bet the table placed and the rules would refuse;
    a net the table reported wrongly (one odds bet's) is found at its roll."""
    from tests.host import soak_craps
    seen = R.run(S.clean_craps_script(random.Random(4), 60), game="craps")
    reports = R.check_common(seen)
    with pytest.raises(soak_craps.BetMismatch, match="rejects a bet the table placed"):
        soak_craps.judge_every_bet(reports, dict(S.table_settings("craps"), max_odds=[1, 1, 1]))
    odds = ("pass_odds", "come_odds")
    row = next(zones for r in reports if r["event"] == "throw" for zones in r.get("nets", {}).values()
               if any(z.startswith(odds) for z in zones))
    row[next(z for z in row if z.startswith(odds))] += 1
    with pytest.raises(soak_craps.BetMismatch, match="the table's nets"):
        soak_craps.judge_every_bet(reports, S.table_settings("craps"))


def test_the_craps_ledger_holds_every_open_bets_answer_to_the_bets_it_holds_open():
    """The host asks for the open bets between readings and throws (and in the closing lines): each answer is the
    ledger's, bet by bet (come bets on their come points, the reading not yet rolled), with the point and shooter;
    an answer with a stake, a bet or the point wrong is found."""
    from tests.host import soak_craps
    lines = S.clean_craps_script(random.Random(4), 60)
    for k in range(len(lines) - 1, 0, -7):
        lines.insert(k, {"open_bets": True})
    seen = R.run(lines, game="craps")
    reports = R.check_common(seen)
    answers = [r for r in reports if r["event"] == "open_bets"]
    assert len(answers) == len([line for line in lines if "open_bets" in line]) + 1      # (the closing's)
    assert sum(1 for r in answers if r["count"]) >= len(answers) // 2
    assert any(z.startswith("come_") for r in answers for zones in r["bets"].values() for z in zones)
    assert soak_craps.judge_every_bet(reports, S.table_settings("craps")) == 60
    answer = next(r for r in answers if r["count"] > 1 and r["point"])
    seat = next(iter(answer["bets"]))
    zone = next(iter(answer["bets"][seat]))
    for broken in (dict(answer, bets=dict(answer["bets"], **{seat: dict(answer["bets"][seat], **{zone: 1})})),
                   dict(answer, bets={k: v for k, v in answer["bets"].items() if k != seat}),
                   dict(answer, point=None)):
        tampered = [broken if r is answer else r for r in reports]
        with pytest.raises(soak_craps.BetMismatch, match="open_bets seq %d" % answer["seq"]):
            soak_craps.judge_every_bet(tampered, S.table_settings("craps"))


def _without(reports, key):
    """The reports as if no settings change of `key` had come."""
    return [dict(r, changes={k: v for k, v in r["changes"].items() if k != key})
            if r["event"] == "settings_changed" else r for r in reports]


def test_the_craps_ledger_follows_every_settings_change():
    """A technician changes the minimum, the maximum, the odds limits, the Field's 12, the bets off on a come-out and
    the take-downs between legal readings (the table applies each at a new shooter's come-out with no bet open that
    an option decides: docs/console.md): every roll is still judged, each bet under the settings its reading came
    under. Judged as if a change had not come, a Field bet won on a 12 at 3:1 (art. 6(12)) and a big number decided
    on a come-out roll it was off for (art. 5(5)) are found wrong; under a take_down of none, a Don't Come bet the
    table let the player take down in action (art. 5(2)(6))."""
    from tests.host import soak_craps
    lines = S.with_settings_changes(random.Random(101), S.clean_craps_script(random.Random(1), 150), "craps",
                                    rate=0.05)
    reports = R.check_common(R.run(lines, game="craps", pin=S.SOAK_PIN))
    changed = {key for r in reports if r["event"] == "settings_changed" for key in r["changes"]}
    assert changed >= {"minimum", "maximum", "max_odds", "field_12", "off_on_come_out", "take_down"}, changed
    assert soak_craps.judge_every_bet(reports, S.table_settings("craps")) == 150
    with pytest.raises(soak_craps.BetMismatch, match="field"):
        soak_craps.judge_every_bet(_without(reports, "field_12"), S.table_settings("craps"))
    with pytest.raises(soak_craps.BetMismatch, match="big_number_10"):
        soak_craps.judge_every_bet(_without(reports, "off_on_come_out"), S.table_settings("craps"))
    with pytest.raises(soak_craps.BetMismatch, match="dont_come_9: the table took it down in action"):
        soak_craps.judge_every_bet(reports, dict(S.table_settings("craps"), take_down=[]))


def test_the_craps_ledger_judges_each_placement_under_its_reading_s_limits():
    """A Pass bet of 15 under a minimum of 5; the minimum goes to 10 and the odds limit to 2x before the first throw
    (a come-out with no bet an option decides), then 2x odds of 30 behind it: the Pass bet stands as placed and the
    odds are within the new limit (art. 5(6), max_odds), and the ledger takes both. After a seven-out the odds limit
    goes to 10x and odds of 100 stand behind a Pass bet of 10: judged as if that change had not come, they are over
    3x; a Field bet of 25 under the minimum of 10 is found at once, its net aside."""
    from tests.host import soak_craps
    login = [{"console": "\u0003login"}, {"console": S.SOAK_PIN}]
    lines = [{"bets": {"3": {"pass": 15}}}] + login + [
        {"console": "set minimum 10"}, {"console": "set max_odds 2,2,2"}, {"console": "commit SOAK-1"},
        {"console": "logout"}, {"dice": [2, 2]}, {"bets": {"3": {"pass_odds": 30}, "4": {"field": 20}}},
        {"dice": [3, 1]}, {"dice": [2, 2]}, {"dice": [3, 4]}] + login + [
        {"console": "set max_odds 10,10,10"}, {"console": "commit SOAK-2"}, {"console": "logout"},
        {"bets": {"5": {"pass": 10}}}, {"dice": [5, 5]}, {"bets": {"5": {"pass_odds": 100}}}, {"dice": [6, 4]}]
    seen = R.run(lines, game="craps", pin=S.SOAK_PIN)
    reports = R.check_common(seen)
    nets = [r.get("nets") for r in reports if r["event"] == "throw"]
    assert nets == [None, {"3": {"pass": 15, "pass_odds": 60}, "4": {"field": 20}}, None, None, None,
                    {"5": {"pass": 10, "pass_odds": 200}}]
    assert soak_craps.judge_every_bet(reports, S.table_settings("craps")) == 6
    assert R.check_craps(seen) == 6
    with pytest.raises(soak_craps.BetMismatch, match=r"rejects a bet the table placed.*pass_odds.*asked 100"):
        soak_craps.judge_every_bet(_without(reports, "max_odds"), S.table_settings("craps"))
    wrong = [dict(r, placed={"3": {"pass_odds": 30}, "4": {"field": 25}}) if r["event"] == "bets" and
             r["reading"] == 2 else r for r in reports]
    with pytest.raises(soak_craps.BetMismatch, match=r"rejects a bet the table placed.*'amount': 25"):
        soak_craps.judge_every_bet(wrong, S.table_settings("craps"))


def test_craps_bets_the_rules_refuse_change_no_game_report():
    """The same legal readings with bets the rules refuse put in (chips on a come point, a stake not a multiple of
    the minimum or over the maximum, a line bet out of its phase, odds with no line bet: Craps arts. 5, 6): each
    is one bet_refused report, and every roll decides what it decided without them."""
    clean = S.clean_craps_script(random.Random(5), 60)
    refusing = S.clean_craps_script(random.Random(5), 60, refusals=random.Random(6))
    put = sum(len(zones) for line in refusing if "bets" in line for zones in line["bets"].values()) - sum(
        len(zones) for line in clean if "bets" in line for zones in line["bets"].values())
    assert put > 15
    seen = R.run(refusing, game="craps")
    R.check_craps(seen)
    refused = [r for r in R.reports_only(seen) if r["event"] == "bet_refused"]
    assert len(refused) == put
    for words in ("travels to its come point", "multiple of the table minimum", "over the table maximum", "to back",
                  "only while the puck is"):
        assert any(words in r["reason"] for r in refused), (words, sorted({r["reason"] for r in refused}))
    events = ("throw", "puck", "shooter", "bet_taken_down")
    assert R.first_difference(R.game_view(R.run(clean, game="craps"), events), R.game_view(seen, events)) is None


def test_omaha_legal_play_every_hand_is_the_judges():
    """Legal hands of 2 to 10 players, most to a showdown, many with side pots: every one agrees with the rules
    judge (its board, hole cards, pots, winners, rake of Omaha art. 16 and final stacks), and the table refuses
    none of the actions the engine allowed, all-ins keyed with ALLIN among them."""
    lines = S.clean_omaha_script(random.Random(8), 30)
    assert sum(1 for line in lines if line.get("action", {}).get("act") == "allin") >= 20
    seen = R.run(lines, game="omaha")
    assert R.check_omaha(seen) == 30
    results = [r for r in R.reports_only(seen) if r["event"] == "hand_result"]
    assert not any(r["void"] for r in results)
    assert sum(1 for r in results if r["shown"]) >= 20
    assert sum(1 for r in results if len(r["pots"]) > 1) >= 10
    assert not [r for r in R.reports_only(seen) if r["event"] in ("action_refused", "fault")]


def test_the_omaha_check_judges_the_rake_under_the_table_settings():
    """The check has teeth: the same hands judged as if the table raked 3 % (art. 16) are found wrong."""
    seen = R.run(S.clean_omaha_script(random.Random(8), 4), game="omaha")
    assert R.check_omaha(seen) == 4
    with pytest.raises(R.Broken, match="rake is"):
        R.check_omaha(seen, dict(S.table_settings("omaha"), rake_percent=3))


def test_omaha_garbage_and_power_cuts_change_no_game_report():
    rng = random.Random(2)
    clean = S.clean_omaha_script(rng, 10)
    events = ("hand_start", "dealt", "action", "hand_result")
    view = R.game_view(R.run(clean, closing=False, game="omaha"), events)
    assert sum(1 for r in view if r["event"] == "hand_result") == 10
    noisy = R.run(S.with_garbage(rng, clean, ports=("shoe", "bets", "host", "console")), closing=False,
                  game="omaha")
    R.check_omaha(noisy)
    assert R.first_difference(view, R.game_view(noisy, events)) is None
    cut = R.run(S.with_power_cuts(rng, clean, rate=0.08), closing=False, game="omaha")
    R.check_omaha(cut)
    assert sum(1 for r in cut if r.get("event") == "boot") > 10
    assert R.first_difference(view, R.game_view(cut, events)) is None


def test_omaha_entries_the_rules_refuse_change_no_game_report():
    """The same legal hands with entries the rules refuse keyed among them (another seat, a check with a bet to
    call, a bet or raise past the pot limit or under the least: arts. 6, 7, 11, 12): each is one action_refused
    report, and the hands go on as if none had been keyed. A bet past the stack is the all-in (docs/omaha.md), so
    the script keys one past the most only where the pot limit sets it."""
    clean = S.clean_omaha_script(random.Random(3), 8)
    refusing = S.clean_omaha_script(random.Random(3), 8, refusals=random.Random(4))
    keyed = len(refusing) - len(clean)
    assert keyed > 20
    events = ("hand_start", "dealt", "action", "hand_result")
    seen = R.run(refusing, game="omaha")
    assert R.check_omaha(seen) == 8
    refused = [r for r in R.reports_only(seen) if r["event"] == "action_refused"]
    assert len(refused) == keyed
    for kind in ("may not act now", "cannot check", "(POT MAX", "(MIN"):      # each kind of entry keyed
        assert any(kind in r["reason"] for r in refused), (kind, refused)
    assert R.first_difference(R.game_view(R.run(clean, game="omaha"), events), R.game_view(seen, events)) is None


@pytest.mark.parametrize("game, size", [("baccarat", 20), ("craps", 60), ("omaha", 5)])
def test_legal_play_keeps_its_game_reports_through_garbage_power_cuts_and_refused_input(game, size):
    """soak_rig --clean on one seed: the legal script, then with garbage, with power cuts, with input the rules
    refuse (Craps bets, Omaha entries) and with all of them in one run: each judged, none changes a game report."""
    make = R._CLEAN[game][0]
    lines = make(random.Random(21), size)
    seen = R.run(lines, game=game)
    R._GAMES[game][1](seen)
    refused = make(random.Random(21), size, refusals=random.Random(22)) if game != "baccarat" else None
    assert R.clean_differential(random.Random(23), lines, game, seen, refused=refused) > 3     # boots: cuts came


def test_the_rig_s_command_line_runs_a_seed_with_its_write_cut_and_says_so(capsys):
    """`python -m tests.host.soak_rig omaha 2 1 4 --clean --write-cuts`: one JSON verdict, the hands judged, the
    write cut's parameters and the boots it made (more than one: the cut came), exit status 0."""
    assert R.main(["omaha", "2", "1", "4", "--clean", "--write-cuts"]) == 0
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["seed"] == 2 and verdict["done"] == 4
    writes, torn, more, boots = verdict["write_cut"]
    assert 20 <= writes < 400 and torn in (True, False) and boots == 2 + len(more)


def test_the_rig_pulls_display_cables_and_holds_the_run_to_the_plain_run_s_game_reports(capsys):
    """--display-pulls --clean: the same legal play with cables pulled (each alarm confirmed) and put back gives
    the plain run's game reports, and the host hears each display go and come back."""
    assert R.main(["baccarat", "2", "1", "20", "--clean", "--display-pulls"]) == 0
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["done"] == 20 and verdict["displays"] >= 2


def test_the_display_check_has_teeth():
    from tests.host.soak_displays import DisplayMismatch, check_displays
    lines = [{"unplug": "dealer"}, {"wait_ms": 1500}, {"plug": "dealer"}]
    boot = {"event": "boot"}
    lost = {"event": "fault", "fault": "display_missing",
            "text": "dealer display at I2C address 39 stopped answering: [Errno 19] ENODEV"}
    at_boot = {"event": "fault", "fault": "display_missing", "text": "dealer display at I2C address 39: ENODEV"}
    back = {"event": "display_back", "display": "dealer"}
    assert check_displays([boot, lost, back], lines) == 1
    assert check_displays([boot, lost, boot, at_boot, back], lines) == 1    # a cut while it was out: the boot names it
    with pytest.raises(DisplayMismatch, match="still out at the end"):
        check_displays([boot, lost, boot, at_boot], lines)
    for seen, why in (([boot, back], "had not stopped answering"), ([boot, lost], "still out at the end"),
                      ([boot, lost, lost, back], "named twice"), ([boot], "pulled 1 times, named stopped answering 0"),
                      ([boot, lost, boot, back], "had not stopped answering \\(or been missing\\) in this boot"),
                      ([boot, dict(lost, text="result display at I2C address 38 stopped answering: x")],
                       "never pulled"),
                      ([boot, lost, back, {"event": "display_restarted", "display": "dealer"}], "did not find")):
        with pytest.raises(DisplayMismatch, match=why):
            check_displays(seen, lines)
    assert check_displays([boot, {"event": "link_lost", "reports": 3}], lines) == 0     # lost reports: bounds
    assert check_displays([boot, lost, {"event": "link_lost", "reports": 3}, lost, back], lines * 2) == 1   # unsure


def test_the_baccarat_script_deals_on_from_a_new_shoe_when_a_double_pull_took_the_last_card():
    """Found by a long soak (seed 6222, 80 rounds): the mess's double pull took the shoe's last card and the
    script then drew from an empty shoe; it now changes the shoe, as at the top of its loop."""
    lines = S.baccarat_script(random.Random(6222), 80)
    assert sum(1 for line in lines if line.get("shoe") == "new") >= 2
    assert all(isinstance(line["card"], str) for line in lines if "card" in line)


@pytest.mark.parametrize("game, seed, size", [("baccarat", 17, 40), ("craps", 2, 150), ("omaha", 6, 8)])
def test_the_soak_with_the_host_away_now_and_then_keeps_the_invariants(game, seed, size):
    """The messy scripts with host absences (with_host_absences): long enough ones fill the board's link store
    and raise its link_backlog; every missing seq is counted by a link_lost notice (Craps seed 2: a boot's
    first count holds the refusals of the boot before it, cut before its own LOST frame), and what the host
    has keeps the invariants. Sweeps of 120 / 120 / 40 seeds clean (docs/hostsim.md, "Soak and fuzz")."""
    make, check = R._GAMES[game]
    lines = S.with_host_absences(random.Random(seed + 1000003), make(random.Random(seed), size))
    seen = R.run(lines, game=game)
    check(seen)
    assert sum(1 for line in lines if line == {"host": "away"}) >= 10
    assert sum(r["reports"] for r in seen if r.get("event") == R.LOST) > 0
    assert any(r.get("fault") == "link_backlog" for r in seen)


def test_the_soak_on_a_noisy_line_gives_the_host_the_quiet_lines_reports():
    """The messy Baccarat script (garbage, console lines, host requests, a power cut) on a host line that hits 1 % of
    its bytes each way: the host gets the quiet line's reports, one for one (the console's lines fall elsewhere among
    them, and its status counts the noise). Sweeps: docs/hostsim.md, "Soak and fuzz"."""
    lines = S.baccarat_script(random.Random(25), 12)
    quiet = R.run(lines)
    noisy = R.run(lines, line_noise=0.01, seed=25)
    R.check_baccarat(noisy)
    assert R.noise_difference(noisy, quiet) is None
    assert sum(1 for r in quiet if r.get("event") == "boot") == 2
    status = [r["console"] for r in noisy if r.get("console", "").startswith("host link:")][-1]
    assert int(status.split(", ")[-1].split()[0]) > 50          # "... 94 noise": the noise was real


def test_on_a_noisy_line_the_answers_to_requests_move_among_the_reports_and_nothing_else_does():
    """The closing lines' RECALL 100 and open_bets at a Craps table (soak_scripts.CLOSING): the recall's answer goes
    out a report at a time while the link's store is below half full, which the host's acknowledgements decide, so
    on a noisy line the open_bets answer comes at another place among the recall's reports (and the seq numbers
    with it). Compared one for one, every clean Craps seed failed (8100-8114 at 150 throws, found in stop 70's
    sweeps: the check had run only with the host away, where it is skipped); each request's answers are compared
    as a stream of their own, the other reports one for one."""
    lines = S.clean_craps_script(random.Random(8100), 20)
    quiet = R.run(lines, game="craps")
    noisy = R.run(lines, game="craps", line_noise=0.01, seed=8100)
    R.check_craps(noisy)
    assert R.first_difference(R._host_view(noisy), R._host_view(quiet)) is not None      # the answers moved
    assert R.noise_difference(noisy, quiet) is None
    recall = [r for r in noisy if r.get("event") == "recall"]
    assert len(recall) == 20 and recall[0]["tag"] == 7497
    throw = next(r for r in noisy if r.get("event") == "throw")
    others = [r for r in noisy if r is not throw]
    for changed in ([r for r in noisy if r is not recall[-1]],                               # an answer lost
                    [recall[1] if r is recall[0] else recall[0] if r is recall[1] else r
                     for r in noisy],                                                         # two swapped
                    others,                                                                   # a game report lost
                    [dict(r, tag=1) if r.get("event") == "open_bets" else r for r in noisy],  # answered to another
                    others[:noisy.index(throw) + 3] + [throw] + others[noisy.index(throw) + 3:]):  # a report moved
        assert R.noise_difference(changed, quiet) is not None, changed


def test_a_table_left_in_an_alarm_is_found_by_its_reports_or_by_the_closing_status_line():
    fault, ready = {"event": "state", "seq": 5, "state": "fault"}, {"event": "state", "seq": 7, "state": "ready"}
    lost = {"event": R.LOST, "reports": 2}

    def status(state):
        return {"console": "table SIM-B1  game baccarat  state %s" % state}

    with pytest.raises(R.Broken):
        R.check_stuck([ready, fault])
    with pytest.raises(R.Broken):
        R.check_stuck([ready, fault, lost], [status("fault")])
    R.check_stuck([fault, ready], [status("ready")])
    # A LOST notice after the last state report may hide the state that followed it: the console says.
    R.check_stuck([fault, lost], [status("come_out")])
    with pytest.raises(R.Broken):
        R.check_stuck([ready], [status("ready"), status("fault")])      # the last status line counts


def test_settings_changed_at_the_console_mid_play_hold_from_the_table_s_boundary_on(monkeypatch):
    """A technician logs in and changes Baccarat's method and commission now and then (with_settings_changes) in the
    messy script, power cuts among it: each change applies at the next shoe out (Baccarat art. 18; docs/console.md),
    and every later result is the judge's under the settings the table reported (settings_changed), whose digest
    they give. Seed 11 sets commission B: not followed, the settings are not the digest's; judged under the first
    settings, a round's nets are wrong."""
    lines = S.with_settings_changes(random.Random(11 + 2000003), S.baccarat_script(random.Random(11), 90), "baccarat")
    seen = R.run(lines, pin=S.SOAK_PIN)
    R.check_baccarat(seen)
    assert [r["changes"] for r in seen if r.get("event") == "settings_changed"][:1] == [{"commission": ["A", "B"]}]
    assert sum(1 for r in seen if r.get("event") == "boot") > 1
    monkeypatch.setattr(R, "_follow", lambda settings, changed: None)
    with pytest.raises(R.Broken, match=r"settings_changed \{'commission': \['A', 'B'\]\}: the settings followed"):
        R.check_baccarat(seen)                  # the change's digest is not that of the settings followed
    monkeypatch.setattr(R, "_same_settings", lambda table, settings, digest: True)
    with pytest.raises(R.Broken, match="the judge says"):
        R.check_baccarat(seen)


def test_the_checks_judge_only_under_settings_the_table_s_digest_confirms():
    """Found by the soak (craps --settings-changes --host-away, seed 225): the host away, the store refused the
    settings_changed reports of a change of the minimum to 5 among 29 reports (a link_lost notice), and the one-roll
    check judged an any-craps bet of 5 under the minimum of 10 it had followed (the judge refuses it: net 0, the
    table's -5). Now a lost report leaves the settings unknown, and nothing is judged under them until a boot or
    settings_changed report's digest is theirs; a settings_changed whose digest the settings followed do not give
    is a fault of the table's report or of the check."""
    from firmware.host_port import settings_digest
    with open(S.table_file("craps")) as f:
        file = json.load(f)

    def digest(**changes):
        return settings_digest(dict(file, settings=dict(file["settings"], **changes)))
    followed = R.Followed("craps")
    followed.see({"event": "boot", "settings": digest()})
    assert followed.known
    followed.see({"event": R.LOST, "reports": 29})
    assert not followed.known
    followed.see({"event": "boot", "settings": digest(minimum=10, maximum=1000)})
    assert not followed.known                      # (a change the lost reports held)
    followed.see({"event": "settings_changed", "changes": {"minimum": [5, 10]}, "settings": digest(minimum=10)})
    assert followed.known and followed.values["minimum"] == 10
    with pytest.raises(R.Broken, match="not the table's"):
        followed.see({"event": "settings_changed", "changes": {"maximum": [5000, 0]}, "settings": digest(minimum=5)})
    lines = S.with_host_absences(random.Random(225 + 1000003), S.with_settings_changes(
        random.Random(225 + 2000003), S.craps_script(random.Random(225), 150), "craps"))
    seen = R.run(lines, game="craps", pin=S.SOAK_PIN)
    assert any(r.get("event") == R.LOST for r in seen)
    assert R.check_craps(seen) > 100


def test_a_one_roll_bet_placed_before_a_change_of_the_minimum_is_decided_and_judged_as_placed():
    """Found by the soak with settings changes and power cuts (Craps seed 33): a come-out with only an aces bet of 25
    open is a safe boundary (no bet an option decides), so a change of the minimum to 10 applies before the roll; the
    bet stands as placed and loses 25 to the seven (Craps art. 5(10)). The check judged it under the new minimum, which
    refuses a stake of 25 (net 0): it now judges a bet under the settings it was placed under."""
    lines = [{"bets": {"10": {"aces": 25}}}, {"console": "\u0003login"}, {"console": S.SOAK_PIN},
             {"console": "set minimum 10"}, {"console": "commit SOAK-1"}, {"console": "logout"}, {"dice": [6, 1]}]
    seen = R.run(lines, game="craps", pin=S.SOAK_PIN)
    events = [r["event"] for r in seen if r.get("event") in ("bets", "settings_changed", "throw")]
    assert events == ["bets", "settings_changed", "throw"]
    assert [r["nets"] for r in seen if r.get("event") == "throw"] == [{"10": {"aces": -25}}]
    assert R.check_craps(seen) == 1


def _numbered(*events):
    """Reports as the replay prints them: (event, seq) pairs, ("link_lost", count) notices; a `recovered` resumed."""
    reports = [{"event": e, "reports": n} if e == R.LOST else {"event": e, "seq": n} for e, n in events]
    for r in reports:
        if r["event"] == "recovered":
            r["resumed"] = True
    return reports


def test_the_common_check_takes_a_gap_only_as_the_link_lost_notices_count_it():
    R.check_common(_numbered(("boot", 1), ("card", 2), (R.LOST, 3), ("card", 6), ("card", 7)))
    for short in ((R.LOST, 2),), ():
        with pytest.raises(R.Broken, match="seq 6, expected 3"):
            R.check_common(_numbered(("boot", 1), ("card", 2), *short, ("card", 6)))
    # a boot's first count may hold the boot before's refusals as well; a later one is exact
    R.check_common(_numbered(("boot", 1), ("card", 2), ("boot", 1), ("state", 2), (R.LOST, 7), ("card", 6)))
    with pytest.raises(R.Broken, match="seq 9, expected 7, 3 counted"):
        R.check_common(_numbered(("boot", 1), (R.LOST, 7), ("card", 6), (R.LOST, 3), ("card", 9)))
    # A boot that recovers may carry two: the sender's count kept on flash (its first LOST frame), then the
    # snapshot's, which the recovery adds before the replay's reports (Craps seed 681, all flags, a noisy line:
    # 29 reports refused before a cut, 8 made again by the replay, LOST 2 and LOST 19). After `recovered`, exact;
    # and never a third.
    two = (("boot", 1), ("state", 2), (R.LOST, 2), ("state", 3), (R.LOST, 19), ("button", 4))
    R.check_common(_numbered(*two, ("recovered", 5), ("card", 6)))
    R.check_common(_numbered(*two[:-1], ("recovered", 4), ("card", 5)))    # a replay that made no report
    with pytest.raises(R.Broken, match="seq 4, expected 4, 19 counted"):
        R.check_common(_numbered(*two, ("card", 5)))                       # no recovery: no snapshot's count
    with pytest.raises(R.Broken, match="seq 7, expected 7, 1 counted"):
        R.check_common(_numbered(*two, ("recovered", 5), ("card", 6), (R.LOST, 1), ("card", 7)))
    with pytest.raises(R.Broken, match="seq 5, expected 5, 1 counted"):
        R.check_common(_numbered(*two, (R.LOST, 1), ("card", 5), ("recovered", 6)))


def test_the_common_check_holds_a_tagged_answer_to_its_request_s_kind():
    """The scripts tag a third of 1..9999 for each kind of request (soak_scripts.tagged); the check has teeth."""
    for line, kind in (({"open_bets": True}, "open_bets"), ({"roads": True}, "roads"), ({"recall": 3}, "recall"),
                       ({"hand": {}}, "hand")):
        tags = {S.tagged(dict(line), kind, roll / 97.0).get("tag") for roll in range(97)}
        assert None in tags and all(S.tag_kind(t) == kind for t in tags - {None}), kind
    answer = _numbered(("boot", 1), ("recall", 2))
    answer[1]["tag"] = S.tagged({"recall": 3}, "recall", 0.4)["tag"]
    R.check_common(answer)
    answer[1]["tag"] = S.tagged({"open_bets": True}, "open_bets", 0.4)["tag"]
    with pytest.raises(R.Broken, match="is a open_bets request's"):
        R.check_common(answer)
    answer[1].update({"event": "host_error", "request": "open_bets"})
    R.check_common(answer)
    answer[1] = {"event": "hand_start", "seq": 2, "tag": S.tagged({"hand": {}}, "hand", 0.4)["tag"]}
    R.check_common(answer)


def test_a_recovery_must_resume_in_the_state_the_host_last_heard_of():
    def reports(before, replayed=(), recovered="betting", lost=False):
        """A boot, its states; a reset: the new boot's own states, what its replay sent, `recovered`."""
        boot = [{"event": "boot"}, {"event": "state", "state": "starting"}, {"event": "state", "state": "ready"}]
        states = [{"event": "state", "state": s} for s in before] + ([{"event": R.LOST}] if lost else [])
        return boot + states + boot + [{"event": "state", "state": s} for s in replayed] \
            + [{"event": "recovered", "state": recovered, "resumed": True}]

    R.check_recovered_state(reports(["betting"]))
    R.check_recovered_state(reports(["betting"], ["dealing"], recovered="dealing"))    # made, not stored: replayed
    R.check_recovered_state(reports([], recovered="ready"))                           # Omaha between hands
    R.check_recovered_state(reports(["fault"], recovered="come_out", lost=True))      # a later state may be lost
    with pytest.raises(R.Broken, match="resumed in 'come_out', the table was in 'fault'"):
        R.check_recovered_state(reports(["fault"], recovered="come_out"))
    with pytest.raises(R.Broken, match="resumed in 'ready', the table was in 'betting'"):
        R.check_recovered_state(reports(["betting"], recovered="ready"))              # the boot's own are not
    # The new boot's `starting` refused by its full store (a link_lost notice in its place): its `ready` is still
    # its own, and the notice may hide a replayed state (found on Craps seed 211 and Omaha seed 333, all flags).
    cut_short = reports(["fault"], recovered="fault")
    assert cut_short[4:6] == [{"event": "boot"}, {"event": "state", "state": "starting"}]
    cut_short[5:6] = [{"event": R.LOST}]
    R.check_recovered_state(cut_short)
    R.check_recovered_state(cut_short[:-1] + [{"event": "recovered", "state": "come_out", "resumed": True}])
    cut_short[5:6] = []                           # no notice: its `ready` alone is still its own, not a state heard
    with pytest.raises(R.Broken, match="resumed in 'come_out', the table was in 'fault'"):
        R.check_recovered_state(cut_short[:-1] + [{"event": "recovered", "state": "come_out", "resumed": True}])
    # A third boot in a row with the host away: the kept slots taken, its `boot` report and `starting` refused (the
    # notice), its `ready` the first report the host hears of it, seq 3 after the boot before's 3 (Omaha seed 3108,
    # all flags): its own, as after a `boot` report.
    third = [{"seq": 104, "event": "state", "state": "fault"},
             {"seq": 1, "event": "boot"}, {"seq": 2, "event": "state", "state": "starting"},
             {"seq": 3, "event": "state", "state": "ready"}, {"event": R.LOST},
             {"seq": 3, "event": "state", "state": "ready"}, {"seq": 5, "event": "recovered", "state": "fault",
                                                              "resumed": True}]
    R.check_recovered_state(third)
    third[4:5] = []                               # no notice: the boot's `ready` is its own all the same
    R.check_recovered_state(third)
    with pytest.raises(R.Broken, match="resumed in 'come_out', the table was in 'fault'"):
        R.check_recovered_state(third[:-1] + [{"seq": 5, "event": "recovered", "state": "come_out", "resumed": True}])


_RECALLED = {"baccarat": (S.baccarat_script, 7, 60, "result"), "craps": (S.craps_script, 5, 120, "throw"),
             "omaha": (S.omaha_script, 5, 6, "hand_result")}


@pytest.mark.parametrize("game", sorted(_RECALLED))
def test_the_closing_recall_keeps_every_round_once_as_reported_and_the_check_has_teeth(game):
    """The host's RECALL 100 at the end (soak_scripts.CLOSING), and those it asks mid-play, across power cuts and
    everything else the script throws at the table: each kept round is its live report's (docs/journal.md,
    "Recall": kept exactly once, a power cut between the result report's store write and the recall write
    included). Teeth: a round reported that was not kept, a kept round other than reported, a Craps throw
    numbered twice, an answer mid-play that names other rounds than those before it."""
    from tests.host.soak_recall import RecallMismatch, answers, check_recall
    make, seed, size, event = _RECALLED[game]
    seen = R.run(make(random.Random(seed), size), game=game)
    reports = R.check_common(seen)
    rounds = [r for r in reports if r["event"] == event]
    assert sum(1 for r in reports if r["event"] == "boot") > 1            # across power cuts
    found = answers(reports)
    mid_play = sum(len(a) for _, a in found[:-1] if a[0]["of"])
    assert check_recall(reports, game) == min(100, len(rounds)) + mid_play > 3
    closing = found[-1][1]
    reported_twice = reports[:reports.index(rounds[-1]) + 1] + [rounds[-1]] + reports[reports.index(rounds[-1]) + 1:]
    with pytest.raises(RecallMismatch, match="rounds kept|its live report says"):
        check_recall(reported_twice, game)
    key = {"baccarat": "totals", "craps": "dice", "omaha": "board"}[game]
    last = dict(closing[-1]["round"])
    closing[-1]["round"][key] = [9, 9] if game != "omaha" else "AsAsAsAsAs"
    with pytest.raises(RecallMismatch, match="kept round %d of %d: " % (len(closing), len(closing))):
        check_recall(reports, game)
    closing[-1]["round"] = last
    if game == "craps":
        closing[-1]["round"] = dict(closing[-2]["round"])
        with pytest.raises(RecallMismatch, match="numbers do not run on by one"):
            check_recall(reports, game)
        closing[-1]["round"] = last
    check_recall(reports, game)
    if mid_play:                                  # an answer mid-play that is not the rounds before it
        answer = next(a for _, a in found[:-1] if a[0]["of"])
        answer[-1]["round"] = dict(answer[-1]["round"], **{key: [9, 9] if game != "omaha" else "AsAsAsAsAs"})
        with pytest.raises(RecallMismatch):
            check_recall(reports, game)


def test_the_lost_counts_are_the_senders_refusals_less_what_a_replay_made_again():
    """Every soak run watches the firmware's Sender (soak_sends.Sends): each report it refused is counted once in a
    LOST frame or made again by a later boot's replay. Craps seed 676, all flags but the noise: 28 refused with the
    host away, 28 counted. Teeth: one count more or less than the Sender's, and a run whose Sender was not seen."""
    from tests.host.soak_sends import Sends, WatchFailed
    seed = 676
    lines = S.with_host_absences(random.Random(seed + 1000003), S.with_settings_changes(
        random.Random(seed + 2000003), S.craps_script(random.Random(seed), 150), "craps"))
    with Sends() as sends:
        seen = R.run(lines, game="craps", pin=S.SOAK_PIN)
    lost = [r for r in seen if r.get("event") == R.LOST]
    assert sends.refused == sum(r["reports"] for r in lost) == 28 and sends.remade == 0
    for more in (1, -1):
        lost[0]["reports"] += more
        with pytest.raises(WatchFailed, match="told of %d lost reports; the Sender refused 28" % (28 + more)):
            sends.check(seen)
        lost[0]["reports"] -= more
    sends.check(seen)
    with pytest.raises(WatchFailed, match="not watched"):
        Sends().check(seen)


def _throws_then_recall(late, backlog, asked=2):
    """15 live throws (a die's face the throw's number, up to 6), a RECALL of `asked` answered `late` throws
    after the 15th (a link_backlog raised among those late ones, if `backlog`), then one throw more."""
    from tests.host.soak_recall import LATE
    throw = lambda i: {"event": "throw", "dice": [1 + i % 6, 1], "valid": True, "point": None}
    reports = [{"event": "boot", "seq": 1}] + [throw(i) for i in range(1, 16 + late)]
    if backlog:
        reports.insert(17, {"event": "fault", "fault": "link_backlog", "frames_held": 48})
    kept = [{"round": i, "dice": [1 + i % 6, 1], "point": None, "nets": None} for i in range(16 - asked, 16)]
    reports += [{"event": "recall", "asked": asked, "index": k + 1, "of": asked, "round": kept[k]}
                for k in range(asked)] + [throw(40)]
    return reports, LATE


def test_a_craps_answer_mid_play_is_held_to_the_throws_its_numbers_name_however_late():
    """Craps seed 727 (all flags, a noisy line): a RECALL answered 11 throws after it was asked (the answer waits for
    half the link store's room while the dealer throws on), past the LATE throws the check by position allowed. The
    throws are numbered from the table's first: each kept one is held to the live throw of its number."""
    from tests.host.soak_recall import RecallMismatch, check_recall
    reports, late = _throws_then_recall(0, False)
    assert check_recall(reports, "craps") == 2
    reports, late = _throws_then_recall(late + 3, True)
    assert check_recall(reports, "craps") == 2                     # late, the link backed up meanwhile
    reports, late = _throws_then_recall(late + 3, False)
    with pytest.raises(RecallMismatch, match="came 13 throws later, the link never backed up"):
        check_recall(reports, "craps")
    reports, _ = _throws_then_recall(2, False)
    reports[-2]["round"] = dict(reports[-2]["round"], round=14, dice=[3, 1])     # throw 14's, numbered 14 twice
    with pytest.raises(RecallMismatch, match="numbers do not run on by one"):
        check_recall(reports, "craps")
    reports, _ = _throws_then_recall(2, False)
    reports[-2]["round"] = dict(reports[-2]["round"], dice=[6, 6])
    with pytest.raises(RecallMismatch, match="kept round 2 of 2"):
        check_recall(reports, "craps")


_FUZZ = settings(max_examples=4, deadline=None, derandomize=True,
                 suppress_health_check=[HealthCheck.too_slow])


@_FUZZ
@given(st.integers(0, 2 ** 32 - 1), st.sampled_from(["baccarat", "craps", "omaha"]), st.booleans())
def test_fuzz_any_script_keeps_the_invariants(seed, game, changes):
    rng = random.Random(seed)
    if game == "baccarat":
        lines, check = S.baccarat_script(rng, 12, mess=0.4), R.check_baccarat
    elif game == "craps":
        lines, check = S.craps_script(rng, 40, mess=0.4), R.check_craps
    else:
        lines, check = S.omaha_script(rng, 2), R.check_omaha
    if changes:                      # a technician's settings changes among it (the checks follow them)
        lines = S.with_settings_changes(rng, lines, game, rate=0.1)
    check(R.run(lines, game=game, pin=S.SOAK_PIN if changes else None))


def test_replay_after_a_cut_waits_for_this_boots_lamp_test_not_the_last_boots_state():
    """Found by the soak: a power cut during the recovery of the last one (a cut at flash write 89, the next
    boot cut at its 9th) leaves that boot's last frames ("state": "betting") in the link's store; the
    next boot sends them first. The replay took that state report for the new boot being past its lamp
    test and dealt on while it was still starting: the firmware held the cards and took them in one
    burst after its recovery, the second a double pull, and the round's cards went to discard. The
    replay must wait for a state report of the boot it is waiting for."""
    clean = S.clean_baccarat_script(random.Random(1), 6)
    events = ("round", "card", "result", "shoe", "bets")
    base = R.game_view(R.run(clean, closing=False), events)
    seen = R.run(clean, closing=False, cut_after_writes=88, then_cut_after=[8])
    assert sum(1 for r in seen if r.get("event") == "boot") == 3
    assert not [r for r in seen if r.get("fault") == "double_pull"]
    assert R.first_difference(base, R.game_view(seen, events)) is None


def test_baccarat_garbage_on_the_bet_reader_changes_no_round_and_no_net():
    """Garbage on the bet reader's port between readings is reported (`bets`, `accepted: false`, the
    fault's name and bytes) and changes no round: the reading accepted before it is the next round's
    bets (docs/baccarat.md, "The table"). Regression: the fault dropped that reading, and the round after
    it played without bets or nets though the reader had accepted the chips on the layout."""
    rng = random.Random(4)
    clean = S.clean_baccarat_script(rng, 30)
    events = ("round", "card", "result", "shoe")
    base = R.game_view(R.run(clean, closing=False), events)
    noisy = R.run(S.with_garbage(rng, clean, rate=0.3, ports=("bets",)), closing=False)
    R.check_baccarat(noisy)
    assert R.first_difference(base, R.game_view(noisy, events)) is None
    assert any("nets" in r for r in base if r["event"] == "result")
    refused = [r for r in R.reports_only(noisy) if r["event"] == "bets" and not r["accepted"]]
    assert len(refused) > 5 and all(r["reason"].startswith(("frame_", "line_", "partial_", "bets_"))
                                    for r in refused), refused


def test_cards_drawn_during_the_lamp_test_after_a_power_cut_keep_their_pace(tmp_path):
    """Found by the soak: after a power cut inside a deal, two cards the dealer draws 400 ms apart while
    the board runs its lamp test wait for the recovery (firmware/recovery.py, `held`) and went in one after
    the other with no time between them: the first closed reset_in_round (a rescan), the second was taken
    for a double pull of it (a false alarm). Each waiting event now goes in after the boot's time that
    passed before it came (docs/journal.md, "Boot")."""
    out = []
    table = HeadlessTable(board_path("sim"), R.table_file("baccarat"), str(tmp_path), out.append)
    try:
        table.boot()
        table.wait_booted()
        for line in [{"shoe": "new"}] + [{"card": c} for c in ("Ah", "2h", "3h", "4h", "5h", "6h", "7h", "8h",
                                                                "9c", "2d")]:
            run_line(table, json.dumps(line))
        table.io.release_all()
        table.hw.reboot(hardware.PWRON_RESET)       # the power goes inside the deal and comes back
        table.boot()
        for card in ("Kc", "3s"):                   # the dealer draws on during the lamp test
            table.io.card(card)
            table.run_for(400)
        table.wait_booted()
        table.run_for(2000)
    finally:
        table.close()
    faults = [json.loads(l).get("fault") for l in out if '"fault"' in l]
    assert "reset_in_round" in faults
    assert "double_pull" not in faults


def test_a_cut_while_a_refused_reading_ends_does_not_refuse_it_twice():
    """Found by the soak: the power goes (the third cut of a run) while a bet reading refused at its SEAT
    line (seat 15 of 14) waits for its CLOSE in the UART. The replay gave the dead board's refusal again
    (its journal record was cut) and also sent the whole reading again, as for a reading begun: the host
    got bets_bad_seat twice. A reading the reader had refused is done: the rest of it is not sent again."""
    rng = random.Random(7)
    clean = [line for line in S.craps_script(rng, 60, mess=0, cuts=False)
             if not ("dice" in line and any(d not in range(1, 7) for d in line["dice"]))]
    events = ("throw", "puck", "shooter", "bet_refused", "bet_taken_down", "bets")
    base = R.game_view(R.run(clean, game="craps", closing=False), events)
    seen = R.run(clean, game="craps", closing=False, cut_after_writes=238, then_cut_after=[12, 19])
    assert sum(1 for r in seen if r.get("event") == "boot") == 4
    assert R.first_difference(base, R.game_view(seen, events)) is None


def test_a_come_out_the_backed_up_link_refused_stays_refused_after_a_settings_change_and_a_power_cut():
    """Found by the soak (omaha --settings-changes --write-cuts --host-away, seed 125: a host's hand the backlog
    refused was dealt after the cut): a settings change applied while the host link was backed up wrote the
    table's base (its snapshot) without the backlog, whose raise was an event before it, and after a power cut
    the replay took what the table had refused. Here a come-out held while the host was away (no roll,
    docs/host-link.md) became a roll after the cut, an 11: a natural, which pays every Pass bet on it, while the
    host had been told no roll. The base keeps the backlog (docs/journal.md, "Snapshot")."""
    change = [{"console": "\u0003login"}, {"console": S.SOAK_PIN}, {"console": "set field_12 3"},
              {"console": "commit T-1"}, {"console": "logout"}]
    before = [{"dice": [2, 4]}, {"host": "away"}] + [{"dice": [3, 5]}] * 46 + change \
        + [{"dice": [3, 4]}, {"dice": [5, 6]}, {"host": "back"}, {"wait_ms": 10000}]
    after = [{"button": "confirm"}, {"dice": [5, 6]}]
    events = ("throw", "puck", "shooter", "settings_changed")
    base = R.run(before + after, game="craps", closing=False, pin=S.SOAK_PIN)
    cut = R.run(before + [{"power_cut": True}] + after, game="craps", closing=False, pin=S.SOAK_PIN)
    R.check_craps(cut)
    backlog = [r for r in base if r.get("fault") == "link_backlog"]
    changed = [r for r in base if r.get("event") == "settings_changed"]
    assert base.index(backlog[0]) < base.index(changed[0])          # the change applied with the link backed up
    throws = [(r["dice"], r["valid"], r.get("no_roll")) for r in cut if r.get("event") == "throw"][-2:]
    assert throws == [([5, 6], False, "alarm"), ([5, 6], True, None)]          # held, then thrown again
    recovered = [r for r in cut if r.get("event") == "recovered"]
    assert [(r["state"], r.get("fault")) for r in recovered] == [("fault", "link_backlog")]
    assert R.first_difference(R.game_view(base, events), R.game_view(cut, events)) is None


def test_the_closing_lines_tags_are_of_their_kinds():
    assert [(S.tag_kind(line["tag"]), next(iter(line))) for line in S.CLOSING if "tag" in line] == [
        ("recall", "recall"), ("open_bets", "open_bets")]
