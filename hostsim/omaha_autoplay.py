# `python -m hostsim --headless --game omaha`: the live table's dealer and players, as fast as the CPU allows.
#
# The Omaha side of hostsim.autoplay: play() boots the unchanged firmware on the
# simulated board (hostsim.headless, a stepped virtual clock), lets
# hostsim.omaha_dealer's OmahaDealer key the stacks and hands on the keypad,
# deal each hand through the shoe and key the emulated players' actions at
# FAST_PACE until `hands` hand_result reports have come, and returns the
# summary. The chips are checked from the reports alone: what was bought in
# (every `seat` report's change) equals the stacks now plus the rake taken.
# Nobody sits at a headless table to close an alarm: a table held in one for
# HELD_LIMIT_MS stops the run, as does a run longer than its bound, or a dealer
# that lost track of the hand (hostsim.omaha_dealer). The report plumbing and
# the play loop are hostsim.autoplay's HeadlessRun, the tally's common counts
# and summary tail its HeadlessTally.
from hostsim.autoplay import HeadlessRun, HeadlessTally, play_and_summarise
from hostsim.omaha_dealer import FAST_PACE, PLAYERS, OmahaDealer

HAND_BOUND_MS = 120000        # the run stops after this long of virtual time per hand asked for


class OmahaTally(HeadlessTally):
    """Counts what the host saw: hands, showdowns, folds, side pots, all-ins, rake, refusals, alarms, chips."""

    RATE = "hands"

    def __init__(self):
        super().__init__()
        self.hands = 0
        self.showdowns = 0
        self.won_by_folds = 0
        self.void = 0
        self.side_pots = 0            # pots after the main pot, over all hands
        self.all_ins = 0              # actions that left the seat all in
        self.rake = 0
        self.refusals = 0             # action_refused reports
        self.host_errors = 0
        self.bought_in = 0            # chips put on the table through keyed (or host) stacks
        self.stacks = {}              # seat -> chips, as last reported
        self.started = []             # hand numbers of hand_start reports
        self.results_missing = 0      # a hand started while the one before it had no hand_result
        self.last_results = []        # the hand_result reports, in order (kept for tests)
        self.mismatches = lambda: []  # the dealer's list (set by the run)
        self.unanswered = lambda: 0   # the dealer's count of entries the table did not answer (set by the run)

    def _count(self, event, report):
        if event == "action_refused":
            self.refusals += 1
        elif event == "host_error":
            self.host_errors += 1
        elif event == "action" and report.get("all_in"):
            self.all_ins += 1
        elif event == "seat":
            seat = str(report.get("seat"))
            self.bought_in += report.get("stack", 0) - self.stacks.get(seat, 0)
            self.stacks[seat] = report.get("stack", 0)
        elif event == "hand_start":
            if self.started and self.started[-1] is not None:
                self.results_missing += 1
            self.started.append(report.get("hand"))
        elif event == "hand_result":
            self._result(report)

    def _result(self, report):
        self.hands += 1
        self.last_results.append(report)
        if self.started and self.started[-1] == report.get("hand"):
            self.started[-1] = None
        self.stacks.update((str(s), c) for s, c in report.get("stacks", {}).items())
        if report.get("void"):
            self.void += 1
            return
        self.rake += report.get("rake", 0)
        self.side_pots += max(0, len(report.get("pots", [])) - 1)
        if report.get("shown"):
            self.showdowns += 1
        else:
            self.won_by_folds += 1

    def chips_conserved(self):
        return sum(self.stacks.values()) + self.rake == self.bought_in

    def _counts(self):
        return {"game": "omaha", "hands": self.hands, "showdowns": self.showdowns,
                "won_by_folds": self.won_by_folds, "void": self.void, "side_pots": self.side_pots,
                "all_ins": self.all_ins, "rake": self.rake, "bought_in": self.bought_in,
                "stacks": sum(self.stacks.values()), "chips_conserved": self.chips_conserved(),
                "refusals": self.refusals, "host_errors": self.host_errors, "alarms": self.alarms,
                "results_missing": self.results_missing, "mismatches": len(self.mismatches()),
                "unanswered": self.unanswered()}


def failed(summary):
    """A run that played to the end still fails on an alarm, a refusal, lost chips or a disagreement."""
    return (summary["alarms"] or summary["refusals"] or summary["host_errors"] or summary["results_missing"]
            or summary["mismatches"] or summary["unanswered"] or not summary["chips_conserved"])


class OmahaRun(HeadlessRun):
    """One headless Omaha run: the table, its dealer and players, the tally; play(hands) steps it."""

    UNIT = "hands"
    UNIT_BOUND_MS = HAND_BOUND_MS

    def __init__(self, board_file, table_file, state_dir, seed=None, pace=FAST_PACE, players=PLAYERS):
        def new_dealer(table, settings, seed):
            return OmahaDealer(table.io, settings, players, seed=seed, pace=pace)

        super().__init__(board_file, table_file, state_dir, seed, OmahaTally(), new_dealer)
        self.tally.mismatches = lambda: self.dealer.mismatches
        self.tally.unanswered = lambda: self.dealer.unanswered

    def _lost(self):
        """The dealer's MirrorError once it stopped following the table (hostsim.omaha_dealer)."""
        return self.dealer.lost


def headless(board_file, table_file, state_dir, hands, seed=None, snapshot=None, out=None, err=None,
             players=PLAYERS):
    """`python -m hostsim --headless --game omaha`: play, print ONE summary line; the exit status.

    0: every hand played, no alarm, no refusal, chips conserved, every report as
    the engine's copy has it; 1: otherwise, or the run stopped early (why: one
    line on stderr); 2: the files were refused at boot, or a snapshot was asked
    of a board without a scoreboard.
    """
    return play_and_summarise(OmahaRun(board_file, table_file, state_dir, seed, players=players), hands,
                              snapshot, out, err, failed)
