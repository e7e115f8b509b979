"""Omaha requests for the rules judge (python -m tools.judge): hand5, omaha_hand, omaha_round.

Same engine code as the firmware (firmware/games/omaha/poker_eval.py, hand_value.py,
rules.py through whole_hand.py). "value" is the hand's class number 1..7462 (7462 = royal flush,
1 = 7-5-4-3-2 high; higher beats lower, equal ties). Seats are the strings of
their numbers, clockwise from the croupier's left. See docs/omaha.md.
"""
from firmware import cards
from firmware.errors import GameError, RuleError
from firmware.games.omaha import poker_eval
from firmware.games.omaha.hand_value import best_hand
from firmware.games.omaha.settings import OmahaSettings
from firmware.games.omaha.whole_hand import MISDEAL, play_hand

_ROUND_FIELDS = ("game", "structure", "small_blind", "big_blind", "button", "stacks", "deck", "actions",
                 "rake", "odd_chip", "seats", "heads_up")


def _known_fields(request, fields):
    # A field the request type does not take is a mistake (a typo, a field of another game), never ignored.
    unknown = sorted(set(request) - set(fields))
    if unknown:
        raise GameError("unknown field %r: expected %s" % (unknown[0], ", ".join(fields[1:])))


def _cards(request, field, count):
    codes = request[field]
    if not isinstance(codes, list) or len(codes) != count:
        raise GameError("%s must be a list of %d card codes" % (field, count))
    return cards.parse_many(codes)


def judge_hand5(request):
    """{"cards": [5 codes]} -> {"category": name, "value": 1..7462}."""
    _known_fields(request, ("game", "cards"))
    hand = poker_eval.check_hand(_cards(request, "cards", 5))
    value = poker_eval.evaluate(hand)
    return {"category": poker_eval.category_name(value), "value": poker_eval.strength(value)}


def judge_omaha_hand(request):
    """{"hole": [4], "board": [5]} -> {"best": [5 codes], "category": name, "value": 1..7462}."""
    _known_fields(request, ("game", "hole", "board"))
    hole = _cards(request, "hole", 4)
    board = _cards(request, "board", 5)
    value, five = best_hand(hole, board)
    return {"best": cards.names(five), "category": poker_eval.category_name(value),
            "value": poker_eval.strength(value)}


def _seat(value, what):
    if isinstance(value, bool):
        raise GameError("%s must be a seat number, got %r" % (what, value))
    if isinstance(value, int):
        return value
    digits = value.strip() if isinstance(value, str) else ""
    if digits and all("0" <= c <= "9" for c in digits):   # not str.isdigit(): "\u00b2" is a digit to it
        return int(digits)
    raise GameError("%s must be a seat number (e.g. \"3\"), got %r" % (what, value))


def _settings(request, stacks):
    # The request names structure and blinds; the other table options, when
    # absent, take the regulation's own readings: odd chip from the croupier's
    # left (art. 10(5)), heads-up lifts the raise cap (art. 12(4)), no "rake"
    # field = no rake, no "cap_big_blinds" = the art. 16 maximum of 5.
    options = {
        "structure": request["structure"],
        "small_blind": request["small_blind"],
        "big_blind": request["big_blind"],
        "odd_chip": request.get("odd_chip", "croupier"),
        "heads_up": request.get("heads_up", "no_raise_cap"),
        "rake_percent": 0,
        "rake_cap_big_blinds": 5,
    }
    rake = request.get("rake")
    if rake is not None:
        if not isinstance(rake, dict):
            raise GameError('rake must be {"percent": 3..5 (tenths: 3.5), "cap_big_blinds": 1..5}')
        unknown = sorted(set(rake) - {"percent", "cap_big_blinds"})
        if unknown:
            raise GameError("unknown rake field %r: expected percent, cap_big_blinds" % unknown[0])
        options["rake_percent"] = rake["percent"]
        options["rake_cap_big_blinds"] = rake.get("cap_big_blinds", 5)
    highest = max([seat for seat, _ in stacks] + [10])
    options["seats"] = request.get("seats", highest)
    return OmahaSettings(**options)


def judge_round(request):
    """A whole hand -> hole, board, pots, rake, final stacks; an illegal action -> {"error", "at"}."""
    _known_fields(request, _ROUND_FIELDS)
    raw_stacks = request["stacks"]
    if not isinstance(raw_stacks, dict) or not raw_stacks:
        raise GameError('stacks must be an object {"seat": chips, ...}')
    stacks = [(_seat(k, "a stacks key"), v) for k, v in raw_stacks.items()]
    settings = _settings(request, stacks)
    button = _seat(request["button"], "button")
    if not isinstance(request["deck"], list):
        raise GameError("deck must be a list of card codes in dealing order")
    deck = cards.parse_many(request["deck"])
    raw_actions = request["actions"]
    if not isinstance(raw_actions, list):
        raise GameError("actions must be a list of [seat, action] or [seat, action, amount]")
    actions = []
    for i, entry in enumerate(raw_actions):
        if not isinstance(entry, list) or len(entry) not in (2, 3):
            return {"error": "action %d must be [seat, action] or [seat, action, amount], got %r" % (i, entry),
                    "at": i}
        if entry[1] == MISDEAL:
            actions.append((None, MISDEAL))
            continue
        try:
            seat = _seat(entry[0], "the seat of action %d" % i)
        except GameError as exc:
            return {"error": str(exc), "at": i}
        actions.append((seat,) + tuple(entry[1:]))
    try:
        hand, result = play_hand(settings, button, stacks, deck, actions)
    except RuleError as exc:
        at = getattr(exc, "at", None)
        if at is None:
            raise
        return {"error": str(exc), "at": at}
    response = {
        "hole": {str(hand.seats[i]): cards.names(hand.hole[i])
                 for i in sorted(range(hand.n), key=lambda i: hand.seats[i])},
        "board": cards.names(hand.board),
        "pots": [{"amount": p.amount, "eligible": [str(s) for s in p.eligible],
                  "winners": [str(s) for s in p.winners]} for p in result.pots],
        "rake": result.rake,
        "stacks": {str(seat): chips for seat, chips in result.stacks},
    }
    if result.void:
        response["void"] = True
    return response
