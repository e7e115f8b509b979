# The largest stakes a bet reading carries (the bet reader's MAX_AMOUNT, 999,999,999 units) are netted
# exactly at the Baccarat table (arts. 16, 17), reported, and kept through a snapshot.
#
# Regression: the table's nets were a 32-bit array; a Tie bet over 153,391,689 units (14:1, art. 16) or a
# Pair bet over 195,225,786 (11:1) nets more than 2**31 - 1: the result's pass raised OverflowError, the
# board reset, crashed again replaying its journal, and came up with the round's result and bets lost
# (journal_bad). Baccarat has no table maximum, and the reader takes any amount up to MAX_AMOUNT.
from firmware.drivers.bet_reader import MAX_AMOUNT
from firmware.games.baccarat.codes import BETTING
from tests.firmware.baccarat_rig import Rig

# Player 8c Kd (8), Banker 4h 4s (8): a tie of naturals (art. 9(1)) with a Banker pair (art. 12).
TIE_BANKER_PAIR = "8c 4h Kd 4s"
BETS = {1: {"tie": MAX_AMOUNT, "player_pair": MAX_AMOUNT, "banker": MAX_AMOUNT}, 2: {"banker_pair": MAX_AMOUNT}}
NETS = {"1": {"banker": 0, "tie": 14 * MAX_AMOUNT, "player_pair": -MAX_AMOUNT}, "2": {"banker_pair": 11 * MAX_AMOUNT}}


def _tie():
    rig = Rig()
    rig.new_shoe()
    rig.bets(BETS)
    rig.cards(TIE_BANKER_PAIR)
    return rig


def test_art16_the_largest_stakes_a_reading_carries_are_netted_exactly():
    rig = _tie()
    assert rig.table.state == BETTING
    result = rig.last("result")
    assert result["winner"] == "tie" and result["banker_pair"] is True
    assert result["nets"] == NETS
    assert 14 * MAX_AMOUNT == 13999999986                   # more than a 32-bit int holds


def test_art17_the_largest_banker_win_pays_its_commission_rounded_down():
    rig = Rig()
    rig.new_shoe()
    rig.bets({1: {"banker": MAX_AMOUNT, "tie": MAX_AMOUNT}})
    rig.cards("7c 3d Th 5s")                                # Banker 8 natural beats Player 7
    assert rig.last("result")["nets"] == {"1": {"banker": MAX_AMOUNT - MAX_AMOUNT * 5 // 100, "tie": -MAX_AMOUNT}}


def test_a_snapshot_after_the_largest_nets_restores_them():
    rig = _tie()
    fork = Rig()
    fork.table.restore(rig.table.snapshot())
    assert list(fork.table.nets) == list(rig.table.nets)
    assert fork.table.snapshot() == rig.table.snapshot()
