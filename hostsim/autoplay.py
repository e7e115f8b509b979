# `python -m hostsim --headless`: the live table's dealer and bettors, played as fast as the CPU allows.
#
# play() boots the unchanged firmware on the simulated board (hostsim.headless,
# a stepped virtual clock), lets hostsim.dealer's Dealer deal the table's shoe
# and place the bettors' chips at FAST_PACE until `rounds` results have been
# reported, and returns the summary: what the host saw (results, alarms, the
# number of reports) and how long it took (virtual and wall-clock seconds).
# Nobody sits at a headless table to close an alarm: a table held in one for
# HELD_LIMIT_MS stops the run, as does a run longer than its bound.
import contextlib
import json
import random
import sys
import time

from firmware import main as firmware_main
from hostsim.dealer import FAST_PACE, Dealer
from hostsim.headless import HeadlessTable

HELD_LIMIT_MS = 10000         # an alarm nobody closes: the run stops after this long in it
ROUND_BOUND_MS = 60000        # the run stops after this long of virtual time per round asked for
WINNERS = ("banker", "player", "tie")


class HeadlessTally:
    """What every game's tally counts alike: the reports, the fault reports (alarms); the summary's tail.

    A game's tally counts its own events in _count(event, report), gives its own
    counts (alarms among them) in _counts(), and names in RATE the count the
    summary also gives per wall-clock second (RATE + "_per_s").
    """

    RATE = "rounds"

    def __init__(self):
        self.alarms = 0               # fault reports
        self.reports = 0

    def add(self, report):
        self.reports += 1
        event = report.get("event")
        if event == "fault":
            self.alarms += 1
        else:
            self._count(event, report)

    def _count(self, event, report):
        raise NotImplementedError

    def _counts(self):
        raise NotImplementedError

    def summary(self, seed, virtual_ms, wall_s):
        summary = self._counts()
        summary["reports"] = self.reports
        summary["seed"] = seed
        summary["virtual_s"] = round(virtual_ms / 1000.0, 3)
        summary["wall_s"] = round(wall_s, 3)
        summary[self.RATE + "_per_s"] = round(summary[self.RATE] / wall_s, 1) if wall_s > 0 else None
        return summary


class Tally(HeadlessTally):
    """Counts what the host saw: results by winner, demo and void rounds, alarms, refused bet readings."""

    def __init__(self):
        super().__init__()
        self.rounds = 0
        self.results = dict((w, 0) for w in WINNERS)
        self.demo = 0
        self.void = 0
        self.with_bets = 0            # results that carried nets (the bettors' chips were read)
        self.bets_refused = 0
        self.last_results = []        # the result reports, in order (kept for tests)

    def _count(self, event, report):
        if event == "bets" and not report.get("accepted"):
            self.bets_refused += 1
        elif event == "result":
            self.rounds += 1
            self.last_results.append(report)
            if report.get("void"):
                self.void += 1
            else:
                self.results[report["winner"]] += 1
            if report.get("demo"):
                self.demo += 1
            if "nets" in report:
                self.with_bets += 1

    def _counts(self):
        return {"rounds": self.rounds, "results": dict(self.results), "demo": self.demo, "void": self.void,
                "with_bets": self.with_bets, "bets_refused": self.bets_refused, "alarms": self.alarms}


class Stopped(Exception):
    """The run stopped before its rounds were played (.reason says why; the summary is still given)."""


def parse(line):
    """A host report line as a dict ({} for a line that is not a JSON object: counted, not understood)."""
    try:
        report = json.loads(line)
    except ValueError:
        return {}
    return report if isinstance(report, dict) else {}


class HeadlessRun:
    """One headless run of any game: the table, its dealer and the tally; play(count) steps it until done.

    A game gives its tally and new_dealer(table, settings, seed) to the
    constructor, and names in UNIT what play() counts (the tally's attribute
    of that name: rounds, shooters, hands) and in UNIT_BOUND_MS the virtual time
    allowed per unit asked for. It may override _held() (when an alarm holds
    the table) and _lost() (why the dealer cannot go on, or None).
    """

    UNIT = "rounds"
    UNIT_BOUND_MS = ROUND_BOUND_MS

    def __init__(self, board_file, table_file, state_dir, seed, tally, new_dealer):
        from firmware import table_config

        self.seed = seed if seed is not None else random.randrange(2 ** 31)
        self.tally = tally
        self.on_report = None         # tests: also called with each report (a dict)
        config = table_config.load(table_file)
        self.table = HeadlessTable(board_file, table_file, state_dir, self._report)
        self.dealer = new_dealer(self.table, config["rules"], self.seed)

    def _report(self, line):
        report = parse(line)
        self.tally.add(report)
        self.dealer.on_report(report)
        if self.on_report is not None:
            self.on_report(report)

    def close(self):
        self.table.close()

    def _held(self):
        """True while an alarm holds the table (nobody at a headless table closes it)."""
        return self.dealer.state == "fault"

    def _lost(self):
        """Why the dealer cannot go on, or None."""
        return None

    def _step(self, now):
        self.dealer.tick(now)
        self.table.step()

    def play(self, count, bound_ms=None):
        """Boot, then deal until `count` UNITs are done; Stopped when held in an alarm, lost, or past the bound."""
        table = self.table
        if table.ctx is None:
            table.boot()
            table.wait_booted()
        start = table.now_ms()
        end = start + (bound_ms if bound_ms is not None else self.UNIT_BOUND_MS * max(1, count))
        held_since = None
        while getattr(self.tally, self.UNIT) < count:
            now = table.now_ms()
            lost = self._lost()
            if lost is not None:
                raise Stopped("the dealer lost track of the table: %s" % lost)
            if now >= end:
                raise Stopped("%d of %d %s within the bound of %d s of virtual time"
                              % (getattr(self.tally, self.UNIT), count, self.UNIT, (end - start) // 1000))
            self._step(now)
            if self._held():
                held_since = now if held_since is None else held_since
                if now - held_since >= HELD_LIMIT_MS:
                    raise Stopped("the table is held in an alarm that nobody at a headless table can close")
            else:
                held_since = None

    def run_for(self, ms):
        """Deal on for ms of virtual time (tests)."""
        end = self.table.now_ms() + ms
        while self.table.now_ms() < end:
            self._step(self.table.now_ms())


class Run(HeadlessRun):
    """One headless Baccarat run: the table, its dealer and bettors, the tally; play(rounds) steps it."""

    def __init__(self, board_file, table_file, state_dir, seed=None, pace=FAST_PACE):
        from firmware.game_setup import seat_count

        def new_dealer(table, settings, seed):
            return Dealer(table.io, settings, seat_count(table.board, "baccarat"), seed=seed, pace=pace)

        super().__init__(board_file, table_file, state_dir, seed, Tally(), new_dealer)

    def _held(self):
        """A fault the dealer is correcting itself (rescan, CONFIRM) does not hold the table."""
        return self.dealer.state == "fault" and self.dealer.fix is None


def headless(board_file, table_file, state_dir, rounds, seed=None, snapshot=None, out=None, err=None):
    """`python -m hostsim --headless`: play, print ONE summary line; the exit status.

    0: every round played and no alarm; 1: an alarm was reported, or the run
    stopped early (why: one line on stderr); 2: the files were refused at
    boot, or a snapshot was asked of a board without a scoreboard.
    """
    return play_and_summarise(Run(board_file, table_file, state_dir, seed), rounds, snapshot, out, err,
                              lambda summary: summary["alarms"])


def play_and_summarise(run, count, snapshot, out, err, failed):
    """Play `count` (rounds, shooters) on a headless run, print its one summary line; the exit status.

    failed(summary) is true when the run must exit 1 though it played to the end.
    """
    from hostsim.headless import BootTimeout, Refused
    from hostsim.oled import find_oled

    out = out if out is not None else sys.stdout
    err = err if err is not None else sys.stderr
    try:
        if snapshot is not None and find_oled(run.table.hw) is None:
            print("sim: --snapshot: board %s has no scoreboard display" % run.table.board.name, file=err)
            return 2
        started = time.perf_counter()
        start_ms = run.table.now_ms()
        reason = None
        try:
            with contextlib.redirect_stdout(err):     # the firmware's console text is not the summary
                run.play(count)
        except Stopped as exc:
            reason = str(exc)
        except Refused as exc:
            print("sim: the firmware refused to boot: %s" % exc, file=err)
            return 2
        except BootTimeout as exc:
            print("sim: %s" % exc, file=err)
            return 1
        summary = run.tally.summary(run.seed, run.table.now_ms() - start_ms, time.perf_counter() - started)
        if snapshot is not None:
            # The run stops at the last result's report; the firmware draws its displays at most every
            # DISPLAY_MS, the scoreboard a display pass after the LCDs: let those passes come (the table only,
            # no dealer) so the glass shows every result.
            run.table.run_for(2 * firmware_main.DISPLAY_MS + firmware_main.OUTPUT_MS)
            find_oled(run.table.hw).to_png(snapshot)
        print(json.dumps(summary), file=out, flush=True)
        if reason is not None:
            print("sim: stopped early: %s" % reason, file=err)
        return 1 if reason is not None or failed(summary) else 0
    finally:
        run.close()
