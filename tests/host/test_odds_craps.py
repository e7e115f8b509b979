"""Craps exact house edge (through the firmware engine) against published figures; Monte-Carlo agreement."""
import json
import os
import subprocess
import sys
from fractions import Fraction

from tools import odds_craps

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Published house edges (per bet made) where the regulation's payouts (art. 6) are the usual ones.
PUBLISHED = {
    "pass": Fraction(7, 495),              # 1.414%
    "dont_pass": Fraction(3, 220),         # 1.364%
    "come": Fraction(7, 495),
    "dont_come": Fraction(3, 220),
    "any_seven": Fraction(1, 6),           # 16.667% at 4:1
    "any_craps": Fraction(1, 9),           # 11.111% at 7:1
    "eleven": Fraction(1, 9),              # 11.111% at 15:1
    "ace_deuce": Fraction(1, 9),
    "aces": Fraction(5, 36),               # 13.889% at 30:1
    "boxcars": Fraction(5, 36),
    "horn": Fraction(1, 8),                # 12.5%
    "field": Fraction(1, 18),              # 5.556% with 12 at 2:1
    "big": Fraction(1, 6),
    "small": Fraction(1, 6),
    "hard 4": Fraction(1, 9),              # 11.111% at 7:1
    "hard 10": Fraction(1, 9),
    "hard 6": Fraction(1, 11),             # 9.091% at 9:1
    "hard 8": Fraction(1, 11),
    "big_number 6/8": Fraction(1, 66),     # 1.515% at 7:6 (= place 6/8)
    "big_number 5/9": Fraction(1, 25),     # 4.0% at 7:5
    "big_number 4/10": Fraction(1, 15),    # 6.667% at 9:5
    "pass + 3-4-5x odds": Fraction(7, 1870),       # 0.374%
    "dont_pass + 3-4-5x odds": Fraction(3, 1100),  # 0.273%
}


def edges(field_12=2, max_odds=(3, 4, 5)):
    settings = odds_craps.make_settings(field_12, max_odds)
    return {e["bet"]: e for e in odds_craps.exact_edges(settings)}


def test_published_figures_field_12_pays_2():
    got = edges(2)
    for bet, edge in PUBLISHED.items():
        assert got[bet]["edge"] == edge, (bet, got[bet]["edge"], edge)
    for label, e in got.items():
        if "_odds" in label and "+" not in label:
            assert e["edge"] == 0, label                     # free odds: no edge
    assert float(got["dont_pass"]["edge_resolved"]) == float(Fraction(3, 220) / (1 - Fraction(1, 36)))
    assert got["pass"]["rolls"] == Fraction(557, 165)        # 3.376 rolls per pass decision


def test_field_12_pays_3():
    assert edges(3)["field"]["edge"] == Fraction(1, 36)     # 2.778%


def test_cli_json_and_bad_arguments():
    proc = subprocess.run([sys.executable, "-m", "tools.odds", "craps", "--field-12", "2", "--json"],
                          capture_output=True, text=True, cwd=REPO, timeout=120)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    by = {b["bet"]: b for b in data["bets"]}
    assert round(100 * by["pass"]["edge"], 3) == 1.414
    assert round(100 * by["dont_pass"]["edge"], 3) == 1.364
    assert round(100 * by["field"]["edge"], 3) == 5.556
    assert round(100 * by["any_seven"]["edge"], 3) == 16.667
    proc = subprocess.run([sys.executable, "-m", "tools.odds", "craps", "--field-12", "4"],
                          capture_output=True, text=True, cwd=REPO, timeout=60)
    assert proc.returncode == 2 and "field-12" in proc.stderr and "Traceback" not in proc.stderr


def test_monte_carlo_agrees_with_exact_small_seeded_run():
    settings = odds_craps.make_settings(2)
    exact = odds_craps._exact_for_mc(settings)
    rows, _ = odds_craps.monte_carlo(settings, 20000, seed=7)
    assert len(rows) == len(exact)
    for r in rows:
        assert r["decisions"] > 1000, r
        assert abs(r["edge"] - float(exact[r["bet"]])) <= r["half_width"], r
    first, _ = odds_craps.monte_carlo(settings, 1000, seed=11)
    again, _ = odds_craps.monte_carlo(settings, 1000, seed=11)
    assert again == first                                     # seeded: reproducible


def _published_for_mc_row(label, field_12):
    """The published edge a Monte-Carlo row estimates (odds rows: free odds, 0)."""
    if label == "field":
        return Fraction(1, 36) if field_12 == 3 else PUBLISHED["field"]
    if label.endswith("(all points)"):
        return Fraction(0)
    if label.startswith("big_number "):
        n = int(label.split()[1])
        return PUBLISHED["big_number %s" % {4: "4/10", 10: "4/10", 5: "5/9", 9: "5/9", 6: "6/8", 8: "6/8"}[n]]
    return PUBLISHED[label]


def test_monte_carlo_cli_reports_inside():
    """Each row's exact figure is the published edge, and its "inside" verdict is
    exactly whether that published edge lies within the row's 99% interval."""
    proc = subprocess.run([sys.executable, "-m", "tools.odds", "craps", "--field-12", "3", "--monte-carlo", "5000",
                           "--seed", "3", "--json"], capture_output=True, text=True, cwd=REPO, timeout=120)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["monte_carlo"]["confidence"] == 0.99
    assert len(data["bets"]) == 28
    inside = 0
    for b in data["bets"]:
        published = float(_published_for_mc_row(b["bet"], 3))
        assert abs(b["exact"] - published) < 1e-12, b
        assert b["half_width"] > 0 and b["decisions"] > 500, b
        assert b["inside"] is (abs(b["edge"] - published) <= b["half_width"]), b
        inside += b["inside"]
    assert inside >= 25  # 28 intervals at 99%: a few long shots may miss at 5,000 rolls


def test_combined_edge_with_other_odds_limits():
    # published: Pass + 1x 0.848%, + 2x 0.606%, + 3x 0.471%; Don't Pass + 2x (win-capped) 0.455%
    assert edges(2, (1, 1, 1))["pass + 1-1-1x odds"]["edge"] == Fraction(7, 825)
    two = edges(2, (2, 2, 2))
    assert two["pass + 2-2-2x odds"]["edge"] == Fraction(1, 165)
    assert two["dont_pass + 2-2-2x odds"]["edge"] == Fraction(1, 220)
    assert edges(2, (3, 3, 3))["pass + 3-3-3x odds"]["edge"] == Fraction(7, 1485)


def test_no_odds_offered_on_some_points():
    got = edges(2, (0, 1, 2))
    assert "pass_odds 4/10" not in got and got["pass_odds 5/9"]["edge"] == 0


def test_monte_carlo_rows_of_few_decisions_get_no_verdict():
    # 100 rolls, seed 6: aces never won, "100.000% +- 0.000% ... NO" (half the seeds read a NO at 100 rolls).
    proc = subprocess.run([sys.executable, "-m", "tools.odds", "craps", "--monte-carlo", "100", "--seed", "6",
                           "--json"], capture_output=True, text=True, cwd=REPO, timeout=120)
    assert proc.returncode == 0, proc.stderr
    rows = json.loads(proc.stdout)["bets"]
    by = {b["bet"]: b for b in rows}
    assert by["aces"]["half_width"] == 0 and by["aces"].get("inside") is None
    for b in rows:
        assert b.get("inside") is None or b["decisions"] >= odds_craps.MIN_DECISIONS_FOR_VERDICT, b
    text = subprocess.run([sys.executable, "-m", "tools.odds", "craps", "--monte-carlo", "100", "--seed", "6"],
                          capture_output=True, text=True, cwd=REPO, timeout=120).stdout
    assert " NO" not in text and "no verdict: fewer than 360 decisions" in text


def test_the_text_tables_of_both_modes():
    # The tables a regulator's lab reads (not --json): a bet's edge, its fraction, its edge per bet resolved
    # where it can push (Don't Pass's bar 12), its mean rolls; the Monte-Carlo rows with the exact figure.
    def odds(*args):
        return subprocess.run([sys.executable, "-m", "tools.odds", "craps"] + list(args),
                              capture_output=True, text=True, cwd=REPO, timeout=120)

    proc = odds("--off-on-come-out", "hard")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == ("Craps house edge (exact, through firmware.games.craps.rules): field 12 pays 2:1, "
                        "odds 3-4-5, off on come-out: hard")
    rows = {line.split()[0]: line.split()[1:] for line in lines[2:] if not line.startswith(("pass +", "dont_pass +"))}
    assert rows["pass"] == ["1.414%", "7/495", "3.376"] and rows["dont_pass"] == ["1.364%", "3/220", "1.403%", "3.376"]
    proc = odds("--field-12", "3", "--monte-carlo", "2000", "--seed", "3")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("Craps Monte-Carlo: 2000 rolls, seed 3, field 12 pays 3:1, odds 3-4-5 (")
    field = [line.split() for line in lines if line.startswith("field ")][0]
    assert field[5] == "2.778%" and field[6] in ("yes", "NO"), field       # the exact figure at 3:1


def test_make_settings_defaults_are_the_clis():
    settings = odds_craps.make_settings()
    assert (settings.field_12, list(settings.max_odds), list(settings.off_on_come_out)) == (2, [3, 4, 5], [])


def test_a_reader_that_stops_reading_ends_the_tool_quietly(monkeypatch):
    # `python -m tools.odds craps | head -1`: head gone, the next write raises BrokenPipeError; the tool ends
    # with status 0 and points fd 1 at /dev/null (tools/pipe.py) rather than printing a traceback.
    from tools import odds

    class Closed:
        def write(self, text):
            raise BrokenPipeError(32, "Broken pipe")

        def flush(self):
            pass

    gone = []
    monkeypatch.setattr(odds, "stdout_gone", lambda: gone.append(True))
    monkeypatch.setattr("sys.stdout", Closed())
    assert odds.main(["craps"]) == 0 and gone == [True]


def test_the_rolls_that_set_a_point_make_that_point():
    # The exact mode drives the engine to each point with one roll of its own (a roll making 6 for the 5 would
    # price "point 5" bets at point 6: free odds still read 0%, so no published figure would notice).
    from tools.odds_craps_exact import _MAKE, ROLLS
    assert sorted(_MAKE) == [4, 5, 6, 8, 9, 10] and all(sum(dice) == point for point, dice in _MAKE.items())
    assert sum(w for _, _, w in ROLLS) == 36 and len(ROLLS) == 21
