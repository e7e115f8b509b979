# Five-card evaluator (Omaha arts. 14-15): categories, tie-breaks, wheel, strength numbering.
from firmware import cards
from firmware.errors import CardCodeError, IntegrityError
from firmware.games.omaha import poker_eval as pe
from firmware.compat import heap_lock, heap_unlock
from tests.firmware.expect import heap_lock_catches_allocation, micropython_only, raises, raises_match


def v(text):
    return pe.evaluate(cards.parse_many(text.split()))


def name(text):
    return pe.category_name(v(text))


def test_art15_every_category_named():
    assert name("As Ks Qs Js Ts") == "straight_flush"  # royal flush, art. 15(1)
    assert name("9h 8h 7h 6h 5h") == "straight_flush"
    assert name("7c 7d 7h 7s 2d") == "four_of_a_kind"
    assert name("Kc Kd Kh 4s 4d") == "full_house"
    assert name("Td 9d 7d 5d 2d") == "flush"
    assert name("6c 7d 8h 9s Tc") == "straight"
    assert name("Qc Qd Qh 9s 2d") == "three_of_a_kind"
    assert name("Tc Td 6h 6s 5d") == "two_pair"
    assert name("Tc Td 9h 7s 6d") == "one_pair"
    assert name("Ac Jd 9h 7s 6d") == "high_card"
    assert pe.CATEGORY_NAMES[pe.category(v("Ac Jd 9h 7s 6d"))] == "high_card"
    for number in range(len(pe.CATEGORY_NAMES)):   # each category's constant is its number, as values carry it
        assert getattr(pe, pe.CATEGORY_NAMES[number].upper()) == number


def test_art15_category_order():
    order = [
        "Ac Jd 9h 7s 6d",  # high card
        "2c 2d 3h 4s 5d",  # one pair
        "2c 2d 3h 3s 4d",  # two pair
        "2c 2d 2h 3s 4d",  # three of a kind
        "Ac 2d 3h 4s 5d",  # straight (wheel, the lowest)
        "2d 3d 4d 5d 7d",  # flush (the lowest)
        "2c 2d 2h 3s 3d",  # full house
        "2c 2d 2h 2s 3d",  # four of a kind
        "Ad 2d 3d 4d 5d",  # straight flush (steel wheel, the lowest)
    ]
    values = [v(h) for h in order]
    assert values == sorted(values)
    assert len(set(values)) == len(values)
    assert [pe.category(x) for x in values] == list(range(9))


def test_art14_3_wheel_is_lowest_straight_and_ace_high_is_highest():
    wheel = v("5c 4d 3h 2s Ad")
    six = v("6c 5d 4h 3s 2d")
    broadway = v("Ac Kd Qh Js Td")
    assert pe.category(wheel) == pe.STRAIGHT
    assert wheel < six < broadway
    # A-K-Q-J-T of one suit is the top straight flush; 5-4-3-2-A the bottom
    assert v("5h 4h 3h 2h Ah") < v("6h 5h 4h 3h 2h") < v("Ah Kh Qh Jh Th")
    # no wrap-around straight: Q-K-A-2-3 is ace high only
    assert name("Qc Kd Ah 2s 3d") == "high_card"


def test_art14_1_suits_never_rank():
    assert v("Ah Kh Qh Jh Th") == v("As Ks Qs Js Ts")
    assert v("Tc Td 9h 7s 6d") == v("Th Ts 9c 7d 6s")
    assert v("Ac Jd 9h 7s 6d") == v("As Jc 9d 7h 6c")


def test_art15_4_full_house_trips_then_pair():
    assert v("3c 3d 3h 2s 2d") > v("2c 2d 2h As Ad")
    assert v("Kc Kd Kh 4s 4d") > v("Kc Kd Kh 3s 3d")


def test_art15_3_quads_then_kicker():
    assert v("3c 3d 3h 3s 2d") > v("2c 2d 2h 2s Ad")
    assert v("9c 9d 9h 9s Ad") > v("9c 9d 9h 9s Kd")


def test_art15_5_flush_card_by_card():
    assert v("Td 9d 7d 5d 3d") > v("Th 9h 7h 5h 2h")
    assert v("Ad 3d 4d 5d 7d") > v("Kh Qh Jh Th 8h")
    assert v("Td 9d 7d 5d 2d") == v("Tc 9c 7c 5c 2c")


def test_art15_7_8_9_kickers():
    assert v("Qc Qd Qh 9s 3d") > v("Qc Qd Qh 8s 7d")
    assert v("Tc Td 6h 6s 5d") > v("Tc Td 6h 6s 4d")
    assert v("Tc Td 6h 6s 2d") > v("9c 9d 8h 8s Ad")
    assert v("Tc Td 6h 6s 2d") > v("Tc Td Ah Ks Qd")  # two pair beats one pair
    assert v("Tc Td 9h 7s 6d") > v("Tc Td 9h 7s 5d")
    assert v("Jc Jd 3h 4s 2d") > v("Tc Td Ah Ks Qd")


def test_art15_10_high_card_in_order():
    assert v("Ac Jd 9h 7s 6d") > v("Ac Jd 9h 7s 5d")
    assert v("Ac 6d 5h 4s 3d") > v("Kc Qd Jh Ts 8d")
    assert v("Ac Jd 9h 7s 6d") == v("Ad Jc 9s 7h 6c")


def test_strength_numbering_1_to_7462():
    assert pe.strength(v("7c 5d 4h 3s 2d")) == 1
    assert pe.strength(v("Ac Kc Qc Jc Tc")) == 7462
    assert pe.strength(v("Ah 2h 3h 4h 5h")) == 7453
    assert pe.strength(v("2c 2d 2h 2s 3d")) == 7297
    assert pe.strength(v("Ac Kd Qh Js 9d")) == 1277
    assert pe.strength(v("2c 2d 3h 4s 5d")) == 1278
    hands = ["Ac Jd 9h 7s 6d", "Tc Td 9h 7s 6d", "Tc Td 6h 6s 5d", "Qc Qd Qh 9s 2d",
             "6c 7d 8h 9s Tc", "Td 9d 7d 5d 2d", "Kc Kd Kh 4s 4d", "7c 7d 7h 7s 2d"]
    strengths = [pe.strength(v(h)) for h in hands]
    assert strengths == sorted(strengths)


def test_values_are_small_ints():
    # < 2**30: MicroPython small ints, so evaluating allocates nothing
    assert v("As Ks Qs Js Ts") < (1 << 30)


def test_check_hand_rejects_bad_input():
    raises_match(CardCodeError, "exactly 5", pe.check_hand, [1, 2, 3, 4])
    raises_match(CardCodeError, "twice", pe.check_hand, [1, 2, 3, 4, 4])
    assert pe.check_hand([0, 1, 2, 3, 51]) == [0, 1, 2, 3, 51]
    raises(ValueError, pe.evaluate, [1, 2, 3, 4])


def test_check_hand_card_number_outside_the_deck_is_an_alarm():
    """A card int no deck holds, a bool (True would read as 2d) or a float is an
    IntegrityError from the one entry point that takes cards from outside."""
    for bad in (52, -1, True, False, 3.0, None):
        raises(IntegrityError, pe.check_hand, [bad, 5, 9, 13, 17])
        raises(IntegrityError, pe.check_hand, [5, 9, 13, 17, bad])


@micropython_only  # CPython has no MicroPython heap to measure
def test_ram_of_a_fresh_import_within_16k_on_micropython():
    # Issue 5 budget: the evaluator costs <= 16 KB of RAM on MicroPython
    # (gc.mem_alloc() before/after a fresh import; bench/omaha_vm.py reports it).
    import gc
    import sys
    import firmware.games as package
    name = "firmware.games.omaha.poker_eval"
    saved = sys.modules.pop(name)
    try:
        gc.collect()
        before = gc.mem_alloc()
        fresh = __import__(name, None, None, ["evaluate"])
        gc.collect()
        used = gc.mem_alloc() - before
        assert fresh is not saved
    finally:
        sys.modules[name] = saved
        setattr(package, "poker_eval", saved)
    assert 0 < used <= 16384, used


def test_rank_bits_are_each_cards_rank_bit():
    # Written out as a literal (a constant: in flash with frozen or ROMFS code): card >> 2 is its rank.
    from firmware.games.omaha.poker_eval import RANK_BIT
    assert len(RANK_BIT) == 52
    for card in range(52):
        assert RANK_BIT[card] == 1 << (card >> 2)



def _hand(counts):
    # {rank index: how many cards} -> five card ints (card = rank * 4 + suit), the ranks taken in
    # turn so that a rank's cards are not all together, each of them in another suit
    out = []
    left = dict(counts)
    while left:
        for rank in sorted(left):
            left[rank] -= 1
            out.append(rank * 4 + left[rank])
            if not left[rank]:
                del left[rank]
    return tuple(out)


def _value(category, main, kickers):
    high = 0
    for rank in main:
        high |= 1 << rank
    low = 0
    for rank in kickers:
        low |= 1 << rank
    return category << 26 | high << 13 | low


def test_every_paired_rank_pattern_has_its_value_by_definition():
    # Art. 15(3),(4),(7),(8),(9): category << 26 | main ranks << 13 | kickers, for every choice of ranks,
    # neighbours included (quads with the kicker just above them, the aces' quads, a full house whose
    # pair is just above its trips): the cases where the evaluator's sums carry into the next rank's bit.
    seen = [0] * 9
    for a in range(13):
        others = [r for r in range(13) if r != a]
        for b in others:
            for counts, category in (({a: 4, b: 1}, pe.FOUR_OF_A_KIND), ({a: 3, b: 2}, pe.FULL_HOUSE)):
                assert pe.evaluate(_hand(counts)) == _value(category, (a,), (b,)), counts
                seen[category] += 1
            if b > a:
                for c in others:
                    if c != b:
                        counts = {a: 2, b: 2, c: 1}
                        assert pe.evaluate(_hand(counts)) == _value(pe.TWO_PAIR, (a, b), (c,)), counts
                        seen[pe.TWO_PAIR] += 1
        for i in range(12):
            for j in range(i + 1, 12):
                counts = {a: 3, others[i]: 1, others[j]: 1}
                assert pe.evaluate(_hand(counts)) == _value(pe.THREE_OF_A_KIND, (a,), (others[i], others[j])), counts
                seen[pe.THREE_OF_A_KIND] += 1
                for k in range(j + 1, 12):
                    counts = {a: 2, others[i]: 1, others[j]: 1, others[k]: 1}
                    assert pe.evaluate(_hand(counts)) == _value(pe.ONE_PAIR, (a,), (others[i], others[j], others[k])), counts
                    seen[pe.ONE_PAIR] += 1
    # every class of these categories once (the category counts of the 7,462 classes)
    assert seen == [0, 2860, 858, 858, 0, 0, 156, 156, 0]


def test_evaluating_allocates_nothing():
    # Every value is a small int (< 2**30) and so is every step: a hand of each category under the
    # heap lock on MicroPython (on CPython the lock is a no-op and this checks the values).
    hands = [cards.parse_many(text.split()) for text in (
        "Ac Jd 9h 7s 6d", "Tc Td 9h 7s 6d", "Tc Td 6h 6s 5d", "Qc Qd Qh 9s 2d", "6c 7d 8h 9s Tc",
        "Td 9d 7d 5d 2d", "Kc Kd Kh 4s 4d", "7c 7d 7h 7s 8d", "Ah Kh Qh Jh Th", "Ac Ad Ah As Kd")]
    values = [0] * len(hands)
    heap_lock()
    try:
        for i in range(len(hands)):
            values[i] = pe.evaluate(hands[i])
    finally:
        heap_unlock()
    assert [pe.category(value) for value in values] == [0, 1, 2, 3, 4, 5, 6, 7, 8, 7]
    assert heap_lock_catches_allocation()          # the lock is real: the block above proved something
