"""Omaha properties (hypothesis): chips conserved, side-pot eligibility, odd-chip placement,
pot-limit maximum, rake bounds, showdown winners, evaluator vs treys."""
from hypothesis import HealthCheck, given, settings as hsettings, strategies as st
from treys import Card, Evaluator

from firmware import cards
from firmware.games import poker_eval as pe
from firmware.games.omaha import EXPECT_ACTION, EXPECT_DONE, OmahaHand
from firmware.games.omaha_betting import LIMIT_POT
from firmware.games.omaha_hand import BOARD_TRIPLES, HOLE_PAIRS, best_hand
from firmware.games.omaha_settings import OmahaSettings

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
    rake_percent=st.sampled_from([0, 3, 4, 5]),
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
    # rake: floor per pot, capped once per hand
    assert result.rake <= s.rake_cap if s.rake_percent else result.rake == 0
    assert all(p.rake <= p.amount * s.rake_percent // 100 for p in result.pots)
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
