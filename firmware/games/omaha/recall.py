# Omaha's hands for recall (issue 12; firmware/round_recall.py keeps them, docs/journal.md "Recall").
#
# One round a hand result (OUT_RESULT, a void hand too), from the table's own hand and result:
#   {"hand": 4, "button": "3", "board": "AsKd9h2cTd", "hole": {"3": "AhAc7d6d", "5": "..."},
#    "actions": {"preflop": "5c10 6r30 3f 5c30", ...}, "winners": {"5": 57}, "rake": 3,
#    "nets": {"3": -10, "5": 27, "6": -30}}
# board and hole cards as one string each, two characters a card (a round must fit ROUND_MAX); nets
# of the seats whose stack changed;
# actions: per street, each action "SEAT LETTER [TO]" run together (f fold, x check, c call, b bet,
# r raise; TO the seat's bet on the street after it, as the `action` report's "amount"); winners:
# chips each seat took from the pots (its shares summed, art. 10); nets: each player's stack change
# (the pots, the rake, a returned uncalled bet); a void hand (art. 9) has "void": true, its
# "reason" and no nets (every bet returned). A hand whose actions would not fit ROUND_MAX keeps the first ones and says
# how many it left out ("actions_cut"); the host's `action` reports have them all.
import json

from firmware import cards
from firmware.games.omaha import rules
from firmware.games.omaha.reports import SEAT_NAMES

# copies of firmware.games.omaha.codes (tests/host/test_const_copies.py)
_OUT_RESULT = const(36)

# At most this long as JSON (near the 641 that firmware.link.recall's journal takes at 100 rounds): 11 players
# (a deck's most) on seats 10..20 with 7-digit chips and 3 winners fit, with room for a few actions
# (tests/firmware/test_round_recall.py); actions beyond the room are cut first ("actions_cut"), and
# a hand still longer is kept cut to ALWAYS (firmware/round_recall.py).
ROUND_MAX = const(640)
ALWAYS = ("hand", "void", "winners", "nets")
ROUND_CODES = (_OUT_RESULT,)                     # the reports that end a round (round_of makes it)
# An action's letter (fold f, check x, call c, bet b, raise r): literals, looked along (the dict they were,
# built at import, kept 64 bytes of the heap in the VM; issue 14). test_kept_literals compares.
_ACTS = ("fold", "check", "call", "bet", "raise")
_LETTERS = ("f", "x", "c", "b", "r")
_NO_AMOUNT = ("f", "x")
_STREET_COST = const(8)


def round_of(table, code, a, b, previous, fields=None):
    """The round a report ends (a hand result), or None."""
    if code not in ROUND_CODES:
        return None
    hand = table.hand
    result = table.result
    hole = {}
    for i in range(hand.n):
        hole[SEAT_NAMES[hand.seats[i]]] = "".join(cards.names(hand.hole[i]))
    winners = {}
    for pot in result.pots:
        for seat, chips in pot.shares:
            name = SEAT_NAMES[seat]
            winners[name] = winners.get(name, 0) + chips
    nets = {}
    for seat, chips in result.nets:
        if chips:
            nets[SEAT_NAMES[seat]] = chips
    entry = {"hand": a, "button": SEAT_NAMES[hand.button], "board": "".join(cards.names(hand.board)), "hole": hole,
             "winners": winners, "rake": result.rake, "nets": nets}
    if result.returned is not None:
        entry["returned"] = {SEAT_NAMES[result.returned[0]]: result.returned[1]}
    if result.void:
        entry["void"] = True
        entry["reason"] = table.void_reason
    _actions(entry, hand.history)
    return entry


def _actions(entry, history):
    """entry["actions"] from the history, the first ones that fit ROUND_MAX ("actions_cut": how many not)."""
    streets = rules.STREETS
    order = []                                     # streets in the order of their first action
    tokens = {}                                    # street -> its tokens
    need = 0                                       # the room all of them take (the cut's costs below, summed)
    for street, seat, act, to in history:
        letter = _LETTERS[_ACTS.index(act)] if act in _ACTS else act
        token = "%d%s" % (seat, letter) if letter in _NO_AMOUNT else "%d%s%d" % (seat, letter, to)
        name = streets[street]
        row = tokens.get(name)
        if row is None:
            row = tokens[name] = []
            order.append(name)
            need += len(name) + _STREET_COST - 1
        row.append(token)
        need += len(token) + 1
    entry["actions"] = {}
    entry["actions_cut"] = len(history)            # its widest value, while the room is measured
    room = ROUND_MAX - len(json.dumps(entry))
    actions = {}
    if need <= room:                               # the usual hand: every action fits, joined once a street
        for name in order:
            actions[name] = " ".join(tokens[name])
        entry["actions"] = actions
        del entry["actions_cut"]
        return
    kept = 0
    taken = {}                                     # street -> its tokens kept
    for street, _seat, _act, _to in history:       # in order, while they fit
        name = streets[street]
        k = taken.get(name, 0)
        taken[name] = k + 1
        token = tokens[name][k]
        # a street's first action: its key, quotes, ": " and ", " (_STREET_COST); then a space each
        cost = len(token) + 1 if name in actions else len(token) + len(name) + _STREET_COST
        if cost > room:
            break
        room -= cost
        actions[name] = actions[name] + " " + token if name in actions else token
        kept += 1
    entry["actions"] = actions
    entry["actions_cut"] = len(history) - kept


def line(entry):
    text = "hand %s" % entry.get("hand")
    if entry.get("void"):
        text += " void (%s)" % entry.get("reason", "")
    else:
        text += " board " + str(entry.get("board", ""))
    if "cut" in entry:
        return text + " (detail over %d bytes: see the host's reports)" % ROUND_MAX
    winners = entry.get("winners") or {}
    if winners:
        text += "  won " + " ".join("%s:%d" % (s, winners[s]) for s in sorted(winners, key=int))
    nets = entry.get("nets") or {}
    moved = [s for s in sorted(nets, key=int) if nets[s]]
    if moved:
        text += "  nets " + " ".join("%s:%+d" % (s, nets[s]) for s in moved)
    return text
