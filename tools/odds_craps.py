"""Craps house edge of every bet, exact (absorbing Markov chain over the firmware engine) or Monte-Carlo.

    python -m tools.odds craps --field-12 2 [--max-odds 3 4 5] [--json]
    python -m tools.odds craps --field-12 2 --monte-carlo 200000 --seed 1 [--json]

Exact mode: each bet is placed on a firmware.games.craps.rules.CrapsTable; from every reachable
engine state the 21 distinct dice outcomes (weight 1 for a pair, 2 otherwise, of 36) are fed
through CrapsTable.roll itself, and the resulting linear system is solved in fractions.Fraction.
House edge = -(expected net) / stake, per bet made (a push counts as a decision worth 0);
for bets that can push, the edge per bet resolved (pushes excluded) is reported as well.
Monte-Carlo mode rolls hostsim.dice.SimDice through the same engine and reports each estimate
with a 99% normal confidence interval and whether the exact figure lies inside it.
"""
import copy
import json
import math
import time
from fractions import Fraction

from firmware.errors import SettingsError
from firmware.games.craps import rules as C

STAKE = 60            # divisible by every payout denominator (2, 3, 4, 5, 6): every payout is exact
Z99 = 2.5758293035489  # two-sided 99% normal quantile

# Dice totals -> one (d1, d2) that makes them (for driving the table to a point).
_MAKE = {4: (1, 3), 5: (1, 4), 6: (2, 4), 8: (3, 5), 9: (4, 5), 10: (4, 6)}
# The 21 distinct rolls with their weight out of 36.
ROLLS = tuple((a, b, 1 if a == b else 2) for a in range(1, 7) for b in range(a, 7))


def add_arguments(parser):
    parser.add_argument("--field-12", type=int, default=2, help="Field pays 12 at 2:1 or 3:1 (art. 6(12)); default 2")
    parser.add_argument("--max-odds", type=int, nargs=3, default=[3, 4, 5], metavar=("X4_10", "X5_9", "X6_8"),
                        help="max odds multiples for points 4/10, 5/9, 6/8 (default 3 4 5)")
    parser.add_argument("--off-on-come-out", nargs="*", default=[], metavar="TYPE",
                        help="bet types off on the come-out (come_odds, dont_come_odds, hard, big_number)")
    parser.add_argument("--monte-carlo", type=int, default=0, metavar="N", help="simulate N dice rolls instead")
    parser.add_argument("--seed", type=int, default=1, help="Monte-Carlo seed (default 1)")
    parser.add_argument("--json", action="store_true", help="machine-readable output")


def make_settings(field_12=2, max_odds=(3, 4, 5), off_on_come_out=()):
    if field_12 not in (2, 3):
        raise ValueError("--field-12 must be 2 or 3, got %r" % (field_12,))
    try:
        return C.load_settings({"minimum": 1, "field_12": field_12, "max_odds": list(max_odds),
                                "off_on_come_out": list(off_on_come_out), "max_open_bets": 4096,
                                "take_down": [], "shooter_change_on_come_out_craps": False})
    except SettingsError as exc:
        raise ValueError(str(exc))


# ---- exact -----------------------------------------------------------------------------------

def _clone(table):
    return copy.deepcopy(table, {id(table.settings): table.settings})


def _key(table):
    """Everything that can change a bet's future: the puck and each open bet's point and age."""
    return (table.point,) + tuple((b.bet_id, b.number, b.in_action) for b in table.bets)


def _place(table, seat, kind, amount, number=0, on=None):
    bet_id, reason = table.place_bet(seat, kind, amount, number, on)
    if reason is not None:
        raise RuntimeError("setup bet refused: %s" % reason)
    return bet_id


def solve(table, targets):
    """Exact expectations until every bet in targets is decided, starting from table.

    Returns dict: net (expected total net), push (probability every target ends in a push),
    rolls (expected rolls to decide), states (Markov states visited)."""
    targets = frozenset(targets)
    index = {}
    states = []
    rows = []   # per state: (list of (prob, next state index)), const_net, const_push
    start = _key(table)
    index[start] = 0
    states.append(table)
    i = 0
    while i < len(states):
        here = states[i]
        trans = []
        cnet = Fraction(0)
        cpush = Fraction(0)
        for d1, d2, w in ROLLS:
            p = Fraction(w, 36)
            t = _clone(here)
            resolved = t.roll((d1, d2))
            net = 0
            pushes = True
            for item in resolved:
                if item[C.BET_ID] in targets:
                    net += item[C.NET]
                    pushes = pushes and item[C.RESULT] == "push"
            cnet += p * net
            if not any(b.bet_id in targets for b in t.bets):
                if pushes and resolved:
                    cpush += p
                continue
            k = _key(t)
            if k not in index:
                index[k] = len(states)
                states.append(t)
            trans.append((p, index[k]))
        rows.append((trans, cnet, cpush))
        i += 1
    n = len(states)
    # (I - P) V = c, three right-hand sides: net, push, rolls (each roll costs 1).
    a = [[Fraction(0)] * n + [Fraction(0)] * 3 for _ in range(n)]
    for s, (trans, cnet, cpush) in enumerate(rows):
        a[s][s] += 1
        for p, j in trans:
            a[s][j] -= p
        a[s][n] = cnet
        a[s][n + 1] = cpush
        a[s][n + 2] = Fraction(1)
    for c in range(n):
        piv = next(r for r in range(c, n) if a[r][c] != 0)
        a[c], a[piv] = a[piv], a[c]
        inv = 1 / a[c][c]
        a[c] = [x * inv for x in a[c]]
        for r in range(n):
            if r != c and a[r][c] != 0:
                f = a[r][c]
                a[r] = [x - f * y for x, y in zip(a[r], a[c])]
    return {"net": a[0][n], "push": a[0][n + 1], "rolls": a[0][n + 2], "states": n}


def _line_setup(settings, kind):
    t = C.CrapsTable(settings)
    if kind in ("come", "dont_come"):
        t.roll(_MAKE[6])          # a point must be on before a Come bet (art. 5(2)(5))
    return t, [_place(t, 0, kind, STAKE)]


def _odds_setup(settings, kind, point):
    line = {"pass_odds": "pass", "dont_pass_odds": "dont_pass", "come_odds": "come",
            "dont_come_odds": "dont_come"}[kind]
    t = C.CrapsTable(settings)
    if line in ("come", "dont_come"):
        other = 6 if point != 6 else 8
        t.roll(_MAKE[other])
    parent = _place(t, 0, line, STAKE)
    t.roll(_MAKE[point])
    return t, [_place(t, 0, kind, STAKE, on=parent)]


def _prop_setup(settings, kind, number=0):
    t = C.CrapsTable(settings)
    return t, [_place(t, 0, kind, STAKE, number)]


PAIRS = ((4, 10), (5, 9), (6, 8))


def bet_rows(settings):
    """[(label, [(table, targets), ...])]: each label's setups must all give the same edge."""
    rows = []
    for kind in ("pass", "dont_pass", "come", "dont_come"):
        rows.append((kind, [_line_setup(settings, kind)]))
    for kind in ("pass_odds", "dont_pass_odds", "come_odds", "dont_come_odds"):
        for pair in PAIRS:
            if settings.odds_multiple(pair[0]):      # max_odds 0: no odds offered on these points
                rows.append(("%s %d/%d" % ((kind,) + pair), [_odds_setup(settings, kind, p) for p in pair]))
    for kind in ("any_craps", "any_seven", "eleven", "ace_deuce", "aces", "boxcars", "horn", "field",
                 "big", "small"):
        rows.append((kind, [_prop_setup(settings, kind)]))
    for n in (4, 6, 8, 10):
        rows.append(("hard %d" % n, [_prop_setup(settings, "hard", n)]))
    for pair in PAIRS:
        rows.append(("big_number %d/%d" % pair, [_prop_setup(settings, "big_number", p) for p in pair]))
    return rows


def _edge_entry(label, r, stake):
    edge = -r["net"] / stake
    entry = {"bet": label, "edge": edge, "push": r["push"], "rolls": r["rolls"], "states": r["states"]}
    if r["push"]:
        entry["edge_resolved"] = edge / (1 - r["push"])
    return entry


def exact_edges(settings):
    out = []
    for label, setups in bet_rows(settings):
        results = [solve(t, ids) for t, ids in setups]
        first = results[0]
        for other in results[1:]:
            if other["net"] != first["net"]:
                raise RuntimeError("%s: edges differ between the numbers of the pair" % label)
        out.append(_edge_entry(label, first, STAKE))
    out.extend(combined_edges(settings))
    return out


def combined_edges(settings):
    """Line bet plus the full odds the table allows, taken as soon as the point is set.

    Edge = expected loss / expected total stake (flat + odds), the published "combined" figure."""
    out = []
    for line, odds in (("pass", "pass_odds"), ("dont_pass", "dont_pass_odds")):
        t = C.CrapsTable(settings)
        parent = _place(t, 0, line, STAKE)
        net = Fraction(0)
        staked = Fraction(STAKE)
        for d1, d2, w in ROLLS:
            p = Fraction(w, 36)
            u = _clone(t)
            resolved = u.roll((d1, d2))
            if resolved:
                net += p * resolved[0][C.NET]
                continue
            point = u.point
            m = settings.odds_multiple(point)
            lay = STAKE * m
            if odds == "dont_pass_odds":     # the win is capped at m x flat: lay m x flat x stake/win
                win, stake = {4: (1, 2), 10: (1, 2), 5: (2, 3), 9: (2, 3), 6: (5, 6), 8: (5, 6)}[point]
                lay = STAKE * m * stake // win
            ids = [parent]
            if lay:
                ids.append(_place(u, 0, odds, lay, on=parent))
            net += p * solve(u, ids)["net"]
            staked += p * lay
        out.append({"bet": "%s + %d-%d-%dx odds" % ((line,) + settings.max_odds), "edge": -net / staked,
                    "push": None, "rolls": None, "states": None, "combined": True})
    return out


# ---- Monte-Carlo -----------------------------------------------------------------------------

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


# ---- output ------------------------------------------------------------------------------------

def _pct(x):
    return "%.3f%%" % (100 * float(x))


def run(args):
    settings = make_settings(args.field_12, args.max_odds, args.off_on_come_out)
    header = {"field_12": settings.field_12, "max_odds": list(settings.max_odds),
              "off_on_come_out": list(settings.off_on_come_out), "stake": STAKE}
    if args.monte_carlo:
        if args.monte_carlo < 100:
            raise ValueError("--monte-carlo needs at least 100 rolls")
        exact = _exact_for_mc(settings)
        rows, elapsed = monte_carlo(settings, args.monte_carlo, args.seed)
        for r in rows:
            ex = exact.get(r["bet"])
            r["exact"] = ex
            if ex is not None and "edge" in r:
                r["inside"] = abs(float(ex) - r["edge"]) <= r["half_width"]
        if args.json:
            for r in rows:
                if r.get("exact") is not None:
                    r["exact"] = float(r["exact"])
            print(json.dumps({"settings": header, "monte_carlo": {"rolls": args.monte_carlo, "seed": args.seed,
                              "confidence": 0.99, "seconds": round(elapsed, 3)}, "bets": rows}))
            return 0
        print("Craps Monte-Carlo: %d rolls, seed %d, field 12 pays %d:1, odds %s (%.1f s, %.0f rolls/s)"
              % (args.monte_carlo, args.seed, settings.field_12, "-".join(map(str, settings.max_odds)),
                 elapsed, args.monte_carlo / elapsed if elapsed else 0))
        print("house edge per bet made, estimate +- 99% CI half-width; exact figure inside?")
        print("%-28s %10s %18s %10s %7s" % ("bet", "decisions", "estimate", "exact", "inside"))
        for r in rows:
            est = "%s +- %.3f%%" % (_pct(r["edge"]), 100 * r["half_width"]) if "edge" in r else "-"
            ex = _pct(r["exact"]) if r.get("exact") is not None else "-"
            print("%-28s %10d %18s %10s %7s" % (r["bet"], r["decisions"], est, ex,
                                               {True: "yes", False: "NO"}.get(r.get("inside"), "-")))
        return 0
    t0 = time.perf_counter()
    rows = exact_edges(settings)
    elapsed = time.perf_counter() - t0
    if args.json:
        out = []
        for r in rows:
            e = {"bet": r["bet"], "edge": float(r["edge"]), "edge_fraction": str(r["edge"])}
            if "edge_resolved" in r:
                e["edge_resolved"] = float(r["edge_resolved"])
            if r.get("rolls") is not None:
                e["push"] = float(r["push"])
                e["mean_rolls"] = float(r["rolls"])
            out.append(e)
        print(json.dumps({"settings": header, "seconds": round(elapsed, 3), "bets": out}))
        return 0
    print("Craps house edge (exact, through firmware.games.craps.rules): field 12 pays %d:1, odds %s%s"
          % (settings.field_12, "-".join(map(str, settings.max_odds)),
             (", off on come-out: " + ", ".join(settings.off_on_come_out)) if settings.off_on_come_out else ""))
    print("%-28s %9s %12s %10s %11s" % ("bet", "edge", "fraction", "resolved", "mean rolls"))
    for r in rows:
        res = _pct(r["edge_resolved"]) if "edge_resolved" in r else ""
        rolls = "%.3f" % float(r["rolls"]) if r.get("rolls") is not None else ""
        print("%-28s %9s %12s %10s %11s" % (r["bet"], _pct(r["edge"]), r["edge"], res, rolls))
    return 0
