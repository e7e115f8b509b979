"""Baccarat: exact outcome probabilities and house edge of every bet, or a Monte-Carlo check.

    python -m tools.odds baccarat --method 1 --commission A --decks 8 [--json]
    python -m tools.odds baccarat --method 2 --commission B --decks 6 --monte-carlo 200000 --seed 7

Exact mode enumerates every dealing sequence of a full shoe (composition
dependent: each card drawn changes the odds of the next), through the
firmware's own rule functions (firmware.games.baccarat.rules: values, first_drawer,
other_draws, winner_of, is_pair, tie_odds, commission). All tallies are
integers over one common denominator, so the probabilities are exact
fractions; floats are only for display.

Monte-Carlo mode deals rounds from hostsim.shoe.SimShoe (seeded, reshuffled
before every round so it estimates the same off-the-top figures) through
firmware.games.baccarat.rules.Round, and reports each estimate with its 99%
confidence interval and whether the exact figure lies inside it. With
--mc-shoe it deals whole shoes through firmware.games.baccarat.shoe.Shoe
instead (burn, cut card, last round): by exchangeability every round of a
shoe has the off-the-top odds, up to a cut-card effect far below the CI.

Commission (art. 17) is taken as an exact 5% / 50% of the win, i.e. stakes
in multiples of 20 units; the firmware rounds the commission down on other
stakes (docs/baccarat.md).
"""
import json
import math
import time
from fractions import Fraction

from firmware.errors import SettingsError
from firmware.games.baccarat import payouts
from firmware.games.baccarat import rules as baccarat
from firmware.games.baccarat import settings as baccarat_settings
from firmware.games.baccarat.rules import PLAYER, BANKER, TIE, NONE

Z99 = 2.5758293035489004  # two-sided 99% normal quantile
# The normal interval needs about 10 of a figure's rarer outcome: a tie is 1 round in 17, a pair 1 in
# 13, so fewer rounds give no verdict (a figure never seen has a zero-width interval, "OUTSIDE" by
# construction); nor does a figure whose rounds all came out alike (its estimated variance is 0).
MIN_ROUNDS_FOR_VERDICT = 200


def add_arguments(parser):
    parser.add_argument("--method", type=int, default=1, help="art. 9 drawing method: 1 or 2 (default 1)")
    parser.add_argument("--commission", default="A", help="art. 17 option: A or B (default A)")
    parser.add_argument("--decks", type=int, default=8, help="decks in the shoe, 6..12 (default 8)")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--monte-carlo", type=int, default=0, metavar="N",
                        help="also deal N simulated rounds and check the exact figures against a 99%% CI")
    parser.add_argument("--seed", type=int, default=1, help="Monte-Carlo seed (default 1)")
    parser.add_argument("--mc-shoe", action="store_true",
                        help="Monte-Carlo deals whole shoes through the shoe procedure (burn, cut card 14 "
                             "from the end, last round) instead of a fresh shuffle per round")


def check_config(method, commission, decks):
    # The tie option does not change any figure here (a tie returns Banker/Player stakes).
    return baccarat_settings.BaccaratSettings(method=method, commission=commission, tie_option="returned", decks=decks)


def value_counts(decks):
    """Cards per point value (art. 5) in a full shoe, from the firmware's VALUES."""
    counts = [0] * 10
    for rank_index in range(13):
        counts[baccarat.VALUES[rank_index]] += 4 * decks
    return counts


def _rule_tables(method):
    """The firmware's art. 9 decisions over all totals, looked up in the hot loop."""
    first = [[baccarat.first_drawer(p, b) for b in range(10)] for p in range(10)]
    other = [[[baccarat.other_draws(method, p, b, t) for t in range(10)] for b in range(10)] for p in range(10)]
    # outcome index: 0..9 player wins with that total, 10..19 banker wins, 20 tie
    outcome = [[0] * 10 for _ in range(10)]
    for p in range(10):
        for b in range(10):
            w = baccarat.winner_of(p, b)
            outcome[p][b] = p if w == PLAYER else (10 + b if w == BANKER else 20)
    return first, other, outcome


def exact_distribution(method, decks):
    """Exact tallies: list of 21 integers (player wins by total, banker wins by
    total, tie) over denominator N(N-1)...(N-5), plus pair numerator/denominator."""
    first, other, outcome = _rule_tables(method)
    c = value_counts(decks)
    n = sum(c)
    tally = [0] * 21
    d45 = (n - 4) * (n - 5)
    n5 = n - 5
    # Player's cards are the 1st and 3rd, Banker's the 2nd and 4th (art. 7).
    # The weight of a 4-card sequence depends only on its multiset, so each
    # hand's two cards are taken unordered (x2 when different).
    for a in range(10):
        wa = c[a]
        c[a] -= 1
        for a2 in range(a, 10):
            wa2 = c[a2]
            if wa2 <= 0:
                continue
            c[a2] -= 1
            wp = wa * wa2 * (1 if a == a2 else 2)
            p2 = (a + a2) % 10
            for b in range(10):
                wb = c[b]
                if wb <= 0:
                    continue
                c[b] -= 1
                for b2 in range(b, 10):
                    wb2 = c[b2]
                    if wb2 <= 0:
                        continue
                    c[b2] -= 1
                    w4 = wp * wb * wb2 * (1 if b == b2 else 2)
                    bt2 = (b + b2) % 10
                    drawer = first[p2][bt2]
                    if drawer == NONE:
                        tally[outcome[p2][bt2]] += w4 * d45
                    else:
                        draws = other[p2][bt2]
                        mine, theirs = (p2, bt2) if drawer == PLAYER else (bt2, p2)
                        for x in range(10):
                            wx = c[x]
                            if wx <= 0:
                                continue
                            t = (mine + x) % 10
                            fp, fb = (t, theirs) if drawer == PLAYER else (theirs, t)
                            if not draws[t]:
                                tally[outcome[fp][fb]] += w4 * wx * n5
                                continue
                            c[x] -= 1
                            wwx = w4 * wx
                            for y in range(10):
                                wy = c[y]
                                if wy > 0:
                                    if drawer == PLAYER:
                                        tally[outcome[fp][(fb + y) % 10]] += wwx * wy
                                    else:
                                        tally[outcome[(fp + y) % 10][fb]] += wwx * wy
                            c[x] += 1
                    c[b2] += 1
                c[b] += 1
            c[a2] += 1
        c[a] += 1
    denominator = n * (n - 1) * (n - 2) * (n - 3) * d45
    if sum(tally) != denominator:
        raise RuntimeError("enumeration lost weight: %d != %d" % (sum(tally), denominator))
    # Art. 12 pair: a hand's two cards (1st+3rd or 2nd+4th, exchangeable with
    # the first two) have the same rank; through the firmware's is_pair.
    per_rank = 4 * decks
    pair = 0
    for r1 in range(13):
        for r2 in range(13):
            if baccarat.is_pair(r1 * 4, r2 * 4):
                pair += per_rank * (per_rank - (1 if r1 == r2 else 0))
    return {"tally": tally, "denominator": denominator,
            "player_pair": pair, "banker_pair": pair, "pair_denominator": n * (n - 1)}


def _commission_rate(option, total):
    return Fraction(payouts.commission(option, total, 100), 100)


def figures(dist, method, commission):
    """From tallies -> list of (name, value Fraction, variance per round Fraction)."""
    den = dist["denominator"]
    tally = dist["tally"]
    out = []

    def prob(name, num, d):
        p = Fraction(num, d)
        out.append((name, p, p * (1 - p)))
        return p

    p_player = prob("P(player wins)", sum(tally[0:10]), den)
    p_banker = prob("P(banker wins)", sum(tally[10:20]), den)
    p_tie = prob("P(tie)", tally[20], den)
    p_pp = prob("P(player pair)", dist["player_pair"], dist["pair_denominator"])
    p_bp = prob("P(banker pair)", dist["banker_pair"], dist["pair_denominator"])

    def bet(name, outcomes):
        # outcomes: list of (probability, payoff per unit)
        ev = sum(p * x for p, x in outcomes)
        ev2 = sum(p * x * x for p, x in outcomes)
        out.append((name, -ev, ev2 - ev * ev))

    for side, offset, p_other in (("player", 0, p_banker), ("banker", 10, p_player)):
        outs = [(Fraction(tally[offset + t], den), 1 - _commission_rate(commission, t)) for t in range(10)]
        outs.append((p_other, -1))
        bet("edge(%s)" % side, outs)
    bet("edge(tie)", [(p_tie, payouts.tie_odds(method)), (1 - p_tie, -1)])
    bet("edge(player_pair)", [(p_pp, payouts.PAIR_ODDS), (1 - p_pp, -1)])
    bet("edge(banker_pair)", [(p_bp, payouts.PAIR_ODDS), (1 - p_bp, -1)])
    return out


def _fresh_rounds(method, commission, decks, rounds, seed):
    """Each round off a freshly shuffled SimShoe, through baccarat.Round."""
    from hostsim.shoe import SimShoe

    settings = baccarat_settings.round_settings(method, commission)
    shoe = SimShoe(decks, seed=seed)
    for _ in range(rounds):
        shoe.shuffle()
        rnd = baccarat.Round(settings)
        while not rnd.complete:
            rnd.deal(shoe.next_int())
        yield rnd.result()


def _shoe_rounds(method, commission, decks, rounds, seed):
    """Whole shoes through baccarat_shoe.Shoe: burn by decks, cut card 14 from
    the end, that round is the last; live rounds only."""
    from firmware.games.baccarat import shoe as baccarat_shoe
    from hostsim.shoe import SimShoe

    table = baccarat_settings.load_settings({"method": method, "commission": commission, "tie_option": "returned",
                                    "decks": decks, "burn": "decks", "cut_card": "last_round",
                                    "demo_rounds": 0, "dealer": "shoe", "burn_each_round": False})
    sim = SimShoe(decks, seed=seed, cut_from_end=14)
    done = 0
    while done < rounds:
        sim.shuffle()
        shoe = baccarat_shoe.Shoe(table)
        while shoe.state == baccarat_shoe.BURNING:
            shoe.burn(sim.next_int())
        while shoe.state != baccarat_shoe.CLOSED and done < rounds:
            shoe.start_round()
            while shoe.expected() != NONE:
                shoe.deal(sim.next_int())
                if sim.cut_card_out and not shoe.last_round:
                    shoe.cut_card()
            done += 1
            yield shoe.end_round().result


def monte_carlo_distribution(method, commission, decks, rounds, seed, through_shoe=False):
    """Deal `rounds` rounds from a SimShoe through the engine; tallies as exact_distribution."""
    deal = _shoe_rounds if through_shoe else _fresh_rounds
    tally = [0] * 21
    pp = bp = 0
    for r in deal(method, commission, decks, rounds, seed):
        if r.winner == PLAYER:
            tally[r.player_total] += 1
        elif r.winner == BANKER:
            tally[10 + r.banker_total] += 1
        else:
            tally[20] += 1
        pp += r.player_pair
        bp += r.banker_pair
    return {"tally": tally, "denominator": rounds, "player_pair": pp, "banker_pair": bp,
            "pair_denominator": rounds}


def exact(method, commission, decks):
    check_config(method, commission, decks)
    start = time.perf_counter()
    dist = exact_distribution(method, decks)
    figs = figures(dist, method, commission)
    elapsed = time.perf_counter() - start
    return dist, figs, elapsed


def monte_carlo(method, commission, decks, rounds, seed, exact_figs, through_shoe=False):
    if rounds < 2:
        raise ValueError("--monte-carlo needs at least 2 rounds")
    start = time.perf_counter()
    dist = monte_carlo_distribution(method, commission, decks, rounds, seed, through_shoe)
    elapsed = time.perf_counter() - start
    rows = []
    for (name, est, var), (_n, ex, _v) in zip(figures(dist, method, commission), exact_figs):
        half = Z99 * math.sqrt(float(var) * rounds / (rounds - 1) / rounds)
        inside = None                   # no verdict: too few rounds, or no spread to build an interval on
        if rounds >= MIN_ROUNDS_FOR_VERDICT and half > 0:
            inside = abs(float(est) - float(ex)) <= half
        rows.append({"figure": name, "estimate": float(est), "ci99_half_width": half,
                     "exact": float(ex), "inside": inside})
    judged = [r["inside"] for r in rows if r["inside"] is not None]
    return {"rounds": rounds, "seed": seed, "seconds": elapsed, "confidence": 0.99,
            "dealing": "whole shoes" if through_shoe else "fresh shuffle per round",
            "rows": rows, "all_inside": all(judged) if judged else None}


def run(args):
    if args.monte_carlo < 0:
        raise ValueError("--monte-carlo must be >= 0")
    if args.mc_shoe and not args.monte_carlo:
        raise ValueError("--mc-shoe deals the Monte-Carlo check's rounds: give --monte-carlo N too")
    commission = args.commission.upper() if isinstance(args.commission, str) else args.commission
    try:
        dist, figs, elapsed = exact(args.method, commission, args.decks)
    except SettingsError as exc:
        raise ValueError(str(exc))
    mc = None
    if args.monte_carlo:
        mc = monte_carlo(args.method, commission, args.decks, args.monte_carlo, args.seed, figs, args.mc_shoe)
    if args.json:
        doc = {"method": args.method, "commission": commission, "decks": args.decks,
               "exact_seconds": elapsed,
               "figures": {name: float(v) for name, v, _var in figs},
               "exact_fractions": {name: "%d/%d" % (v.numerator, v.denominator) for name, v, _var in figs}}
        if mc is not None:
            doc["monte_carlo"] = mc
        print(json.dumps(doc, indent=2))
        return 0
    print("Baccarat, Method %d, commission %s, %d decks: exact, composition-dependent (%.3f s)"
          % (args.method, commission, args.decks, elapsed))
    for name, v, _var in figs:
        print("  %-20s %10.6f%s" % (name, float(v), "" if name.startswith("P(") else "  (%+.4f%%)" % (100 * float(v))))
    if mc is not None:
        print("Monte-Carlo: %d rounds (%s), seed %d, %.2f s (%.0f rounds/s), 99%% confidence intervals"
              % (mc["rounds"], mc["dealing"], mc["seed"], mc["seconds"], mc["rounds"] / mc["seconds"]))
        for r in mc["rows"]:
            print("  %-20s %10.6f +- %.6f  exact %10.6f  %s"
                  % (r["figure"], r["estimate"], r["ci99_half_width"], r["exact"],
                     {True: "inside", False: "OUTSIDE"}.get(r["inside"], "-")))
        if any(r["inside"] is None for r in mc["rows"]):
            print("  -: no verdict: %s" % ("fewer than %d rounds" % MIN_ROUNDS_FOR_VERDICT
                                          if mc["rounds"] < MIN_ROUNDS_FOR_VERDICT
                                          else "every round came out alike for that figure"))
    return 0
