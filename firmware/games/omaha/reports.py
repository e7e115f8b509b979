# Host reports of the Omaha controller's own outbox codes (docs/protocol.md, "Omaha tables").
#
# Called by firmware.report.Reporter when it drains the outbox, right after the
# event that queued the entry, so the controller's fields still describe it.
from firmware import cards
from firmware.games.omaha import rules
from firmware.games.omaha.poker_eval import category_name

# copies of firmware.games.omaha.codes (tests/host/test_const_copies.py)
_FACE_UP = const(128)
_OUT_ACTION = const(34)
_OUT_BUTTON_SET = const(38)
_OUT_DEALT = const(33)
_OUT_HAND_START = const(32)
_OUT_HOST_REFUSED = const(39)
_OUT_REFUSED = const(35)
_OUT_RESULT = const(36)
_OUT_SEAT = const(37)
_OUT_SHOE_HELLO = const(40)
_TO_BOARD = const(2)
_TO_HOLE = const(0)

# Where a card went (OUT_DEALT's b % 4: codes.TO_HOLE .. TO_DISCARD): the report's "to".
DESTINATIONS = ("hole", "burn", "board", "discard")

# The seats of a hand (1..settings.MAX_SEATS, validated) as the reports' keys: a tuple's entry costs a
# tenth of str() on the VM, and a hand's result names every seat five or six times. A seat that may
# be out of range (a refused request's) goes through str().
SEAT_NAMES = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10",
              "11", "12", "13", "14", "15", "16", "17", "18", "19", "20")


def game_report(table, code, a, b):
    if code == _OUT_DEALT:
        fields = {"hand": table.hand_no, "card": cards.name(a), "to": DESTINATIONS[b & 3]}
        if b & 3 == _TO_HOLE:
            fields["seat"] = str((b & ~_FACE_UP) >> 2)
        elif b & 3 == _TO_BOARD:
            fields["street"] = rules.STREETS[(b & ~_FACE_UP) >> 2]
        fields["face_up"] = (b & _FACE_UP) != 0            # always there, true or false, as Baccarat's `card`
        return "dealt", fields
    if code == _OUT_ACTION:
        street, seat, act, amount = table.hand.history[a]
        return "action", {"hand": table.hand_no, "street": rules.STREETS[street], "seat": SEAT_NAMES[seat],
                          "act": act, "amount": amount, "stack": table.act_stack, "pot": table.act_pot,
                          "all_in": table.act_all_in}
    if code == _OUT_REFUSED:
        seat, act, amount, reason, display = table.refusal
        return "action_refused", {"seat": None if seat is None else str(seat), "act": act, "amount": amount,
                                  "reason": reason, "display": display}
    if code == _OUT_HAND_START:
        fields = start_fields(table, a)
        if b:
            fields["tag"] = b                            # the host's request's (firmware/events.py, HOST_TAG_SHIFT)
        return "hand_start", fields
    if code == _OUT_RESULT:
        return "hand_result", result_fields(table, a)
    if code == _OUT_SEAT:
        return "seat", {"seat": str(a), "stack": table.stacks[a], "in": table.playing(a)}
    if code == _OUT_BUTTON_SET:
        return "dealer_button", {"seat": str(a)}
    if code == _OUT_SHOE_HELLO:
        return "shoe", {"shoe": "restarted", "bytes": table.evidence.text(b)}
    if code == _OUT_HOST_REFUSED:
        fields = {"error": "hand refused: " + table.host_reason, "request": "hand"}
        if b:
            fields["tag"] = b
        return "host_error", fields
    return "fault", {"fault": "unknown_outbox_code", "detail": code}


def start_fields(table, number):
    hand = table.hand
    stacks = {}
    for i in range(hand.n):
        stacks[SEAT_NAMES[hand.seats[i]]] = hand.start[i]
    total = hand.betting.total
    return {"hand": number, "button": SEAT_NAMES[hand.button], "players": [SEAT_NAMES[s] for s in hand.seats],
            "stacks": stacks, "blinds": {SEAT_NAMES[hand.seats[0]]: total[0], SEAT_NAMES[hand.seats[1]]: total[1]}}


def result_fields(table, number):
    hand = table.hand
    result = table.result
    hole = {}
    for i in range(hand.n):
        hole[SEAT_NAMES[hand.seats[i]]] = cards.names(hand.hole[i])
    pots = []
    for pot in result.pots:
        shares = {}
        for seat, chips in pot.shares:
            shares[SEAT_NAMES[seat]] = chips
        pots.append({"amount": pot.amount, "eligible": [SEAT_NAMES[s] for s in pot.eligible],
                     "winners": [SEAT_NAMES[s] for s in pot.winners], "shares": shares})
    returned = {}
    if result.returned is not None:
        returned[SEAT_NAMES[result.returned[0]]] = result.returned[1]
    shown = {}
    for seat, value in result.values:
        shown[SEAT_NAMES[seat]] = category_name(value)
    stacks = {}
    for seat, chips in result.stacks:
        stacks[SEAT_NAMES[seat]] = chips
    fields = {"hand": number, "void": bool(result.void), "board": cards.names(hand.board), "hole": hole,
              "pots": pots, "rake": result.rake, "returned": returned, "shown": shown, "stacks": stacks}
    if result.void:
        fields["reason"] = table.void_reason
    return fields
