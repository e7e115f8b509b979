"""Craps on CPython: the firmware's engine against CrapsSim, the same bets over the same rolls.

    .venv/bin/python bench/craps_crapssim.py [--rolls 20000] [--block 2000] [--repeats 3] [--seed 2010]

One player, the same betting on every side before every roll: a Pass Line bet of 10 while the
puck is off, 2x odds (20) behind it once it has a point, 10 on the Field and 10 on each hard way
(4, 6, 8, 10), each put back as soon as it is decided. Both engines are fed one fixed dice
sequence (--seed); CrapsSim 0.4.1 through Table.fixed_run, in two set-ups: its own strategy
classes combined (BetPassLine + PassLineOddsMultiplier + BetField + BetHardWay, as its documentation
does), and a hand-written Strategy placing the same bets (the leanest we could write, about twice as
fast); ours through firmware.games.craps.rules.CrapsTable (place_bet, roll: the code the board runs).
Field 12 pays 2:1 everywhere (CrapsSim's default); hard ways stand on the come-out everywhere
(off_on_come_out is empty here, CrapsSim's HardWay always works).

Honesty check, asserted: before anything is timed, one pass over every roll compares the money
of ours and each CrapsSim set-up after EACH roll (ours: the sum of the decided bets' nets; CrapsSim: bankroll plus
the stakes still on the layout, minus the starting bankroll); and each timed repeat ends with the
same total on every side. The bench stops if they ever differ.

Timing: CPU time (bench/benchutil.clock). The rolls are cut in blocks of --block; each block is
run by the three one after the other (each going first in turn), with the
calibration loop of bench/benchutil.py timed next to it, and the ratio taken per block. Medians
over every block of every repeat, with the middle half.
"""
import argparse
import os
import random
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if REPO not in sys.path:
    sys.path.insert(0, REPO)

from bench import benchutil  # noqa: E402
from firmware.games.craps import rules as R  # noqa: E402

STAKE = 10
ODDS = 20               # 2x behind the Pass Line (within max_odds on both sides)
HARD_NUMBERS = (4, 6, 8, 10)
START_BANKROLL = 10 ** 9  # CrapsSim refuses a bet the bankroll cannot cover: never here

SETTINGS = {"minimum": 5, "field_12": 2, "max_odds": [3, 4, 5], "off_on_come_out": [],
            "take_down": [], "shooter_change_on_come_out_craps": False}


def dice_sequence(n, seed):
    rnd = random.Random(seed)
    return [(rnd.randint(1, 6), rnd.randint(1, 6)) for _ in range(n)]


# ---- ours ------------------------------------------------------------------------------------
class Ours:
    """The firmware's CrapsTable and the player's bets (slot -> open bet id)."""

    def __init__(self):
        self.table = R.CrapsTable(SETTINGS)
        self.slot_of = {}      # open bet id -> slot name
        self.open = {}         # slot name -> open bet id
        self.money = 0         # sum of the decided bets' nets

    def _place(self, slot, kind, amount, number=0, on=None):
        bet_id, reason = self.table.place_bet(0, kind, amount, number, on)
        if reason is not None:
            raise SystemExit("our engine refused %s: %s" % (slot, reason))
        self.open[slot] = bet_id
        self.slot_of[bet_id] = slot

    def roll(self, dice):
        table = self.table
        open_ = self.open
        if "pass" not in open_:
            if not table.point:
                self._place("pass", "pass", STAKE)
        elif "odds" not in open_ and table.point:
            self._place("odds", "pass_odds", ODDS, on=open_["pass"])
        if "field" not in open_:
            self._place("field", "field", STAKE)
        for n in HARD_NUMBERS:
            if n not in open_:
                self._place(n, "hard", STAKE, n)
        net = 0
        slot_of = self.slot_of
        for r in table.roll(dice):
            net += r[R.NET]
            del open_[slot_of.pop(r[R.BET_ID])]
        self.money += net

    def run(self, rolls):
        roll = self.roll
        for d in rolls:
            roll(d)


# ---- CrapsSim --------------------------------------------------------------------------------
def crapssim_side():
    from crapssim.bet import Field, HardWay, Odds, PassLine
    from crapssim.strategy import Strategy
    from crapssim.table import Table

    class SameBets(Strategy):
        def completed(self, player):
            return False

        def update_bets(self, player):
            table = player.table
            kinds = [type(b) for b in player.bets]
            if table.point.status == "Off":
                if PassLine not in kinds:
                    player.add_bet(PassLine(STAKE))
            elif PassLine in kinds and Odds not in kinds:
                player.add_bet(Odds(PassLine, table.point.number, ODDS))
            if Field not in kinds:
                player.add_bet(Field(STAKE))
            hard = [b.number for b in player.bets if type(b) is HardWay]
            for n in HARD_NUMBERS:
                if n not in hard:
                    player.add_bet(HardWay(n, STAKE))

    def own_strategies():
        # The same bets from CrapsSim's own strategy classes, as its documentation combines them.
        from crapssim.strategy import BetPassLine, PassLineOddsMultiplier
        from crapssim.strategy.single_bet import BetField, BetHardWay
        strategy = BetPassLine(STAKE) + PassLineOddsMultiplier(ODDS // STAKE) + BetField(STAKE)
        for n in HARD_NUMBERS:
            strategy = strategy + BetHardWay(n, STAKE)
        return strategy

    class Theirs:
        strategy = SameBets

        def __init__(self):
            self.table = Table(seed=1)
            self.player = self.table.add_player(bankroll=START_BANKROLL, strategy=self.strategy(), name="p")

        @property
        def money(self):
            return self.player.bankroll + sum(b.amount for b in self.player.bets) - START_BANKROLL

        def run(self, rolls):
            self.table.fixed_run(rolls, verbose=False)

    class TheirsOwnStrategies(Theirs):
        strategy = staticmethod(own_strategies)

    return Theirs, TheirsOwnStrategies


def check_same_money(rolls, Theirs):
    """Roll by roll: both engines hold the same money after every roll."""
    ours, theirs = Ours(), Theirs()
    for i, d in enumerate(rolls):
        ours.run([d])
        theirs.run([d])
        if ours.money != theirs.money:
            raise SystemExit("engines disagree after roll %d %r: ours %r, CrapsSim %r"
                             % (i + 1, d, ours.money, theirs.money))
    return ours.money


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rolls", type=int, default=20000)
    ap.add_argument("--block", type=int, default=2000, help="rolls per side-by-side block (default 2000)")
    ap.add_argument("--repeats", type=int, default=3, help="runs over all the rolls (default 3)")
    ap.add_argument("--seed", type=int, default=2010)
    a = ap.parse_args(argv)
    import crapssim
    lean, own = crapssim_side()
    rolls = dice_sequence(a.rolls, a.seed)
    total = check_same_money(rolls, lean)
    if check_same_money(rolls, own) != total:
        raise SystemExit("CrapsSim's own strategies settle other money than the hand-written one")

    clock = benchutil.clock
    cal_n = a.block * 20
    sides = (("ours", Ours), ("lean", lean), ("own", own))
    per_roll = {key: [] for key, _ in sides}
    t_cal = []
    for rep in range(a.repeats):
        tables = [(key, make()) for key, make in sides]
        for i, start in enumerate(range(0, len(rolls), a.block)):
            block = rolls[start:start + a.block]
            t = clock()
            benchutil.calibrate(cal_n)
            t_cal.append(clock() - t)
            k = (i + rep) % len(tables)   # each side goes first in turn
            for key, side in tables[k:] + tables[:k]:
                t = clock()
                side.run(block)
                per_roll[key].append((clock() - t) / len(block))
        for key, side in tables:
            if side.money != total:
                raise SystemExit("repeat %d: %s settled %r, the check pass %r" % (rep, key, side.money, total))
    sp = benchutil.spread
    med = benchutil.median
    print("== %s" % benchutil.machine())
    print("== crapssim %s against firmware.games.craps.rules.CrapsTable: %d rolls (seed %d) in blocks of %d,"
          " %d repeats: %d blocks, CPU time" % (getattr(crapssim, "__version__", "0.4.1"), len(rolls), a.seed,
                                                a.block, a.repeats, len(t_cal)))
    print("  same money on all three, roll by roll: yes (player's net after %d rolls: %+d)" % (len(rolls), total))
    print("  calibration loop: %.3f us/iteration (%d iterations per block)" % (1e6 * med(t_cal) / cal_n, cal_n))
    labels = {"ours": "ours (CrapsTable)", "lean": "CrapsSim, hand-written Strategy",
              "own": "CrapsSim, its own strategy classes"}
    for key, _ in sides:
        rate = [1.0 / x for x in per_roll[key]]
        in_cal = [x / (c / cal_n) for x, c in zip(per_roll[key], t_cal)]
        print("  %-35s rolls/s: %s" % (labels[key], sp(rate, "%.0f")))
        print("  %-35s a roll in calibration iterations: %s" % ("", sp(in_cal, "%.1f")))
    for key in ("lean", "own"):
        ratios = [b / o for o, b in zip(per_roll["ours"], per_roll[key])]
        print("  ours faster than %s (per block): %s" % (labels[key], sp(ratios)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
