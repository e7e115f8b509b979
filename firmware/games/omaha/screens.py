# What the Omaha dealer and result displays show (pure text lines, 20 x 4; the LCD driver draws them).
#
# Dealer display: the hand and street, what to deal or the seat to act with its
# legal range (Legal.display()), an alarm's prompt, and the keypad entry's echo
# or the answer to a refused entry. Result display: the pot and side pots, the
# amount to call and the pot-limit maximum, the board; after a hand, each pot's
# winners (two pots a page, more paged every 2 seconds) and the rake.
from firmware import cards, fault_kinds
from firmware import screens as core_screens
from firmware.games.omaha import rules
from firmware.games.omaha.betting import chips_text

# copies of firmware.faults (tests/host/test_const_copies.py)
_CARD_IMPOSSIBLE = const(11)
_CARD_MISSING = const(16)
_CARD_OUT_OF_ORDER = const(14)
_CARD_UNREADABLE = const(12)
# copies of firmware.games.omaha.codes (tests/host/test_const_copies.py)
_BETTING = const(5)
_DEALING = const(4)
_NO_SEAT = const(0)
# copies of firmware.table_codes (tests/host/test_const_copies.py)
_FAULTED = const(2)
_READY = const(1)

COLS = 20
_POT_LINES = const(2)      # the result display's lines for the pots' winners
_PAGE_S = const(2)         # seconds a page of them shows (the displays redraw each second)
# Alarm prompts: the faults, and for each (first line, what the dealer may do). Tuple literals of const
# codes and strings (the dict they were, built at import, kept 48 bytes of the heap in the VM; frozen, they
# are constants in flash; in ROMFS their tuples are made in RAM at load, as the dict's values were, their
# strings not; issue 14).
_PROMPT_FAULTS = (_CARD_OUT_OF_ORDER, _CARD_IMPOSSIBLE, _CARD_UNREADABLE, _CARD_MISSING)
_PROMPTS = (
    ("CARD OUT OF ORDER", "CONFIRM: DISCARD"),
    ("CARD SEEN TWICE", "HOLD VOID: MISDEAL"),
    ("UNREADABLE CARD", "RESCAN OR HOLD VOID"),
    ("CARD MISSING", "RESCAN OR CONFIRM"),
)


def wrap(text, rows):
    """Words of text in up to `rows` lines of COLS characters, cut only between words (fit)."""
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
    if len(lines) > rows:
        lines = lines[:rows - 1] + [fit(lines[rows - 1] + " " + lines[rows])]
    lines = [fit(ln) for ln in lines]
    while len(lines) < rows:
        lines.append("")
    return lines


def _has_digit(word):
    for c in word:
        if "0" <= c <= "9":
            return True
    return False


def fit(text):
    """text on one line of COLS characters. Cut only between words, so an amount or a seat is never
    shown cut short ("POT MAX 1,2" for 1,250, "SEAT 1" for seat 10); the words the cut leaves without
    their number ("RAISE", "POT MAX") go too. A single word longer than the line is cut."""
    if len(text) <= COLS:
        return text
    words = text.split()
    kept = 0
    length = -1
    while kept < len(words) and length + 1 + len(words[kept]) <= COLS:
        length += 1 + len(words[kept])
        kept += 1
    if kept == 0:
        return text[:COLS]
    end = kept
    while end > 0 and not _has_digit(words[end - 1]):
        end -= 1
    if end == 0:                                     # no number at all: the words that fit
        end = kept
    return " ".join(words[:end])


def _footer(table):
    """The keypad entry as keyed, or the answer to the last refused entry."""
    if table.answer:
        return fit(table.answer)
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
    if code in _PROMPT_FAULTS:
        first, action = _PROMPTS[_PROMPT_FAULTS.index(code)]
    else:
        first, action = core_screens.fault_title(code), "CONFIRM TO ACK"
    if fault_kinds.is_reader_fault(code):
        # a card read is the rescan only in a hand (alarms._card_in_alarm): between hands CONFIRM alone
        first, action = "SHOE " + fault_kinds.name(code).upper(), "RESCAN OR CONFIRM" if table.hand_runs() \
            else "CONFIRM TO ACK"
    detail = ""
    if fault_kinds.is_game_alarm(code) and table.fault_detail >= 0:
        detail = "CARD " + cards.name(table.fault_detail)
    if (table.prompt_void or not table.may_confirm() and code != _CARD_UNREADABLE) and table.hand_runs():
        action = "HOLD VOID: MISDEAL"                  # (only a hand is voided; an unreadable card: its rescan too)
    return [first[:COLS], detail, action]


def dealer_lines(table, config, button_names):
    state = table.state
    hand = table.hand
    if state == _FAULTED:
        return ["ALARM H%d" % table.hand_no] + _alarm_lines(table)
    if state != _READY and state != _DEALING and state != _BETTING:
        return core_screens.dealer_lines(table, config, button_names)   # the lamp test, a lamp check
    if state == _READY:
        head = "%s OMAHA" % config["table_id"]
        if table.showing_result:
            head = "HAND %d %s" % (table.hand_no, "VOID" if table.result.void else "OVER")
        button = table.next_button_seat
        second = "BUTTON SEAT %d" % button if button != _NO_SEAT else "NEW ENTER: NEW HAND"
        n = len(table.players())
        return [head[:COLS], second, "%d PLAYER%s IN" % (n, "" if n == 1 else "S"), _footer(table)]
    head = "H%d %s" % (table.hand_no, rules.STREETS[hand.street].upper())
    if state == _DEALING:
        return [head, "DEAL " + _to_deal(hand), "", _footer(table)]
    legal = hand.legal()
    to_act = "%s SEAT %d" % (head, legal.seat)
    if len(to_act) > COLS:                           # a hand number of 4 digits or more: the seat first
        to_act = "%s SEAT %d" % (rules.STREETS[hand.street].upper(), legal.seat)
    return [to_act] + wrap(legal.display(), 2) + [_footer(table)]


def _pots_line(hand):
    """All chips in the middle; once a player still in is all in for less than others put in, each pot
    (main first). A side pot's bounds are the all-in players' totals, never a bet not yet called: what
    is above the last all-in is the last pot, this round's bets included, so the pots add up to every
    chip in the middle."""
    total = hand.betting.total
    levels = []
    for i in range(hand.n):
        if not hand.folded[i] and hand.stack[i] == 0 and total[i] not in levels:
            levels.append(total[i])
    levels.sort()
    amounts = []
    below = 0
    for level in levels + [max(total)]:
        amount = 0
        for t in total:
            amount += (t if t < level else level) - (t if t < below else below)
        if amount:
            amounts.append(amount)
        below = level
    if len(amounts) < 2:
        return "POT " + chips_text(hand.pot_total())
    return fit("POTS " + " ".join(chips_text(a) for a in amounts))


def _winners_line(index, pot):
    winners = " ".join("S%d" % s for s in pot.winners)
    return fit("P%d %s %s" % (index + 1, chips_text(pot.amount), winners))


def result_lines(table, config, button_names):
    hand = table.hand
    if hand is None or table.state < _READY:
        return ["OMAHA", "", "", ""]
    board = " ".join(cards.names(hand.board))
    if table.showing_result:
        result = table.result
        if result.void:
            return ["HAND %d VOID" % table.hand_no, "BETS RETURNED", table.void_reason.upper()[:COLS], ""]
        lines = [fit("H%d RAKE %s" % (table.hand_no, chips_text(result.rake)))]
        pots = result.pots
        first = 0
        if len(pots) > _POT_LINES:           # more pots than lines: every pot's winners in turn, a page a time
            first = _POT_LINES * ((table.uptime_s // _PAGE_S) % ((len(pots) + _POT_LINES - 1) // _POT_LINES))
        for k in range(first, min(first + _POT_LINES, len(pots))):
            lines.append(_winners_line(k, pots[k]))
        while len(lines) < 3:
            lines.append("")
        return lines + [board]
    call = ""
    if table.state == _BETTING:
        legal = hand.legal()
        call = "CALL %s" % chips_text(legal.call) if not legal.can_check else "CHECK"
        if legal.kind is not None:
            top = chips_text(legal.max_to)
            line = "%s %s %s" % (call, "POT MAX" if legal.limit == "pot" else "MAX", top)
            call = line if len(line) <= COLS else "%s MAX %s" % (call, top)
    return ["H%d %s" % (table.hand_no, rules.STREETS[hand.street].upper()), _pots_line(hand), fit(call), board]
