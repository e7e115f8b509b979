"""Craps rules judge (dispatch 53/2010): one request -> every bet's fate, through firmware.games.craps.rules.

Request (one JSON line, see docs/craps.md):
  {"game": "craps", "field_12": 2, "max_odds": [3, 4, 5], "minimum": 5,
   "rolls": [[2, 2], {"dice": [3, 4], "valid": false}, ...],
   "bets": [{"id": "p", "type": "pass", "amount": 10, "at": 0},
            {"id": "po", "type": "pass_odds", "amount": 20, "at": 1, "on": "p"}, ...],
   "off_on_come_out": ["hard"]}                    # optional; other table settings optional too
`at` is the index of the roll before which the bet is placed (len(rolls) = after the last roll).
Bets with the same `at` are placed in request order. Optional per bet: "seat" (default 0).

Response:
  {"points": [4, 4, null, ...],                  # the point after each roll (null when OFF)
   "bets": [{"id": "p", "result": "win", "net": 10, "roll": 2}, ...],
   "shooter_changes": [5]}                       # roll indices after which the shooter changed
result: win / lose / push / open / rejected (with "reason"); net: won (+) or lost (-);
roll: index of the deciding roll (null when open or rejected).
A stake that would not pay exactly (e.g. odds 6:5 on 12) is rejected with a reason, never rounded.
A dice report with an impossible face answers {"error": ..., "at": roll index}.
"""
from firmware.errors import GameError
from firmware.games.craps import rules as C
from firmware.games.craps import settings as CS
from firmware.games.craps.dice import DiceError

REQUEST_KEYS = ("game", "rolls", "bets") + CS.SETTING_NAMES
BET_KEYS = ("id", "type", "amount", "at", "on", "number", "side", "seat")
# The defaults for what a request may leave out: every bet works on the come-out
# (art. 5(5)), the shooter changes on a seven-out only (art. 4 as read), the usual take-downs.
JUDGE_DEFAULTS = {"off_on_come_out": [], "shooter_change_on_come_out_craps": False,
                  "take_down": list(CS.TAKE_DOWN_ALLOWED)}
TYPES = ("pass", "dont_pass", "pass_odds", "dont_pass_odds", "come", "dont_come", "come_odds",
         "dont_come_odds", "any_craps", "any_seven", "eleven", "ace_deuce", "aces", "boxcars",
         "horn", "field", "big_or_small", "hard", "big_number")


def _int(value, what):
    if isinstance(value, bool) or not isinstance(value, int):
        raise GameError("%s must be a whole number, got %r" % (what, value))
    return value


def _is_id(value):
    return isinstance(value, (str, int)) and not isinstance(value, bool)


def _parse_bet(i, raw, n_rolls, ids):
    if not isinstance(raw, dict):
        raise GameError("bets[%d] must be an object" % i)
    for key in raw:
        if key not in BET_KEYS:
            raise GameError("bets[%d]: unknown field %r (expected %s)" % (i, key, ", ".join(BET_KEYS)))
    bet_id = raw["id"]
    if not _is_id(bet_id):
        raise GameError("bets[%d].id must be a string or a number" % i)
    if bet_id in ids:
        raise GameError("bets[%d]: duplicate id %r" % (i, bet_id))
    btype = raw["type"]
    if btype not in TYPES:
        raise GameError("bets[%d]: unknown type %r (expected one of %s)" % (i, btype, ", ".join(TYPES)))
    kind = btype
    if btype == "big_or_small":
        side = raw.get("side")
        if side not in ("big", "small"):
            raise GameError("bets[%d]: big_or_small needs \"side\": \"big\" or \"small\"" % i)
        kind = side
    elif "side" in raw:
        raise GameError("bets[%d]: %s takes no side" % (i, btype))
    number = 0
    if btype in ("hard", "big_number"):
        number = _int(raw["number"], "bets[%d].number" % i)
    elif "number" in raw:
        raise GameError("bets[%d]: %s takes no number" % (i, btype))
    on = raw.get("on")
    if btype.endswith("_odds"):
        if on is None:
            raise GameError("bets[%d]: %s needs \"on\": the id of the line bet it backs" % (i, btype))
        if not _is_id(on):
            raise GameError("bets[%d].on must be the id (a string or a number) of an earlier bet" % i)
        if on not in ids:
            raise GameError("bets[%d]: \"on\" %r names no earlier bet" % (i, on))
    elif on is not None:
        raise GameError("bets[%d]: %s takes no \"on\"" % (i, btype))
    at = _int(raw["at"], "bets[%d].at" % i)
    if not 0 <= at <= n_rolls:
        raise GameError("bets[%d].at must be 0..%d (the roll it is placed before), got %d" % (i, n_rolls, at))
    amount = _int(raw["amount"], "bets[%d].amount" % i)
    seat = _int(raw.get("seat", 0), "bets[%d].seat" % i)
    return {"id": bet_id, "kind": kind, "number": number, "on": on, "at": at, "amount": amount, "seat": seat}


def judge(request):
    for key in request:
        if key not in REQUEST_KEYS:
            raise GameError("unknown field %r: expected %s" % (key, ", ".join(REQUEST_KEYS)))
    options = dict(JUDGE_DEFAULTS)
    for key in CS.SETTING_NAMES:
        if key in request:
            options[key] = request[key]
    settings = CS.load_settings(options)
    table = C.CrapsTable(settings)
    rolls = request["rolls"]
    raw_bets = request["bets"]
    if not isinstance(rolls, list):
        raise GameError("rolls must be a list")
    if not isinstance(raw_bets, list):
        raise GameError("bets must be a list")
    bets = []
    ids = {}
    for i, raw in enumerate(raw_bets):
        bet = _parse_bet(i, raw, len(rolls), ids)
        ids[bet["id"]] = i
        bets.append(bet)

    outcome = [{"id": b["id"], "result": "open", "net": 0, "roll": None} for b in bets]
    engine_ids = {}   # engine bet id -> request index
    request_to_engine = {}
    points = []
    shooter_changes = []
    for r in range(len(rolls) + 1):
        for i, b in enumerate(bets):
            if b["at"] != r:
                continue
            on = None
            if b["on"] is not None:
                on = request_to_engine.get(ids[b["on"]], -1)
            try:
                eid, reason = table.place_bet(b["seat"], b["kind"], b["amount"], b["number"], on)
            except GameError as exc:
                raise GameError("bets[%d]: %s" % (i, exc))
            if reason is not None:
                if on is not None and table.find(on) is None:
                    reason = "bet %r it backs is not open (rejected, decided or not placed)" % (b["on"],)
                outcome[i].update(result="rejected", reason=reason)
                continue
            engine_ids[eid] = i
            request_to_engine[i] = eid
        if r == len(rolls):
            break
        try:
            resolved = table.roll(rolls[r])
        except DiceError as exc:
            return {"error": "rolls[%d]: %s" % (r, exc), "at": r}
        for item in resolved:
            o = outcome[engine_ids[item[C.BET_ID]]]
            o["result"] = item[C.RESULT]
            o["net"] = item[C.NET]
            o["roll"] = r
        points.append(table.point or None)
        if table.shooter_changed:
            shooter_changes.append(r)
    return {"points": points, "bets": outcome, "shooter_changes": shooter_changes}
