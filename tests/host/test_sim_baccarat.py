"""`make sim` plays Baccarat (issue 9): the dealer and bettors on TableIO, fault keys, headless runs, the view."""
import collections
import json
import os
import random
import struct
import subprocess
import sys
import zlib

import pytest

from firmware import cards, table_config
from firmware.games.baccarat import payouts, rules
from hostsim.autoplay import Run
from hostsim.bettors import MAX_STAKE, MIN_STAKE, UNIT, Bettors
from hostsim.dealer import DOUBLE_PULL, FAST_PACE, GARBLED, LIVE_PACE, UNREADABLE
from hostsim.headless import board_path

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TABLE = os.path.join(REPO, "boards", "tables", "sim-baccarat.json")
SUMMARY_KEYS = {"rounds", "results", "demo", "void", "with_bets", "bets_refused", "alarms", "reports", "seed",
                "virtual_s", "wall_s", "rounds_per_s"}


def _cli(*args, timeout=120):
    return subprocess.run([sys.executable, "-m", "hostsim", *args], cwd=REPO, capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL)


def _table_file(tmp_path, **settings):
    with open(TABLE) as f:
        data = json.load(f)
    data["settings"].update(settings)
    path = tmp_path / "table.json"
    path.write_text(json.dumps(data))
    return str(path)


def _run(tmp_path, seed=5, table=TABLE, pace=FAST_PACE):
    state = tmp_path / "state"
    state.mkdir(exist_ok=True)
    run = Run(board_path("sim"), table, str(state), seed=seed, pace=pace)
    run.log = []
    run.on_report = run.log.append
    return run


def _events(run, event):
    return [r for r in run.log if r.get("event") == event]


def _check_against_the_engine(run, settings):
    """Every non-void result is the engine's own result for the cards the dealer dealt in that round."""
    results = [r for r in _events(run, "result") if not r["void"]]
    dealt = list(run.dealer.rounds)
    assert len(dealt) == len(results)
    for report, codes in zip(results, dealt):
        oracle = rules.play(settings, [cards.parse(c) for c in codes])      # rules.play: the oracle
        assert report["player"] == cards.names(oracle.player_cards) and report["banker"] == cards.names(oracle.banker_cards)
        assert report["winner"] == rules.HAND_NAMES[oracle.winner]
        assert (report["player_total"], report["banker_total"]) == (oracle.player_total, oracle.banker_total)
        assert (report["player_pair"], report["banker_pair"]) == (oracle.player_pair, oracle.banker_pair)


# -- headless runs --------------------------------------------------------------------------------------------

def test_a_headless_run_of_60_rounds_has_no_alarm_and_every_round_has_bets():
    proc = _cli("--headless", "--rounds", "60", "--seed", "11")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert len(lines) == 1                                   # ONE summary line, nothing else on stdout
    summary = json.loads(lines[0])
    assert set(summary) == SUMMARY_KEYS
    assert summary["rounds"] == 60 and sum(summary["results"].values()) + summary["void"] == 60
    assert summary["void"] == 0 and summary["alarms"] == 0 and summary["bets_refused"] == 0
    assert summary["with_bets"] == 60                        # the bettors' chips were read before every round
    assert summary["seed"] == 11 and summary["rounds_per_s"] > 0 and summary["virtual_s"] > 60


def test_results_and_nets_follow_the_engine_for_the_cards_dealt(tmp_path):
    run = _run(tmp_path, seed=2)
    try:
        run.play(60)
    finally:
        run.close()
    settings = table_config.load(TABLE)["rules"]
    _check_against_the_engine(run, settings)
    rounds, results = _events(run, "round"), _events(run, "result")
    assert len(rounds) == len(results) == 60 and not _events(run, "fault")
    for started, result, codes in zip(rounds, results, run.dealer.rounds):
        assert started["round"] == result["round"] and set(result["nets"]) == set(started["bets"])
        outcome = rules.play(settings, [cards.parse(c) for c in codes])
        for seat, zones in started["bets"].items():
            assert set(result["nets"][seat]) == set(zones)
            for zone, amount in zones.items():
                assert result["nets"][seat][zone] == payouts.settle_zone(settings, outcome, zone, amount)[0]


def test_a_seed_replays_the_same_table(tmp_path):
    def results(seed, sub):
        (tmp_path / sub).mkdir()
        run = _run(tmp_path / sub, seed=seed)
        try:
            run.play(25)
        finally:
            run.close()
        return [json.dumps(r, sort_keys=True) for r in run.log if r.get("event") in ("result", "bets", "card")]

    first, again, other = results(9, "a"), results(9, "b"), results(10, "c")
    assert first == again
    assert first != other


def test_a_long_headless_run_on_a_fair_shoe_raises_no_alarm_under_other_table_settings(tmp_path):
    # Past a cut card and into the next shoe, with demo rounds, one more round after the cut card, the art. 8
    # burn and the first-card burn: the dealer and the table never disagree.
    table = _table_file(tmp_path, demo_rounds=2, cut_card="one_more", burn_each_round=True, burn="first_card",
                        method=2, commission="B", decks=6)
    run = _run(tmp_path, seed=3, table=table)
    try:
        run.play(130)
        shoes = [r for r in _events(run, "shoe") if r["shoe"] == "closed"]
    finally:
        run.close()
    assert run.tally.alarms == 0 and run.tally.bets_refused == 0 and run.tally.void == 0
    assert shoes and run.tally.demo >= 2 * (len(shoes) + 1) - 2
    _check_against_the_engine(run, table_config.load(table)["rules"])


def test_an_automatic_shuffler_table_plays_past_156_rounds(tmp_path):
    run = _run(tmp_path, seed=3, table=_table_file(tmp_path, dealer="auto_shuffler"))
    try:
        run.play(170)
    finally:
        run.close()
    assert run.tally.alarms == 0


def test_headless_checks_its_arguments():
    proc = _cli("--headless", "--game", "omaha", "--players", "11")
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.strip() == "sim: --players must be 2..10 at this Omaha table (10 seats, one deck), got 11"
    proc = _cli("--headless", "--game", "omaha", "--players", "1")
    assert proc.returncode == 2 and "--players must be 2..10" in proc.stderr
    proc = _cli("--headless", "--rounds", "0")
    assert proc.returncode == 2 and proc.stderr.strip() == "sim: --rounds must be >= 1"
    for game in ("baccarat", "craps"):                  # --players was taken there and did nothing
        proc = _cli("--headless", "--game", game, "--players", "3")
        assert proc.returncode == 2 and proc.stdout == ""
        assert proc.stderr.strip() == ("sim: --players is for an Omaha table (its emulated players); this table "
                                       "plays %s" % game)


def test_a_state_dir_that_cannot_be_made_is_one_line_and_exit_status_2(tmp_path):
    # Before: a FileExistsError / NotADirectoryError traceback, exit status 1.
    afile = tmp_path / "afile"
    afile.write_text("")
    for args in (("--headless", "--rounds", "1"), ("--no-ui", "--no-pty", "--seconds", "1")):
        for state in (afile, afile / "below"):
            proc = _cli(*args, "--state-dir", str(state))
            assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
            assert proc.stderr.startswith("sim: --state-dir %s: not a directory that can be made and written ("
                                          % state)
    from tests.host.test_replay import _unwritable_dir
    state = _unwritable_dir(tmp_path)            # before: a PermissionError traceback at the table file's copy
    proc = _cli("--headless", "--rounds", "1", "--state-dir", state)
    assert proc.returncode == 2 and proc.stderr == ("sim: --state-dir %s: not a directory that can be made and "
                                                    "written (Permission denied)\n" % state), proc.stderr
    help_text = _cli("--help").stdout
    assert "--headless" in help_text and "an alarm was reported" in help_text


# -- the bettors -----------------------------------------------------------------------------------------------

def test_the_bettors_readings_are_legal_bets_of_the_layout():
    bettors = Bettors(7, random.Random(4))
    seats, zones, amounts = collections.Counter(), collections.Counter(), set()
    empty = 0
    for _ in range(500):
        reading = bettors.reading()
        empty += not reading
        for seat, bets in reading.items():
            assert isinstance(seat, int) and 1 <= seat <= 7 and bets
            assert set(bets) <= set(payouts.ZONES) and not {"player", "banker"} <= set(bets)
            assert list(bets) == [z for z in payouts.ZONES if z in bets]           # the layout's order
            for zone, amount in bets.items():
                assert isinstance(amount, int) and amount % UNIT == 0 and MIN_STAKE <= amount <= MAX_STAKE
                zones[zone] += 1
                amounts.add(amount)
            seats[seat] += 1
    assert set(seats) == set(range(1, 8)) and set(zones) == set(payouts.ZONES)
    assert min(amounts) == MIN_STAKE and max(amounts) == MAX_STAKE and empty < 10
    assert Bettors(0).reading() == {}
    with pytest.raises(ValueError):
        Bettors(-1)


# -- fault injection ----------------------------------------------------------------------------------------------

def _with_fault(tmp_path, fault, seed=5, at_round=3, pace=FAST_PACE):
    run = _run(tmp_path, seed=seed, pace=pace)
    try:
        run.play(at_round)
        before = len(run.log)
        run.dealer.inject(fault)
        run.play(at_round + 5)
    finally:
        run.close()
    return run, run.log[before:]


def _fault_free(tmp_path, seed=5, rounds=8):
    (tmp_path / "clean").mkdir()
    run = _run(tmp_path / "clean", seed=seed)
    try:
        run.play(rounds)
    finally:
        run.close()
    return _events(run, "result")


@pytest.mark.parametrize("fault, alarms, by", [
    (UNREADABLE, ["card_unreadable"], "rescan"),                 # UNREAD, then the dealer's rescan
    (GARBLED, ["frame_crc", "frame_lost"], "rescan"),            # refused frame, the gap at the rescan
    (DOUBLE_PULL, ["double_pull"], "confirm"),                   # the second card held, CONFIRM deals it on
])
def test_each_injected_fault_raises_its_alarm_and_never_a_wrong_result(tmp_path, fault, alarms, by):
    run, after = _with_fault(tmp_path, fault)
    assert [r["fault"] for r in after if r.get("event") == "fault"] == alarms
    acks = [r for r in after if r.get("event") == "fault_ack"]
    assert [(a["fault"], a["by"]) for a in acks] == [(alarms[0], by)]
    assert run.dealer.injected == {fault: 1} and not run.dealer.pending
    assert run.tally.void == 0 and run.tally.bets_refused == 0
    _check_against_the_engine(run, table_config.load(TABLE)["rules"])
    # The same seed without the fault deals the same cards: the alarm changed no result.
    assert [r["player"] + r["banker"] for r in _events(run, "result")] == \
        [r["player"] + r["banker"] for r in _fault_free(tmp_path)]


def test_a_double_pull_deals_the_two_cards_of_the_round_in_order(tmp_path):
    run, after = _with_fault(tmp_path, DOUBLE_PULL)
    alarm = next(r for r in after if r.get("event") == "fault")
    dealt = [r for r in after if r.get("event") == "card"]
    held = next(i for i, r in enumerate(dealt) if r["card"] == alarm["card"])
    result = next(r for r in after if r.get("event") == "result")
    cards_in_order = [r["card"] for r in dealt if r["round"] == result["round"]]
    assert held >= 1 and cards_in_order.index(alarm["card"]) in (2, 3)   # 3rd or 4th card of its round


def test_a_garbled_frame_is_refused_for_its_checksum_with_its_bytes(tmp_path):
    from hostsim.devices import frame

    run, after = _with_fault(tmp_path, GARBLED)
    damaged = next(r for r in after if r.get("fault") == "frame_crc")["bytes"].encode()
    rescan = next(r for r in after if r.get("fault") == "frame_lost")["bytes"].encode()
    words = rescan.split(b"*")[0].split(b" ")                 # S1 19 CARD Ac D: the card read again
    sent = frame("S", 1, int(words[1], 16) - 1, "CARD", words[3].decode(), words[4].decode()).rstrip(b"\n")
    changed = [i for i in range(len(sent)) if sent[i] != damaged[i]]
    assert len(damaged) == len(sent) and len(changed) == 1 and changed[0] < sent.index(b"*")


def test_the_tester_may_close_the_alarm_before_the_dealer(tmp_path):
    # Regression: after a CONFIRM pressed before the dealer's own, the dealer dealt the next card at once
    # (its card time had passed during the alarm): a second, spurious double pull.
    run = _run(tmp_path, seed=3, pace=LIVE_PACE)
    try:
        run.play(2)
        run.dealer.inject(DOUBLE_PULL)
        while not _events(run, "fault"):
            run.run_for(10)
        # The tester looks at the display and presses CONFIRM after the dealer's next card time (card_ms
        # after the pull) and before the dealer's own CONFIRM (fix_ms after it).
        assert LIVE_PACE.card_ms < 2000 < LIVE_PACE.fix_ms
        run.run_for(2000)
        run.table.io.press("confirm")                         # the dealer keeps working meanwhile
        run.play(4)
    finally:
        run.close()
    assert [r["fault"] for r in _events(run, "fault")] == ["double_pull"]
    assert [r["by"] for r in _events(run, "fault_ack")] == ["confirm"]
    assert len([r for r in _events(run, "button") if r["pressed"]]) == 1     # the dealer left it to the tester
    _check_against_the_engine(run, table_config.load(TABLE)["rules"])


CARDS = [("first", False), ("art8_burn", True), ("third", False)]


def _closed_by_the_tester(tmp_path, fault, card, burn_each_round, button, long):
    """Inject `fault` on the round's first card, its art. 8 burn card or its third card; the tester closes
    the alarm with `button` before the dealer corrects it; 12 rounds are played."""
    table = _table_file(tmp_path, burn_each_round=burn_each_round)
    run = _run(tmp_path, seed=7, pace=LIVE_PACE, table=table)
    try:
        run.play(3)
        if card == "third":
            while run.dealer.demo.round is None or len(run.dealer.demo.round.order) < 2:
                run.run_for(10)
        run.dealer.inject(fault)
        while not _events(run, "fault"):
            run.run_for(10)
        run.table.press(button, long=long)
        run.play(12)
    finally:
        run.close()
    _check_against_the_engine(run, table_config.load(table)["rules"])
    assert run.tally.bets_refused == 0
    assert [r["round"] for r in _events(run, "result")] == list(range(1, 13))     # no round lost or doubled
    burned = [r for r in _events(run, "card") if r["to"] == "burn"]
    decks = table_config.load(table)["rules"].decks
    # An unreadable art. 8 burn card voided is burned unseen: it counts, with no card report.
    unseen = 1 if (fault == UNREADABLE and button == "void" and card == "art8_burn") else 0
    assert len(burned) + unseen == decks + (12 if burn_each_round else 0)     # arts. 2(1), 8: no burn more or less
    return run


@pytest.mark.parametrize("card, burn_each_round", CARDS)
def test_void_held_on_an_unreadable_card_and_the_dealer_follows_the_table(tmp_path, card, burn_each_round):
    # The card is discarded unseen: in a round the round is void; between rounds the next card takes its
    # place, at the table and in the dealer's shoe, except an art. 8 burn card: burned all the same.
    run = _closed_by_the_tester(tmp_path, UNREADABLE, card, burn_each_round, "void", True)
    assert [r["fault"] for r in _events(run, "fault")] == ["card_unreadable"]
    assert [r["by"] for r in _events(run, "fault_ack")] == ["void"]
    assert run.tally.void == (1 if card == "third" else 0)


@pytest.mark.parametrize("card, burn_each_round", CARDS)
def test_confirm_on_a_garbled_card_and_the_dealer_follows_the_table(tmp_path, card, burn_each_round):
    # CONFIRM on a refused frame: the table goes on without the card it never read, and the dealer's shoe
    # gives that card's place to the next card as the table does. The gap shows at the next card's frame
    # (frame_lost, an alarm of its own), and that card is its rescan.
    run = _closed_by_the_tester(tmp_path, GARBLED, card, burn_each_round, "confirm", False)
    assert [r["fault"] for r in _events(run, "fault")] == ["frame_crc", "frame_lost"]
    assert [r["by"] for r in _events(run, "fault_ack")] == ["confirm", "rescan"]
    assert run.tally.void == 0


def test_an_unknown_fault_is_refused(tmp_path):
    run = _run(tmp_path)
    try:
        with pytest.raises(ValueError, match="unknown fault"):
            run.dealer.inject("fire")
    finally:
        run.close()


def test_a_refused_boot_keeps_no_boot_only_module_as_the_board_does(tmp_path):
    # firmware.main.run() releases the refusal path's modules after it (parts.release_boot_only); the
    # simulator's boot took the same path and kept firmware.boot_refusal and what it imported.
    from firmware.parts import BOOT_ONLY
    from hostsim.headless import HeadlessTable, Refused
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    table = HeadlessTable(board_path("sim"), str(bad), str(tmp_path), lambda line: None)
    try:
        with pytest.raises(Refused):
            table.boot()
        assert [name for name in BOOT_ONLY if name in sys.modules] == []
    finally:
        table.close()
