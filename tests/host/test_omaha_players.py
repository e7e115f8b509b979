"""The simulated Omaha players (hostsim.omaha_players) against the firmware's engine: every action
they pick is legal, the policy exercises every kind of action, the dealer's shoe order is the one
the engine expects (Omaha arts. 6-8), and the host-side copy of a hand notices a report that differs."""
import collections
import random

import pytest
from hypothesis import given, settings as hsettings, strategies as st

from firmware import cards
from firmware.games.omaha import rules as omaha
from firmware.games.omaha.betting import LIMIT_POT
from firmware.games.omaha.settings import HEADS_UP_RULES, ODD_CHIP_RULES, STRUCTURES, OmahaSettings
from hostsim.omaha_players import (
    ALLIN, Choice, HandMirror, Players, action_keys, can_go_all_in, choice_as_engine, new_hand_keys,
    stack_keys)
from hostsim.shoe import OmahaDeal


def _settings(rng):
    return OmahaSettings(structure=rng.choice(STRUCTURES), small_blind=5, big_blind=10,
                         rake_percent=rng.choice((0, 3, 5)), rake_cap_big_blinds=rng.randint(1, 5),
                         odd_chip=rng.choice(ODD_CHIP_RULES), heads_up=rng.choice(HEADS_UP_RULES), seats=10)


def _table(rng):
    """Seats in play and their stacks: short ones (a few big blinds) beside deep ones."""
    seats = sorted(rng.sample(range(1, 11), rng.randint(2, 10)))
    return [(s, rng.choice((3, 15, 40, 100, 250, 1000, 3000))) for s in seats]


def _play(seed, stats):
    """One hand, cards from OmahaDeal to the engine's dealing order, actions by the policy."""
    rng = random.Random(seed)
    settings = _settings(rng)
    stacks = _table(rng)
    button = rng.choice([s for s, _ in stacks])
    hand = omaha.OmahaHand(settings, button, stacks)
    deck = OmahaDeal(10, rng=rng).deal_to(list(hand.seats))
    players = Players(rng)
    d = 0
    while True:
        kind, seat = hand.expected()
        if kind == omaha.EXPECT_DONE:
            break
        if kind != omaha.EXPECT_ACTION:
            hand.deal(deck[d][0])
            d += 1
            continue
        legal = hand.legal()
        stack = hand.stack[hand.index_of(seat)]
        choice = players.choose(legal, stack)
        act, amount = choice_as_engine(choice, legal)
        if act in ("bet", "raise"):
            assert legal.kind == act and legal.min_to <= amount <= legal.max_to
            if amount == legal.max_to and legal.limit == LIMIT_POT:
                stats["pot_max"] += 1
        hand.act(seat, act, amount)          # a refused action raises RuleError: the test fails
        stats[choice.act] += 1
        if choice.act == ALLIN or hand.stack[hand.index_of(seat)] == 0 and act != "fold":
            stats["all_in"] += 1
    result = hand.result()
    assert sum(c for _, c in result.stacks) + result.rake == sum(c for _, c in stacks)
    stats["hands"] += 1
    stats["side_pots"] += len(result.pots) > 1
    stats["showdowns"] += bool(result.values)


def test_the_policy_only_picks_legal_actions_and_exercises_all_of_them():
    stats = collections.Counter()
    for seed in range(400):
        _play(seed, stats)
    assert stats["hands"] == 400
    for what in ("fold", "check", "call", "bet", "raise", ALLIN, "pot_max", "side_pots", "showdowns"):
        assert stats[what] > 5, (what, stats)


@given(st.integers(min_value=0, max_value=2 ** 32))
@hsettings(max_examples=300, deadline=None)
def test_the_policy_only_picks_legal_actions_hypothesis(seed):
    _play(seed, collections.Counter())


def test_all_in_is_offered_only_when_the_structure_allows_it():
    settings = OmahaSettings(structure="pot_limit", small_blind=5, big_blind=10, rake_percent=0,
                             rake_cap_big_blinds=5, odd_chip="croupier", heads_up="no_raise_cap", seats=10)
    hand = omaha.OmahaHand(settings, 1, [(1, 1000), (2, 1000), (3, 1000)])
    for card in range(12):
        hand.deal(card)
    legal = hand.legal()                  # seat 1 first pre-flop: raise to 35 at most (pot limit, art. 11(2))
    assert legal.max_to == 35 and not can_go_all_in(legal, 1000)
    players = Players(random.Random(1), allin_weight=10 ** 6)
    assert all(players.choose(legal, 1000).act != ALLIN for _ in range(200))
    short = omaha.OmahaHand(settings, 1, [(1, 30), (2, 1000), (3, 1000)])
    for card in range(12):
        short.deal(card)
    legal = short.legal()                 # 30 chips: all in (to 30) is within the pot limit of 35
    assert can_go_all_in(legal, 30)
    assert choice_as_engine(Choice(ALLIN, None), legal) == ("raise", 30)


def test_an_all_in_call_is_the_allin_entry_too():
    settings = OmahaSettings(structure="pot_limit", small_blind=5, big_blind=10, rake_percent=0,
                             rake_cap_big_blinds=5, odd_chip="croupier", heads_up="no_raise_cap", seats=10)
    hand = omaha.OmahaHand(settings, 1, [(1, 8), (2, 1000), (3, 1000)])
    for card in range(12):
        hand.deal(card)
    legal = hand.legal()                  # seat 1 has 8 behind facing 10: calling is all he can do
    assert legal.kind is None and can_go_all_in(legal, 8)
    assert choice_as_engine(Choice(ALLIN, None), legal) == ("call", None)


# -- the dealer's shoe order (Omaha arts. 6(1), 7(1), 8(1), 8(3)) -------------------------------------------

@pytest.mark.parametrize("seed", range(30))
def test_the_dealers_card_order_is_the_engines_expected_order(seed):
    rng = random.Random(seed)
    settings = _settings(rng)
    stacks = [(s, 10 ** 6) for s in sorted(rng.sample(range(1, 11), rng.randint(2, 10)))]
    hand = omaha.OmahaHand(settings, rng.choice([s for s, _ in stacks]), stacks)
    deck = OmahaDeal(10, rng=rng).deal_to(list(hand.seats))     # the hand_start report's `players`
    assert len(deck) == 4 * hand.n + 8
    d = 0
    while hand.expected()[0] != omaha.EXPECT_DONE:
        kind, seat = hand.expected()
        if kind == omaha.EXPECT_ACTION:
            hand.act(seat, "check" if hand.legal().can_check else "call")
            continue
        card, what = deck[d]
        d += 1
        assert what == ("seat%d" % seat if kind == omaha.EXPECT_HOLE else "burn" if kind == omaha.EXPECT_BURN
                        else what)
        assert what in ("flop", "turn", "river") or kind != omaha.EXPECT_BOARD
        assert hand.deal(card)[0] == kind
    assert d == len(deck)
    assert [w for _, w in deck[4 * hand.n:]] == ["burn", "flop", "flop", "flop", "burn", "turn", "burn", "river"]


def test_deal_to_refuses_a_table_one_deck_cannot_deal():
    with pytest.raises(ValueError):
        OmahaDeal(20).deal_to(list(range(1, 13)))
    with pytest.raises(ValueError):
        OmahaDeal(10).deal_to([3])


# -- keys --------------------------------------------------------------------------------------------------

def test_keypad_entries():
    assert action_keys(10, Choice("raise", 120)) == ["1", "0", "raise", "1", "2", "0", "enter"]
    assert action_keys(3, Choice("fold", None)) == ["3", "fold", "enter"]
    assert action_keys(7, Choice(ALLIN, None)) == ["7", "allin", "enter"]
    assert stack_keys(4, 1000) == ["4", "stack", "1", "0", "0", "0", "enter"]
    assert new_hand_keys() == ["new", "enter"]


# -- the host-side copy ------------------------------------------------------------------------------------

def _start_report(hand, number=1):
    return {"event": "hand_start", "hand": number, "button": str(hand.button),
            "players": [str(s) for s in hand.seats],
            "stacks": dict((str(s), c) for s, c in zip(hand.seats, hand.start)),
            "blinds": {str(hand.seats[0]): hand.betting.total[0], str(hand.seats[1]): hand.betting.total[1]}}


def _settings_plain():
    return OmahaSettings(structure="pot_limit", small_blind=5, big_blind=10, rake_percent=5,
                         rake_cap_big_blinds=5, odd_chip="croupier", heads_up="no_raise_cap", seats=10)


def test_the_mirror_follows_reports_and_agrees_with_a_table_that_plays_right():
    """Reports written from a second engine (the table's, as the protocol describes them): no mismatch."""
    settings = _settings_plain()
    table = omaha.OmahaHand(settings, 3, [(1, 500), (3, 200), (6, 800)])
    mirror = HandMirror(settings, _start_report(table))
    players = Players(random.Random(5))
    deck = OmahaDeal(10, seed=5).deal_to([int(s) for s in _start_report(table)["players"]])
    d = 0
    while not mirror.done():
        assert mirror.expected() == table.expected()
        if mirror.wants_card():
            card, what = deck[d]
            d += 1
            kind, seat = table.deal(card)
            report = {"event": "dealt", "hand": 1, "card": cards.name(card), "to": kind}
            if kind == "hole":
                report["seat"] = str(seat)
            elif kind == "board":
                report["street"] = what
            mirror.dealt(report)
            continue
        seat, choice = mirror.choose(players)
        act, amount = choice_as_engine(choice, mirror.legal())
        street = omaha.STREETS[table.street]
        i = table.index_of(seat)
        behind = table.stack[i] + table.betting.total[i]
        table.act(seat, act, amount)
        behind -= table.betting.total[i]       # chips left before any payout (the table reports that)
        mirror.acted({"event": "action", "hand": 1, "street": street, "seat": str(seat), "act": act,
                      "amount": table.history[-1][3], "stack": behind, "pot": table.pot_total(),
                      "all_in": behind == 0 and act != "fold"})
    result = table.result()
    mirror.settled({"event": "hand_result", "void": False, "rake": result.rake,
                    "stacks": dict((str(s), c) for s, c in result.stacks)})
    assert mirror.mismatches == []


def test_the_mirror_notices_a_report_that_differs_from_the_engine():
    settings = _settings_plain()
    table = omaha.OmahaHand(settings, 3, [(1, 500), (3, 200), (6, 800)])
    start = _start_report(table)
    start["blinds"] = {"6": 5, "1": 20}            # a big blind the settings do not give
    mirror = HandMirror(settings, start)
    assert len(mirror.mismatches) == 1 and "blinds" in mirror.mismatches[0]
    for card in range(12):
        mirror.dealt({"card": cards.name(card), "to": "hole", "seat": str(mirror.expected()[1])})
    seat = mirror.to_act()
    assert seat == 3                                # left of the big blind (art. 6(3))
    mirror.acted({"seat": "3", "act": "call", "amount": 10, "stack": 190, "pot": 999, "street": "preflop"})
    assert any("pot" in m for m in mirror.mismatches)
