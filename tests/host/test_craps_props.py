"""Craps properties (hypothesis): random roll sequences and bet placements through judge and engine.

- money is conserved: every stake ends won, lost, pushed, taken down or still open, exactly once;
- no bet is decided by an invalid throw (art. 3(2)-(3));
- every result agrees with `restated`, a plain, independent restatement of arts. 5-6 written here.
"""
from hypothesis import given, settings, strategies as st

from firmware.errors import SettingsError
from firmware.games.craps import rules as C
from firmware.games.craps import settings as CS
from firmware.games.craps.dice import check_report
from tests.host.engine_fuzz import JSON, anything_or, call, corrupted, is_int, refused_unchanged, snapshot
from tools.judge_craps import judge

POINTS = (4, 5, 6, 8, 9, 10)

# ---- arts. 5-6 restated, without the engine -------------------------------------------------
# (win, stake) payouts, art. 6
RIGHT_ODDS = {4: (2, 1), 10: (2, 1), 5: (3, 2), 9: (3, 2), 6: (6, 5), 8: (6, 5)}      # art. 6(2)
WRONG_ODDS = {4: (1, 2), 10: (1, 2), 5: (2, 3), 9: (2, 3), 6: (5, 6), 8: (5, 6)}      # art. 6(4)
HARD_PAY = {4: (7, 1), 10: (7, 1), 6: (9, 1), 8: (9, 1)}                            # art. 6(14)
BIG_PAY = {6: (7, 6), 8: (7, 6), 5: (7, 5), 9: (7, 5), 4: (9, 5), 10: (9, 5)}        # art. 6(15)
SINGLE = {"any_craps": ({2, 3, 12}, (7, 1)), "any_seven": ({7}, (4, 1)), "eleven": ({11}, (15, 1)),
          "ace_deuce": ({3}, (15, 1)), "aces": ({2}, (30, 1)), "boxcars": ({12}, (30, 1))}   # art. 5(3), 6(5)-(10)
LINE_PARENT = {"pass_odds": "pass", "dont_pass_odds": "dont_pass", "come_odds": "come",
               "dont_come_odds": "dont_come"}


def one_roll_result(bet, total, field_12):
    """(win, stake) ratio if the one-roll bet wins on total, else None (it loses)."""
    kind = bet["type"]
    if kind in SINGLE:
        return SINGLE[kind][1] if total in SINGLE[kind][0] else None
    if kind == "horn":                     # art. 5(3)(7), 6(11): whole-stake 27:4 on 2/12, 3:1 on 3/11
        return {2: (27, 4), 12: (27, 4), 3: (3, 1), 11: (3, 1)}.get(total)
    if kind == "field":                    # art. 5(3)(8), 6(12)
        return {2: (2, 1), 12: (field_12, 1), 3: (1, 1), 4: (1, 1), 9: (1, 1), 10: (1, 1), 11: (1, 1)}.get(total)
    if kind == "big_or_small":             # art. 5(3)(9)
        if bet["side"] == "big":
            return (1, 1) if 8 <= total <= 12 else None
        return (1, 1) if 2 <= total <= 6 else None
    raise AssertionError(kind)


def pays_exactly(amount, ratio):
    return amount * ratio[0] % ratio[1] == 0


def restated(req):
    """Expected judge response for req, straight from the regulation text."""
    rolls = req["rolls"]
    n = len(rolls)
    valid = [not (isinstance(r, dict) and r.get("valid") is False) for r in rolls]
    dice = [tuple(r["dice"] if isinstance(r, dict) else r) for r in rolls]
    minimum, field_12, max_odds = req["minimum"], req["field_12"], req["max_odds"]
    off = set(req.get("off_on_come_out", []))
    # the puck, art. 5(2)(1); point_before[i] = point when roll i is thrown
    point_before, p, shooter = [], 0, []
    for i in range(n):
        point_before.append(p)
        if not valid[i]:
            continue
        t = sum(dice[i])
        if p == 0 and t in POINTS:
            p = t
        elif p == 0 and t in (2, 3, 12) and req.get("shooter_change_on_come_out_craps"):
            shooter.append(i)
        elif p and t == p:
            p = 0
        elif p and t == 7:
            p = 0
            shooter.append(i)
    point_before.append(p)
    points = [(point_before[i + 1] or None) for i in range(n)]

    info = {}    # id -> dict(accepted, result, net, roll, own_point, point_roll)
    out = {}
    # bets are placed in time order (at), request order within one roll
    order = sorted(range(len(req["bets"])), key=lambda i: (req["bets"][i]["at"], i))
    for index in order:
        bet = req["bets"][index]
        kind, amount, at = bet["type"], bet["amount"], bet["at"]
        rec = {"accepted": False, "result": "open", "net": 0, "roll": None, "own": 0, "point_roll": None,
               "odds_total": 0}
        info[bet["id"]] = rec
        ok = amount > 0 and amount % minimum == 0                      # art. 5(6)
        parent = None
        ratio_needed = []
        if kind in ("pass", "dont_pass"):
            ok = ok and point_before[at] == 0                          # before a come-out throw
        elif kind in ("come", "dont_come"):
            ok = ok and point_before[at] != 0                          # art. 5(2)(5), (6)
        elif kind in LINE_PARENT:
            parent_bet = next(b for b in req["bets"] if b["id"] == bet["on"])
            parent = info.get(bet["on"], {"accepted": False})   # not placed yet -> not open
            ok = (ok and parent["accepted"] and parent_bet["type"] == LINE_PARENT[kind]
                  and parent_bet.get("seat", 0) == bet.get("seat", 0)
                  and parent["point_roll"] is not None and parent["point_roll"] < at
                  and (parent["roll"] is None or parent["roll"] >= at))
            if ok:
                pt = parent["own"]
                m = max_odds[0] if pt in (4, 10) else max_odds[1] if pt in (5, 9) else max_odds[2]
                total_odds = parent["odds_total"] + amount
                if kind in ("pass_odds", "come_odds"):
                    ratio_needed = [RIGHT_ODDS[pt]]
                    ok = total_odds <= m * parent_bet["amount"]
                else:
                    w, s = WRONG_ODDS[pt]
                    ratio_needed = [(w, s)]
                    ok = total_odds * w <= m * parent_bet["amount"] * s
        elif kind == "horn":
            ratio_needed = [(27, 4), (3, 1)]
        elif kind == "big_number":
            ratio_needed = [BIG_PAY[bet["number"]]]
        ok = ok and all(pays_exactly(amount, r) for r in ratio_needed)
        if not ok:
            rec["result"] = "rejected"
            out[index] = rec
            continue
        rec["accepted"] = True
        if parent is not None:
            parent["odds_total"] += amount

        def decide(result, net, j):
            rec["result"], rec["net"], rec["roll"] = result, net, j

        if kind in ("pass", "come", "dont_pass", "dont_come"):
            right = kind in ("pass", "come")
            for j in range(at, n):
                if not valid[j]:
                    continue
                t = sum(dice[j])
                if rec["own"] == 0:              # the bet's own come-out, art. 5(2)(1), (3), (5), (6)
                    if t in (7, 11):
                        decide("win", amount, j) if right else decide("lose", -amount, j)
                    elif t in (2, 3):
                        decide("lose", -amount, j) if right else decide("win", amount, j)
                    elif t == 12:
                        decide("lose", -amount, j) if right else decide("push", 0, j)
                    else:
                        rec["own"], rec["point_roll"] = t, j
                        continue
                    break
                if t == rec["own"]:
                    decide("win", amount, j) if right else decide("lose", -amount, j)
                    break
                if t == 7:
                    decide("lose", -amount, j) if right else decide("win", amount, j)
                    break
        elif kind in LINE_PARENT:
            j = parent["roll"]
            if j is not None:
                if kind in off and point_before[j] == 0:
                    decide("push", 0, j)
                elif parent["result"] == "win":
                    w, s = ratio_needed[0]
                    decide("win", amount * w // s, j)
                else:
                    decide("lose", -amount, j)
        elif kind in ("hard", "big_number"):       # art. 5(4)
            num = bet["number"]
            for j in range(at, n):
                if not valid[j] or (kind in off and point_before[j] == 0):
                    continue
                t = sum(dice[j])
                if t == 7:
                    decide("lose", -amount, j)
                    break
                if t == num:
                    if kind == "big_number":
                        w, s = BIG_PAY[num]
                        decide("win", amount * w // s, j)
                    elif dice[j][0] == dice[j][1]:
                        w, s = HARD_PAY[num]
                        decide("win", amount * w // s, j)
                    else:
                        decide("lose", -amount, j)
                    break
        else:                                      # one-roll bets, art. 5(3)
            for j in range(at, n):
                if valid[j]:
                    ratio = one_roll_result(bet, sum(dice[j]), field_12)
                    if ratio is None:
                        decide("lose", -amount, j)
                    else:
                        decide("win", amount * ratio[0] // ratio[1], j)
                    break
        out[index] = rec
    bets = [{"id": b["id"], "result": out[i]["result"], "net": out[i]["net"], "roll": out[i]["roll"]}
            for i, b in enumerate(req["bets"])]
    return {"points": points, "bets": bets, "shooter_changes": shooter}


# ---- strategies -------------------------------------------------------------------------------
TYPES = ("pass", "dont_pass", "pass_odds", "dont_pass_odds", "come", "dont_come", "come_odds",
         "dont_come_odds", "any_craps", "any_seven", "eleven", "ace_deuce", "aces", "boxcars",
         "horn", "field", "big_or_small", "hard", "big_number")

die = st.integers(1, 6)
a_roll = st.one_of(
    st.tuples(die, die).map(list),
    st.tuples(die, die).map(lambda d: {"dice": list(d), "valid": False}),
)


@st.composite
def requests(draw):
    minimum = draw(st.sampled_from([1, 5]))
    rolls = draw(st.lists(a_roll, max_size=30))
    n_bets = draw(st.integers(0, 14))
    bets = []
    if draw(st.booleans()):
        # a scenario that reaches odds: line bets, a point for them, come bets, a come point, odds
        point_dice = st.sampled_from([[1, 3], [2, 2], [1, 4], [2, 3], [1, 5], [3, 3], [4, 4], [2, 6],
                                      [3, 6], [4, 5], [4, 6], [5, 5]])
        rolls = [draw(point_dice), draw(st.one_of(point_dice, st.tuples(die, die).map(list)))] + rolls
        for kind, at in (("pass", 0), ("dont_pass", 0), ("come", 1), ("dont_come", 1)):
            bets.append({"id": "s" + kind, "type": kind, "amount": minimum * draw(st.integers(1, 4)), "at": at})
        for kind in ("pass_odds", "dont_pass_odds", "come_odds", "dont_come_odds"):
            for k in range(draw(st.integers(0, 2))):
                bets.append({"id": "s%s%d" % (kind, k), "type": kind, "on": "s" + LINE_PARENT[kind],
                             "amount": minimum * draw(st.sampled_from([1, 2, 3, 5, 6, 10, 12, 30])),
                             "at": draw(st.integers(2, len(rolls)))})
    for i in range(n_bets):
        kind = draw(st.sampled_from(TYPES))
        bet = {"id": "b%d" % i, "type": kind,
               "amount": minimum * draw(st.integers(1, 13)) + draw(st.sampled_from([0, 0, 0, 0, 1, -1])) * (minimum > 1),
               "at": draw(st.integers(0, len(rolls)))}
        if kind in LINE_PARENT:
            if not bets:
                continue
            matching = [b for b in bets if b["type"] == LINE_PARENT[kind]]
            if matching and draw(st.integers(0, 4)):
                parent = draw(st.sampled_from(matching))     # mostly a sensible parent, placed later
                bet["on"] = parent["id"]
                bet["at"] = draw(st.integers(parent["at"], len(rolls)))
                if "seat" in parent:
                    bet["seat"] = parent["seat"]
                bet["amount"] = minimum * draw(st.sampled_from([1, 2, 3, 6, 12, 30]))
            else:
                bet["on"] = draw(st.sampled_from([b["id"] for b in bets]))
        elif kind in ("pass", "dont_pass") and draw(st.booleans()):
            bet["at"] = 0
        if kind == "hard":
            bet["number"] = draw(st.sampled_from([4, 6, 8, 10]))
        if kind == "big_number":
            bet["number"] = draw(st.sampled_from([4, 5, 6, 8, 9, 10]))
        if kind == "big_or_small":
            bet["side"] = draw(st.sampled_from(["big", "small"]))
        if "seat" not in bet and draw(st.booleans()):
            bet["seat"] = draw(st.integers(0, 1))
        bets.append(bet)
    req = {"game": "craps", "minimum": minimum, "field_12": draw(st.sampled_from([2, 3])),
           "max_odds": draw(st.lists(st.integers(0, 6), min_size=3, max_size=3)), "rolls": rolls, "bets": bets}
    off = draw(st.lists(st.sampled_from(CS.OFF_ON_COME_OUT_ALLOWED), unique=True, max_size=4))
    if off:
        req["off_on_come_out"] = off
    if draw(st.booleans()):
        req["shooter_change_on_come_out_craps"] = True
    return req


@settings(max_examples=400, deadline=None)
@given(requests())
def test_judge_agrees_with_restated_rules(req):
    got = judge(req)
    for b in got["bets"]:
        if b["result"] == "rejected":
            assert b.pop("reason")            # every refusal says why
        assert "reason" not in b
    assert got == restated(req)


@settings(max_examples=300, deadline=None)
@given(requests())
def test_money_conserved_and_invalid_rolls_decide_nothing(req):
    res = judge(req)
    invalid = {i for i, r in enumerate(req["rolls"]) if isinstance(r, dict) and r.get("valid") is False}
    for bet, r in zip(req["bets"], res["bets"]):
        assert r["result"] in ("win", "lose", "push", "open", "rejected")
        if r["result"] == "win":
            assert r["net"] > 0
        elif r["result"] == "lose":
            assert r["net"] == -bet["amount"]             # the stake, no more, no less
        else:
            assert r["net"] == 0
        if r["result"] in ("open", "rejected"):
            assert r["roll"] is None
        else:
            assert r["roll"] not in invalid and bet["at"] <= r["roll"] < len(req["rolls"])


ops = st.lists(st.one_of(
    st.tuples(st.just("bet"), st.sampled_from(C.B.KIND_NAMES), st.integers(1, 12),
              st.sampled_from([0, 4, 5, 6, 8, 9, 10]), st.integers(0, 2)),
    st.tuples(st.just("roll"), die, die, st.booleans()),
    st.tuples(st.just("down"), st.integers(0, 30)),
), max_size=60)


@settings(max_examples=300, deadline=None)
@given(ops, st.sampled_from([(), ("hard", "big_number", "come_odds")]))
def test_engine_every_stake_ends_exactly_once(script, off):
    t = C.CrapsTable({"minimum": 5, "field_12": 2, "max_odds": [3, 4, 5], "seats": 3, "off_on_come_out": list(off),
                      "take_down": ["dont_pass", "hard"], "shooter_change_on_come_out_craps": False})
    placed = {}      # id -> stake
    ended = {}       # id -> (result, net)
    for op in script:
        if op[0] == "bet":
            _, kind, units, number, seat = op
            on = None
            if kind.endswith("_odds"):
                on = max(placed) if placed else 1
            if kind not in ("hard", "big_number"):
                number = 0
            elif kind == "hard" and number not in (4, 6, 8, 10):
                number = 4
            elif number == 0:
                number = 6
            bet_id, reason = t.place_bet(seat, kind, 5 * units, number, on)
            assert (bet_id is None) != (reason is None)
            if bet_id is not None:
                placed[bet_id] = 5 * units
        elif op[0] == "roll":
            _, d1, d2, ok = op
            before = t.open_bets()
            got = t.roll((d1, d2) if ok else {"dice": [d1, d2], "flags": ["short"]})
            if not ok:
                assert got == [] and t.open_bets() == before
            for r in got:
                assert r[C.BET_ID] not in ended
                ended[r[C.BET_ID]] = (r[C.RESULT], r[C.NET])
                assert r[C.STAKE] == placed[r[C.BET_ID]]
        else:
            ids = sorted(placed)
            if ids:
                got, reason = t.take_down(ids[op[1] % len(ids)])
                for r in got or ():
                    assert r[C.BET_ID] not in ended and r[C.RESULT] == "down" and r[C.NET] == 0
                    ended[r[C.BET_ID]] = ("down", 0)
    still_open = {b[0]: b[4] for b in t.open_bets()}
    assert set(ended) | set(still_open) == set(placed)
    assert not set(ended) & set(still_open)
    staked = sum(placed.values())
    assert staked == sum(placed[i] for i in ended) + sum(still_open.values())
    for i, (result, net) in ended.items():
        assert {"win": net > 0, "lose": net == -placed[i], "push": net == 0, "down": net == 0}[result]


# ---- issue 8: arbitrary JSON-ish input into every entry point ------------------------------------
# Only GameError subclasses may escape, a refused call changes nothing, money and option
# numbers are ints (3.0 is not 3, True is not 1), and no payout is ever a float.

GOOD_SETTINGS = {"minimum": 5, "field_12": 2, "max_odds": [3, 4, 5], "off_on_come_out": [],
                 "take_down": ["dont_pass", "hard"], "shooter_change_on_come_out_craps": False,
                 "maximum": 0, "seats": 3, "max_open_bets": 256}
@settings(max_examples=500, deadline=None)
@given(corrupted(GOOD_SETTINGS))
def test_settings_constructor_accepts_only_whole_numbers_and_known_options(kwargs):
    for ok, s in (call(CS.CrapsSettings, **kwargs), call(CS.load_settings, kwargs)):
        if not ok:
            assert isinstance(s, SettingsError)
            continue
        assert set(kwargs) <= set(CS.SETTING_NAMES) and set(CS.REQUIRED_SETTINGS) <= set(kwargs)
        for key in ("minimum", "maximum", "field_12", "seats", "max_open_bets"):
            assert is_int(getattr(s, key)), key
        assert s.field_12 in (2, 3) and all(is_int(m) for m in s.max_odds)
        assert s.shooter_change_on_come_out_craps in (True, False)


@settings(max_examples=200, deadline=None)
@given(JSON)
def test_load_settings_of_anything(values):
    ok, out = call(CS.load_settings, values)
    assert not ok or isinstance(out, CS.CrapsSettings)


TABLE_OPS = st.lists(st.one_of(
    st.tuples(st.just("bet"), st.integers(0, 2), st.sampled_from(C.B.KIND_NAMES), st.integers(1, 12),
              st.sampled_from([0, 4, 5, 6, 8, 9, 10])),
    st.tuples(st.just("roll"), die, die),
), max_size=12)
ANY_REPORT = st.one_of(JSON, st.tuples(JSON, JSON), st.fixed_dictionaries(
    {"dice": st.one_of(JSON, st.tuples(st.one_of(die, JSON), st.one_of(die, JSON)).map(list))},
    optional={"valid": JSON, "flags": st.one_of(JSON, st.lists(st.sampled_from(["off_table", "short", "wall"]))),
              "cocked": JSON}))


@st.composite
def bet_calls(draw):
    """place_bet arguments: a sensible bet with one or two of its arguments corrupted."""
    kind = draw(st.sampled_from(C.B.KIND_NAMES))
    number = {"hard": 4, "big_number": 6}.get(kind, 0)
    on = 1 if kind.endswith("_odds") else None
    return draw(corrupted({"seat": 0, "kind": kind, "amount": 30, "number": number, "on": on}, drop=False))


@settings(max_examples=500, deadline=None)
@given(TABLE_OPS, st.sampled_from([2, 3]), bet_calls(), anything_or(1, 2), ANY_REPORT)
def test_table_entry_points_refuse_cleanly_and_pay_only_ints(ops, field_12, bet, bet_id, report):
    t = C.CrapsTable(dict(GOOD_SETTINGS, field_12=field_12))
    for op in ops:  # an arbitrary reachable table
        if op[0] == "bet":
            _, s, k, units, n = op
            call(t.place_bet, s, k, 5 * units, n if k in ("hard", "big_number") else 0, max(1, t.next_id - 1))
        else:
            for r in t.roll((op[1], op[2])):
                assert is_int(r[C.NET]) and is_int(r[C.STAKE])
    before = snapshot(t)
    ok, out = refused_unchanged(t, t.place_bet, bet["seat"], bet["kind"], bet["amount"], bet["number"], bet["on"])
    if ok:
        placed, reason = out
        if placed is None:
            assert reason and snapshot(t) == before  # a refusal with a reason changes nothing either
        else:
            for key in ("seat", "amount", "number"):
                assert is_int(bet[key]), (key, bet)
            assert bet["on"] is None or is_int(bet["on"])
    ok, out = refused_unchanged(t, t.take_down, bet_id)
    if ok:
        assert is_int(bet_id) and (out[0] is not None or out[1])
    ok, out = refused_unchanged(t, t.roll, report)
    if ok:
        for r in out:
            assert is_int(r[C.NET]), "a payout must be a whole number of units: %r" % (r,)
    ok, out = call(t.settings.odds_multiple, bet["number"])
    assert not ok or is_int(out)


@settings(max_examples=200, deadline=None)
@given(JSON, JSON, JSON)
def test_bet_helpers_take_only_their_domain(a, b, c):
    for func, args in ((C.B.kind_code, (a,)), (C.B.field_12_pays, (a,))):
        ok, out = call(func, *args)
        assert not ok or is_int(out)
    ok, out = call(check_report, a)
    assert not ok or (all(is_int(x) for x in out[:2]) and (out[2] is None or isinstance(out[2], str)))
