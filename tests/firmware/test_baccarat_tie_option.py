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



def _card_steps(steps):
    """cards(text): a step a card of text ("2c 3c ...") appended to steps."""
    def cards(text):
        for code in text.split():
            steps.append(lambda r, code=code: r.card(code))
    return cards


def _tie_session():
    """A tie with Banker/Player bets, then two rounds: the first with no reading, the second with one."""
    steps = []
    cards = _card_steps(steps)
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


# -- a tie in a shoe's last round, or before a shoe change (art. 11 with arts. 3(1), 3(2), 2(2)) ----------
# Art. 11: after a tie "a new round shall decide" (应进行新牌局定胜负) and the bets stand (2) or may be
# changed (3): the round that decides is the next live round, in the next shoe when the tie was the last
# round of its shoe (art. 3(1)) or the shoe was changed after it (art. 3(2)); a demonstration round
# (art. 2(2)) is not live and decides nothing. Regression: a new shoe dropped the tied stakes: its first
# round had no bets.
from firmware.errors import RestoreError  # noqa: E402
from firmware.events import SHOE, SHOE_CUT, SHOE_IN, SHOE_OUT  # noqa: E402


def _tie_in_the_last_round(option, **settings):
    rig = Rig(tie_option=option, **settings)
    rig.new_shoe()
    for _ in range(settings.get("demo_rounds", 0)):
        rig.cards("5h 9d 2c Ks")                                 # the shoe's demo rounds (art. 2(2))
    rig.bets({1: {"banker": 100, "tie": 10}, 2: {"player": 40}})
    rig.shoe(SHOE_CUT)                                           # art. 3(1): this round is the last
    rig.cards(TIE)
    assert rig.last("result")["winner"] == "tie" and rig.table.state_name() == "shoe_closed"
    return rig


def test_art11_2_a_tie_in_the_shoes_last_round_leaves_its_stakes_standing_into_the_new_shoe():
    from firmware.drivers import pixels
    rig = _tie_in_the_last_round("standing")
    rig.new_shoe()
    assert [rig.colour(seat) for seat in ("seat1", "seat2", "seat3")] == [pixels.BLUE, pixels.BLUE, pixels.OFF]
    rig.cards(PLAYER_NINE)
    assert rig.last("round")["bets"] == {"1": {"banker": 100}, "2": {"player": 40}}
    assert rig.last("result")["nets"] == {"1": {"banker": -100}, "2": {"player": 38}}
    rig.cards(PLAYER_NINE.replace("9h", "9d").replace("Kc", "Ks"))     # only that round
    assert "bets" not in rig.last("round")


def test_art11_2_standing_stakes_cross_a_shoe_changed_after_the_tie_and_the_new_shoes_demo_rounds():
    rig = Rig(tie_option="standing", demo_rounds=1)
    rig.new_shoe()
    rig.cards("5h 9d 2c Ks")                                     # the demo round (art. 2(2))
    rig.bets({1: {"banker": 100, "tie": 10}, 2: {"player": 40}})
    rig.cards(TIE)
    rig.shoe(SHOE_OUT)                                           # art. 3(2): changed after any round
    rig.shoe(SHOE_IN)
    rig.cards("2c 3c 4c 5c 6c 7c")
    rig.bets({2: {"banker": 40}, 3: {"player": 20}})            # a reading before the demo round
    rig.cards("5h 9d 2c Ks")
    assert rig.last("result")["demo"] is True and "bets" not in rig.last("round")
    rig.cards(PLAYER_NINE)
    assert rig.last("round")["bets"] == {"1": {"banker": 100}, "2": {"player": 40, "banker": 40},
                                         "3": {"player": 20}}


def test_art11_3_changeable_stakes_of_a_last_round_tie_play_the_new_shoe_unless_a_reading_changes_them():
    rig = _tie_in_the_last_round("changeable")
    rig.new_shoe()
    rig.cards(PLAYER_NINE)
    assert rig.last("round")["bets"] == {"1": {"banker": 100}, "2": {"player": 40}}
    rig = _tie_in_the_last_round("changeable")
    rig.bets({1: {"player": 50}})                                # read while the shoe is closed
    rig.new_shoe()
    rig.cards(PLAYER_NINE)
    assert rig.last("round")["bets"] == {"1": {"player": 50}}


def test_art11_1_returned_stakes_of_a_last_round_tie_do_not_play_in_the_new_shoe():
    rig = _tie_in_the_last_round("returned")
    rig.new_shoe()
    rig.cards(PLAYER_NINE)
    assert "bets" not in rig.last("round")


def test_art11_standing_stakes_in_a_new_shoe_survive_a_reset_snapshot_and_restore():
    rig = _tie_in_the_last_round("standing", demo_rounds=1)
    rig.new_shoe(burn="")
    data = rig.table.snapshot()                                  # burning the new shoe: a boundary
    fresh = Rig(tie_option="standing", demo_rounds=1)
    fresh.table.restore(data)
    assert fresh.table.snapshot() == data
    fresh.cards("2c 3c 4c 5c 6c 7c")
    fresh.cards("5h 9d 2c Ks")                                   # the demo round
    data = fresh.table.snapshot()
    again = Rig(tie_option="standing", demo_rounds=1)
    again.table.restore(data)
    again.cards(PLAYER_NINE)
    assert again.last("round")["bets"] == {"1": {"banker": 100}, "2": {"player": 40}}
    assert again.last("result")["nets"] == {"1": {"banker": -100}, "2": {"player": 38}}


def _last_round_tie_session():
    """A tie in a shoe's last round, a shoe change, a demo round, then the first live round."""
    steps = []
    cards = _card_steps(steps)
    steps.append(lambda r: r.new_shoe(burn=""))
    cards("2c 3c 4c 5c 6c 7c")
    cards("5h 9d 2c Ks")                                         # the demo round
    steps.append(lambda r: r.bets({1: {"banker": 100, "tie": 10}, 2: {"player": 40}}))
    steps.append(lambda r: r.shoe(SHOE_CUT))
    cards(TIE)
    steps.append(lambda r: r.shoe(SHOE_OUT))
    steps.append(lambda r: r.event(SHOE, SHOE_IN))
    cards("2c 3c 4c 5c 6c 7c")
    cards("5h 9d 2c Ks")
    cards(PLAYER_NINE)
    return steps


def test_a_restored_table_carries_a_last_round_ties_stakes_into_the_new_shoe_as_the_original():
    from firmware.games.baccarat import screens
    from tests.firmware.snapshot_check import check
    for option in ("standing", "changeable", "returned"):
        count, _largest = check(lambda: Rig(tie_option=option, demo_rounds=1), _last_round_tie_session(),
                                screens, {"table_id": "B01", "game": "baccarat"})
        assert count >= 10, count


def test_art11_standing_stakes_cross_a_settings_change_at_the_new_shoe_under_the_option_they_tied_under():
    # A change is applied with no shoe in play (firmware/settings_swap.py: the running table's snapshot,
    # under the new settings, without the removed shoe and its last round): the stakes a tie left
    # standing stay, and stand as option (2) left them though the new option returns a tie's stakes.
    import json
    from firmware import settings_swap, snapshot as S
    from firmware.games.baccarat.settings import SETTING_NAMES, load_settings
    from tests.firmware.baccarat_rig import SETTINGS
    rig = _tie_in_the_last_round("standing")
    rig.shoe(SHOE_OUT)
    fields = json.loads(rig.table.snapshot().decode())
    new = dict(SETTINGS, tie_option="returned")
    fields[2] = S.settings_values(load_settings(new), SETTING_NAMES)
    settings_swap._carry("baccarat", fields)
    changed = Rig(tie_option="returned")
    changed.table.restore(S.encode(fields))
    changed.new_shoe()
    changed.cards(PLAYER_NINE)
    assert changed.last("round")["bets"] == {"1": {"banker": 100}, "2": {"player": 40}}


def test_a_snapshot_without_tie_stakes_from_the_firmware_before_them_still_restores():
    rig = _tie_in_the_last_round("standing")
    data = rig.table.snapshot()
    assert data.endswith(b',[1,0,100,40,0,0,0]]')
    old = data[:data.rindex(b",[")] + b"]"
    fresh = Rig(tie_option="standing")
    fresh.table.restore(old)                                     # the last round says what it left
    assert fresh.table.snapshot() == data
    rig.new_shoe(burn="")
    for data in (data, rig.table.snapshot()):                    # the last round's, or kept at a new shoe
        for bad in (b"[3,0,100,40,0,0,0]", b"[1,0,100,40,0,0]", b"[1,0,0,0,0,0,0]", b"[1,0,100,40,0,0,-1]",
                    b"[1,0,100,40,true,0,0]"):
            fresh = Rig(tie_option="standing")
            try:
                fresh.table.restore(data[:data.rindex(b",[")] + b"," + bad + b"]")
            except RestoreError as exc:
                assert "field tie_stakes" in str(exc), exc
            else:
                raise AssertionError("restored with tie_stakes %s" % bad)


def test_a_tie_with_no_banker_or_player_stake_keeps_nothing_and_snapshots_restore():
    # Only Tie and Pair bets at the tie: nothing stands (a kept option with no stake was refused by the
    # restore: the table would have started afresh, journal_bad, and a settings change been refused).
    import json
    from firmware import settings_swap, snapshot as S
    rig = Rig(tie_option="standing")
    rig.new_shoe()
    rig.bets({1: {"tie": 10, "player_pair": 5}})
    rig.shoe(SHOE_CUT)
    rig.cards(TIE)
    assert rig.table.snapshot().endswith(b",[]]")
    rig.shoe(SHOE_OUT)
    fields = json.loads(rig.table.snapshot().decode())
    settings_swap._carry("baccarat", fields)
    Rig(tie_option="standing").table.restore(S.encode(fields))
    rig.new_shoe(burn="")
    data = rig.table.snapshot()
    assert data.endswith(b",[]]")
    Rig(tie_option="standing").table.restore(data)
    rig.cards("2c 3c 4c 5c 6c 7c")
    rig.cards(PLAYER_NINE)
    assert "bets" not in rig.last("round")
