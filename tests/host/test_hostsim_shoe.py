"""The simulator's shoes follow the table's settings (issue 8 item 20).

Baccarat: the table's deck count and its art. 2(1) burn procedure, the cut card
of art. 3(1), the automatic shuffler-dealer of arts. 2(3), 7(2); checked
against the firmware's own shoe procedure (firmware.games.baccarat.shoe.Shoe).
Omaha: one fresh shuffled 52-card deck per hand (art. 1), dealt as arts. 6-8 say.
"""
import collections
import os

import pytest

from firmware import board as board_mod
from firmware import cards, table_config
from firmware.games.baccarat import rules as baccarat
from firmware.games.baccarat import settings as baccarat_settings
from firmware.games.baccarat.shoe import CLOSED, READY, Shoe, burn_count
from firmware.games.omaha.settings import MAX_PLAYERS
from hostsim.dealer import FAST_PACE, Dealer
from hostsim.shoe import CUT_FROM_END, BaccaratDemo, OmahaDeal
from hostsim.table_io import TableIO

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _settings(**changes):
    values = {"method": 1, "commission": "A", "tie_option": "returned", "decks": 8, "burn": "decks",
              "cut_card": "last_round", "demo_rounds": 0, "dealer": "shoe", "burn_each_round": False}
    values.update(changes)
    return baccarat_settings.load_settings(values)


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
    first, second = demo.next_messages(), demo.next_messages()
    assert [m[0] for m in first] == ["IN", "CARD"] and [m[0] for m in second] == ["CARD"]
    assert first[-1][2] is True and second[-1][2] is True   # art. 7(2): face up
    before = demo.shoe.shuffles
    while demo.round is not None:
        demo.next_card()
    demo.next_card()
    assert demo.shoe.shuffles == before + 1 and demo.shoe.position == 1     # every card back in the machine


class _Wire:
    """A board's port as TableIO feeds it: keeps the bytes, and the table has read them at once."""

    def __init__(self):
        self.data = b""

    def feed(self, data):
        self.data += data

    def pending(self):
        return 0


class _Hardware:
    """Just the ports of a hostsim Hardware (no firmware runs: the dealer is driven by hand)."""

    def __init__(self):
        self.wires, self.uarts, self.usb = {}, {}, None

    def port(self, role):
        return self.wires.setdefault(role, _Wire())


def test_the_live_dealer_of_an_automatic_shuffler_sends_hello_then_in_then_face_up_cards():
    settings = _settings(decks=6, dealer="auto_shuffler")
    hw = _Hardware()
    dealer = Dealer(TableIO(hw, board_mod.load(os.path.join(REPO, "boards", "sim.json"))), settings, 0, seed=4,
                    pace=FAST_PACE)
    dealer.on_report({"event": "state", "state": "ready"})
    for now in range(0, 2000, 50):
        dealer.tick(now)
    lines = hw.wires["shoe"].data.splitlines()
    assert [line.split(b"*")[0].split()[1:3] for line in lines[:3]] == [[b"00", b"HELLO"], [b"01", b"IN"], [b"02", b"CARD"]]
    assert len(lines) > 5 and all(line.split()[2] == b"CARD" and b" U*" in line for line in lines[2:])  # art. 7(2)


def test_the_shoe_of_the_sim_baccarat_table_follows_its_file():
    config = table_config.load(os.path.join(REPO, "boards", "tables", "sim-baccarat.json"))
    demo = BaccaratDemo(config["rules"], seed=1)
    assert demo.shoe.size == config["rules"].decks * 52
    messages = [demo.next_messages() for _ in range(config["rules"].decks)]    # burn = "decks": art. 2(1)
    assert messages[0][0] == ("IN",) and demo.burn_left == 0 and demo.round is None
    assert all(m[-1][0] == "CARD" and cards.parse(m[-1][1]) >= 0 and m[-1][2] is False for m in messages)


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


def test_the_sim_omaha_table_gets_one_deck_per_hand_whoever_is_dealt_in():
    # The live dealer deals to the players the table put in the hand (hostsim.omaha_dealer: deal_to).
    config = table_config.load(os.path.join(REPO, "boards", "tables", "sim-omaha.json"))
    seats = config["rules"].seats
    deal = OmahaDeal(seats, seed=2)
    for players in range(2, min(seats, MAX_PLAYERS) + 1):
        order = list(range(seats, seats - players, -1))
        hand = deal.deal_to(order)
        codes = [cards.name(c) for c, _ in hand]
        assert len(set(codes)) == len(codes) == 4 * players + 8, collections.Counter(codes).most_common(2)
        assert [w for _, w in hand[:players]] == ["seat%d" % s for s in order]     # art. 6: in the table's order


@pytest.mark.parametrize("seed", range(4))
def test_the_shoe_says_cut_just_before_the_first_card_behind_the_cut_card(seed):
    # Regression: CUT was sent one card early (before the last card in front of the cut card), so the
    # table counted its last round from a round earlier than the shoe and the dealer dealt a round too many.
    demo = BaccaratDemo(_settings(decks=6), seed=seed)
    while True:
        messages = demo.next_messages()
        if ("CUT",) in messages:
            break
        assert demo.shoe.position - 1 < demo.shoe.cut_card_position     # still in front of the cut card
    assert messages[-1][0] == "CARD" and demo.shoe.position - 1 == demo.shoe.cut_card_position
