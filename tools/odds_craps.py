"""Craps house edge of every bet, exact (absorbing Markov chain over the firmware engine) or Monte-Carlo.

    python -m tools.odds craps --field-12 2 [--max-odds 3 4 5] [--json]
    python -m tools.odds craps --field-12 2 --monte-carlo 200000 --seed 1 [--json]

Exact mode (tools/odds_craps_exact.py): each bet placed on a firmware.games.craps.rules.CrapsTable,
every reachable engine state fed the 21 distinct dice outcomes through CrapsTable.roll itself, the
linear system solved in fractions. House edge = -(expected net) / stake, per bet made (a push
counts as a decision worth 0); for bets that can push, also per bet resolved (pushes excluded).
Monte-Carlo mode (tools/odds_craps_mc.py) rolls hostsim.dice.SimDice through the same engine and
reports each estimate with a 99% normal confidence interval and whether the exact figure lies
inside it. This module is the command line: the arguments, the settings, the output.
"""
import json
import time

from firmware.errors import SettingsError
from firmware.games.craps import rules as C
from firmware.games.craps import settings as CS
from tools.odds_craps_exact import STAKE, exact_edges
from tools.odds_craps_mc import MIN_DECISIONS_FOR_VERDICT, _exact_for_mc, monte_carlo


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
        return CS.load_settings({"minimum": 1, "field_12": field_12, "max_odds": list(max_odds),
                                "off_on_come_out": list(off_on_come_out), "max_open_bets": 4096,
                                "take_down": [], "shooter_change_on_come_out_craps": False})
    except SettingsError as exc:
        raise ValueError(str(exc))


def _pct(x):
    return "%.3f%%" % (100 * float(x))


def run(args):
    settings = make_settings(args.field_12, args.max_odds, args.off_on_come_out)
    header = {"field_12": settings.field_12, "max_odds": list(settings.max_odds),
              "off_on_come_out": list(settings.off_on_come_out), "stake": STAKE}
    if args.monte_carlo:
        return _run_monte_carlo(args, settings, header)
    return _run_exact(args, settings, header)


def _run_monte_carlo(args, settings, header):
    if args.monte_carlo < 100:
        raise ValueError("--monte-carlo needs at least 100 rolls")
    exact = _exact_for_mc(settings)
    rows, elapsed = monte_carlo(settings, args.monte_carlo, args.seed)
    for r in rows:
        ex = exact.get(r["bet"])
        r["exact"] = ex
        if (ex is not None and "edge" in r and r["decisions"] >= MIN_DECISIONS_FOR_VERDICT
                and r["half_width"] > 0):
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
    if any(r.get("inside") is None and r.get("exact") is not None for r in rows):
        print("-: no verdict: fewer than %d decisions of that bet, or all of them alike"
              % MIN_DECISIONS_FOR_VERDICT)
    return 0


def _run_exact(args, settings, header):
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
