"""Craps house edge, Monte-Carlo (tools.odds craps --monte-carlo N): hostsim.dice.SimDice rolled
through the firmware engine, each estimate with a 99% normal confidence interval, beside the exact
figure of tools/odds_craps_exact.py.
"""
import math
import time

from firmware.games.craps import rules as C
from tools.odds_craps_exact import PAIRS, STAKE, exact_edges

Z99 = 2.5758293035489  # two-sided 99% normal quantile
# The normal interval needs about 10 of a bet's rarer outcome per row: aces and boxcars win 1 decision
# in 36, so a row with fewer decisions gets no verdict (a bet that never won has a zero-width interval
# and read "NO" by construction: half the seeds did at 100 rolls); nor does a row with no spread.
MIN_DECISIONS_FOR_VERDICT = 360


def _mc_specs():
    """(label, kind, number, parent label or None)."""
    specs = [("pass", "pass", 0, None), ("dont_pass", "dont_pass", 0, None),
             ("come", "come", 0, None), ("dont_come", "dont_come", 0, None),
             ("pass_odds (all points)", "pass_odds", 0, "pass"),
             ("dont_pass_odds (all points)", "dont_pass_odds", 0, "dont_pass"),
             ("come_odds (all points)", "come_odds", 0, "come"),
             ("dont_come_odds (all points)", "dont_come_odds", 0, "dont_come")]
    for kind in ("any_craps", "any_seven", "eleven", "ace_deuce", "aces", "boxcars", "horn", "field",
                 "big", "small"):
        specs.append((kind, kind, 0, None))
    for n in (4, 6, 8, 10):
        specs.append(("hard %d" % n, "hard", n, None))
    for n in (4, 5, 6, 8, 9, 10):
        specs.append(("big_number %d" % n, "big_number", n, None))
    return specs


def monte_carlo(settings, rolls, seed):
    """Roll SimDice `rolls` times through one table holding one bet of every row at all times."""
    from hostsim.dice import SimDice

    dice = SimDice(seed=seed)
    table = C.CrapsTable(settings)
    specs = _mc_specs()
    label_of = {}
    open_id = {}          # label -> engine id of its open bet
    stats = {s[0]: [0, 0.0, 0.0] for s in specs}   # decisions, sum x, sum x^2 (x = net / stake)
    t0 = time.perf_counter()
    for _ in range(rolls):
        for label, kind, number, parent in specs:
            if label in open_id:
                continue
            on = None
            if parent is not None:
                on = open_id.get(parent)
                if on is None or table.find(on).number == 0:
                    continue
            bet_id, reason = table.place_bet(0, kind, STAKE, number, on)
            if reason is None:
                open_id[label] = bet_id
                label_of[bet_id] = label
        for item in table.roll(dice.faces()):
            label = label_of.pop(item[C.BET_ID])
            del open_id[label]
            x = item[C.NET] / item[C.STAKE]
            st = stats[label]
            st[0] += 1
            st[1] += x
            st[2] += x * x
    elapsed = time.perf_counter() - t0
    out = []
    for label, kind, number, parent in specs:
        n, sx, sxx = stats[label]
        entry = {"bet": label, "decisions": n}
        if n >= 2:
            mean = sx / n
            var = max(0.0, (sxx - n * mean * mean) / (n - 1))
            half = Z99 * math.sqrt(var / n)
            entry.update(edge=-mean, half_width=half)
        out.append(entry)
    return out, elapsed


def _exact_for_mc(settings):
    """Exact edge for each Monte-Carlo row (odds rows: every point's exact edge must agree)."""
    exact = {}
    for entry in exact_edges(settings):
        exact[entry["bet"]] = entry["edge"]
    out = {}
    for label, kind, number, parent in _mc_specs():
        if label in exact:
            out[label] = exact[label]
        elif kind.endswith("_odds"):
            vals = {exact.get("%s %d/%d" % ((kind,) + pair)) for pair in PAIRS if settings.odds_multiple(pair[0])}
            out[label] = vals.pop() if len(vals) == 1 else None
        elif kind == "big_number":
            pair = [p for p in PAIRS if number in p][0]
            out[label] = exact["big_number %d/%d" % pair]
    return out
