"""hostsim.dice.SimDice: seeded, fair, and every report it sends is one the engine accepts (Craps arts. 2-3)."""
from collections import Counter

from firmware.games.craps import rules as C
from firmware.games.craps.dice import check_report
from hostsim.dice import SimDice

SETTINGS = {"minimum": 5, "field_12": 2, "max_odds": [3, 4, 5], "off_on_come_out": [], "take_down": [],
            "shooter_change_on_come_out_craps": False}


def test_seeded_and_reproducible():
    a = SimDice(seed=5, invalid_rate=0.1, cocked_rate=0.1)
    b = SimDice(seed=5, invalid_rate=0.1, cocked_rate=0.1)
    assert [a.throw() for _ in range(200)] == [b.throw() for _ in range(200)]
    c = SimDice(seed=6)
    d = SimDice(seed=5)
    assert [c.faces() for _ in range(20)] != [d.faces() for _ in range(20)]


def test_faces_are_fair():
    dice = SimDice(seed=1)
    counts = Counter()
    for _ in range(36000):
        d1, d2 = dice.faces()
        counts[d1] += 1
        counts[d2] += 1
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    for face in counts:            # 12,000 expected each; 5 sigma is about 500
        assert abs(counts[face] - 12000) < 500


def test_reports_feed_the_engine():
    dice = SimDice(seed=2, invalid_rate=0.2, cocked_rate=0.1)
    table = C.CrapsTable(SETTINGS)
    kinds = Counter()
    for _ in range(2000):
        report = dice.throw()
        d1, d2, reason = check_report(report)
        kinds["no_roll" if reason else ("cocked" if isinstance(report, dict) else "plain")] += 1
        table.roll(report)
    assert table.no_rolls == kinds["no_roll"] and table.rolls == kinds["plain"] + kinds["cocked"]
    assert 300 < kinds["no_roll"] < 500 and kinds["cocked"] > 100


def test_bad_rates_rejected():
    for bad in (-0.1, 1.5):
        try:
            SimDice(invalid_rate=bad)
        except ValueError as exc:
            assert "invalid_rate" in str(exc)
        else:
            raise AssertionError("accepted %r" % bad)


def test_framed_lines_carry_every_field_of_the_report():
    """frame_line() sends each report through the framed dice reader; the firmware's driver gives
    back the same report (cocked dice, the die not read) and so the engine's same verdict."""
    from firmware import throws
    from firmware.drivers.dice_reader import DiceReader
    from firmware.events import THROW
    from firmware.statemachine import EventQueue
    from firmware.evidence import Evidence

    dice = SimDice(seed=9, invalid_rate=0.3, cocked_rate=0.3)
    reader = DiceReader(None, EventQueue(4), Evidence())
    kinds = Counter()
    for _ in range(500):
        report = dice.throw()
        reader.handle(dice.frame_line(report).rstrip(b"\n"))
        assert reader.queue.get() and reader.queue.kind == THROW
        back = throws.report(reader.queue.a, reader.queue.b)
        assert check_report(back) == check_report(report)
        if isinstance(report, dict):
            assert back["dice"] == report["dice"] and back["flags"] == report.get("flags", [])
            assert back["cocked"] == report.get("cocked", [])
            kinds["unread" if None in report["dice"] else "cocked" if report.get("cocked") else "flagged"] += 1
    assert reader.lost == 0 and reader.throws == 500 and dice.device.counter == 500 % 256
    assert min(kinds.values()) > 20 and len(kinds) == 3
    assert dice.frame_line((3, 4)).startswith(b"D1 F4 THROW 3 4*")
    throws_before = dice.throws
    assert dice.frame_line().startswith(b"D1 F5 THROW ") and dice.throws == throws_before + 1
