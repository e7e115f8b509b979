"""Omaha properties (hypothesis): chips conserved, side-pot eligibility, odd-chip placement,
pot-limit maximum, rake bounds, showdown winners, evaluator vs treys."""
import math
from fractions import Fraction

from hypothesis import HealthCheck, given, settings as hsettings, strategies as st
from treys import Card, Evaluator

from firmware import cards
from firmware.errors import SettingsError
from firmware.games.omaha import poker_eval as pe
from firmware.games.omaha.rules import EXPECT_ACTION, EXPECT_DONE, OmahaHand, next_button
from firmware.games.omaha.betting import LIMIT_POT
from firmware.games.omaha.hand_value import BOARD_TRIPLES, HOLE_PAIRS, best_hand, check_cards
from firmware.games.omaha.settings import (HEADS_UP_RULES, ODD_CHIP_RULES, STRUCTURES, OmahaSettings,
                                           load_settings)
from firmware.games.omaha.whole_hand import play_hand
from tests.host.engine_fuzz import JSON, anything_or, call, corrupted, is_int, refused_unchanged

TREYS = Evaluator()
TREYS_CARD = [Card.new(cards.name(c)) for c in range(52)]


def treys_strength(hand):
    t = [TREYS_CARD[c] for c in hand]
    return 7463 - TREYS.evaluate(t[:2], t[2:])


@given(st.lists(st.sampled_from(range(52)), min_size=5, max_size=5, unique=True),
       st.lists(st.sampled_from(range(52)), min_size=5, max_size=5, unique=True))
@hsettings(max_examples=2000)
def test_evaluator_agrees_with_treys_ordering(a, b):
    va, vb = pe.evaluate(a), pe.evaluate(b)
    ta, tb = treys_strength(a), treys_strength(b)
    assert (va > vb) == (ta > tb) and (va == vb) == (ta == tb)
    assert pe.strength(va) == ta


@given(st.permutations(range(52)))
@hsettings(max_examples=300)
def test_omaha_best_hand_matches_treys_over_the_60_combinations(deck):
    hole, board = list(deck[:4]), list(deck[4:9])
    value, five = best_hand(hole, board)
    assert pe.strength(value) == max(treys_strength((hole[i], hole[j], board[a], board[b], board[c]))
                                     for i, j in HOLE_PAIRS for a, b, c in BOARD_TRIPLES)
    assert len(set(five[:2]) & set(hole)) == 2 and len(set(five[2:]) & set(board)) == 3


table_settings = st.builds(
    OmahaSettings,
    structure=st.sampled_from(["pot_limit", "no_limit"]),
    small_blind=st.sampled_from([1, 2, 5]),
    big_blind=st.sampled_from([5, 10]),
    rake_percent=st.sampled_from([0, 3, 4, 5, 3.0, 3.5, 3.1, 4.9, 5.0]),     # art. 16: tenths of a percent
    rake_cap_big_blinds=st.integers(1, 5),
    odd_chip=st.sampled_from(["croupier", "button"]),
    heads_up=st.sampled_from(["no_raise_cap", "no_limit"]),
    seats=st.just(10),
)


def play_random(data, s):
    """Play one hand with random legal actions, checking the pot-limit maximum on the way."""
    n = data.draw(st.integers(2, 10), label="players")
    seats = sorted(data.draw(st.lists(st.integers(1, 10), min_size=n, max_size=n, unique=True), label="seats"))
    stacks = [(seat, data.draw(st.integers(1, 400), label="stack")) for seat in seats]
    button = data.draw(st.integers(1, 10), label="button")
    deck = list(data.draw(st.permutations(range(52)), label="deck"))
    hand = OmahaHand(s, button, stacks)
    steps = 0
    while hand.expected()[0] != EXPECT_DONE:
        kind, seat = hand.expected()
        if kind != EXPECT_ACTION:
            hand.deal(deck.pop(0))
            continue
        steps += 1
        legal = hand.legal()
        i = legal.index
        b = hand.betting
        if legal.kind is not None and legal.limit == LIMIT_POT:
            # art. 11(2): call, then raise by the whole pot after the call
            in_middle = sum(hand.start) - sum(hand.stack)
            call = b.current - b.bet[i]
            assert legal.max_to == b.current + in_middle + call
        choices = ["fold", "check" if legal.can_check else "call"]
        if legal.kind is not None:
            choices += [legal.kind] * 2
        if steps > 60:
            choices = choices[1:2]  # keep hypothesis examples short: check/call down
        action = data.draw(st.sampled_from(choices), label="action")
        if action in ("bet", "raise"):
            amount = data.draw(st.integers(legal.min_to, legal.max_to), label="to")
            hand.act(seat, action, amount)
        else:
            hand.act(seat, action)
    return hand, stacks


@given(st.data(), table_settings)
@hsettings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_random_hands_conserve_chips_and_pay_pots_correctly(data, s):
    hand, stacks = play_random(data, s)
    result = hand.result()
    # chips conserved exactly
    assert sum(c for _, c in result.stacks) + result.rake == sum(c for _, c in stacks)
    totals = dict(zip(hand.seats, hand.betting.total))
    if result.returned is not None:
        seat, amount = result.returned
        totals[seat] -= amount
    live = {hand.seats[i] for i in range(hand.n) if not hand.folded[i]}
    assert sum(p.amount for p in result.pots) == sum(totals.values())
    # side-pot eligibility: a live player can win from each opponent only what he matched
    for seat in live:
        can_win = sum(p.amount for p in result.pots if seat in p.eligible)
        assert can_win == sum(min(t, totals[seat]) for t in totals.values())
    # rake: floor per pot (exact fractions, from the percent as written), capped once per hand, main pot first
    assert result.rake <= s.rake_cap if s.rake_percent else result.rake == 0
    left = s.rake_cap
    for p in result.pots:
        due = math.floor(Fraction(p.amount) * Fraction(str(s.rake_percent)) / 100)
        assert p.rake == min(due, left)
        left -= p.rake
    assert result.rake == sum(p.rake for p in result.pots)
    values = dict(result.values)
    for pot in result.pots:
        assert set(pot.eligible) <= live and pot.winners
        assert set(pot.winners) <= set(pot.eligible)
        if values:
            best = max(values[x] for x in pot.eligible)
            assert {x for x in pot.eligible if values[x] == best} == set(pot.winners)
        shares = [a for _, a in pot.shares]
        assert sum(shares) == pot.amount - pot.rake
        # art. 10(4)-(5): equal shares, the remainder all to the first tied winner
        assert len(set(shares[1:])) <= 1 and shares[0] - shares[-1] < len(shares)
        if s.odd_chip == "croupier":
            assert list(pot.winners) == sorted(pot.winners)
        else:
            order = sorted(pot.winners, key=lambda x: (x - hand.button - 1) % 10)
            assert list(pot.winners) == order
    # the showdown happens only with two or more players still in
    assert (len(values) >= 2) == (len(live) >= 2)


@given(st.data())
@hsettings(max_examples=100, deadline=None)
def test_misdeal_at_any_point_refunds_everything(data):
    s = OmahaSettings(structure="pot_limit", small_blind=5, big_blind=10, rake_percent=5,
                      rake_cap_big_blinds=5, odd_chip="croupier", heads_up="no_raise_cap", seats=10)
    n = data.draw(st.integers(2, 6))
    stacks = [(seat, data.draw(st.integers(1, 500))) for seat in range(1, n + 1)]
    hand = OmahaHand(s, 1, stacks)
    deck = list(range(52))
    for _ in range(data.draw(st.integers(0, 40))):
        kind, seat = hand.expected()
        if kind == EXPECT_DONE:
            break
        if kind == EXPECT_ACTION:
            hand.act(seat, "check" if hand.legal().can_check else "call")
        else:
            hand.deal(deck.pop(0))
    if hand.expected()[0] != EXPECT_DONE:
        assert hand.misdeal().stacks == tuple(stacks)


# ---- issue 8: arbitrary JSON-ish input into every entry point ------------------------------------
# Only GameError subclasses may escape, a refused call changes nothing, and every
# amount in a result is an int.

GOOD_SETTINGS = {"structure": "pot_limit", "small_blind": 5, "big_blind": 10, "rake_percent": 5,
                 "rake_cap_big_blinds": 3, "odd_chip": "button", "heads_up": "no_limit", "seats": 10}
CHOICES = {"structure": STRUCTURES, "odd_chip": ODD_CHIP_RULES, "heads_up": HEADS_UP_RULES}


@given(corrupted(GOOD_SETTINGS))
@hsettings(max_examples=500, deadline=None)
def test_settings_accept_only_whole_numbers_and_known_options(values):
    for ok, s in (call(OmahaSettings, **values), call(load_settings, values)):
        if not ok:
            assert isinstance(s, SettingsError)
            continue
        for key, value in s.as_pairs():
            if key in CHOICES:
                assert type(value) is str and value in CHOICES[key]
            else:
                assert is_int(value), key
        assert s.copy().as_pairs() == s.as_pairs()


@given(JSON)
@hsettings(max_examples=200, deadline=None)
def test_load_settings_of_anything(values):
    ok, out = call(load_settings, values)
    assert not ok or isinstance(out, OmahaSettings)


GOOD_TABLE = {"button": 3, "stacks": [(1, 500), (3, 200), (7, 90)]}


@given(corrupted(GOOD_TABLE, drop=False), st.one_of(st.just(None), JSON))
@hsettings(max_examples=400, deadline=None)
def test_new_hand_refuses_malformed_stacks_and_buttons(args, stacks_entry):
    stacks = args["stacks"]
    if stacks_entry is not None and isinstance(stacks, list):
        stacks = stacks + [stacks_entry]
    ok, hand = call(OmahaHand, OmahaSettings(**GOOD_SETTINGS), args["button"], stacks)
    if ok:
        assert is_int(hand.button) and all(is_int(c) for c in hand.start) and all(is_int(s) for s in hand.seats)


@given(st.data(), anything_or(0, 13, 51), st.sampled_from(["fold", "check", "call", "bet", "raise"]))
@hsettings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_hand_entry_points_refuse_cleanly_at_any_point(data, card, action):
    s = OmahaSettings(**GOOD_SETTINGS)
    hand = OmahaHand(s, 1, [(1, 300), (2, 300), (5, 300)])
    deck = list(data.draw(st.permutations(range(52)), label="deck"))
    for _ in range(data.draw(st.integers(0, 40), label="steps")):
        kind, seat = hand.expected()
        if kind == EXPECT_DONE:
            break
        if kind == EXPECT_ACTION:
            legal = hand.legal()
            hand.act(seat, "check" if legal.can_check else "call")
        else:
            hand.deal(deck.pop())
    kind, seat = hand.expected()
    good = {"seat": seat if seat is not None else 1, "action": action, "amount": 40 if action in ("bet", "raise")
            else None}
    act = {"seat": data.draw(anything_or(good["seat"]), label="seat"),
           "action": data.draw(st.one_of(st.just(action), anything_or(action)), label="action"),
           "amount": data.draw(st.one_of(st.just(good["amount"]), anything_or(good["amount"])), label="amount")}
    ok, _ = refused_unchanged(hand, hand.act, act["seat"], act["action"], act["amount"])
    if ok:
        assert is_int(act["seat"]) and (act["amount"] is None or is_int(act["amount"]))
    ok, _ = refused_unchanged(hand, hand.deal, card)
    if ok:
        assert is_int(card) and 0 <= card < 52
    for method, args in ((hand.index_of, (act["seat"],)), (hand.legal, ()), (hand.result, ())):
        refused_unchanged(hand, method, *args)
    ok, result = call(hand.misdeal)
    if ok:
        assert all(is_int(c) for _s, c in result.stacks) and is_int(result.rake)


@given(corrupted({"deck": list(range(20)), "actions": [[2, "call"], [3, "check"], [2, "misdeal"]]}, drop=False),
       st.lists(st.one_of(st.tuples(st.sampled_from([1, 2, 3]), st.sampled_from(["call", "check", "fold"])), JSON),
                max_size=4))
@hsettings(max_examples=300, deadline=None)
def test_play_hand_of_anything_is_a_result_or_a_game_error(args, more_actions):
    actions = args["actions"]
    if isinstance(actions, list):
        actions = actions + more_actions
    ok, out = call(play_hand, OmahaSettings(**GOOD_SETTINGS), 1, [(1, 100), (2, 100), (3, 100)], args["deck"],
                   actions)
    if ok:
        hand, result = out
        assert all(is_int(c) for _s, c in result.stacks) and is_int(result.rake)


@given(anything_or(1, 4), st.one_of(st.lists(anything_or(1, 2, 7), max_size=4), JSON),
       st.lists(anything_or(0, 12, 51), min_size=4, max_size=4), st.one_of(st.lists(anything_or(1, 30), max_size=6),
                                                                           JSON))
@hsettings(max_examples=300, deadline=None)
def test_helpers_take_only_their_domain(button, occupied, hole, board):
    ok, out = call(next_button, button, occupied)
    assert not ok or (is_int(out) and out in occupied)
    ok, out = call(best_hand, hole, board)
    assert not ok or (is_int(out[0]) and all(is_int(c) and 0 <= c < 52 for c in out[1]))
    call(check_cards, hole, board)
    ok, out = call(pe.check_hand, board)
    assert not ok or all(is_int(c) and 0 <= c < 52 for c in out)
