"""Exact Baccarat odds (tools/odds_baccarat.py): RULES.md figures, symmetry, totals, an independent
enumeration, and the Monte-Carlo check through hostsim's shoe."""
import json
import os
import subprocess
import sys
from fractions import Fraction

import pytest

from tools import odds_baccarat as ob

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def figs(method, commission, decks):
    _dist, f, _t = ob.exact(method, commission, decks)
    return {name: v for name, v, _var in f}


def test_rules_md_method1_8_decks():
    f = figs(1, "A", 8)
    assert round(float(f["P(banker wins)"]), 4) == 0.4712
    assert round(float(f["P(player wins)"]), 4) == 0.4712
    assert round(float(f["P(tie)"]), 4) == 0.0577
    assert f["P(player pair)"] == Fraction(13 * 32 * 31, 416 * 415)


@pytest.mark.parametrize("decks", range(6, 13))
@pytest.mark.parametrize("method", [1, 2])
def test_symmetry_and_total_probability(method, decks):
    dist = ob.exact_distribution(method, decks)
    tally = dist["tally"]
    assert sum(tally[0:10]) == sum(tally[10:20])  # P(Banker) = P(Player), exactly
    assert tally[0:10] == tally[10:20]  # even by winning total
    assert sum(tally) == dist["denominator"]  # the probabilities sum to 1
    assert tally[0] == 0 and tally[10] == 0  # nobody wins with 0


def test_method2_more_ties_than_method1():
    assert figs(2, "A", 8)["P(tie)"] > figs(1, "A", 8)["P(tie)"]


def test_house_edges_from_the_independent_enumeration():
    """Each bet's edge from arts. 11, 16, 17 applied to the independent enumeration
    below (not the tool's own tally): Banker/Player are symmetric, so their edge is
    the commission alone; Tie and Pairs from their payouts and hand-computed P."""
    ind = _independent(1, 8)
    a, b = figs(1, "A", 8), figs(1, "B", 8)
    assert a["P(tie)"] == b["P(tie)"] == ind["tie"]
    # art. 17 A: 5% of the win when the winner has 7, 8 or 9; B: 50% when it has 4
    assert a["edge(banker)"] == Fraction(5, 100) * sum(ind["banker_with"][t] for t in (7, 8, 9))
    assert a["edge(player)"] == Fraction(5, 100) * sum(ind["player_with"][t] for t in (7, 8, 9))
    assert b["edge(banker)"] == Fraction(1, 2) * ind["banker_with"][4]
    # art. 16: Tie pays 14:1 (Method 1), 9:1 (Method 2)
    assert a["edge(tie)"] == 1 - 15 * ind["tie"]
    assert figs(2, "A", 8)["edge(tie)"] == 1 - 10 * _independent(2, 8)["tie"]
    # art. 12, 16: a pair pays 11:1; P(pair) = 13 ranks x (32/416) x (31/415) in 8 decks
    p_pair = Fraction(13 * 32 * 31, 416 * 415)
    assert a["edge(player_pair)"] == a["edge(banker_pair)"] == 1 - 12 * p_pair
    # the same as a figure to quote: option A costs a Banker (or Player) bettor 1.51%
    assert round(100 * float(a["edge(banker)"]), 2) == 1.51


def _independent(method, decks):
    """A second enumeration, card by card with a restated art. 9 (no shared code)."""
    counts = [16 * decks] + [4 * decks] * 9
    out = {"player": 0, "banker": 0, "tie": 0}

    with_total = {"player": [0] * 10, "banker": [0] * 10}

    def decide(v):
        # returns None if another card is needed, else (winner, winning total)
        if len(v) < 4:
            return None
        p, b = (v[0] + v[2]) % 10, (v[1] + v[3]) % 10
        if p >= 8 or b >= 8:
            fp, fb = p, b
        elif p == b:
            if len(v) < 6:
                return None
            fp, fb = (p + v[4]) % 10, (b + v[5]) % 10
        else:
            if len(v) < 5:
                return None
            low_is_p = p < b
            low_new = ((p if low_is_p else b) + v[4]) % 10
            high = b if low_is_p else p
            draws = low_new >= high if method == 1 else low_new > high
            if not draws:
                fp, fb = (low_new, high) if low_is_p else (high, low_new)
            else:
                if len(v) < 6:
                    return None
                high_new = (high + v[5]) % 10
                fp, fb = (low_new, high_new) if low_is_p else (high_new, low_new)
        if fp > fb:
            return "player", fp
        if fb > fp:
            return "banker", fb
        return "tie", fp

    n = 52 * decks

    def walk(v, weight):
        w = decide(v)
        if w is not None:
            for i in range(len(v), 6):  # weight of the cards not needed, to a common denominator
                weight *= n - i
            out[w[0]] += weight
            if w[0] != "tie":
                with_total[w[0]][w[1]] += weight
            return
        for value in range(10):
            if counts[value]:
                c = counts[value]
                counts[value] -= 1
                walk(v + [value], weight * c)
                counts[value] += 1

    walk([], 1)
    den = n * (n - 1) * (n - 2) * (n - 3) * (n - 4) * (n - 5)
    result = {k: Fraction(v, den) for k, v in out.items()}
    for side in ("player", "banker"):
        result[side + "_with"] = [Fraction(t, den) for t in with_total[side]]
    return result


@pytest.mark.parametrize("method", [1, 2])
def test_matches_independent_enumeration(method):
    ind = _independent(method, 8)
    f = figs(method, "A", 8)
    assert f["P(player wins)"] == ind["player"]
    assert f["P(banker wins)"] == ind["banker"]
    assert f["P(tie)"] == ind["tie"]


def test_monte_carlo_agrees_within_ci():
    _d, f, _t = ob.exact(1, "A", 8)
    mc = ob.monte_carlo(1, "A", 8, 20000, 12345, f)
    assert mc["all_inside"], mc["rows"]
    assert len(mc["rows"]) == 10 and mc["confidence"] == 0.99
    again = ob.monte_carlo(1, "A", 8, 20000, 12345, f)
    assert again["rows"] == mc["rows"]  # seeded: reproducible


def test_a_probabilitys_interval_is_the_binomial_one():
    # A P(...) figure's 99% half width: z * sqrt(p(1-p) / (n-1)), p the rounds' estimate (a wider interval
    # would let a wrong exact figure through).
    import math
    _d, f, _t = ob.exact(1, "A", 8)
    n = 2000
    mc = ob.monte_carlo(1, "A", 8, n, 7, f)
    probabilities = [r for r in mc["rows"] if r["figure"].startswith("P(")]
    assert len(probabilities) == 5
    for row in probabilities:
        p = row["estimate"]
        assert row["ci99_half_width"] == pytest.approx(ob.Z99 * math.sqrt(p * (1 - p) / (n - 1)), rel=1e-12), row


def test_monte_carlo_through_whole_shoes_agrees_within_ci():
    """--mc-shoe: shoes dealt through firmware.games.baccarat.shoe (burn, cut card)."""
    _d, f, _t = ob.exact(2, "B", 6)
    mc = ob.monte_carlo(2, "B", 6, 20000, 12345, f, through_shoe=True)
    assert mc["all_inside"], mc["rows"]
    assert mc["dealing"] == "whole shoes"


def test_cli_text_json_and_errors():
    def odds(*args):
        return subprocess.run([sys.executable, "-m", "tools.odds", "baccarat"] + list(args),
                              capture_output=True, text=True, cwd=REPO, timeout=120)

    proc = odds("--method", "2", "--commission", "B", "--decks", "6", "--json")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["method"] == 2 and doc["decks"] == 6
    assert abs(doc["figures"]["P(player wins)"] - doc["figures"]["P(banker wins)"]) < 1e-15
    doc = json.loads(odds("--json").stdout)             # the defaults: art. 9 method 1, commission A, 8 decks
    assert (doc["method"], doc["commission"], doc["decks"]) == (1, "A", 8), doc
    proc = odds("--decks", "8", "--monte-carlo", "2000", "--seed", "3")
    assert proc.returncode == 0 and "Monte-Carlo" in proc.stdout and "edge(banker)" in proc.stdout
    for bad in (["--method", "3"], ["--decks", "13"], ["--commission", "C"], ["--monte-carlo", "-1"]):
        proc = odds(*bad)
        assert proc.returncode == 2 and "Traceback" not in proc.stderr and proc.stderr.startswith("odds:")


def test_mc_shoe_without_monte_carlo_is_refused():
    # --mc-shoe alone printed the exact figures only, as if whole shoes had been dealt and agreed.
    import argparse

    parser = argparse.ArgumentParser()
    ob.add_arguments(parser)
    try:
        ob.run(parser.parse_args(["--mc-shoe"]))
    except ValueError as exc:
        assert str(exc) == "--mc-shoe deals the Monte-Carlo check's rounds: give --monte-carlo N too"
    else:
        raise AssertionError("--mc-shoe without --monte-carlo was accepted")


def test_monte_carlo_of_few_rounds_gives_no_verdict():
    # 3 rounds read "P(tie) 0.000000 +- 0.000000 ... OUTSIDE": a figure never seen has a zero-width
    # interval, so the exact figures were declared wrong by construction.
    _d, f, _t = ob.exact(1, "A", 8)
    mc = ob.monte_carlo(1, "A", 8, 3, 1, f)
    assert [r["inside"] for r in mc["rows"]] == [None] * 10 and mc["all_inside"] is None
    enough = ob.monte_carlo(1, "A", 8, ob.MIN_ROUNDS_FOR_VERDICT, 1, f)
    assert all(r["inside"] is not None for r in enough["rows"]), enough["rows"]


def test_monte_carlo_gives_no_verdict_on_a_figure_without_spread():
    # Enough rounds, but a figure whose rounds all came out alike (estimated variance 0): its interval
    # has no width, so "OUTSIDE" would say nothing about the exact figure.
    _d, f, _t = ob.exact(1, "A", 8)
    real = ob.monte_carlo_distribution
    try:
        ob.monte_carlo_distribution = lambda *a, **k: {      # no pair in any of 400 rounds
            "tally": [0] * 9 + [200] + [0] * 9 + [180, 20], "denominator": 400,
            "player_pair": 0, "banker_pair": 0, "pair_denominator": 400}
        mc = ob.monte_carlo(1, "A", 8, 400, 1, f)
    finally:
        ob.monte_carlo_distribution = real
    by = {r["figure"]: r for r in mc["rows"]}
    assert by["P(player pair)"]["ci99_half_width"] == 0 and by["P(player pair)"]["inside"] is None
    assert by["P(banker wins)"]["inside"] is not None
