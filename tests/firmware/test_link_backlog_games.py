# No new round while the host link is backed up (table.link_backlog; docs/host-link.md, "When the host
# is away"): each game refuses where a round would begin, prompts the dealer, reports it, and goes on
# once the backlog clears; a round already in play finishes. Both runtimes.
from firmware import faults
from firmware.drivers import pixels
from firmware.events import LINK_BACKLOG
from firmware.games.baccarat import codes as bac_codes
from firmware.games.baccarat import controller as bc
from firmware.games.baccarat import screens as bac_screens
from firmware.games.craps import codes as craps_codes
from firmware.games.craps import controller as cc
from firmware.games.craps import screens as craps_screens
from firmware.games.omaha import rules as omaha_rules
from firmware.games.omaha import screens as omaha_screens
from firmware.table_codes import FAULTED, READY
from tests.firmware import baccarat_rig, craps_rig, omaha_rig
from tests.firmware.omaha_fixtures import filler_deck

_HELD = 48                 # frames held when the alarm rises (75 % of 64)


def _backlog(rig, up):
    rig.event(LINK_BACKLOG, 1 if up else 0, _HELD if up else 32)


def _lcd_fits(lines):
    assert len(lines) == 4 and all(len(line) <= 20 for line in lines), lines


# -- Baccarat: the round's first card ------------------------------------------------------------------
def test_baccarat_refuses_a_rounds_first_card_holds_it_and_deals_it_once_the_backlog_clears():
    rig = baccarat_rig.Rig()
    rig.new_shoe()
    _backlog(rig, True)
    lines = bac_screens.dealer_lines(rig.table, {"table_id": "B01"}, [])
    assert lines[0] == "HOST AWAY: NO DEAL"
    rig.card("9h")                                           # dealt anyway: refused, held (art. 10)
    assert rig.table.state == FAULTED and rig.table.fault_code == faults.LINK_BACKLOG
    assert rig.last("fault") == dict(rig.last("fault"), fault="link_backlog", card="9h")
    assert rig.reports("round") == [] and rig.table.shoe.rounds == 0
    assert all(colour == pixels.RED for colour in rig.lights.colours)               # the alarm's red
    lines = bac_screens.dealer_lines(rig.table, {"table_id": "B01"}, [])
    assert lines[1:] == ["NO ROUND: HOST AWAY", "CARD 9h", "WAIT OR HOLD VOID"]
    _lcd_fits(lines)
    rig.press("confirm")                                     # the link has not caught up: still held
    assert rig.table.state == FAULTED and rig.reports("fault_ack") == []
    _backlog(rig, False)
    assert bac_screens.dealer_lines(rig.table, {"table_id": "B01"}, [])[3] == "CONFIRM: DEAL IT"
    rig.press("confirm")                                     # the held card opens the round
    assert rig.table.state == bac_codes.DEALING and rig.last("round")["round"] == 1
    assert [(c["card"], c["to"]) for c in rig.reports("card")][-1] == ("9h", "player")
    rig.cards("2d Kc 3s")
    assert rig.last("result")["player"] == ["9h", "Kc"]


def test_baccarat_a_long_void_sets_the_refused_card_aside_and_a_round_in_play_finishes():
    rig = baccarat_rig.Rig()
    rig.new_shoe()
    rig.cards("9h 2d")
    _backlog(rig, True)                                      # mid-round: the round finishes
    rig.cards("Kc 3s")
    assert rig.last("result")["winner"] == "player" and rig.table.state == bac_codes.BETTING
    rig.card("5h")
    assert rig.table.fault_code == faults.LINK_BACKLOG
    rig.press("void", long=True)
    assert rig.last("fault_ack")["by"] == "void" and rig.table.state == bac_codes.BETTING
    assert [(c["card"], c["to"]) for c in rig.reports("card")][-1] == ("5h", "discard")
    assert len(rig.reports("round")) == 1
    _backlog(rig, False)
    rig.cards("4h 7d")
    assert rig.last("round")["round"] == 2


# -- Craps: the come-out -------------------------------------------------------------------------------
def test_craps_a_come_out_throw_is_not_decided_while_the_link_is_backed_up_and_is_thrown_again():
    rig = craps_rig.Rig()
    rig.bets({1: {"pass": 10}})
    _backlog(rig, True)
    assert craps_screens.prompt(rig.table) == "HOST AWAY: NO ROLL"
    rig.throw(3, 4)                                          # a natural, were it decided
    throw = rig.last("throw")
    assert throw["valid"] is False and throw["no_roll"] == "alarm" and "nets" not in throw
    assert rig.table.state == FAULTED and rig.last("fault")["fault"] == "link_backlog"
    lines = craps_screens.dealer_lines(rig.table, {"table_id": "C01"}, [])
    assert lines[0] == "HOST AWAY: NO ROLL" and lines[3] == "WAIT OR HOLD VOID"
    _lcd_fits(lines)
    rig.press("confirm")
    assert rig.table.state == FAULTED
    _backlog(rig, False)
    assert craps_screens.dealer_lines(rig.table, {"table_id": "C01"}, [])[3] == "CONFIRM: THROW AGAIN"
    rig.press("confirm")
    assert rig.table.state == craps_codes.COME_OUT
    rig.throw(5, 6)                                          # thrown again: decided now
    assert rig.last("throw")["nets"] == {"1": {"pass": 10}}


def test_craps_throws_of_a_point_go_on_while_backed_up_and_the_next_come_out_waits():
    rig = craps_rig.Rig()
    rig.throw(3, 3)                                          # point 6
    _backlog(rig, True)
    rig.throw(2, 2)
    assert rig.last("throw")["valid"] is True and rig.table.state == craps_codes.POINT
    rig.throw(6, 1)                                          # seven-out: the round in play is over
    assert rig.table.state == craps_codes.COME_OUT and rig.table.shooter == 2
    rig.throw(6, 5)
    assert rig.table.fault_code == faults.LINK_BACKLOG and rig.last("throw")["no_roll"] == "alarm"
    rig.press("void", long=True)                             # void: nothing decided, back to the come-out
    assert rig.table.state == craps_codes.COME_OUT and rig.table.engine.point == 0


# -- Omaha: a new hand --------------------------------------------------------------------------------
def test_omaha_refuses_a_new_hand_from_the_keypad_and_the_host_then_deals_once_the_backlog_clears():
    rig = omaha_rig.Rig()
    rig.stacks({1: 1000, 3: 1000})
    _backlog(rig, True)
    rig.keys("new enter")
    refused = rig.last("action_refused")
    assert refused["act"] == "new" and "host link" in refused["reason"] and refused["display"] == "HOST AWAY: NO HAND"
    assert rig.table.state == READY and rig.reports("hand_start") == []
    assert "HOST AWAY: NO HAND" in omaha_screens.dealer_lines(rig.table, omaha_rig.CONFIG, [])
    rig.host_hand({"hand": {"button": 3}})
    assert rig.last("host_error")["error"].startswith("hand refused: the host link is backed up")
    _backlog(rig, False)
    rig.keys("new enter")
    assert rig.last("hand_start")["hand"] == 1
    deck = filler_deck(2)
    while rig.table.hand.expected()[0] != omaha_rules.EXPECT_ACTION:
        rig.card(deck.pop(0))
    _backlog(rig, True)                                      # mid-hand: the hand plays on
    rig.act(None, "fold")
    assert rig.last("hand_result")["hand"] == 1


def test_baccarat_an_art8_burn_begins_the_round_too_and_is_held_then_burned():
    rig = baccarat_rig.Rig(burn_each_round=True)
    rig.new_shoe()
    _backlog(rig, True)
    rig.card("Qs")                                           # the round's art. 8 burn card
    assert rig.table.fault_code == faults.LINK_BACKLOG and not rig.table.burned_this_round
    _backlog(rig, False)
    rig.press("confirm")
    assert rig.table.state == bac_codes.BETTING and rig.table.burned_this_round
    assert [(c["card"], c["to"]) for c in rig.reports("card")][-1] == ("Qs", "burn")
