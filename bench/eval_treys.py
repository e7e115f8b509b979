"""Poker evaluation on CPython against treys 0.1.8: five-card hands, and Omaha's best of 60.

    .venv/bin/python bench/eval_treys.py [--hands 300000] [--deals 20000] [--repeats 5] [--seed 2010]

(1) Five cards: firmware.games.omaha.poker_eval.evaluate against treys' Evaluator.evaluate (its
    API) and Evaluator._five (its internal five-card path) on the same random hands, card
    conversion done beforehand (not timed), side by side in blocks of 5,000 hands.
(2) Omaha (art. 10(1): exactly two of the four hole cards with three of the five board cards, 60
    combinations): the showdown path the table runs -- hand_value.prepare_board once per board,
    then hand_value.best_value per hand -- and hand_value.best_hand (checks its cards, evaluates the
    60 five-card hands one by one, returns the cards too), against treys' PLOEvaluator.evaluate
    (the same 60 combinations through _five), on the same random deals (4 hole + 5 board cards),
    side by side in blocks of 1,000 deals. A deal's prepare_board is counted in full for that
    deal (a 10-seat showdown shares it between 10 hands, so the table's path is faster still).
Every block also times the calibration loop of bench/benchutil.py; CPU time; medians over every
block of every round, with the middle half. Both sides must agree on every hand checked
(strength == 7463 - treys rank) before anything is timed, or the bench stops.
"""
import argparse
import os
import random
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if REPO not in sys.path:
    sys.path.insert(0, REPO)

from bench import benchutil  # noqa: E402
from firmware import cards  # noqa: E402
from firmware.games.omaha import hand_value, poker_eval  # noqa: E402

BLOCK = 5000        # five-card hands per side-by-side block
OMAHA_BLOCK = 1000  # Omaha deals per side-by-side block


def five_card(n_hands, repeats, seed):
    from treys import Card, Evaluator

    rnd = random.Random(seed)
    hands = [tuple(rnd.sample(range(52), 5)) for _ in range(n_hands)]
    tcard = [Card.new(cards.name(c)) for c in range(52)]
    t_hands = [[tcard[c] for c in h] for h in hands]
    t_split = [(h[:2], h[2:]) for h in t_hands]
    evaluator = Evaluator()
    ours = poker_eval.evaluate
    theirs = evaluator.evaluate
    theirs_five = evaluator._five

    # Same results first: our strength is the mirror of treys' rank.
    for h, (a, b) in zip(hands[:2000], t_split[:2000]):
        if poker_eval.strength(ours(h)) != 7463 - theirs(a, b):
            raise SystemExit("evaluators disagree on %s" % cards.names(h))

    clock = benchutil.clock
    cal_n = BLOCK * 10  # about as long as one block of hands

    def timed(fn, arg):
        t = clock()
        fn(arg)
        return clock() - t

    def run_ours(block):
        for h in hands[block:block + BLOCK]:
            ours(h)

    def run_treys(block):
        for a, b in t_split[block:block + BLOCK]:
            theirs(a, b)

    def run_treys_five(block):
        for h in t_hands[block:block + BLOCK]:
            theirs_five(h)

    # Side by side in small blocks: each block of hands goes through the
    # calibration loop, ours, treys and treys' _five one after the other, so
    # whatever the machine does meanwhile hits all of them alike; the figures
    # are medians over every block of every round.
    t = {"cal": [], "ours": [], "treys": [], "treys_five": []}
    for _ in range(repeats):
        for block in range(0, n_hands - BLOCK + 1, BLOCK):
            t["cal"].append(timed(benchutil.calibrate, cal_n))
            t["ours"].append(timed(run_ours, block))
            t["treys"].append(timed(run_treys, block))
            t["treys_five"].append(timed(run_treys_five, block))
    med = benchutil.median
    print("== %s" % benchutil.machine())
    print("== CPython: %d random five-card hands in blocks of %d, %d rounds: %d blocks, CPU time, medians"
          % (n_hands, BLOCK, repeats, len(t["ours"])))
    print("  calibration loop: %.3f us/iteration (%d iterations per block)" % (1e6 * med(t["cal"]) / cal_n, cal_n))
    rate = {}
    for key, label in (("ours", "firmware poker_eval.evaluate(hand)"),
                       ("treys", "treys Evaluator.evaluate(hand, board)"),
                       ("treys_five", "treys Evaluator._five(cards) (internal)")):
        rate[key] = BLOCK / med(t[key])
        per_hand = [(x / BLOCK) / (c / cal_n) for x, c in zip(t[key], t["cal"])]
        print("  %-40s %9.0f hands/s; time per hand in calibration iterations: %s"
              % (label, rate[key], benchutil.spread(per_hand)))
    for key, label in (("treys", "treys API"), ("treys_five", "treys _five")):
        ratios = [b / a for a, b in zip(t["ours"], t[key])]
        print("  speed ratio ours / %-11s %s" % (label, benchutil.spread(ratios)))
    return rate


def omaha(n_deals, repeats, seed):
    from treys import Card
    from treys.evaluator import PLOEvaluator

    rnd = random.Random(seed + 1)
    deals = []
    for _ in range(n_deals):
        nine = rnd.sample(range(52), 9)
        deals.append((tuple(nine[:4]), tuple(nine[4:])))
    tcard = [Card.new(cards.name(c)) for c in range(52)]
    t_deals = [([tcard[c] for c in h], [tcard[c] for c in b]) for h, b in deals]
    plo = PLOEvaluator()
    theirs = plo.evaluate
    prepare = hand_value.prepare_board
    best_value = hand_value.best_value
    best_hand = hand_value.best_hand

    for (h, b), (th, tb) in zip(deals[:2000], t_deals[:2000]):
        ours = best_value(h, prepare(b))
        if ours != best_hand(h, b)[0] or poker_eval.strength(ours) != 7463 - theirs(th, tb):
            raise SystemExit("Omaha best hands disagree on %s / %s" % (cards.names(h), cards.names(b)))

    clock = benchutil.clock
    cal_n = OMAHA_BLOCK * 200

    def timed(fn, arg):
        t = clock()
        fn(arg)
        return clock() - t

    def run_value(block):
        for h, b in deals[block:block + OMAHA_BLOCK]:
            best_value(h, prepare(b))

    def run_hand(block):
        for h, b in deals[block:block + OMAHA_BLOCK]:
            best_hand(h, b)

    def run_treys(block):
        for h, b in t_deals[block:block + OMAHA_BLOCK]:
            theirs(h, b)

    sides = (("value", run_value), ("hand", run_hand), ("treys", run_treys))
    t = {"cal": [], "value": [], "hand": [], "treys": []}
    for rep in range(repeats):
        for i, block in enumerate(range(0, n_deals - OMAHA_BLOCK + 1, OMAHA_BLOCK)):
            t["cal"].append(timed(benchutil.calibrate, cal_n))
            order = sides if (i + rep) % 2 == 0 else sides[::-1]
            for key, fn in order:
                t[key].append(timed(fn, block))
    med = benchutil.median
    print("== CPython: Omaha best of 60, %d random deals in blocks of %d, %d rounds: %d blocks, CPU time, medians"
          % (n_deals, OMAHA_BLOCK, repeats, len(t["value"])))
    print("  calibration loop: %.3f us/iteration (%d iterations per block)" % (1e6 * med(t["cal"]) / cal_n, cal_n))
    rate = {}
    for key, label in (("value", "prepare_board + best_value (table)"),
                       ("hand", "hand_value.best_hand(hole, board)"),
                       ("treys", "treys PLOEvaluator.evaluate")):
        rate[key] = OMAHA_BLOCK / med(t[key])
        per = [(x / OMAHA_BLOCK) / (c / cal_n) for x, c in zip(t[key], t["cal"])]
        print("  %-36s %8.0f hands/s; a hand in calibration iterations: %s"
              % (label, rate[key], benchutil.spread(per, "%.0f")))
    for key, label in (("value", "best_value"), ("hand", "best_hand")):
        ratios = [b / a for a, b in zip(t[key], t["treys"])]
        print("  speed ratio %-10s / treys PLO: %s" % (label, benchutil.spread(ratios)))
    return rate


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=300000, help="random five-card hands (default 300000)")
    ap.add_argument("--deals", type=int, default=20000, help="random Omaha deals (default 20000)")
    ap.add_argument("--repeats", type=int, default=5, help="rounds over all of them, block by block (default 5)")
    ap.add_argument("--seed", type=int, default=2010)
    a = ap.parse_args(argv)
    five_card(a.hands, a.repeats, a.seed)
    omaha(a.deals, a.repeats, a.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
