# Host reports of the Baccarat controller's own outbox codes (docs/protocol.md, "Host reports").
#
# Called by firmware.report.Reporter when it drains the outbox, right after the
# event that queued the entry, so the controller's fields still describe it.
from firmware import cards, fault_kinds
from firmware.games.baccarat.payouts import ZONES
from firmware.games.baccarat.roads import DERIVED, MARK_NAMES

# copies of firmware.games.baccarat.codes (tests/host/test_const_copies.py)
_NEWS_RESTARTED = const(5)
_OUT_BETS = const(36)
_OUT_BETS_FAULT = const(38)
_OUT_DEALT = const(33)
_OUT_RESULT = const(35)
_OUT_ROADS = const(37)
_OUT_ROUND = const(34)
_OUT_SHOE = const(32)

# OUT_SHOE's a (codes.NEWS_*): the report's "shoe".
SHOE_NEWS = ("new", "burned", "cut_card", "closed", "removed", "restarted", "roads_restarted")
# Where a card went (OUT_DEALT's b // 2: rules.PLAYER, rules.BANKER, codes.TO_BURN, codes.TO_DISCARD): its "to".
DESTINATIONS = ("player", "banker", "burn", "discard")

# Seat keys of the reports (seat index 0 -> "1"): a tuple's entry costs a tenth of str() on the VM, and a
# result names every seat that bet; a seat past them (a table of more seats) goes through str().
SEAT_KEYS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10",
             "11", "12", "13", "14", "15", "16", "17", "18", "19", "20")
_SEAT_KEYS_MAX = const(20)

_SHOE_NUMBER = ("decks", "cards", "last_round", "rounds", None, None, "rounds")   # what OUT_SHOE's b counts, per news
_WINNERS = ("player", "banker", "tie")
_BEAD = "PBT"


def game_report(table, code, a, b):
    if code == _OUT_DEALT:
        return "card", {"card": cards.name(a), "face_up": (b & 1) != 0, "to": DESTINATIONS[b >> 1],
                        "round": table.shoe.rounds if table.shoe is not None else 0}
    if code == _OUT_ROUND:
        fields = {"round": a, "demo": bool(b)}
        if table.has_bets:
            fields["bets"] = seat_table(table, table.round_bets)
        return "round", fields
    if code == _OUT_RESULT:
        return "result", result_fields(table, a)
    if code == _OUT_SHOE:
        fields = {"shoe": SHOE_NEWS[a]}
        if _SHOE_NUMBER[a] is not None:
            fields[_SHOE_NUMBER[a]] = b
        elif a == _NEWS_RESTARTED:
            fields["bytes"] = table.evidence.text(b)      # its HELLO line, as Omaha's and the dice reader's
        return "shoe", fields
    if code == _OUT_BETS:
        if not b:
            return "bets", {"reading": a, "accepted": False, "reason": "round in progress: bets closed"}
        return "bets", {"reading": a, "accepted": True, "bets": seat_table(table, table.reading.amounts)}
    if code == _OUT_BETS_FAULT:
        return fault_kinds.bets_fault_report(table.evidence, a, b)
    if code == _OUT_ROADS:
        fields = roads_fields(table.roads)
        if b:
            fields["tag"] = b                            # the host's request's (firmware/events.py, HOST_TAG_SHIFT)
        return "roads", fields
    return "fault", {"fault": "unknown_outbox_code", "detail": code}


def seat_table(table, amounts):
    """{seat: {zone: amount}} of the seats with a non-zero amount (seats as strings, JSON keys)."""
    return _by_seat(table.seats, amounts, amounts)


def result_fields(table, number):
    record = table.record
    hand = table.last_hand
    # One dict built in the report's key order (no temporary dict merged in): on the VM this path
    # ran on every result.
    if record.void:
        fields = {"round": number, "player": cards.names(hand.player), "banker": cards.names(hand.banker),
                  "player_total": None, "banker_total": None, "winner": None,
                  "player_pair": False, "banker_pair": False, "demo": bool(record.demo), "void": True}
    else:
        result = record.result
        fields = {"round": number, "player": cards.names(hand.player), "banker": cards.names(hand.banker),
                  "player_total": result.player_total, "banker_total": result.banker_total,
                  "winner": _WINNERS[result.winner], "player_pair": bool(result.player_pair),
                  "banker_pair": bool(result.banker_pair), "demo": bool(record.demo), "void": False}
    if table.has_bets:
        fields["nets"] = nets_table(table)
    return fields


def nets_table(table):
    """{seat: {zone: net}} of every zone that had a bet (a push is 0, a void round returns all)."""
    if table.slots_round is table.last_hand:
        # The round's bet slots, which its settle and seat lights visited (controller._find_slots): the
        # same seats and zones in the same order as the walk of every seat's every zone, most of them empty.
        return _by_slots(table.bet_slots, table.seat_slot_ends, table.nets)
    return _by_seat(table.seats, table.round_bets, table.nets)


def _by_seat(seats, present, values):
    """{seat: {zone: values[i]}} of the zones i where present[i] is not 0, seats and zones in order."""
    out = {}
    zones = ZONES
    width = len(zones)
    i = 0
    for seat in range(seats):
        row = None
        for z in range(width):
            if present[i]:
                if row is None:
                    row = {}
                row[zones[z]] = values[i]
            i += 1
        if row is not None:
            out[SEAT_KEYS[seat] if seat < _SEAT_KEYS_MAX else str(seat + 1)] = row
    return out


def _by_slots(slots, ends, values):
    """_by_seat's {seat: {zone: values[i]}} from the slots i bet on (ascending), seat s's ending at ends[s]."""
    out = {}
    zones = ZONES
    keys = SEAT_KEYS
    width = len(zones)
    j = 0
    base = 0
    for seat in range(len(ends)):
        end = ends[seat]
        if j < end:
            row = {}
            while j < end:
                i = slots[j]
                row[zones[i - base]] = values[i]
                j += 1
            out[keys[seat] if seat < _SEAT_KEYS_MAX else str(seat + 1)] = row
        base += width
    return out


def roads_fields(roads):
    fields = {"bead_plate": [_BEAD[w] + ("p" if pp else "") + ("b" if bp else "") for w, pp, bp in roads.bead_plate()],
              "big_road": [[_BEAD[w] + ("%d" % ties if ties else "") for w, ties, _pp, _bp in column]
                           for column in roads.big_road()]}
    for index in range(len(DERIVED)):
        fields[DERIVED[index][0]] = [MARK_NAMES[m] for m in roads.derived(index)]
    return fields
