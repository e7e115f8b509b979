"""All 2,598,960 five-card hands through the firmware evaluator (Omaha arts. 14-15).

Category counts are the textbook ones; the values form exactly 7,462 classes,
numbered 1..7462 by strength() in value order; every class agrees with treys.
"""
import collections

import pytest
from treys import Card, Evaluator

from firmware import cards
from firmware.games.omaha import poker_eval as pe

EXPECTED_COUNTS = {
    "straight_flush": 40,
    "four_of_a_kind": 624,
    "full_house": 3744,
    "flush": 5108,
    "straight": 10200,
    "three_of_a_kind": 54912,
    "two_pair": 123552,
    "one_pair": 1098240,
    "high_card": 1302540,
}


def _all_values():
    # Nested loops reuse the prefix tuples: ~3 s on CPython for all hands.
    evaluate = pe.evaluate
    counts = collections.Counter()
    example = {}
    for a in range(48):
        for b in range(a + 1, 49):
            for c in range(b + 1, 50):
                for d in range(c + 1, 51):
                    for e in range(d + 1, 52):
                        value = evaluate((a, b, c, d, e))
                        counts[value] += 1
                        if value not in example:
                            example[value] = (a, b, c, d, e)
    return counts, example


@pytest.fixture(scope="module")
def all_values():
    return _all_values()


@pytest.mark.slow
def test_category_counts_over_all_hands(all_values):
    counts, _ = all_values
    assert sum(counts.values()) == 2598960
    by_category = collections.Counter()
    for value, n in counts.items():
        by_category[pe.category_name(value)] += n
    assert dict(by_category) == EXPECTED_COUNTS


@pytest.mark.slow
def test_exactly_7462_values_numbered_in_order(all_values):
    counts, _ = all_values
    values = sorted(counts)
    assert len(values) == 7462
    assert [pe.strength(x) for x in values] == list(range(1, 7463))


@pytest.mark.slow
def test_every_class_agrees_with_treys(all_values):
    _, example = all_values
    evaluator = Evaluator()
    treys_card = [Card.new(cards.name(c)) for c in range(52)]
    for value, hand in example.items():
        t = [treys_card[c] for c in hand]
        # treys ranks 1 (royal flush) .. 7462 (7-5-4-3-2): the mirror of ours
        assert pe.strength(value) == 7463 - evaluator.evaluate(t[:2], t[2:]), cards.names(hand)
