# The Omaha table with stacks past what one keyed stack may be (9,999,999): a hand's payout carries over
# (docs/omaha.md "Seats and stacks"), so a seat that won can hold up to every stack of the table, and the
# dealer must be able to key any bet the rules allow it (art. 11(3): no-limit, any amount up to all in).
#
# Regression: the keypad took at most 7 digits (MAX_DIGITS), so once a seat held more than 9,999,999 a
# legal bet or raise to 10,000,000 or more could not be keyed: "TOO MANY DIGITS", only ALL-IN left.
from firmware.games.omaha import screens
from firmware.games.omaha.codes import DEALING
from firmware.games.omaha.entry import MAX_NUMBER
from tests.firmware.omaha_fixtures import deck
from tests.firmware.omaha_rig import Rig

BURNS = ("6s", "7s", "9s")
# Heads-up, button 1: seat 2 is dealt first (small blind). Seat 2's aces make four of a kind.
ACES = deck(["As Ad Kc Kd", "2c 3d 7h 8s"], "Ah Ac 9d 4s 5h", burns=BURNS)


def _seat_2_wins_both_stacks(rig):
    rig.stacks({1: MAX_NUMBER, 2: MAX_NUMBER})
    rig.keys("1 button enter")
    rig.keys("new enter")
    rig.cards(ACES[:8])
    rig.act(2, "allin")
    rig.act(1, "call")
    rig.cards(ACES[8:])
    assert rig.last("hand_result")["stacks"] == {"1": 0, "2": 2 * MAX_NUMBER}


def test_art11_3_a_bet_past_9_999_999_can_be_keyed_once_a_stack_holds_it():
    rig = Rig(structure="no_limit")
    _seat_2_wins_both_stacks(rig)
    rig.stacks({1: 1000})
    rig.keys("new enter")                       # button 2: seat 1 small blind, seat 2 big blind
    assert rig.table.state == DEALING
    rig.cards(ACES[:8])
    rig.act(1, "call")
    rig.keys("2 raise 12000000")                # 8 digits: the echo fits the display
    _fits(rig)
    rig.keys("enter")
    _fits(rig)
    assert rig.refusals() == []
    assert rig.table.hand.betting.bet[1] == 12000000
    assert rig.last("action")["amount"] == 12000000


def _fits(rig):
    config = {"table_id": "O01", "game": "omaha"}
    for lines in (screens.dealer_lines(rig.table, config, []), screens.result_lines(rig.table, config, [])):
        assert len(lines) == 4 and all(len(line) <= screens.COLS for line in lines), lines


def test_a_keyed_stack_is_still_at_most_9_999_999_and_a_tenth_digit_too_many():
    rig = Rig(structure="no_limit")
    rig.keys("1 stack 10000000 enter")
    assert rig.refusals()[-1]["display"] == "STACK MAX 9,999,999" and rig.table.stacks[1] == 0
    rig.keys("1 stack 1234567890")
    assert rig.refusals()[-1]["display"] == "TOO MANY DIGITS"
    rig.keys("clear 1 stack 9999999 enter")
    assert rig.table.stacks[1] == MAX_NUMBER and len(rig.refusals()) == 2
