# A Craps settings change waits for a come-out with no bet open that the options decide: a bet is settled
# under the options it was placed under (docs/console.md, "Changing the settings").
#
# off_on_come_out decides whether a standing hard way, big number or come odds is decided by a come-out
# roll (art. 5(5)). Regression: only an open Field bet (field_12, art. 6(12)) held the change back, so a
# NEW SHOOTER (art. 4(1)) after a point was made, with a hard way standing, was a boundary: the change
# ran over it, and the next come-out 7 lost (or spared) a bet placed while it was off (or working).
from firmware.settings_change import boundary
from firmware.games.craps.codes import COME_OUT
from tests.firmware.craps_rig import Rig


def _hard_way_standing_at_a_new_shooters_come_out(rig):
    table = rig.table
    rig.bets({1: {"pass": 10}})
    rig.throw(3, 3)                               # point 6
    rig.bets({1: {"hard_4": 10}})
    rig.throw(5, 6)                               # 11: the hard 4 stands
    rig.throw(2, 4)                               # the point made: Pass wins, the puck is OFF
    rig.press("deal", long=True)                  # NEW SHOOTER (art. 4(1)): the bets stay
    assert table.state == COME_OUT and table.shooter == 2 and table.shooter_rolls == 0
    assert [b.amount for b in table.engine.bets] == [10]
    return table


def test_a_hard_way_standing_holds_the_change_until_it_is_decided():
    rig = Rig()
    table = _hard_way_standing_at_a_new_shooters_come_out(rig)
    assert not boundary(table, "craps")           # off_on_come_out would decide its come-out: not yet
    rig.throw(2, 2)                               # the hard 4 wins on the come-out (working, art. 5(5))
    assert not table.engine.bets and not boundary(table, "craps")   # the shooter has rolled
    rig.throw(3, 4)                               # seven-out: the next shooter's come-out, nothing open
    assert table.shooter == 3 and boundary(table, "craps")


def test_come_odds_standing_hold_the_change():
    rig = Rig()
    table = rig.table
    rig.bets({1: {"pass": 10}})
    rig.throw(3, 3)                               # point 6
    rig.bets({1: {"come": 10}})
    rig.throw(4, 4)                               # the come bet travels to 8
    rig.bets({1: {"come_odds_8": 10}})
    rig.throw(3, 3)                               # the point made; the come bet on 8 and its odds stand
    rig.press("deal", long=True)
    assert table.shooter_rolls == 0 and not boundary(table, "craps")
    rig.bets({1: {"come_8": "down"}})             # a contract bet: it stays
    assert not boundary(table, "craps")


def test_line_bets_and_one_roll_bets_do_not_hold_the_change():
    # Only a bet an option decides holds the change back: line bets, a come bet standing on its number
    # and a one-roll bet other than the Field are settled alike under any settings.
    rig = Rig()
    table = rig.table
    rig.bets({1: {"pass": 10, "dont_pass": 10, "any_seven": 5}})
    assert table.state == COME_OUT and table.shooter_rolls == 0 and boundary(table, "craps")
    rig.throw(3, 3)                               # point 6: the any seven lost
    rig.bets({1: {"come": 10, "dont_come": 10}})
    rig.throw(4, 4)                               # both travel to 8
    rig.throw(3, 3)                               # the point made: Pass won, Don't Pass lost; puck OFF
    rig.press("deal", long=True)                  # NEW SHOOTER: the come and don't come bets on 8 stay
    assert table.state == COME_OUT and table.shooter_rolls == 0
    assert sorted(b.amount for b in table.engine.bets) == [10, 10] and boundary(table, "craps")
    rig.bets({2: {"big_number_8": 30}})           # a big number: off_on_come_out decides it (art. 5(5))
    assert not boundary(table, "craps")
