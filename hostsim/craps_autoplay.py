# `python -m hostsim --headless --game craps`: the live table's stickman and bettors, as fast as the CPU allows.
#
# The Craps side of hostsim.autoplay: play() boots the unchanged firmware on the
# simulated board (hostsim.headless, a stepped virtual clock), lets
# hostsim.stickman's Stickman throw the dice and place the bettors' chips at
# FAST_PACE until `shooters` shooters have had their turn (a Craps "round": the
# dice passed on, the table's `shooter` reports), and returns the summary.
# Nobody sits at a headless table to close an alarm: a table held in one for
# HELD_LIMIT_MS stops the run, as does a run longer than its bound.
import random

from hostsim.autoplay import HELD_LIMIT_MS, Stopped, parse, play_and_summarise
from hostsim.headless import HeadlessTable
from hostsim.stickman import FAST_PACE, Stickman

SHOOTER_BOUND_MS = 600000     # the run stops after this long of virtual time per shooter asked for


class CrapsTally:
    """Counts what the host saw: shooters, throws, no rolls, points made, seven-outs, bets, alarms."""

    def __init__(self):
        self.shooters = 0
        self.throws = 0
        self.no_rolls = 0
        self.points_made = 0
        self.seven_outs = 0
        self.bets_placed = 0
        self.bets_refused = 0
        self.alarms = 0               # fault reports
        self.reports = 0
        self._point = None

    def add(self, report):
        self.reports += 1
        event = report.get("event")
        if event == "fault":
            self.alarms += 1
        elif event == "bets":
            if report.get("accepted") is False:
                self.bets_refused += 1
            else:
                self.bets_placed += sum(len(row) for row in report.get("placed", {}).values())
                self.bets_refused += report.get("refused", 0)
        elif event == "throw":
            self._throw(report)
        elif event == "shooter":
            self.shooters += 1
            if report.get("why") == "seven_out":
                self.seven_outs += 1

    def _throw(self, report):
        self.throws += 1
        if not report.get("valid"):
            self.no_rolls += 1
            return
        if self._point and sum(report["dice"]) == self._point:
            self.points_made += 1
        self._point = report.get("point")

    def summary(self, seed, virtual_ms, wall_s):
        return {"game": "craps", "shooters": self.shooters, "throws": self.throws, "no_rolls": self.no_rolls,
                "points_made": self.points_made, "seven_outs": self.seven_outs, "bets_placed": self.bets_placed,
                "bets_refused": self.bets_refused, "alarms": self.alarms, "reports": self.reports, "seed": seed,
                "virtual_s": round(virtual_ms / 1000.0, 3), "wall_s": round(wall_s, 3),
                "throws_per_s": round(self.throws / wall_s, 1) if wall_s > 0 else None}


class CrapsRun:
    """One headless Craps run: the table, its stickman and the tally; play(shooters) steps it."""

    def __init__(self, board_file, table_file, state_dir, seed=None, pace=FAST_PACE, **rates):
        from firmware import table_config

        self.seed = seed if seed is not None else random.randrange(2 ** 31)
        self.tally = CrapsTally()
        self.on_report = None         # tests: also called with each report (a dict)
        config = table_config.load(table_file)
        self.table = HeadlessTable(board_file, table_file, state_dir, self._report)
        settings = config["rules"]
        self.stickman = Stickman(self.table.io, settings, settings.seats, seed=self.seed, pace=pace, **rates)

    def _report(self, line):
        report = parse(line)
        self.tally.add(report)
        self.stickman.on_report(report)
        if self.on_report is not None:
            self.on_report(report)

    def close(self):
        self.table.close()

    def play(self, shooters, bound_ms=None):
        """Boot, then throw until `shooters` shooters are done; Stopped when held in an alarm or past the bound."""
        table = self.table
        if table.ctx is None:
            table.boot()
            table.wait_booted()
        start = table.now_ms()
        end = start + (bound_ms if bound_ms is not None else SHOOTER_BOUND_MS * max(1, shooters))
        held_since = None
        while self.tally.shooters < shooters:
            now = table.now_ms()
            if now >= end:
                raise Stopped("%d of %d shooters within the bound of %d s of virtual time"
                              % (self.tally.shooters, shooters, (end - start) // 1000))
            self.stickman.tick(now)
            table.step()
            if self.stickman.state == "fault":
                held_since = now if held_since is None else held_since
                if now - held_since >= HELD_LIMIT_MS:
                    raise Stopped("the table is held in an alarm that nobody at a headless table can close")
            else:
                held_since = None


def headless(board_file, table_file, state_dir, shooters, seed=None, snapshot=None, out=None, err=None):
    """`python -m hostsim --headless --game craps`: play, print ONE summary line; the exit status.

    0: every shooter played, no alarm, no bet refused; 1: an alarm or a refused
    bet was reported, or the run stopped early (why: one line on stderr); 2: the
    files were refused at boot, or a snapshot was asked of a board without a scoreboard.
    """
    return play_and_summarise(CrapsRun(board_file, table_file, state_dir, seed), shooters, snapshot, out, err,
                              lambda summary: summary["alarms"] or summary["bets_refused"])
