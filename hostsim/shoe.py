"""Simulated card-reading shoe: a seeded shuffle of N decks dealt card by card.

SimShoe is generic on purpose (no game rules): it yields firmware card codes
("Td") or card ints in shoe order and says when the cut card comes out.
BaccaratDemo and OmahaDeal put a table's settings on top of it for the
simulator's dealers (hostsim.dealer, hostsim.omaha_dealer): what the shoe
reader would read, card by card, at a table playing by those settings.

The shuffle is Fisher-Yates done lazily, one swap per card dealt, so dealing
only the first few cards of a fresh shuffle costs only those few swaps:
`shuffle()` is O(1), and every deal order is equally likely.
"""
import random

from firmware import cards
from firmware.games.baccarat.rules import HAND_NAMES, Round
from firmware.games.baccarat.shoe import burn_count
from firmware.games.omaha.settings import MAX_PLAYERS

DECK = 52
BURN = "burn"
CUT_FROM_END = 12         # Baccarat art. 2(1): the cut card goes about 12 cards from the end
# What the next card of a Baccarat shoe is for (BaccaratDemo's steps).
_SHOE_BURN = "shoe_burn"  # art. 2(1): burned at the start of the shoe
_ROUND_BURN = "round_burn"  # art. 8: burned at the start of a round
_HAND = "hand"            # dealt to Player or Banker (arts. 7, 9)


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


class BaccaratDemo:
    """A Baccarat table's shoe as its reader sees it: next_card() -> (card, what), what "burn"/"player"/"banker".

    Follows the table's validated settings (config["rules"]):
    - decks: the shoe holds that many decks (art. 1);
    - burn: at the start of each shoe, as many cards as decks ("decks"), or the
      first card and then as many as it says (art. 2(1) options, counted by
      baccarat_shoe.burn_count as the firmware does);
    - cut_card: once the cut card is out (CUT_FROM_END cards from the end) the
      round in progress is the last, or exactly one more follows (art. 3(1));
      then a new shoe is shuffled and burned;
    - dealer "auto_shuffler": no burn and no cut card (art. 2(3)); every round
      comes off a full reshuffle, face up (art. 7(2)).
    Rounds are dealt P, B, P, B and third cards by the table's method (arts. 7, 9).
    """

    def __init__(self, settings, seed=None, rng=None):
        self.settings = settings
        self.auto = settings.dealer == "auto_shuffler"
        self.shoe = SimShoe(decks=settings.decks, cut_from_end=0 if self.auto else CUT_FROM_END,
                            seed=seed, rng=rng)
        self.shoes = 0
        self.round = None           # baccarat.Round being dealt
        self.round_cards = []       # its cards in dealing order
        self.completed = 0          # rounds dealt to the end (all shoes)
        self.last_cards = ()        # the cards of the last of them, in dealing order
        self.rounds = 0             # rounds started in this shoe
        self.rounds_left = None     # rounds still to play once the cut card is out
        self.cut_told = False       # the CUT message was sent for this shoe
        self.round_burned = False   # art. 8 burn of the next round done
        self.shoe_told = False      # the IN message was sent for this shoe
        self._new_shoe()

    def _new_shoe(self):
        self.shoe.shuffle()
        self.shoes += 1
        self.cut_told = False
        self.shoe_told = False
        self.rounds = 0
        self.rounds_left = None
        if self.auto:
            self.burn_left = 0                      # art. 2(3)
        elif self.settings.burn == "decks":
            self.burn_left = self.settings.decks    # art. 2(1)
        else:
            self.burn_left = -1                     # art. 2(1) option: the first card decides

    @property
    def face_up(self):
        """Art. 7(2): the automatic shuffler-dealer deals face up."""
        return self.auto

    def next_card(self):
        step = self._next_step()
        card = self.shoe.next_int()
        return card, self._place(step, card)

    def _next_step(self):
        """Get the procedure ready for the next card (a new shoe, a shuffle, a round); what it will be."""
        if self.burn_left:
            return _SHOE_BURN
        if self.round is None:
            if self.rounds_left == 0:
                self._new_shoe()                    # art. 3(1): reshuffle after the last round
                return self._next_step()
            if self.auto:
                self.shoe.shuffle()                 # art. 7(2): the machine got every card back
            if getattr(self.settings, "burn_each_round", False) and not self.round_burned:
                self.round_burned = True            # art. 8: one card burned at the start of the round
                return _ROUND_BURN
            self.round_burned = False
            self.round = Round(self.settings)
            self.round_cards = []
            self.rounds += 1
        if self.rounds_left is None and not self.auto and self.shoe.cut_card_out:
            # Art. 3(1): the cut card comes out before this card: this round is the last, or one more.
            self.rounds_left = 2 if self.settings.cut_card == "one_more" else 1
        return _HAND

    def _place(self, step, card):
        """The card takes its place in the procedure: "burn", "player" or "banker"."""
        if step == _SHOE_BURN:
            if self.burn_left < 0:
                self.burn_left = burn_count(card, self.settings.burn)
            else:
                self.burn_left -= 1
            return BURN
        if step == _ROUND_BURN:
            return BURN
        hand = self.round.expected()
        self.round.deal(card)
        self.round_cards.append(card)
        if self.round.complete:
            self.completed += 1
            self.last_cards = tuple(self.round_cards)
            self.round = None
            if self.rounds_left is not None:
                self.rounds_left -= 1
        return HAND_NAMES[hand]

    # A card out of the shoe that the reader may not read at once (an unreadable card, a damaged
    # frame): draw() takes it out, read() gives it its place when it is read (a rescan), forget() when
    # it is discarded unseen, so the procedure goes on as the table's does.
    def draw(self):
        """Take the next card out of the shoe: (card, step, what the shoe says first: IN / CUT messages)."""
        step = self._next_step()
        card = self.shoe.next_int()
        return card, step, self._announce()

    def read(self, card, step):
        """The drawn card is read: it takes its place; returns its ("CARD", code, face_up) message."""
        self._place(step, card)
        return ("CARD", cards.name(card), self.face_up)

    def forget(self, step, burned=False):
        """The drawn card was discarded unseen between rounds: its place goes to the next card, except
        an art. 8 burn card the table saw leave the shoe (burned=True: it counts as the burn)."""
        if step == _ROUND_BURN:
            if not burned:
                self.round_burned = False
            return
        if step == _HAND and self.round is not None and not self.round.order:
            self.round = None                       # the round it would have opened never started
            self.rounds -= 1

    def _announce(self):
        out = []
        if not self.shoe_told:
            self.shoe_told = True
            out.append(("IN",))
        # The cut card comes out just before the first card behind it (index cut_card_position), which
        # is the card just drawn; the card before it is still in front of the cut card.
        behind = self.shoe.position - 1 >= self.shoe.cut_card_position
        if behind and not self.cut_told and not self.auto:
            self.cut_told = True
            out.append(("CUT",))
        return out

    def next_messages(self):
        """What the shoe says for its next card, in order: ("IN",) for each new shoe, ("CUT",) when the
        cut card comes out, then ("CARD", code, face_up) (docs/protocol.md, "Shoe")."""
        card, step, out = self.draw()
        return out + [self.read(card, step)]

    def abandon_round(self):
        """The table ended the round being dealt without the cards the rules call for (a void round,
        art. 10): the next card starts the next round, as it does at the table."""
        if self.round is None:
            return
        self.round = None
        if self.rounds_left is not None:
            self.rounds_left -= 1


class OmahaDeal:
    """Omaha deals, hand after hand, each from a fresh single deck shuffled for it (Omaha art. 1).

    hand() -> [(card, what)] in dealing order: four hole cards to each player
    one at a time clockwise from the left of the button ("seat3", art. 6), then
    burn and flop (art. 7), burn and turn, burn and river (art. 8). The button
    moves one seat clockwise after each hand (art. 1). Players are the table's
    seats, at most MAX_PLAYERS (one deck holds 4 x 11 + 3 + 5 cards).
    """

    HOLE_CARDS = 4

    def __init__(self, seats, seed=None, rng=None, players=None):
        if players is None:
            players = min(seats, MAX_PLAYERS)
        if not 2 <= players <= min(seats, MAX_PLAYERS):
            raise ValueError("an Omaha deal needs 2..%d players at %d seats, got %r"
                             % (min(seats, MAX_PLAYERS), seats, players))
        self.seats = seats
        self.players = players
        self.rng = rng if rng is not None else random.Random(seed)
        self.button = 0             # seat index (0-based) holding the dealer button
        self.hands = 0

    def hand(self):
        order = [(self.button + 1 + i) % self.players + 1 for i in range(self.players)]
        out = self.deal_to(order)
        self.button = (self.button + 1) % self.players
        return out

    def deal_to(self, order):
        """One hand from a fresh deck to the seats `order` (seat numbers in dealing order, from the
        button's left, as the table's hand_start report lists them) -> [(card, what)]: what is
        "seat<N>", BURN, "flop", "turn" or "river". The dealer of a live table (hostsim.omaha_dealer)
        deals this way to the players the table put in the hand; hand() to seats 1..players."""
        if not 2 <= len(order) <= MAX_PLAYERS:
            raise ValueError("an Omaha hand is dealt to 2..%d players, got %r" % (MAX_PLAYERS, order))
        deck = SimShoe(decks=1, cut_from_end=0, rng=self.rng)
        out = []
        for _ in range(self.HOLE_CARDS):
            for seat in order:
                out.append((deck.next_int(), "seat%d" % seat))
        for street, count in (("flop", 3), ("turn", 1), ("river", 1)):
            out.append((deck.next_int(), BURN))
            for _ in range(count):
                out.append((deck.next_int(), street))
        self.hands += 1
        return out
