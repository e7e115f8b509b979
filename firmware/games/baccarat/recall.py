# Baccarat's rounds for recall (issue 12; firmware/round_recall.py keeps them, docs/journal.md "Recall").
#
# One round a result (OUT_RESULT, a void one too), from the table's own record of it:
#   {"round": 12, "cards": ["9h", "2d", "Kc", "3s"], "result": "player", "totals": [9, 5], "nets": {"3": 95}}
# cards in the order dealt (art. 7: Player, Banker, Player, Banker, then the third cards);
# result "player", "banker", "tie" or "void" (art. 10: every bet returned, "void": true, no totals);
# "demo": true for a demo round (art. 2(2)); nets by seat (the seat's zones summed; seats that bet),
# only where the table reads bets. The host's `result` report has the same round by zone.
from firmware import cards
from firmware.games.baccarat.payouts import ZONES
from firmware.games.baccarat.reports import SEAT_KEYS

# copies of firmware.games.baccarat.codes (tests/host/test_const_copies.py)
_OUT_RESULT = const(35)
# copies of firmware.games.baccarat.rules (tests/host/test_const_copies.py)
_PLAYER = const(0)

# A round at most this long as JSON (near the 641 that firmware.link.recall's journal takes at 100 rounds): 6 cards
# and 20 seats of 12-digit nets fit (tests/firmware/test_round_recall.py builds that case); a longer
# one is kept cut to ALWAYS (firmware/round_recall.py), the host's `result` report has it all.
ROUND_MAX = const(640)
ALWAYS = ("round", "result", "void", "demo")     # what a round over ROUND_MAX keeps (never: the test)
ROUND_CODES = (_OUT_RESULT,)                     # the reports that end a round (round_of makes it)
_WINNERS = ("player", "banker", "tie")


def round_of(table, code, a, b, previous, fields=None):
    """The round a report ends (OUT_RESULT), or None. fields: the result report's, whose hands' names give
    the cards as dealt and whose nets by seat and zone (reports.nets_table) give the seats' nets summed
    (half the time of a walk of the table's bets); None: from the table."""
    if code not in ROUND_CODES:
        return None
    record = table.record
    if fields is not None:
        # The result report's hands, named already (cards.names): in dealing order, no card named twice.
        entry = {"round": a, "cards": dealt(table.last_hand, fields.get("player"), fields.get("banker"))}
    else:
        entry = {"round": a, "cards": dealt(table.last_hand)}
    if record.void:
        entry["result"] = "void"
        entry["void"] = True
    else:
        result = record.result
        entry["result"] = _WINNERS[result.winner]
        entry["totals"] = [result.player_total, result.banker_total]
    if record.demo:
        entry["demo"] = True
    if table.has_bets:
        by_zone = fields.get("nets") if fields is not None else None
        entry["nets"] = seat_nets(table) if by_zone is None else summed(by_zone)
    return entry


def dealt(hand, player=None, banker=None):
    """The round's cards' names as dealt (its own order of hands). player, banker: each hand's names in
    its order (cards.names of it) where the caller has them; None: named here."""
    if player is None or banker is None:
        player = cards.names(hand.player)
        banker = cards.names(hand.banker)
    out = []
    p = b = 0
    for side in hand.order:
        if side == _PLAYER:
            out.append(player[p])
            p += 1
        else:
            out.append(banker[b])
            b += 1
    return out


def seat_nets(table):
    """{seat: net} of the seats that bet this round (a void round: 0, every bet returned)."""
    out = {}
    width = len(ZONES)
    bets = table.round_bets
    nets = table.nets
    i = 0
    for seat in range(table.seats):
        net = 0
        bet = False
        for _ in range(width):
            if bets[i]:
                bet = True
                net += nets[i]
            i += 1
        if bet:
            out[SEAT_KEYS[seat] if seat < len(SEAT_KEYS) else str(seat + 1)] = net   # reports.SEAT_KEYS: no str() a seat
    return out


def summed(by_zone):
    """{seat: net} from the result report's {seat: {zone: net}} (the same seats, in the same order)."""
    out = {}
    for seat in by_zone:
        out[seat] = sum(by_zone[seat].values())
    return out


def line(entry):
    """One console line: round, cards (P/B as dealt), result, nets."""
    text = "round %s" % entry.get("round")
    if "cut" in entry:
        return text + " %s (detail over %d bytes: see the host's reports)" % (entry.get("result"), ROUND_MAX)
    text += " " + " ".join(entry.get("cards", ()))
    text += " " + str(entry.get("result"))
    if "totals" in entry:
        text += " %d-%d" % tuple(entry["totals"])
    if entry.get("demo"):
        text += " demo"
    return text + nets_text(entry.get("nets"))


def nets_text(nets):
    if not nets:
        return ""
    return "  " + " ".join("%s:%+d" % (seat, nets[seat]) for seat in sorted(nets, key=int))
