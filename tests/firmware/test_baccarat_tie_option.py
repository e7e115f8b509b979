# The Baccarat table after a tie (art. 11): the tie option decides what becomes of the Banker and Player
# bets at the table, not only the status the engine gives them.
#
# Art. 11: after a tie a new round decides, and the earlier bets are (1) returned, (2) left standing
# unchanged, or (3) may be changed (reduced or not, moved between Banker and Player). Regression: the
# table treated the three alike: the tied stakes vanished unless the reader read them again, and a
# reading that changed them was taken under option (2) as well.
from tests.firmware.baccarat_rig import Rig

# Round 1: Player 8c Kd (8), Banker Qh 8s (8): a tie, both natural (art. 9(1)).
TIE = "8c Qh Kd 8s"
# Round 2: Player 9h Kc (9) beats Banker 5d 2s (7): a natural (art. 9(1)).
PLAYER_NINE = "9h 5d Kc 2s"


def _tie_then(option, reading=None):
    rig = Rig(tie_option=option)
    rig.new_shoe()
    rig.bets({1: {"banker": 100, "tie": 10}, 2: {"player": 40}})
    rig.cards(TIE)
    tie = rig.last("result")
    assert tie["winner"] == "tie" and tie["nets"] == {"1": {"banker": 0, "tie": 140}, "2": {"player": 0}}
    if reading is not None:
        rig.bets(reading)
    rig.cards(PLAYER_NINE)
    return rig


def test_art11_2_standing_tied_bets_play_the_next_round_without_a_new_reading():
    rig = _tie_then("standing")
    assert rig.last("round")["bets"] == {"1": {"banker": 100}, "2": {"player": 40}}
    assert rig.last("result")["nets"] == {"1": {"banker": -100}, "2": {"player": 38}}   # art. 17 A: 5% of 40


def test_art11_2_standing_tied_bets_stay_unchanged_whatever_the_next_reading_says():
    # Seat 1 takes its Banker stake off, seat 2 moves its Player stake to Banker: neither is allowed
    # under option (2); seat 3's new bet is taken as any bet is.
    rig = _tie_then("standing", {2: {"banker": 40}, 3: {"player": 20}})
    assert rig.last("round")["bets"] == {"1": {"banker": 100}, "2": {"player": 40, "banker": 40},
                                         "3": {"player": 20}}
    assert rig.last("result")["nets"] == {"1": {"banker": -100}, "2": {"player": 38, "banker": -40},
                                          "3": {"player": 19}}


def test_art11_2_chips_added_to_a_standing_stake_are_a_new_bet_on_top_of_it():
    rig = _tie_then("standing", {1: {"banker": 150}, 2: {"player": 30}})
    assert rig.last("round")["bets"] == {"1": {"banker": 150}, "2": {"player": 40}}


def test_art11_3_changeable_tied_bets_stand_until_a_reading_changes_them():
    rig = _tie_then("changeable")
    assert rig.last("round")["bets"] == {"1": {"banker": 100}, "2": {"player": 40}}
    rig = _tie_then("changeable", {1: {"player": 50}, 2: {"player": 20}})
    assert rig.last("round")["bets"] == {"1": {"player": 50}, "2": {"player": 20}}
    assert rig.last("result")["nets"] == {"1": {"player": 48}, "2": {"player": 19}}


def test_art11_1_returned_tied_bets_do_not_play_again():
    rig = _tie_then("returned")
    assert "bets" not in rig.last("round") and "nets" not in rig.last("result")


def test_art11_only_a_live_tie_with_bets_carries_them_and_only_into_the_next_round():
    rig = _tie_then("standing")
    rig.cards(PLAYER_NINE.replace("9h", "9d").replace("Kc", "Ks"))     # a third round, no reading
    assert "bets" not in rig.last("round") and "nets" not in rig.last("result")



def _tie_session():
    """A tie with Banker/Player bets, then two rounds: the first with no reading, the second with one."""
    steps = []

    def cards(text):
        for code in text.split():
            steps.append(lambda r, code=code: r.card(code))

    steps.append(lambda r: r.new_shoe(burn=""))
    cards("2c 3c 4c 5c 6c 7c")
    steps.append(lambda r: r.bets({1: {"banker": 100, "tie": 10}, 2: {"player": 40}}))
    cards(TIE)
    cards(TIE.replace("8c", "8d").replace("8s", "8h"))         # the tied stakes play again: another tie
    steps.append(lambda r: r.bets({2: {"banker": 40}}))
    cards(PLAYER_NINE)
    return steps


def test_a_restored_table_carries_the_tied_stakes_as_the_original():
    from firmware.games.baccarat import screens
    from tests.firmware.snapshot_check import check
    for option in ("standing", "changeable"):
        count, _largest = check(lambda: Rig(tie_option=option), _tie_session(), screens, {"table_id": "B01",
                                                                                        "game": "baccarat"})
        assert count >= 8, count
    rig = Rig(tie_option="standing")
    for step in _tie_session():
        step(rig)
    assert [r.get("bets") for r in rig.reports("round")] == [
        {"1": {"banker": 100, "tie": 10}, "2": {"player": 40}}, {"1": {"banker": 100}, "2": {"player": 40}},
        {"1": {"banker": 100}, "2": {"player": 40, "banker": 40}}]
