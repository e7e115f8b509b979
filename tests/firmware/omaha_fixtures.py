# Helpers for the Omaha tests (both runtimes): settings, decks in dealing order, driving a hand.
from firmware import cards
from firmware.games.omaha.rules import EXPECT_ACTION, EXPECT_BOARD, EXPECT_BURN, EXPECT_HOLE, OmahaHand
from firmware.games.omaha.settings import OmahaSettings


BASE = {"structure": "pot_limit", "small_blind": 5, "big_blind": 10, "rake_percent": 0,
        "rake_cap_big_blinds": 5, "odd_chip": "croupier", "heads_up": "no_raise_cap", "seats": 10}


def settings(**options):
    """Test settings: BASE (no rake) with `options` replacing some values."""
    base = dict(BASE)
    for k in options:
        base[k] = options[k]
    return OmahaSettings(**base)


def deck(holes, board, burns=("2c", "2d", "2h")):
    """Hole cards per player in dealing order (index 0 = left of the button), then
    burn+flop, burn+turn, burn+river -> the shoe's card ints in dealing order."""
    out = []
    split = [h.split() for h in holes]
    for k in range(4):
        for h in split:
            out.append(h[k])
    b = board.split()
    out += [burns[0], b[0], b[1], b[2], burns[1], b[3], burns[2], b[4]]
    return cards.parse_many(out)


def filler_deck(n):
    """Any distinct cards for n players: hole cards first, then 8 for burns and board."""
    return list(range(4 * n + 8))


def new_hand(stacks, button=1, shoe=None, **options):
    """A hand with hole cards dealt; returns (hand, remaining shoe)."""
    hand = OmahaHand(settings(**options), button, stacks)
    shoe = list(shoe if shoe is not None else filler_deck(len([s for s in stacks if s[1] > 0])))
    while hand.expected()[0] == EXPECT_HOLE:
        hand.deal(shoe.pop(0))
    return hand, shoe


def deal_street(hand, shoe):
    """Feed burn and board cards until an action is due or the hand is over."""
    while hand.expected()[0] in (EXPECT_BURN, EXPECT_BOARD):
        hand.deal(shoe.pop(0))


def to_act(hand):
    kind, seat = hand.expected()
    assert kind == EXPECT_ACTION, (kind, seat)
    return seat


def check_down(hand, shoe):
    """Everyone checks (or calls nothing) to the end; deals as needed."""
    while True:
        kind, seat = hand.expected()
        if kind == EXPECT_ACTION:
            hand.act(seat, "check" if hand.legal().can_check else "call")
        elif kind in (EXPECT_BURN, EXPECT_BOARD):
            hand.deal(shoe.pop(0))
        else:
            return hand.result()
