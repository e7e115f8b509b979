"""The headless runs' one play loop and tally tail (hostsim.autoplay's HeadlessRun and HeadlessTally), as each
game's run and tally use it: the stops (held in an alarm, past the bound, a dealer that lost track) and the
summary's common counts. The loop is driven here by a stand-in table and dealer, so that the stops come at
known virtual times; the games end to end are tests/host/test_sim_baccarat.py, _craps.py and _omaha.py."""
import os

import pytest

from hostsim.autoplay import HELD_LIMIT_MS, ROUND_BOUND_MS, Run, Stopped, Tally
from hostsim.craps_autoplay import SHOOTER_BOUND_MS, CrapsRun, CrapsTally
from hostsim.headless import board_path
from hostsim.omaha_autoplay import HAND_BOUND_MS, OmahaRun, OmahaTally

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
STEP_MS = 50
GAMES = [(Run, "baccarat", "rounds", ROUND_BOUND_MS),
         (CrapsRun, "craps", "shooters", SHOOTER_BOUND_MS),
         (OmahaRun, "omaha", "hands", HAND_BOUND_MS)]


class _Table:
    """A booted table whose virtual clock moves STEP_MS a step and which reports nothing."""

    ctx = "booted"

    def __init__(self):
        self.ms = 1000
        self.steps = 0

    def now_ms(self):
        return self.ms

    def step(self):
        self.steps += 1
        self.ms += STEP_MS

    def close(self):
        pass


class _Dealer:
    def __init__(self, state="betting", fix=None, lost=None):
        self.state = state
        self.fix = fix
        self.lost = lost
        self.mismatches = []
        self.unanswered = 0
        self.ticks = []

    def tick(self, now):
        self.ticks.append(now)

    def on_report(self, report):
        pass


def _stand_in(tmp_path, run_class, game, dealer):
    """A game's run with its table and dealer replaced by stand-ins (the real ones are built, then closed)."""
    table = os.path.join(REPO, "boards", "tables", "sim-%s.json" % game)
    run = run_class(board_path("sim"), table, str(tmp_path), seed=1)
    run.close()
    run.table = _Table()
    run.dealer = dealer
    return run


@pytest.mark.parametrize("run_class, game, unit, unit_bound_ms", GAMES)
def test_a_run_stops_at_its_bound_per_unit_asked_for_naming_what_it_counts(tmp_path, run_class, game, unit,
                                                                            unit_bound_ms):
    run = _stand_in(tmp_path, run_class, game, _Dealer())
    with pytest.raises(Stopped) as stopped:
        run.play(2)
    assert str(stopped.value) == "0 of 2 %s within the bound of %d s of virtual time" % (unit, 2 * unit_bound_ms // 1000)
    assert run.table.ms == 1000 + 2 * unit_bound_ms          # not a step past it
    assert run.dealer.ticks[0] == 1000 and len(run.dealer.ticks) == run.table.steps


@pytest.mark.parametrize("run_class, game, unit, unit_bound_ms", GAMES)
def test_a_bound_given_to_play_takes_the_place_of_the_per_unit_one(tmp_path, run_class, game, unit, unit_bound_ms):
    run = _stand_in(tmp_path, run_class, game, _Dealer())
    with pytest.raises(Stopped, match="0 of 5 %s within the bound of 3 s" % unit):
        run.play(5, bound_ms=3000)
    assert run.table.ms == 4000


@pytest.mark.parametrize("run_class, game, unit, unit_bound_ms", GAMES)
def test_a_table_held_in_an_alarm_stops_the_run_after_the_held_limit(tmp_path, run_class, game, unit,
                                                                      unit_bound_ms):
    run = _stand_in(tmp_path, run_class, game, _Dealer(state="fault"))
    with pytest.raises(Stopped, match="held in an alarm that nobody at a headless table can close"):
        run.play(1)
    assert run.table.ms == 1000 + HELD_LIMIT_MS + STEP_MS     # held from the first step's time on


def test_the_held_limit_counts_from_the_last_time_the_table_went_into_its_alarm(tmp_path):
    dealer = _Dealer(state="fault")
    run = _stand_in(tmp_path, CrapsRun, "craps", dealer)
    original_tick = dealer.tick

    def tick(now):                      # out of the alarm once, just before the limit
        original_tick(now)
        dealer.state = "point" if now == 1000 + HELD_LIMIT_MS - STEP_MS else "fault"
    dealer.tick = tick
    with pytest.raises(Stopped, match="held in an alarm"):
        run.play(1)
    assert run.table.ms == 1000 + 2 * HELD_LIMIT_MS + STEP_MS


def test_a_baccarat_fault_the_dealer_is_correcting_does_not_hold_the_table(tmp_path):
    # The dealer rescans the card or presses CONFIRM itself (hostsim.dealer's fix): not an alarm nobody closes.
    run = _stand_in(tmp_path, Run, "baccarat", _Dealer(state="fault", fix=(5000, "rescan")))
    with pytest.raises(Stopped, match="0 of 1 rounds within the bound"):
        run.play(1, bound_ms=3 * HELD_LIMIT_MS)


def test_an_omaha_dealer_that_lost_track_stops_the_run_before_another_step(tmp_path):
    run = _stand_in(tmp_path, OmahaRun, "omaha", _Dealer(lost="hand 3: the board differs"))
    with pytest.raises(Stopped) as stopped:
        run.play(1)
    assert str(stopped.value) == "the dealer lost track of the table: hand 3: the board differs"
    assert run.table.steps == 0


def test_run_for_deals_on_for_that_long_of_virtual_time(tmp_path):
    run = _stand_in(tmp_path, Run, "baccarat", _Dealer())
    run.run_for(1000)
    assert run.table.ms == 2000 and run.dealer.ticks == list(range(1000, 2000, STEP_MS))


@pytest.mark.parametrize("tally_class, rate", [(Tally, "rounds"), (CrapsTally, "throws"), (OmahaTally, "hands")])
def test_every_tally_counts_reports_and_alarms_and_ends_its_summary_alike(tally_class, rate):
    tally = tally_class()
    for report in ({"event": "fault", "fault": "x"}, {}, {"event": "state", "state": "fault"}):
        tally.add(report)
    assert tally.reports == 3 and tally.alarms == 1
    summary = tally.summary(42, 12345, 2.0)
    assert summary["alarms"] == 1
    assert list(summary)[-5:] == ["reports", "seed", "virtual_s", "wall_s", rate + "_per_s"]
    assert [summary[k] for k in list(summary)[-5:]] == [3, 42, 12.345, 2.0, 0.0]
    assert tally.summary(42, 0, 0)[rate + "_per_s"] is None          # no wall-clock time: no rate


class _FakeRun:
    """play_and_summarise's view of a run: play() raises what it is given; the summary is the tally's."""

    def __init__(self, raises=None):
        self.raises = raises
        self.seed = 7
        self.closed = False
        self.table = self
        self.tally = Tally()

    def now_ms(self):
        return 1500

    def play(self, count):
        if self.raises is not None:
            raise self.raises

    def close(self):
        self.closed = True


@pytest.mark.parametrize("raises, failed, status, said", [
    (None, False, 0, ""),
    (None, True, 1, ""),                                              # played to the end, an alarm reported
    (Stopped("the table is held"), False, 1, "sim: stopped early: the table is held\n"),
])
def test_the_headless_exit_status_says_whether_the_run_played_to_the_end_without_an_alarm(raises, failed, status,
                                                                                          said):
    # `python -m hostsim --headless` in a script or CI: 0 only for a whole run with no alarm; a run stopped early
    # prints its summary too, and why on stderr.
    import io
    import json
    from hostsim.autoplay import play_and_summarise
    run, out, err = _FakeRun(raises), io.StringIO(), io.StringIO()
    assert play_and_summarise(run, 3, None, out, err, lambda summary: failed) == status
    summary = json.loads(out.getvalue())
    assert summary["seed"] == 7 and summary["virtual_s"] == 0.0 and err.getvalue() == said and run.closed


def test_a_headless_table_that_does_not_boot_exits_1_with_the_reason():
    import io
    from hostsim.autoplay import play_and_summarise
    from hostsim.headless import BootTimeout
    run, out, err = _FakeRun(BootTimeout("the table did not finish booting within 10000 ms")), io.StringIO(), io.StringIO()
    assert play_and_summarise(run, 3, None, out, err, lambda summary: False) == 1
    assert out.getvalue() == "" and err.getvalue() == "sim: the table did not finish booting within 10000 ms\n"
