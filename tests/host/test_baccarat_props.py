"""Property tests: the Baccarat engine against a plain restatement of arts. 5, 9, 12, 16, 17.

The restatement below is written from RULES.md independently of
firmware/games/baccarat/rules.py (card codes as text, lists, no shared helper).
"""
import random

from hypothesis import given, settings, strategies as st

from firmware import cards
from firmware.errors import IntegrityError, SettingsError
from firmware.games.baccarat import payouts
from firmware.games.baccarat import rules as bac
from firmware.games.baccarat import settings as bac_settings
from firmware.games.baccarat import roads as br
from firmware.games.baccarat import shoe as bs
from hostsim.shoe import SimShoe
from tests.host.engine_fuzz import JSON, anything_or, call, corrupted, is_int, refused_unchanged

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
    s = bac_settings.round_settings(method, option)
    r = bac.play(s, cards.parse_many(codes))
    player, banker, winner = restated_round(method, codes)
    assert cards.names(r.player_cards) == player
    assert cards.names(r.banker_cards) == banker
    assert bac.HAND_NAMES[r.winner] == winner
    assert r.cards_used == len(player) + len(banker)
    assert r.player_total == sum(POINTS[c[0]] for c in player) % 10
    assert r.player_pair == (player[0][0] == player[1][0])
    assert r.banker_pair == (banker[0][0] == banker[1][0])
    bets = list(zip(payouts.ZONES, stakes))
    for zone, net, _status in payouts.settle(s, r, bets):
        assert net == restated_net(method, option, zone, dict(bets)[zone], player, banker, winner)


@settings(max_examples=600, deadline=None)
@given(codes6, st.sampled_from([1, 2]))
def test_incremental_expected_hand_matches_restatement(codes, method):
    """Round.expected() prompts exactly the hand the restatement gives each card to."""
    player, banker, _w = restated_round(method, codes)
    rnd = bac.Round(bac_settings.round_settings(method, "A"))
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
        s = bac_settings.round_settings(method, "A")
        r = bac.play(s, cards.parse_many(codes))
        r2 = bac.play(s, cards.parse_many(swapped))
        assert r2.player_cards == r.banker_cards and r2.banker_cards == r.player_cards
        assert r2.winner == {0: 1, 1: 0, 2: 2}[r.winner]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2 ** 32), st.sampled_from([6, 8, 12]), st.sampled_from([1, 2]))
def test_whole_shuffled_shoe_through_procedure_and_roads(seed, decks, method):
    """A real shoe never trips the integrity alarm; the roads stay consistent."""
    table = bac_settings.load_settings({"method": method, "commission": "A", "tie_option": "returned", "decks": decks,
                               "burn": "first_card", "cut_card": "one_more", "demo_rounds": 1,
                               "dealer": "shoe", "burn_each_round": False})
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
    table = bac_settings.load_settings({"method": 1, "commission": "A", "tie_option": "returned", "decks": 6,
                               "burn": "decks", "cut_card": "last_round", "demo_rounds": 0,
                               "dealer": "shoe", "burn_each_round": False})
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


# ---- issue 8: arbitrary JSON-ish input into every entry point ------------------------------------
# Only GameError subclasses may escape, a refused call changes nothing (a real card
# read out of the shoe is the one exception: it is counted out, art. 1), and money
# is only ever ints.

VALID_SPEC = {name: allowed for name, allowed, _art in bac_settings.SETTINGS_SPEC}
GOOD_TABLE = {"method": 2, "commission": "B", "tie_option": "standing", "decks": 8, "burn": "first_card",
              "cut_card": "one_more", "demo_rounds": 1, "dealer": "shoe", "burn_each_round": False}


@settings(max_examples=500, deadline=None)
@given(corrupted(GOOD_TABLE), st.sampled_from([GOOD_TABLE, {k: GOOD_TABLE[k] for k in bac_settings.ROUND_SETTINGS}]))
def test_settings_constructors_accept_only_allowed_values(kwargs, base):
    kwargs = {k: v for k, v in kwargs.items() if k in base or k not in GOOD_TABLE}
    ok, s = call(bac_settings.BaccaratSettings, **kwargs)
    if ok:
        for name, value in s.as_pairs():
            assert type(value) is type(VALID_SPEC[name][0]) and value in VALID_SPEC[name]
        assert {n for n, _v in s.as_pairs()} == set(kwargs)
    else:
        assert isinstance(s, SettingsError)
    ok, s = call(bac_settings.load_settings, kwargs)
    if ok:
        assert set(kwargs) == set(bac_settings.SETTING_NAMES)  # a table needs every regulated option
    args = [kwargs.get(n, "x") for n in bac_settings.ROUND_SETTINGS]
    ok, s = call(bac_settings.round_settings, *args)
    assert ok == all(type(a) is type(VALID_SPEC[n][0]) and a in VALID_SPEC[n]
                     for n, a in zip(bac_settings.ROUND_SETTINGS, args))


@settings(max_examples=300, deadline=None)
@given(JSON)
def test_load_settings_of_anything(values):
    ok, out = call(bac_settings.load_settings, values)
    assert not ok or isinstance(out, bac_settings.BaccaratSettings)


def _is_card(x):
    return type(x) is int and 0 <= x < 52


@settings(max_examples=500, deadline=None)
@given(codes6, st.integers(0, 5), anything_or(0, 7, 51), anything_or(None, 0, 1), anything_or(False, True))
def test_round_deal_refuses_anything_else_unchanged(codes, dealt, card, hand, face_up):
    rnd = bac.Round(bac_settings.round_settings(1, "A"))
    for code in codes[:dealt]:
        if rnd.complete:
            break
        rnd.deal(cards.parse(code))
    ok, out = refused_unchanged(rnd, rnd.deal, card, hand, face_up)
    if ok:
        assert _is_card(card) and (face_up is True or face_up is False) and (hand is None or type(hand) is int)
    elif not _is_card(card):
        assert isinstance(out, IntegrityError)  # an alarm, never part of a result


@settings(max_examples=400, deadline=None)
@given(st.one_of(JSON, st.lists(st.one_of(st.integers(-2, 53), JSON), max_size=8)),
       st.sampled_from([1, 2]), st.sampled_from(["A", "B"]))
def test_play_of_anything_is_a_result_or_a_game_error(dealt, method, option):
    ok, r = call(bac.play, bac_settings.round_settings(method, option), dealt)
    if ok:
        assert all(_is_card(c) for c in r.player_cards + r.banker_cards)
        assert all(_is_card(c) for c in dealt)  # even the extra cards were checked


STAKE = st.one_of(st.integers(0, 10 ** 6), anything_or(20, 100))
BETS = st.one_of(JSON, st.lists(st.tuples(st.one_of(st.sampled_from(payouts.ZONES), JSON), STAKE), max_size=5))


@settings(max_examples=500, deadline=None)
@given(codes6, st.sampled_from([1, 2]), st.sampled_from(["A", "B"]),
       st.sampled_from(["returned", "standing", "changeable"]), BETS)
def test_settle_pays_only_ints_or_refuses(codes, method, option, tie_option, bets):
    s = bac_settings.round_settings(method, option, tie_option)
    r = bac.play(s, cards.parse_many(codes))
    for func, args in ((payouts.settle, (s, r, bets)), (payouts.settle_void, (bets,))):
        ok, out = call(func, *args)
        if ok:
            for (zone, net, status), (zone_in, stake) in zip(out, bets):
                assert zone == zone_in and is_int(stake) and stake >= 0
                assert is_int(net), "a payout must be a whole number of units: %r" % (net,)
                assert status in ("win", "lose", "void", tie_option)


@settings(max_examples=300, deadline=None)
@given(JSON, JSON, JSON, JSON)
def test_rule_functions_take_only_their_domain(a, b, c, d):
    for func, args in ((bac.value, (a,)), (bac.total, (a,)), (bac.is_pair, (a, b)),
                       (bac.first_drawer, (a, b)), (bac.winner_of, (a, b)), (bac.other_draws, (a, b, c, d)),
                       (payouts.commission, (a, b, c)), (payouts.tie_odds, (a,)), (bs.burn_count, (a, b)),
                       (bac.Round, (a,)), (bs.Shoe, (a,)), (payouts.settle_zone, (a, b, c, d))):
        ok, out = call(func, *args)
        if ok and func in (payouts.commission, payouts.tie_odds, bac.value, bs.burn_count):
            assert is_int(out)


SHOE_OPS = st.lists(st.sampled_from(["burn", "burn", "deal", "deal", "deal", "start", "start", "demo", "end",
                                     "correct", "void", "cut", "change"]), max_size=25)


@settings(max_examples=400, deadline=None)
@given(SHOE_OPS, st.lists(st.integers(0, 51), min_size=30, max_size=30),
       anything_or(0, 7, 51), anything_or(None, 0, 1), anything_or(False, True),
       st.sampled_from(["decks", "first_card", "first_card_points"]),
       st.sampled_from(["shoe", "auto_shuffler"]))
def test_shoe_entry_points_refuse_cleanly_and_count_every_real_card(ops, real, card, hand, face_up, burn, dealer):
    """Art. 1: the composition never drifts. A malformed call changes nothing; a real
    card refused in any state is still counted out of the shoe."""
    shoe = bs.Shoe(bac_settings.load_settings({"method": 1, "commission": "A", "tie_option": "returned", "decks": 6,
                                      "burn": burn, "cut_card": "one_more", "demo_rounds": 1, "dealer": dealer,
                                      "burn_each_round": False}))
    read = 0
    for op in ops:  # drive the shoe into an arbitrary state with real cards
        if op in ("burn", "deal"):
            method = shoe.burn if op == "burn" else shoe.deal
            ok, _ = call(method, real[read % 30])
            read += 1
            continue
        method = {"start": shoe.start_round, "demo": lambda: shoe.start_round(True), "end": shoe.end_round,
                  "correct": shoe.correct, "void": shoe.void, "cut": shoe.cut_card, "change": shoe.change}[op]
        refused_unchanged(shoe, method)
    assert sum(shoe.counts) == shoe.remaining
    well_formed_deal = (hand is None or (type(hand) is int and hand in (0, 1))) and (face_up is True
                                                                                   or face_up is False)
    for method, args, well_formed in ((shoe.deal, (card, hand, face_up), well_formed_deal),
                                      (shoe.burn, (card,), True)):
        before = bytes(shoe.counts)
        if _is_card(card) and well_formed:
            ok, out = call(method, *args)
            if isinstance(out, IntegrityError):
                assert before[card] == 0 and bytes(shoe.counts) == before
            else:
                assert shoe.counts[card] == before[card] - 1  # left the shoe: counted, whatever else
        else:
            ok, out = refused_unchanged(shoe, method, *args)
            assert not ok
        assert sum(shoe.counts) == shoe.remaining
