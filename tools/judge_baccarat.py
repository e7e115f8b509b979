"""Baccarat handlers of the rules judge (python -m tools.judge), on the firmware's own engine.

Round request:
    {"game": "baccarat", "method": 1, "commission": "A",
     "cards": ["9h", "5d", "Kc", "2s", "3c"],
     "bets": {"player": 100, "banker": 100, "tie": 20, "player_pair": 20, "banker_pair": 20},
     "tie_option": "returned"}                       # optional, art. 11; default "returned"
Response:
    {"player": ["9h", "Kc"], "banker": ["5d", "2s"], "player_total": 9, "banker_total": 7,
     "winner": "player", "player_pair": false, "banker_pair": false, "cards_used": 4,
     "net": {"player": 95, "banker": -100, "tie": -20, "player_pair": -20, "banker_pair": -20}}
On a tie with tie_option "standing" or "changeable", the response adds
"standing": {zone: stake} for the Banker/Player stakes left on the layout (net 0).
Commission (art. 17) is rounded down to a whole unit, in the player's favour.

Roads request:
    {"game": "baccarat_roads", "results": ["banker", "player", "tie", ...]}
    (an entry may be {"winner": "banker", "player_pair": true, "banker_pair": false})
"""
from firmware import cards
from firmware.errors import GameError
from firmware.games.baccarat import payouts
from firmware.games.baccarat import rules as baccarat
from firmware.games.baccarat import roads as baccarat_roads
from firmware.games.baccarat import settings as baccarat_settings

_WINNERS = {"player": baccarat.PLAYER, "banker": baccarat.BANKER, "tie": baccarat.TIE}
_ROUND_KEYS = ("game", "method", "commission", "cards", "bets", "tie_option")
_ROADS_KEYS = ("game", "results")


def _require(request, key):
    if key not in request:
        raise GameError("missing field %r" % (key,))
    return request[key]


def _known_fields(request, keys):
    # A field the request type does not take is a mistake (a typo, a field of another game), never ignored.
    for key in request:
        if key not in keys:
            raise GameError("unknown field %r: expected %s" % (key, ", ".join(keys)))


def judge_round(request):
    _known_fields(request, _ROUND_KEYS)
    settings = baccarat_settings.round_settings(_require(request, "method"), _require(request, "commission"),
                                       request.get("tie_option", "returned"))
    dealt = cards.parse_many(_require(request, "cards"))
    bets = request.get("bets", {})
    if not isinstance(bets, dict):
        raise GameError("bets must be an object of zone -> amount")
    bet_list = list(bets.items())
    for zone, amount in bet_list:  # reject bad bets before dealing, whatever the result
        payouts.settle_zone(settings, _SAMPLE, zone, amount)
    result = baccarat.play(settings, dealt)
    settled = payouts.settle(settings, result, bet_list)
    response = {
        "player": cards.names(result.player_cards),
        "banker": cards.names(result.banker_cards),
        "player_total": result.player_total,
        "banker_total": result.banker_total,
        "winner": baccarat.HAND_NAMES[result.winner],
        "player_pair": result.player_pair,
        "banker_pair": result.banker_pair,
        "cards_used": result.cards_used,
        "net": {zone: net for zone, net, _status in settled},
    }
    standing = {zone: bets[zone] for zone, _net, status in settled if status in ("standing", "changeable")}
    if standing:
        response["standing"] = standing
    return response


# A result used only to validate bet zones and amounts up front.
_SAMPLE = baccarat.Result(baccarat.TIE, 0, 0, False, False, (), (), 4)


def _road_result(entry, i):
    if isinstance(entry, str):
        entry = {"winner": entry}
    if not isinstance(entry, dict):
        raise GameError("results[%d]: expected \"banker\", \"player\", \"tie\" or an object" % i)
    for key in entry:
        if key not in ("winner", "player_pair", "banker_pair"):
            raise GameError("results[%d]: unknown field %r" % (i, key))
    winner = entry.get("winner")
    if not isinstance(winner, str) or winner.lower() not in _WINNERS:
        raise GameError("results[%d]: winner must be \"banker\", \"player\" or \"tie\", got %r" % (i, winner))
    flags = []
    for key in ("player_pair", "banker_pair"):
        flag = entry.get(key, False)
        if not isinstance(flag, bool):
            raise GameError("results[%d]: %s must be true or false" % (i, key))
        flags.append(flag)
    return _WINNERS[winner.lower()], flags[0], flags[1]


def _mark(m):
    return None if m is None else baccarat_roads.MARK_NAMES[m]


def judge_roads(request):
    _known_fields(request, _ROADS_KEYS)
    results = _require(request, "results")
    if not isinstance(results, list):
        raise GameError("results must be a list")
    if len(results) > baccarat_roads.MAX_ROUNDS:
        raise GameError("at most %d results: more than a 12-deck shoe can hold" % baccarat_roads.MAX_ROUNDS)
    roads = baccarat_roads.Roads()
    for i, entry in enumerate(results):
        roads.add(*_road_result(entry, i))
    big_road = []
    for column in roads.big_road():
        out = []
        for winner, ties, pp, bp in column:
            cell = {"winner": baccarat.HAND_NAMES[winner], "ties": ties}
            if pp:
                cell["player_pair"] = True
            if bp:
                cell["banker_pair"] = True
            out.append(cell)
        big_road.append(out)
    response = {"big_road": big_road}
    for index, (name, _k) in enumerate(baccarat_roads.DERIVED):
        response[name] = [baccarat_roads.MARK_NAMES[m] for m in roads.derived(index)]
    nxt = {}
    for side in ("banker", "player"):
        marks = roads.next_marks(_WINNERS[side])
        nxt[side] = {name: _mark(marks[i]) for i, (name, _k) in enumerate(baccarat_roads.DERIVED)}
    response["next"] = nxt
    return response
