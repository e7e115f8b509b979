"""The simulator's demo shoe follows the table's settings (issue 8 item 20).

Baccarat: the table's deck count and its art. 2(1) burn procedure, the cut card
of art. 3(1), the automatic shuffler-dealer of arts. 2(3), 7(2); checked
against the firmware's own shoe procedure (firmware.games.baccarat.shoe.Shoe).
Omaha: one fresh shuffled 52-card deck per hand (art. 1), dealt as arts. 6-8 say.
"""
import collections
import os

import pytest

from firmware import cards, table_config
from firmware.games.baccarat import rules as baccarat
from firmware.games.baccarat.shoe import CLOSED, READY, Shoe, burn_count
from firmware.games.omaha.settings import MAX_PLAYERS
from hostsim.shoe import CUT_FROM_END, BaccaratDemo, OmahaDeal
from hostsim.sim import demo_feed

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _settings(**changes):
    values = {"method": 1, "commission": "A", "tie_option": "returned", "decks": 8, "burn": "decks",
              "cut_card": "last_round", "demo_rounds": 0, "dealer": "shoe", "burn_each_round": False}
    values.update(changes)
    return baccarat.load_settings(values)


def _play_shoes(settings, shoes, seed, auto_rounds=40):
    """Deal `shoes` whole shoes of the demo through the firmware's Shoe; -> [(burned, dealt cards, rounds)].

    The automatic shuffler-dealer has no shoe end: its "shoe" is `auto_rounds` rounds.
    """
    demo = BaccaratDemo(settings, seed=seed)
    out = []
    fw, number, told = Shoe(settings), demo.shoes, False
    burned, dealt, rounds = [], [], 0
    while len(out) < shoes:
        if not told and not demo.auto and demo.shoe.cut_card_out:
            fw.cut_card()                                   # art. 3(1): the cut card is out
            told = True
        card, what = demo.next_card()
        if demo.shoes != number:                            # the demo shuffled a new shoe for this card
            assert fw.state == CLOSED, "new shoe before the firmware's shoe was finished"
            out.append((burned, dealt, rounds))
            fw, number, told = Shoe(settings), demo.shoes, False
            burned, dealt, rounds = [], [], 0
        if what == "burn":
            fw.burn(card)                                   # RuleError if not burning now
            burned.append(card)
            continue
        if fw.state == READY:
            fw.start_round()
            rounds += 1
        assert baccarat.HAND_NAMES[fw.deal(card)] == what   # IntegrityError if the shoe cannot hold it
        dealt.append(card)
        if fw.round.complete:
            fw.end_round()
            if demo.auto and rounds == auto_rounds:
                out.append((burned, dealt, rounds))
                burned, dealt, rounds = [], [], 0
    return out


@pytest.mark.parametrize("decks", [6, 8, 12])
def test_baccarat_demo_uses_the_tables_deck_count(decks):
    settings = _settings(decks=decks)
    demo = BaccaratDemo(settings, seed=decks)
    assert demo.shoe.size == decks * 52
    (burned, dealt, _), = _play_shoes(settings, 1, seed=decks)
    counts = collections.Counter(burned + dealt)
    assert max(counts.values()) == decks                   # every card at most `decks` times, and some that often
    assert len(burned) + len(dealt) >= decks * 52 - CUT_FROM_END     # dealt to the cut card and beyond


@pytest.mark.parametrize("decks", [6, 8])
def test_baccarat_burns_as_many_cards_as_decks_at_each_shoe(decks):
    settings = _settings(decks=decks, burn="decks")
    for burned, dealt, rounds in _play_shoes(settings, 2, seed=11):
        assert len(burned) == decks and rounds > 20        # art. 2(1)


@pytest.mark.parametrize("burn", ["first_card", "first_card_points"])
def test_baccarat_burns_by_the_first_card_when_the_table_says_so(burn):
    settings = _settings(decks=6, burn=burn)
    seen = set()
    for seed in range(12):
        (burned, _, _), = _play_shoes(settings, 1, seed=seed)
        assert len(burned) == 1 + burn_count(burned[0], burn)      # art. 2(1) option
        seen.add(len(burned))
    assert len(seen) > 2                                   # the first card really decides


@pytest.mark.parametrize("cut_card", ["last_round", "one_more"])
def test_baccarat_ends_the_shoe_after_the_cut_card_as_the_table_says(cut_card):
    # _play_shoes tells the firmware's Shoe about the cut card and checks it is CLOSED when the demo reshuffles.
    for burned, dealt, rounds in _play_shoes(_settings(decks=6, cut_card=cut_card), 3, seed=3):
        assert 6 * 52 - CUT_FROM_END <= len(burned) + len(dealt) <= 6 * 52


def test_baccarat_automatic_shuffler_deals_face_up_without_burn_from_a_full_shoe_each_round():
    settings = _settings(decks=6, dealer="auto_shuffler")
    (burned, dealt, rounds), = _play_shoes(settings, 1, seed=4)
    assert burned == [] and rounds == 40                    # art. 2(3): no burn, no cut card
    demo = BaccaratDemo(settings, seed=4)
    assert demo.next_line().rstrip(b"\n").split(b"\n")[-1].startswith(b"S1 02 CARD ")    # after HELLO and IN
    assert b" U*" in demo.next_line()                       # art. 7(2): face up
    before = demo.shoe.shuffles
    while demo.round is not None:
        demo.next_card()
    demo.next_card()
    assert demo.shoe.shuffles == before + 1 and demo.shoe.position == 1     # every card back in the machine


def test_the_sim_demo_of_the_sim_baccarat_table_follows_its_file():
    config = table_config.load(os.path.join(REPO, "boards", "tables", "sim-baccarat.json"))
    feed = demo_feed(config, seed=1)
    assert isinstance(feed, BaccaratDemo) and feed.shoe.size == config["rules"].decks * 52
    lines = [feed.next_line().rstrip(b"\n").split(b"\n")[-1] for _ in range(config["rules"].decks)]
    assert feed.burn_left == 0 and feed.round is None
    assert all(cards.parse(line.split()[3].decode()) >= 0 and line.split()[2] == b"CARD" for line in lines)


# -- Omaha ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("seats", [2, 6, 10, 11, 20])
def test_omaha_hand_is_one_deck_dealt_in_order(seats):
    deal = OmahaDeal(seats, seed=seats)
    players = min(seats, MAX_PLAYERS)
    for n in range(50):
        hand = deal.hand()
        cards_ = [c for c, _ in hand]
        assert len(set(cards_)) == len(cards_) == 4 * players + 3 + 5        # never a card twice in a hand
        what = [w for _, w in hand]
        button = n % players
        order = ["seat%d" % ((button + 1 + i) % players + 1) for i in range(players)]
        assert what[:4 * players] == order * 4                                # art. 6: one at a time, clockwise
        assert what[4 * players:] == ["burn", "flop", "flop", "flop", "burn", "turn", "burn", "river"]


def test_omaha_shuffles_a_fresh_deck_for_every_hand():
    deal = OmahaDeal(10, seed=1)
    hands = [tuple(c for c, _ in deal.hand()) for _ in range(20)]
    assert len(set(hands)) == 20
    firsts = collections.Counter(h[0] for h in hands)
    assert len(firsts) > 10                                 # not one deck dealt on across hands


def test_omaha_deal_refuses_more_players_than_a_deck_holds():
    with pytest.raises(ValueError):
        OmahaDeal(20, players=12)
    with pytest.raises(ValueError):
        OmahaDeal(6, players=1)


def test_the_sim_omaha_demo_never_repeats_a_card_within_a_hand():
    config = table_config.load(os.path.join(REPO, "boards", "tables", "sim-omaha.json"))
    feed = demo_feed(config, seed=2)
    per_hand = 4 * config["rules"].seats + 8
    for _ in range(5):
        lines = [feed.next_line() for _ in range(per_hand)]
        codes = [line.strip() for line in lines]
        assert all(line.endswith("\n") for line in lines)
        assert len(set(codes)) == per_hand, collections.Counter(codes).most_common(2)


@pytest.mark.parametrize("seed", range(4))
def test_the_shoe_says_cut_just_before_the_first_card_behind_the_cut_card(seed):
    # Regression: CUT was sent one card early (before the last card in front of the cut card), so the
    # table counted its last round from a round earlier than the demo and the demo dealt a round too many.
    demo = BaccaratDemo(_settings(decks=6), seed=seed)
    while True:
        messages = demo.next_messages()
        if ("CUT",) in messages:
            break
        assert demo.shoe.position - 1 < demo.shoe.cut_card_position     # still in front of the cut card
    assert messages[-1][0] == "CARD" and demo.shoe.position - 1 == demo.shoe.cut_card_position
