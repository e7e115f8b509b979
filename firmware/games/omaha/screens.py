# What the Omaha dealer and result displays show (pure text lines, 20 x 4; the LCD driver draws them).
#
# Dealer display: the hand and street, what to deal or the seat to act with its
# legal range (Legal.display()), an alarm's prompt, and the keypad entry's echo
# or the answer to a refused entry. Result display: the pot and side pots, the
# amount to call and the pot-limit maximum, the board; after a hand, each pot's
# winners and the rake.
from firmware import cards, faults
from firmware import screens as core_screens
from firmware.games.omaha import rules
from firmware.games.omaha.betting import chips_text
from firmware.games.omaha.codes import BETTING, DEALING, NO_SEAT
from firmware.games.omaha.pots import build_pots
from firmware.table import FAULTED, READY

COLS = 20
_PROMPTS = {
    faults.CARD_OUT_OF_ORDER: ("CARD OUT OF ORDER", "CONFIRM: DISCARD"),
    faults.CARD_IMPOSSIBLE: ("CARD SEEN TWICE", "HOLD VOID: MISDEAL"),
    faults.CARD_UNREADABLE: ("UNREADABLE CARD", "RESCAN OR HOLD VOID"),
    faults.CARD_MISSING: ("CARD MISSING", "RESCAN OR CONFIRM"),
}


def wrap(text, rows):
    """Words of text in up to `rows` lines of COLS characters (what does not fit is cut)."""
    lines = []
    line = ""
    for word in text.split():
        if not line:
            line = word
        elif len(line) + 1 + len(word) <= COLS:
            line += " " + word
        else:
            lines.append(line)
            line = word
    if line:
        lines.append(line)
    lines = [ln[:COLS] for ln in lines[:rows]]
    while len(lines) < rows:
        lines.append("")
    return lines


def _footer(table):
    """The keypad entry as keyed, or the answer to the last refused entry."""
    if table.answer:
        return table.answer[:COLS]
    if table.entry.keyed:
        return table.entry.echo()[:COLS]
    return ""


def _to_deal(hand):
    kind, seat = hand.expected()
    if kind == rules.EXPECT_HOLE:
        return "HOLE SEAT %d" % seat
    if kind == rules.EXPECT_BURN:
        return "BURN"
    n = len(hand.board)
    return "FLOP %d OF 3" % (n + 1) if n < 3 else ("TURN" if n == 3 else "RIVER")


def _alarm_lines(table):
    code = table.fault_code
    first, action = _PROMPTS.get(code, (core_screens.fault_title(code), "CONFIRM TO ACK"))
    if faults.is_reader_fault(code):
        first, action = "SHOE " + faults.name(code).upper(), "RESCAN OR CONFIRM"
    detail = ""
    if faults.is_game_alarm(code) and table.fault_detail >= 0:
        detail = "CARD " + cards.name(table.fault_detail)
    if table.prompt_void or not table.may_confirm():
        action = "HOLD VOID: MISDEAL"
    return [first[:COLS], detail, action]


def dealer_lines(table, config, button_names):
    state = table.state
    hand = table.hand
    if state == FAULTED:
        return ["ALARM H%d" % table.hand_no] + _alarm_lines(table)
    if state != READY and state != DEALING and state != BETTING:
        return core_screens.dealer_lines(table, config, button_names)   # the lamp test, a lamp check
    if state == READY:
        head = "%s OMAHA" % config["table_id"]
        if table.showing_result:
            head = "HAND %d %s" % (table.hand_no, "VOID" if table.result.void else "OVER")
        button = table.next_button_seat
        second = "BUTTON SEAT %d" % button if button != NO_SEAT else "NEW ENTER: NEW HAND"
        return [head[:COLS], second, "%d PLAYERS IN" % len(table.players()), _footer(table)]
    head = "H%d %s" % (table.hand_no, rules.STREETS[hand.street].upper())
    if state == DEALING:
        return [head, "DEAL " + _to_deal(hand), "", _footer(table)]
    legal = hand.legal()
    return [("%s SEAT %d" % (head, legal.seat))[:COLS]] + wrap(legal.display(), 2) + [_footer(table)]


def _pots_line(hand):
    """All chips in the middle; once there are side pots, each pot (main first)."""
    live = [not f for f in hand.folded]
    _returned, pots = build_pots(hand.betting.total, live)
    if len(pots) < 2:
        return "POT " + chips_text(hand.pot_total())
    return ("POTS " + " ".join(chips_text(p.amount) for p in pots))[:COLS]


def _winners_line(index, pot):
    winners = " ".join("S%d" % s for s in pot.winners)
    return ("P%d %s %s" % (index + 1, chips_text(pot.amount), winners))[:COLS]


def result_lines(table, config, button_names):
    hand = table.hand
    if hand is None or table.state < READY:
        return ["OMAHA", "", "", ""]
    board = " ".join(cards.names(hand.board))
    if table.showing_result:
        result = table.result
        if result.void:
            return ["HAND %d VOID" % table.hand_no, "BETS RETURNED", table.void_reason.upper()[:COLS], ""]
        lines = ["H%d RAKE %s" % (table.hand_no, chips_text(result.rake))]
        for k in range(len(result.pots)):
            if len(lines) == 3:
                break
            lines.append(_winners_line(k, result.pots[k]))
        while len(lines) < 3:
            lines.append("")
        return lines + [board]
    call = ""
    if table.state == BETTING:
        legal = hand.legal()
        call = "CALL %s" % chips_text(legal.call) if not legal.can_check else "CHECK"
        if legal.kind is not None:
            call += " %s %s" % ("POT MAX" if legal.limit == "pot" else "MAX", chips_text(legal.max_to))
    return ["H%d %s" % (table.hand_no, rules.STREETS[hand.street].upper()), _pots_line(hand), call[:COLS], board]
