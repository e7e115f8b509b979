"""Property tests: the Baccarat engine against a plain restatement of arts. 5, 9, 12, 16, 17.

The restatement below is written from RULES.md independently of
firmware/games/baccarat.py (card codes as text, lists, no shared helper).
"""
import random

from hypothesis import given, settings, strategies as st

from firmware import cards
from firmware.games import baccarat as bac
from firmware.games import baccarat_roads as br
from firmware.games import baccarat_shoe as bs
from hostsim.shoe import SimShoe

POINTS = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
          "T": 0, "J": 0, "Q": 0, "K": 0}  # art. 5


def restated_round(method, codes):
    """Art. 7 order and art. 9 draws -> (player codes, banker codes, winner)."""
    player = [codes[0], codes[2]]
    banker = [codes[1], codes[3]]
    rest = list(codes[4:])

    def tot(hand):
        return sum(POINTS[c[0]] for c in hand) % 10

    p, b = tot(player), tot(banker)
    if p >= 8 or b >= 8:
        pass  # 9(1) natural: decided
    elif p == b:
        player.append(rest.pop(0))  # 9(2): both draw, Player first
        banker.append(rest.pop(0))
    else:
        lower, other = (player, banker) if p < b else (banker, player)
        other_total = tot(other)
        lower.append(rest.pop(0))  # 9(3): the lower hand draws first
        new = tot(lower)
        if method == 1 and new >= other_total:
            other.append(rest.pop(0))  # M1 (ii)
        if method == 2 and new > other_total:
            other.append(rest.pop(0))  # M2 (iii); (ii) equal -> tie, no draw
    pt, bt = tot(player), tot(banker)
    winner = "player" if pt > bt else "banker" if bt > pt else "tie"
    return player, banker, winner


def restated_net(method, option, zone, stake, player, banker, winner):
    """Arts. 11, 12, 16, 17: net for one bet; commission rounded down."""
    pt = sum(POINTS[c[0]] for c in player) % 10
    bt = sum(POINTS[c[0]] for c in banker) % 10
    if zone in ("player", "banker"):
        if winner == "tie":
            return 0
        if winner != zone:
            return -stake
        won_with = pt if zone == "player" else bt
        if option == "A" and won_with in (7, 8, 9):
            return stake - (stake * 5) // 100
        if option == "B" and won_with == 4:
            return stake - stake // 2
        return stake
    if zone == "tie":
        return stake * (14 if method == 1 else 9) if winner == "tie" else -stake
    hand = player if zone == "player_pair" else banker
    return stake * 11 if hand[0][0] == hand[1][0] else -stake


codes6 = st.lists(st.integers(0, 51), min_size=6, max_size=6).map(cards.names)  # 8 decks: any 6 cards


@settings(max_examples=600, deadline=None)
@given(codes6, st.sampled_from([1, 2]), st.sampled_from(["A", "B"]),
       st.lists(st.integers(0, 10000), min_size=5, max_size=5))
def test_engine_matches_restatement(codes, method, option, stakes):
    s = bac.round_settings(method, option)
    r = bac.play(s, cards.parse_many(codes))
    player, banker, winner = restated_round(method, codes)
    assert cards.names(r.player_cards) == player
    assert cards.names(r.banker_cards) == banker
    assert bac.HAND_NAMES[r.winner] == winner
    assert r.cards_used == len(player) + len(banker)
    assert r.player_total == sum(POINTS[c[0]] for c in player) % 10
    assert r.player_pair == (player[0][0] == player[1][0])
    assert r.banker_pair == (banker[0][0] == banker[1][0])
    bets = list(zip(bac.ZONES, stakes))
    for zone, net, _status in bac.settle(s, r, bets):
        assert net == restated_net(method, option, zone, dict(bets)[zone], player, banker, winner)


@settings(max_examples=600, deadline=None)
@given(codes6, st.sampled_from([1, 2]))
def test_incremental_expected_hand_matches_restatement(codes, method):
    """Round.expected() prompts exactly the hand the restatement gives each card to."""
    player, banker, _w = restated_round(method, codes)
    rnd = bac.Round(bac.round_settings(method, "A"))
    got = {0: [], 1: []}
    for code in codes:
        due = rnd.expected()
        if due == bac.NONE:
            break
        got[due].append(code)
        rnd.deal(cards.parse(code), due)
    assert (got[0], got[1]) == (player, banker)


@settings(max_examples=600, deadline=None)
@given(codes6)
def test_symmetry_swapping_hands(codes):
    """RULES.md note: the draw depends only on the totals, so swapping the hands'
    cards swaps the result (P(Banker) = P(Player))."""
    p2 = bac.total(cards.parse_many([codes[0], codes[2]]))
    b2 = bac.total(cards.parse_many([codes[1], codes[3]]))
    swapped = [codes[1], codes[0], codes[3], codes[2]]
    if p2 == b2 and p2 < 8:
        swapped += [codes[5], codes[4]]  # 9(2): Player draws first whichever cards it holds
    else:
        swapped += codes[4:]  # 9(3): the lower hand draws first, whichever side it is
    for method in (1, 2):
        s = bac.round_settings(method, "A")
        r = bac.play(s, cards.parse_many(codes))
        r2 = bac.play(s, cards.parse_many(swapped))
        assert r2.player_cards == r.banker_cards and r2.banker_cards == r.player_cards
        assert r2.winner == {0: 1, 1: 0, 2: 2}[r.winner]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2 ** 32), st.sampled_from([6, 8, 12]), st.sampled_from([1, 2]))
def test_whole_shuffled_shoe_through_procedure_and_roads(seed, decks, method):
    """A real shoe never trips the integrity alarm; the roads stay consistent."""
    table = bac.load_settings({"method": method, "commission": "A", "tie_option": "returned", "decks": decks,
                               "burn": "first_card", "cut_card": "one_more", "demo_rounds": 1,
                               "dealer": "shoe"})
    sim = SimShoe(decks, seed=seed)
    shoe = bs.Shoe(table)
    while shoe.state == bs.BURNING:
        shoe.burn(sim.next_int())
    roads = br.Roads()
    demo = True
    ties = 0
    while shoe.state != bs.CLOSED:
        shoe.start_round(demo)
        while shoe.expected() != bac.NONE:
            shoe.deal(sim.next_int())
            if sim.cut_card_out and not shoe.last_round:
                shoe.cut_card()
        rec = shoe.end_round()
        if not rec.demo:
            r = rec.result
            if r.winner != bac.TIE:
                predicted = roads.next_marks(r.winner)
                before = [len(roads.derived(i)) for i in range(3)]
            roads.add(r.winner, r.player_pair, r.banker_pair)
            if r.winner == bac.TIE:
                ties += 1
            else:
                for i in range(3):
                    after = roads.derived(i)
                    if predicted[i] is None:
                        assert len(after) == before[i]
                    else:
                        assert after[-1] == predicted[i] and len(after) == before[i] + 1
        demo = False
    assert shoe.remaining == sim.remaining
    assert sum(shoe.counts) == shoe.remaining
    big = roads.big_road()
    for a, b in zip(big, big[1:]):
        assert a[0][0] != b[0][0]
    assert sum(len(c) for c in big) + ties == roads.n_beads == shoe.live_rounds
    assert sum(e[1] for c in big for e in c) + (roads.leading_ties if not big else 0) == ties


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2 ** 32))
def test_overfull_card_is_integrity_alarm(seed):
    """Dealing any card once more than the decks hold raises IntegrityError."""
    rng = random.Random(seed)
    table = bac.load_settings({"method": 1, "commission": "A", "tie_option": "returned", "decks": 6,
                               "burn": "decks", "cut_card": "last_round", "demo_rounds": 0,
                               "dealer": "shoe"})
    shoe = bs.Shoe(table)
    card = rng.randrange(52)
    for _ in range(6):
        shoe.burn(card)
    try:
        shoe.burn(card)
    except bs.IntegrityError:
        pass
    else:
        raise AssertionError("seventh copy in 6 decks accepted")
