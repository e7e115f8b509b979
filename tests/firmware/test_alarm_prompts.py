# What the dealer display offers for an alarm closes it: each of CONFIRM, (HOLD) VOID and RESCAN named on its
# action line, taken, is a `fault_ack`. Until stop 71 a line fault's alarm offered a rescan where no card is
# awaited (no shoe or hand in play, a closed shoe) and a Baccarat VOID between rounds, where neither closes it;
# an unreadable card in a Baccarat burn offered HOLD VOID, which closes nothing there (art. 2(1)); an Omaha
# unreadable card in a hand hid its rescan behind HOLD VOID: MISDEAL, pointing the dealer at voiding the hand.
from firmware import faults
from firmware.events import CARD, LINK_BACKLOG, SHOE_HELLO, SHOE_OUT, SHOE_UNREAD
from firmware.table_codes import FAULTED


def _offered(line):
    words = []
    if "CONFIRM" in line:
        words.append("confirm")
    if "VOID" in line:
        words.append("void")
    if "RESCAN" in line:
        words.append("rescan")
    return words


def _take(rig, word, card):
    if word == "confirm":
        rig.press("confirm")
    elif word == "void":
        rig.press("void", long=True)
    else:
        rig.card(card)


def _false_offers(make, dealer_line, states, alarms, card):
    """(state, alarm, a short VOID pressed first, the action line, an action it offers that does not close
    the alarm). A short press of VOID asks the display to tell the dealer to hold it, where holding voids."""
    wrong = []
    for state_name, state in states:
        for alarm_name, alarm in alarms:
            for short_void in (False, True):
                rig = _alarm(make, state, alarm, short_void)
                if rig.table.state != FAULTED:
                    continue
                line = dealer_line(rig)
                for word in _offered(line):
                    rig = _alarm(make, state, alarm, short_void)
                    acks = len(rig.reports("fault_ack"))
                    _take(rig, word, card)
                    if len(rig.reports("fault_ack")) == acks:
                        wrong.append((state_name, alarm_name, short_void, line, word))
    return wrong


def _alarm(make, state, alarm, short_void):
    rig = make()
    state(rig)
    alarm(rig)
    if short_void:
        rig.press("void")
    return rig


def _host_away(rig):
    rig.event(LINK_BACKLOG, 1, 48)                       # the host link backed up: a round's first card is held
    rig.card("Td")


def test_baccarat_alarm_prompts_offer_only_what_closes_the_alarm():
    from firmware.games.baccarat import screens
    from tests.firmware.baccarat_rig import PLAY_STATES, Rig
    alarms = [("frame_lost", lambda rig: rig.fault(faults.FRAME_LOST)), ("sensor", lambda rig: rig.fault(faults.SHOE_SENSOR)),
              ("unread", lambda rig: rig.shoe(SHOE_UNREAD)), ("hello", lambda rig: rig.shoe(SHOE_HELLO)),
              ("out", lambda rig: rig.shoe(SHOE_OUT)), ("double pull", lambda rig: rig.event(CARD, 10, 0)),
              ("a card", lambda rig: rig.card("Td")), ("host away", _host_away)]
    config = {"table_id": "B01", "game": "baccarat"}
    assert _false_offers(Rig, lambda rig: screens.dealer_lines(rig.table, config, [])[3], PLAY_STATES, alarms,
                         "Jd") == []


def test_omaha_alarm_prompts_offer_only_what_closes_the_alarm():
    from firmware.games.omaha import screens
    from tests.firmware.omaha_rig import Rig
    from tests.firmware.test_omaha_table import WHOLE_DECK, _play, _start, _to_flop

    def betting(rig):
        _start(rig, {1: 1000, 3: 1000, 7: 150})
        _play(rig, WHOLE_DECK[:12], [])

    states = [("ready", lambda rig: None), ("betting", betting), ("dealing", _to_flop)]
    alarms = [("frame_lost", lambda rig: rig.fault(faults.FRAME_LOST)), ("unread", lambda rig: rig.shoe(SHOE_UNREAD)),
              ("hello", lambda rig: rig.shoe(SHOE_HELLO)), ("a card", lambda rig: rig.card("Td")),
              ("seen twice", lambda rig: rig.card("As")), ("keyed while dealing", lambda rig: rig.keys("1 check enter"))]
    config = {"table_id": "O01", "game": "omaha"}
    assert _false_offers(Rig, lambda rig: screens.dealer_lines(rig.table, config, [])[3], states, alarms, "Jd") == []
    rig = Rig()
    _to_flop(rig)
    rig.shoe(SHOE_UNREAD)                                # art. 9: the card read again goes on with the hand
    assert screens.dealer_lines(rig.table, config, [])[1:] == ["UNREADABLE CARD", "", "RESCAN OR HOLD VOID"]
    rig.press("void")                                    # a short press: hold it to void
    assert screens.dealer_lines(rig.table, config, [])[3] == "HOLD VOID: MISDEAL"
