# A come / don't-come bet that travelled to its come point (Craps art. 5(2)(5), (6)) is named in the
# reports by its point, "come_6" / "dont_come_6", as its odds are "come_odds_6": its net is never
# merged with a new come bet's, and one of two don't-come bets can come down alone.
from firmware.drivers import pixels
from firmware.games.craps import bets as B
from firmware.games.craps import codes as BC
from firmware.games.craps.zones import COME_ZONE, DONT_COME_ZONE, KIND_NUMBER, TRAVELLED, ZONES, zone_of
from tests.firmware.craps_rig import Rig, strip


def _point_4_with_come_bets(rig):
    """Point 4 (art. 5(2)(1)); seat 1's come bets travel to 6 and 8, seat 2's don't-come bets too."""
    rig.bets({1: {"pass": 10}, 2: {"pass": 10}})
    rig.throw(1, 3)
    rig.bets({1: {"come": 10}, 2: {"dont_come": 10}})
    rig.throw(2, 4)                                      # 6: each bet's own come point (art. 5(2)(5), (6))
    rig.bets({1: {"come": 15}, 2: {"dont_come": 15}})
    rig.throw(3, 5)                                      # 8


def test_travelled_zones_are_named_by_their_come_point_like_their_odds():
    for n in B.POINTS:
        assert ZONES[zone_of(BC.COME, n)] == "come_%d" % n
        assert ZONES[zone_of(BC.DONT_COME, n)] == "dont_come_%d" % n
        assert KIND_NUMBER[ZONES.index("come_%d" % n)] == (BC.COME, n)
        # a line bet's zone before its odds' (a reading places the line bet first)
        assert ZONES.index("come_%d" % n) < ZONES.index("come_odds_%d" % n)
    assert ZONES[zone_of(BC.COME, 0)] == "come" and len(set(ZONES)) == len(ZONES)
    assert DONT_COME_ZONE == COME_ZONE + 1             # TRAVELLED[point][zone - COME_ZONE]
    assert TRAVELLED[6] == (zone_of(BC.COME, 6), zone_of(BC.DONT_COME, 6)) and TRAVELLED[7] == (-1, -1)


def _zones_from_the_bet_kinds():
    """zones.ZONES and KIND_NUMBER worked out from bets.py (zones.py keeps them as literals): each
    kind in turn, a numbered kind once a number, the travelled come bets after both line zones."""
    zones = []
    kinds = []
    for kind in range(len(B.KIND_NAMES)):
        name = B.KIND_NAMES[kind]
        if kind in (BC.COME_ODDS, BC.DONT_COME_ODDS, BC.HARD, BC.BIG_NUMBER):
            for n in B.HARD_NUMBERS if kind == BC.HARD else B.POINTS:
                zones.append("%s_%d" % (name, n))
                kinds.append((kind, n))
        else:
            zones.append(name)
            kinds.append((kind, 0))
        if kind == BC.DONT_COME:
            for travelled in (BC.COME, BC.DONT_COME):
                for n in B.POINTS:
                    zones.append("%s_%d" % (B.KIND_NAMES[travelled], n))
                    kinds.append((travelled, n))
    return tuple(zones), tuple(kinds)


def test_the_zone_literals_are_the_bet_kinds_zones():
    assert (ZONES, KIND_NUMBER) == _zones_from_the_bet_kinds()
    for total in range(13):
        if total in B.POINTS:       # art. 5(2)(5), (6): a come point
            assert TRAVELLED[total] == (zone_of(BC.COME, total), zone_of(BC.DONT_COME, total))
        else:
            assert TRAVELLED[total] == (-1, -1)
    assert len(TRAVELLED) == 13
    assert COME_ZONE == zone_of(BC.COME, 0) and DONT_COME_ZONE == zone_of(BC.DONT_COME, 0)


def test_art5_2_5_a_travelled_come_bet_is_reported_under_its_come_point():
    rig = Rig()
    _point_4_with_come_bets(rig)
    assert "nets" not in strip(rig.last("throw"))       # both travelled: nothing decided
    assert rig.colour("point_6") == pixels.BLUE and rig.colour("point_8") == pixels.BLUE
    rig.bets({1: {"come": 20}})
    rig.throw(3, 4)                                      # seven-out: the new come bet wins, those on 6 and 8 lose
    assert strip(rig.last("throw"))["nets"] == {
        "1": {"pass": -10, "come_6": -10, "come_8": -15, "come": 20},
        "2": {"pass": -10, "dont_come_6": 10, "dont_come_8": 15}}


def test_art5_2_6_one_of_two_dont_come_bets_comes_down_alone():
    rig = Rig()
    _point_4_with_come_bets(rig)
    rig.bets({2: {"dont_come_6": "down"}})
    assert [strip(r) for r in rig.reports("bet_taken_down")] == [
        {"event": "bet_taken_down", "seat": "2", "zone": "dont_come_6", "amount": 10}]
    assert [(b.kind, b.number, b.amount) for b in rig.table.engine.bets if b.seat == 1 and b.kind == BC.DONT_COME] == [(BC.DONT_COME, 8, 15)]
    rig.throw(3, 4)
    assert strip(rig.last("throw"))["nets"]["2"] == {"pass": -10, "dont_come_8": 15}


def test_art5_2_5_a_travelled_come_bet_is_a_contract_bet_and_a_dont_come_zone_holds_no_old_bet():
    rig = Rig()
    _point_4_with_come_bets(rig)
    rig.bets({1: {"come_6": "down"}, 2: {"dont_come": "down"}})
    refused = [strip(r) for r in rig.reports("bet_refused")]
    assert [(r["seat"], r["zone"], r["amount"], r["take_down"]) for r in refused] == [
        ("1", "come_6", 10, True), ("2", "dont_come", 0, True)]
    assert "art. 5(2)(1), (5)" in refused[0]["reason"]
    assert rig.colour("point_6") == pixels.RED          # a refusal lights the zone's box
    assert len(rig.table.engine.bets) == 6 and not rig.reports("bet_taken_down")


def test_travelled_bets_odds_come_down_with_them_under_their_own_zones():
    rig = Rig()
    _point_4_with_come_bets(rig)
    rig.bets({2: {"dont_come_odds_8": 30}})              # lay 30 to win 25 on 8 (art. 6(4))
    rig.throw(1, 1)                                      # 2: decides neither
    rig.bets({2: {"dont_come_8": "down"}})
    assert [(r["zone"], r["amount"]) for r in rig.reports("bet_taken_down")] == [
        ("dont_come_8", 15), ("dont_come_odds_8", 30)]


def test_art5_2_5_chips_put_straight_on_a_come_point_are_refused():
    rig = Rig()
    _point_4_with_come_bets(rig)
    before = len(rig.table.engine.bets)
    rig.bets({1: {"come_5": 10, "come": 5}, 3: {"dont_come_9": 10}})
    bets = strip(rig.last("bets"))
    assert bets["placed"] == {"1": {"come": 5}} and bets["refused"] == 2
    refused = [strip(r) for r in rig.reports("bet_refused")]
    assert [(r["seat"], r["zone"], r["amount"]) for r in refused] == [("1", "come_5", 10), ("3", "dont_come_9", 10)]
    assert "art. 5(2)(5)" in refused[0]["reason"] and "come bet is placed on come" in refused[0]["reason"]
    assert "art. 5(2)(6)" in refused[1]["reason"] and "placed on dont_come" in refused[1]["reason"]
    assert len(rig.table.engine.bets) == before + 1
    assert rig.colour("point_5") == pixels.RED and rig.colour("point_9") == pixels.RED


def test_a_travelled_come_bet_that_wins_is_reported_apart_from_a_new_come_bet_that_travels():
    rig = Rig()
    _point_4_with_come_bets(rig)
    rig.bets({1: {"come": 10}})
    rig.throw(2, 4)                                      # 6: the bet on 6 wins; the new one travels to 6
    assert strip(rig.last("throw"))["nets"] == {"1": {"come_6": 10}, "2": {"dont_come_6": -10}}
    rig.throw(3, 3)                                      # the 6 again: the new bet wins under come_6
    assert strip(rig.last("throw"))["nets"] == {"1": {"come_6": 10}}


def test_a_snapshot_keeps_a_travelled_bets_zone_and_one_of_another_vocabulary_is_refused():
    from firmware.errors import RestoreError
    from tests.firmware.expect import raises_match
    rig = Rig()
    _point_4_with_come_bets(rig)
    data = rig.table.snapshot()
    fresh = Rig()
    fresh.table.restore(data)
    fresh.bets({2: {"dont_come_8": "down"}})
    assert [(r["zone"], r["amount"]) for r in fresh.reports("bet_taken_down")] == [("dont_come_8", 15)]
    fresh.throw(2, 4)                                    # the 6: come_6 wins, dont_come_6 loses
    assert strip(fresh.last("throw"))["nets"] == {"1": {"come_6": 10}, "2": {"dont_come_6": -10}}
    text = data.decode()
    head = '%d,%d,' % (3, len(ZONES))                    # seats, then the zones a seat
    assert head in text
    for bad in (text.replace(head, '3,', 1),             # a snapshot of the firmware before the zones field
                text.replace(head, '3,38,', 1),          # (38 zones: travelled bets were "come")
                text.replace(',3,0,4,10,6,0,1,%d,' % zone_of(BC.COME, 6),   # bet 3: seat 1's come bet on 6,
                             ',3,0,4,10,6,0,1,%d,' % zone_of(BC.COME, 0), 1)):  # its zone: come
        assert bad != text
        fresh = Rig()
        raises_match(RestoreError, "snapshot", fresh.table.restore, bad.encode())
        assert not fresh.table.engine.bets and fresh.table.bet_zone == {}
