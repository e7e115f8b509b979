"""Simulated card-reading shoe: a seeded shuffle of N decks dealt card by card.

Generic on purpose (no game rules): it yields firmware card codes ("Td") or
card ints in shoe order and says when the cut card comes out. It will later
feed the shoe driver through a pseudo-serial line.

The shuffle is Fisher-Yates done lazily, one swap per card dealt, so dealing
only the first few cards of a fresh shuffle costs only those few swaps:
`shuffle()` is O(1), and every deal order is equally likely.
"""
import random

from firmware import cards

DECK = 52


class SimShoe:
    def __init__(self, decks=8, seed=None, cut_from_end=14, rng=None):
        if not isinstance(decks, int) or decks < 1:
            raise ValueError("decks must be a positive integer")
        self.decks = decks
        self.size = decks * DECK
        if not 0 <= cut_from_end < self.size:
            raise ValueError("cut_from_end must lie inside the shoe (0..%d)" % (self.size - 1))
        self.cut_from_end = cut_from_end
        self.rng = rng if rng is not None else random.Random(seed)
        self.cards = [i % DECK for i in range(self.size)]
        self.position = 0
        self.shuffles = 0

    def shuffle(self):
        """Start a new shoe from all the cards (the lazy swaps do the mixing)."""
        self.position = 0
        self.shuffles += 1

    @property
    def remaining(self):
        return self.size - self.position

    @property
    def cut_card_position(self):
        """Index of the first card behind the cut card."""
        return self.size - self.cut_from_end

    @property
    def cut_card_out(self):
        """True once the dealing has reached the cut card (art. 3(1) of Baccarat)."""
        return self.position >= self.cut_card_position

    def next_int(self):
        if self.position >= self.size:
            raise IndexError("shoe empty: %d cards dealt" % self.size)
        i = self.position
        j = i + self.rng.randrange(self.size - i)
        deck = self.cards
        deck[i], deck[j] = deck[j], deck[i]
        self.position = i + 1
        return deck[i]

    def next_code(self):
        return cards.name(self.next_int())

    def deal_codes(self, n):
        return [self.next_code() for _ in range(n)]
