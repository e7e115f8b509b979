# What the Baccarat dealer and result displays show (pure text lines; the LCD driver draws them).
#
# Dealer display: what to do next ("DEAL PLAYER", "BANKER DRAWS", an alarm's
# prompt) and the hands as dealt; "BETS NOT READ" after a bet reading the reader refused, until one is
# taken or the round starts. Result display: the last round's totals,
# winner, pairs and who stood, and the shoe's counts.
from firmware import cards, fault_kinds
from firmware import screens as core_screens

# copies of firmware.faults (tests/host/test_const_copies.py)
_CARD_IMPOSSIBLE = const(11)
_CARD_OUT_OF_ORDER = const(14)
_CARD_UNREADABLE = const(12)
_DOUBLE_PULL = const(13)
_LINK_BACKLOG = const(17)
_SHOE_REMOVED = const(15)
# copies of firmware.games.baccarat.codes (tests/host/test_const_copies.py)
_BETTING = const(5)
_BURNING = const(4)
_DEALING = const(6)
_SHOE_CLOSED = const(7)
# copies of firmware.games.baccarat.rules (tests/host/test_const_copies.py)
_BANKER = const(1)
_NONE = const(-1)
_PLAYER = const(0)
_TIE = const(2)
# copies of firmware.table_codes (tests/host/test_const_copies.py)
_FAULTED = const(2)
_READY = const(1)

_HAND_NAMES = ("PLAYER", "BANKER", "TIE")
# Alarm prompts: the faults, and for each (first line, what the dealer may do). Tuple literals of const
# codes and strings (the dict they were, built at import, kept 64 bytes of the heap in the VM; frozen, they
# are constants in flash; in ROMFS their tuples are made in RAM at load, as the dict's values were, their
# strings not; issue 14).
_PROMPT_FAULTS = (_CARD_IMPOSSIBLE, _CARD_UNREADABLE, _DOUBLE_PULL, _CARD_OUT_OF_ORDER, _SHOE_REMOVED, _LINK_BACKLOG)
_PROMPTS = (
    ("FOREIGN CARD", "HOLD VOID: VOID"),
    ("UNREADABLE CARD", "RESCAN OR HOLD VOID"),
    ("DOUBLE PULL", "CONFIRM: DEAL IT ON"),
    ("CARD OUT OF ORDER", "CONFIRM: DISCARD"),
    ("SHOE REMOVED", "CONFIRM OR HOLD VOID"),
    ("NO ROUND: HOST AWAY", "CONFIRM: DEAL IT"),
)


# The last line made for each hand name: (hand, its length then, the line). A round's hands only grow
# (cards are appended), so a hand that is the same list at the same length has the same line, and at one
# card more the line before without its " =<total>" (a total is one digit), the new card's name and the
# total, in one format: the dealer display redraws after every event, and its hand lines change only when
# a card comes, by one card. The total is the round's own (rules.Round.totals, art. 5: the values' sum
# modulo 10, kept as each card was given): not summed again here.
_HAND_LINES = {}


def _hand_line(name, hand, total):
    if not hand:
        return name
    n = len(hand)
    last = _HAND_LINES.get(name)
    if last is not None and last[0] is hand:
        if last[1] == n:
            return last[2]
        if last[1] == n - 1:
            code = cards.name(hand[n - 1])
            before = last[2]
            cut = len(before) - 3
            # The line before cut by the format's precision ("%.4s": "P 9h" of "P 9h =9") where a hand of
            # two or three cards has it, not by a slice: a str made is looked up among the interned ones
            # (~4 us in the VM, a slice as a format; issue 14)
            if cut == 4:
                line = "%.4s %s =%d" % (before, code, total)
            elif cut == 7:
                line = "%.7s %s =%d" % (before, code, total)
            else:
                line = "%s %s =%d" % (before[:-3], code, total)
            _HAND_LINES[name] = (hand, n, line)
            return line
    line = "%s %s =%d" % (name, " ".join(cards.names(hand)), total)
    _HAND_LINES[name] = (hand, n, line)
    return line


def _next_action(table):
    rnd = table.hand
    due = rnd.expected()
    if due == _NONE:
        return ""
    if len(rnd.order) < 4:
        return "DEAL " + _HAND_NAMES[due]          # art. 7(1): P, B, P, B
    return _HAND_NAMES[due] + " DRAWS"           # art. 9: the third card


def stood(record, rnd):
    """Who stood at the third card (art. 9): the words for the result display."""
    if record.void:
        return "ROUND VOID"
    n = len(rnd.order)
    if n == 4:
        return "BOTH STAND"
    if n == 6:
        return "BOTH DREW"
    return "BANKER STANDS" if rnd.order[4] == _PLAYER else "PLAYER STANDS"


# The last record's winner line: the dealer and the result display both show it in the pass that
# closes a round (a record is made once and not changed after: the same record, the same line).
_WINNER = [None, ""]


def _winner_text(record):
    if _WINNER[0] is record:
        return _WINNER[1]
    if record.void:
        text = "VOID: BETS RETURNED"
    else:
        result = record.result
        winner = result.winner
        if winner == _TIE:
            text = "TIE %d-%d" % (result.player_total, result.banker_total)
        elif winner == _BANKER:
            text = "BANKER WINS %d-%d" % (result.banker_total, result.player_total)
        else:
            text = "PLAYER WINS %d-%d" % (result.player_total, result.banker_total)
    _WINNER[0] = record
    _WINNER[1] = text
    return text


# A round's two heads, made together at its first draw: "ROUND <n>[ DEMO]" (the dealer display while
# it is dealt, the result display after it) and "BETS OPEN R<n + 1>" (the dealer display once it is
# settled): the pass that shows the round's result builds neither (the head of every display changes
# in that pass). [number, demo, "ROUND ...", "BETS OPEN R..."] of the last round made, then of the
# one before (the result display shows that one while the next is dealt); -1: none.
_HEADS = [[-1, False, "", ""], [-1, False, "", ""]]


def _heads(number, demo):
    heads = _HEADS[0]
    if heads[0] == number and heads[1] == demo:
        return heads
    before = _HEADS[1]
    if before[0] == number and before[1] == demo:
        return before
    before[2] = "ROUND %d%s" % (number, " DEMO" if demo else "")     # the older entry made the newest
    before[3] = "BETS OPEN R%d" % (number + 1)
    before[0] = number
    before[1] = demo
    _HEADS[0] = before
    _HEADS[1] = heads
    return before


def _alarm_lines(table):
    code = table.fault_code
    if code in _PROMPT_FAULTS:
        first, action = _PROMPTS[_PROMPT_FAULTS.index(code)]
    else:
        first, action = core_screens.fault_title(code), "CONFIRM TO ACK"
    if fault_kinds.is_reader_fault(code):
        first = "SHOE " + fault_kinds.name(code).upper()
        # VOID voids a round; between rounds it closes no line fault (alarms._void), and a card read is
        # the rescan only where one is awaited (the burn, bets open: alarms._card_in_alarm)
        if table.in_round():
            action = "RESCAN/CONFIRM/VOID"
        elif table.resume_state == _BURNING or table.resume_state == _BETTING:
            action = "RESCAN OR CONFIRM"
    detail = ""
    if fault_kinds.is_game_alarm(code) and table.fault_detail >= 0:
        detail = "CARD " + cards.name(table.fault_detail)
    if code == _LINK_BACKLOG and table.link_backlog:
        action = "WAIT OR HOLD VOID"                   # CONFIRM once the host link has caught up
    elif code == _CARD_UNREADABLE and table.resume_state == _BURNING:
        action = "RESCAN THE CARD"                     # the art. 2(1) count may hang on it (alarms._void)
    elif (table.prompt_void or not table.may_confirm() and code != _CARD_UNREADABLE) and table.void_closes():
        action = "HOLD VOID TO VOID"                   # (a short press of VOID: hold it, where holding closes)
    return [first, detail, action]


def dealer_lines(table, config, button_names):
    state = table.state
    shoe = table.shoe
    # The states of play first (the display redraws after each of their events), then the others.
    if state == _DEALING:
        rnd = table.hand
        totals = rnd.totals
        return [_heads(shoe.rounds, shoe.round_demo)[2], _next_action(table),
                _hand_line("P", rnd.player, totals[_PLAYER]), _hand_line("B", rnd.banker, totals[_BANKER])]
    if state == _BETTING:
        # Bets open; the last result stays until the next round starts.
        heads = _HEADS[0]               # (the round's: made at its first draw, whatever its demo flag)
        head = heads[3] if heads[0] == shoe.rounds else _heads(shoe.rounds, shoe.round_demo)[3]
        if table.bets_unread:
            head = "BETS NOT READ R%d" % (shoe.rounds + 1)   # a reading refused: the chips are not taken
        if table.settings.burn_each_round and not table.burned_this_round:
            head = "BURN, THEN R%d" % (shoe.rounds + 1)
        if table.link_backlog:
            head = "HOST AWAY: NO DEAL"              # no new round until the host link catches up
        last = table.last_hand
        if table.showing_result and last is not None:
            totals = last.totals
            return [head, _winner_text(table.record), _hand_line("P", last.player, totals[_PLAYER]),
                    _hand_line("B", last.banker, totals[_BANKER])]
        return [head, "CUT CARD OUT" if shoe.last_round else "", "", ""]
    if state == _FAULTED:
        return ["ALARM R%d" % (shoe.rounds if shoe else 0)] + _alarm_lines(table)
    if state == _READY:
        return ["%s BACCARAT" % config["table_id"], "INSERT NEW SHOE",
                core_screens.BETS_NOT_READ if table.bets_unread else "", "HOLD SHOE CHANGE"]
    if state == _BURNING:
        left = shoe.burn_left
        return ["NEW SHOE %d DECKS" % shoe.decks, "BURN FIRST CARD" if left < 0 else "BURN %d MORE" % left,
                "BURNED %d" % shoe.burned, core_screens.BETS_NOT_READ if table.bets_unread else ""]
    if state == _SHOE_CLOSED:
        return ["SHOE FINISHED", "RESHUFFLE", "ROUNDS %d" % shoe.rounds, "HOLD SHOE CHANGE"]
    return core_screens.dealer_lines(table, config, button_names)


def result_lines(table, config, button_names):
    record = table.record
    shoe = table.shoe
    if shoe is None or record is None or table.state < _READY:
        return ["BACCARAT", "", "", ""]
    rnd = table.last_hand
    heads = _HEADS[0]                           # (the round's, made at its first draw: no call)
    number = record.number
    head = heads[2] if heads[0] == number and heads[1] == record.demo else _heads(number, record.demo)[2]
    pairs = ""
    if not record.void:
        result = record.result
        pairs = ("P PAIR " if result.player_pair else "") + ("B PAIR" if result.banker_pair else "")
    wins = table.roads.wins                     # Roads.count() of each, read at once (three calls fewer)
    return [head, _WINNER[1] if _WINNER[0] is record else _winner_text(record),
            stood(record, rnd) + ("  " + pairs if pairs else ""),
            "B%d P%d T%d" % (wins[_BANKER], wins[_PLAYER], wins[_TIE])]
