"""Craps house edge, exact: an absorbing Markov chain over the firmware engine (tools.odds craps).

Each bet is placed on a firmware.games.craps.rules.CrapsTable; from every reachable engine state
the 21 distinct dice outcomes (weight 1 for a pair, 2 otherwise, of 36) are fed through
CrapsTable.roll itself, and the resulting linear system is solved in fractions.Fraction.
House edge = -(expected net) / stake, per bet made (a push counts as a decision worth 0);
for bets that can push, the edge per bet resolved (pushes excluded) is reported as well.
"""
import copy
from fractions import Fraction

from firmware.games.craps import rules as C

STAKE = 60            # divisible by every payout denominator (2, 3, 4, 5, 6): every payout is exact

# Dice totals -> one (d1, d2) that makes them (for driving the table to a point).
_MAKE = {4: (1, 3), 5: (1, 4), 6: (2, 4), 8: (3, 5), 9: (4, 5), 10: (4, 6)}
# The 21 distinct rolls with their weight out of 36.
ROLLS = tuple((a, b, 1 if a == b else 2) for a in range(1, 7) for b in range(a, 7))


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
    v = _solve_chain(rows)
    return {"net": v[0], "push": v[1], "rolls": v[2], "states": len(states)}


def _solve_chain(rows):
    """(I - P) V = c by Gauss-Jordan in fractions, three right-hand sides: net, push, rolls (each roll
    costs 1) -> (net, push, rolls) from the first state."""
    n = len(rows)
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
    return a[0][n], a[0][n + 1], a[0][n + 2]


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
