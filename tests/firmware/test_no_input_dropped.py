# No device input is dropped unseen: in each state of each game (alarms included), every message a table's own
# devices can send (its shoe or dice reader, its bet reader, its buttons, a fault, the host) changes the table's
# state or leaves a report for the host. Until stop 71 a Baccarat shoe's UNREAD after the last round, its IN
# during a round, a second CUT, and an Omaha shoe's IN, OUT or CUT, left neither.
# Left out, each for its reason: a button's release (the press was reported), a key (an entry is reported at
# ENTER), a bet reading the reader has since replaced (its successor's event follows), a device the game does
# not read (no driver is made for it: bytes on its port are the unexpected_input fault, firmware/main.py).
from firmware import faults
from firmware.events import (BETS_FAULT, BUTTON, BUTTON_LONG, BUTTON_PRESSED, CARD, DICE_HELLO_AGAIN,
                             DICE_HELLO_FIRST, DICE_READER_HELLO, FAULT, HOST, HOST_OPEN_BETS, HOST_ROADS,
                             HOST_UNKNOWN, SHOE, SHOE_CUT, SHOE_HELLO, SHOE_IN, SHOE_OUT, SHOE_UNREAD, THROW)
from firmware import throws

_COMMON = [(FAULT, faults.FRAME_LOST, 0), (HOST, HOST_UNKNOWN, 0), (HOST, HOST_ROADS, 0)]
_SHOE = [(SHOE, status, 0) for status in (SHOE_HELLO, SHOE_CUT, SHOE_IN, SHOE_OUT, SHOE_UNREAD)] + [
    (CARD, 20, 0), (CARD, 21, 1)]


def _buttons(buttons):
    return [(BUTTON, index, press) for index in sorted(buttons.values()) for press in (BUTTON_PRESSED, BUTTON_LONG)]


def _silent(make, setups, events):
    """(name, held, event) where the event left no report and no change of state or alarm. setups: (name,
    function of a rig) pairs; each is tried also with a line fault raised after it (an alarm holding it)."""
    silent = []
    for name, setup in setups:
        for held in (False, True):
            for event in events:
                rig = make()
                setup(rig)
                if held:
                    rig.fault(faults.FRAME_LOST)
                reports, state, fault = len(rig.reports()), rig.table.state, rig.table.fault_code
                rig.event(*event)
                if len(rig.reports()) == reports and rig.table.state == state and rig.table.fault_code == fault:
                    silent.append((name, held, event))
    return silent


def test_baccarat_drops_no_shoe_bet_reader_button_or_host_input_in_any_state():
    from tests.firmware.baccarat_rig import BUTTONS, PLAY_STATES, Rig

    def card_out_of_order(rig):
        rig.card("3d")                                   # no shoe in play

    def double_pull(rig):
        dict(PLAY_STATES)["dealing"](rig)
        rig.event(CARD, 10, 0)                           # no time since the last card

    setups = list(PLAY_STATES) + [("card_out_of_order", card_out_of_order), ("double_pull", double_pull)]
    events = _SHOE + _buttons(BUTTONS) + _COMMON + [(BETS_FAULT, faults.FRAME_LOST, 0)]
    assert _silent(Rig, setups, events) == []

    def art8_burned(rig):
        rig.new_shoe()
        rig.card("4d")                                   # the round's art. 8 burn card: its first comes next

    assert _silent(lambda: Rig(burn_each_round=True), [("art8_burned", art8_burned)], events) == []


def test_omaha_drops_no_shoe_button_or_host_input_in_any_state():
    from tests.firmware.omaha_rig import BUTTONS, Rig
    from tests.firmware.test_omaha_table import WHOLE_DECK, _play, _start, _to_flop

    def ready(rig):
        pass

    def betting(rig):
        _start(rig, {1: 1000, 3: 1000, 7: 150})
        _play(rig, WHOLE_DECK[:12], [])                  # the hole cards dealt: the first seat to act

    def in_a_hand(rig):
        _to_flop(rig)

    def card_out_of_order(rig):
        rig.card("3d")                                   # no hand

    events = _SHOE + _buttons(BUTTONS) + _COMMON
    setups = [("ready", ready), ("betting", betting), ("in_a_hand", in_a_hand),
              ("card_out_of_order", card_out_of_order)]
    assert _silent(Rig, setups, events) == []


def test_craps_drops_no_dice_bet_reader_button_or_host_input_in_any_state():
    from tests.firmware.craps_rig import BUTTONS, Rig

    def ready(rig):
        pass

    def come_out(rig):
        rig.throw(3, 4)

    def point(rig):
        rig.throw(2, 2)

    events = [(THROW, throws.pack(d1, d2), 0) for d1, d2 in ((3, 4), (2, 2), (1, 1))] + [
        (DICE_READER_HELLO, DICE_HELLO_FIRST, 0), (DICE_READER_HELLO, DICE_HELLO_AGAIN, 0),
        (BETS_FAULT, faults.FRAME_LOST, 0), (HOST, HOST_OPEN_BETS, 0)] + _buttons(BUTTONS) + _COMMON
    assert _silent(Rig, [("ready", ready), ("come_out", come_out), ("point", point)], events) == []
