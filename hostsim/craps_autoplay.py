# `python -m hostsim --headless --game craps`: the live table's stickman and bettors, as fast as the CPU allows.
#
# The Craps side of hostsim.autoplay: play() boots the unchanged firmware on the
# simulated board (hostsim.headless, a stepped virtual clock), lets
# hostsim.stickman's Stickman throw the dice and place the bettors' chips at
# FAST_PACE until `shooters` shooters have had their turn (a Craps "round": the
# dice passed on, the table's `shooter` reports), and returns the summary.
# Nobody sits at a headless table to close an alarm: a table held in one for
# HELD_LIMIT_MS stops the run, as does a run longer than its bound. The report
# plumbing and the play loop are hostsim.autoplay's HeadlessRun, the tally's
# common counts and summary tail its HeadlessTally.
from hostsim.autoplay import HeadlessRun, HeadlessTally, play_and_summarise
from hostsim.stickman import FAST_PACE, Stickman

SHOOTER_BOUND_MS = 600000     # the run stops after this long of virtual time per shooter asked for


class CrapsTally(HeadlessTally):
    """Counts what the host saw: shooters, throws, no rolls, points made, seven-outs, bets, alarms."""

    RATE = "throws"

    def __init__(self):
        super().__init__()
        self.shooters = 0
        self.throws = 0
        self.no_rolls = 0
        self.points_made = 0
        self.seven_outs = 0
        self.bets_placed = 0
        self.bets_refused = 0
        self._point = None

    def _count(self, event, report):
        if event == "bets":
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

    def _counts(self):
        return {"game": "craps", "shooters": self.shooters, "throws": self.throws, "no_rolls": self.no_rolls,
                "points_made": self.points_made, "seven_outs": self.seven_outs, "bets_placed": self.bets_placed,
                "bets_refused": self.bets_refused, "alarms": self.alarms}


class CrapsRun(HeadlessRun):
    """One headless Craps run: the table, its stickman and the tally; play(shooters) steps it."""

    UNIT = "shooters"
    UNIT_BOUND_MS = SHOOTER_BOUND_MS

    def __init__(self, board_file, table_file, state_dir, seed=None, pace=FAST_PACE, **rates):
        def new_stickman(table, settings, seed):
            return Stickman(table.io, settings, settings.seats, seed=seed, pace=pace, **rates)

        super().__init__(board_file, table_file, state_dir, seed, CrapsTally(), new_stickman)

    @property
    def stickman(self):
        """The Craps name of the run's dealer."""
        return self.dealer


def headless(board_file, table_file, state_dir, shooters, seed=None, snapshot=None, out=None, err=None):
    """`python -m hostsim --headless --game craps`: play, print ONE summary line; the exit status.

    0: every shooter played, no alarm, no bet refused; 1: an alarm or a refused
    bet was reported, or the run stopped early (why: one line on stderr); 2: the
    files were refused at boot, or a snapshot was asked of a board without a scoreboard.
    """
    return play_and_summarise(CrapsRun(board_file, table_file, state_dir, seed), shooters, snapshot, out, err,
                              lambda summary: summary["alarms"] or summary["bets_refused"])
