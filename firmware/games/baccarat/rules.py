# Baccarat (万家乐) round engine: values, dealing order, art. 9 draws, outcome, pairs.
#
# Pure logic after the Macau regulation of 2007-07-03 (RULES.md, "Baccarat").
# The caller feeds one card at a time (Round.deal) and asks which hand the next
# card belongs to (Round.expected). What the bets win: payouts.py; shoe procedure:
# shoe.py; roads: roads.py. Hands are small ints (PLAYER, BANKER), cards are
# firmware.cards ints (rank_index * 4 + suit).
from collections import namedtuple

from firmware.cards import check
from firmware.errors import RuleError
from firmware.games.baccarat.settings import check_method, check_settings

PLAYER = const(0)
BANKER = const(1)
TIE = const(2)
NONE = const(-1)  # "no hand may draw": the round is complete

HAND_NAMES = ("player", "banker", "tie")

# Art. 5: point value by rank index (0 = deuce .. 12 = ace): tens and pictures
# count 0, the ace 1, the others their face value. A bytes literal (bytes((2, 3, ...)) made it at
# import, in the heap: 32 bytes in the VM; issue 14).
VALUES = b"\x02\x03\x04\x05\x06\x07\x08\x09\x00\x00\x00\x00\x01"


def check_total(total_):
    """A hand's total, 0..9 (art. 5), else RuleError."""
    if type(total_) is not int or total_ < 0 or total_ > 9:
        raise RuleError("a Baccarat total is 0..9 (art. 5), got %r" % (total_,))
    return total_


# --- art. 5 values, art. 9 draws ----------------------------------------------

def _points(cards):
    # Art. 5 total of checked card ints.
    t = 0
    for c in cards:
        t += VALUES[c >> 2]
    return t % 10


def value(card):
    """Art. 5: point value of a card int."""
    return VALUES[check(card) >> 2]


def total(cards):
    """Art. 5: hand total = sum of point values modulo 10."""
    if not isinstance(cards, (list, tuple)):
        raise RuleError("a hand is a list of card numbers, got %r" % (cards,))
    for c in cards:
        check(c)
    return _points(cards)


def first_drawer(player_two, banker_two):
    """Art. 9, both methods, on the two-card totals: NONE if either is a natural
    (9(1), 8 or 9: decided), PLAYER if equal (9(2): both draw, Player first),
    otherwise the lower hand (9(3): the lower draws first)."""
    if check_total(player_two) < 8:
        check_total(banker_two)                 # (a Player natural decides: the Banker total is not read)
    return _first_drawer(player_two, banker_two)


def _first_drawer(player_two, banker_two):
    # first_drawer() of checked totals (Round.give's: _points makes them 0..9).
    if player_two >= 8 or banker_two >= 8:
        return NONE
    if player_two <= banker_two:
        return PLAYER
    return BANKER


def other_draws(method, player_two, banker_two, drawer_total):
    """Art. 9 after the first drawer's third card (total now drawer_total):
    does the other hand draw too?"""
    check_method(method)
    if check_total(player_two) != check_total(banker_two):
        check_total(drawer_total)               # (equal two-card totals decide: it is not read)
    return _other_draws(method, player_two, banker_two, drawer_total)


def _other_draws(method, player_two, banker_two, drawer_total):
    # other_draws() of a checked method and totals (Round.give's: checked in Round(), made by _points).
    if player_two == banker_two:
        return True  # 9(2): both draw
    other = banker_two if player_two < banker_two else player_two
    if drawer_total < other:
        return False  # 9(3)(i) both methods: still lower, the other wins standing
    if drawer_total == other:
        if method == 1:
            return True  # Method 1 9(3)(ii): greater than or equal -> the other must draw
        return False  # Method 2 9(3)(ii): equal -> the other does not draw, tie
    return True  # Method 1 (ii) / Method 2 (iii): greater -> the other must draw


def winner_of(player_total, banker_total):
    """Arts. 9(1)-(3): the higher final total wins, equal is a tie."""
    if check_total(player_total) > check_total(banker_total):
        return PLAYER
    if banker_total > player_total:
        return BANKER
    return TIE


def is_pair(first, second):
    """Art. 12: same rank, whatever the suit (J+J yes, J+Q no)."""
    return (check(first) >> 2) == (check(second) >> 2)


def check_call(card, hand, face_up):
    """A well-formed deal: a card int 0..51 (else IntegrityError: the reader cannot
    have produced it), hand None / PLAYER / BANKER, face_up True / False."""
    check(card)
    if hand is not None and (type(hand) is not int or (hand != PLAYER and hand != BANKER)):
        raise RuleError("hand must be player (%d), banker (%d) or None (not sensed), got %r"
                        % (PLAYER, BANKER, hand))
    if face_up is not True and face_up is not False:
        raise RuleError("face_up must be True or False, got %r" % (face_up,))


Result = namedtuple("Result", ("winner", "player_total", "banker_total", "player_pair",
                               "banker_pair", "player_cards", "banker_cards", "cards_used"))


class Round:
    """One round, fed card by card in dealing order (art. 7: P, B, P, B, then art. 9)."""

    def __init__(self, settings):
        self.method = check_method(check_settings(settings).method)
        self.settings = settings
        self.player = []
        self.banker = []
        self.order = []  # hand of each card in dealing order
        self.face_up = 0  # art. 4: face-up cards stay valid; counted for the log
        # Art. 5: each hand's total so far (by PLAYER, BANKER), a card's value added as it is given: the
        # art. 9 draws, the result and the dealer display read it (no hand summed again card by card).
        self.totals = bytearray(2)
        self._two = (0, 0)
        self._next = PLAYER
        # expected() == NONE, kept as give() decides it (an attribute, not a property: the last card's
        # pass reads it three times, in the shoe, the controller and end_round).
        self.complete = False

    def expected(self):
        """Hand due the next card: PLAYER, BANKER, or NONE when the round is complete."""
        return self._next

    def deal(self, card, hand=None, face_up=False):
        """Give the next card to the hand that is due. `hand`, if the table
        senses where the card was placed, must match expected(), else RuleError
        (a dealing error, art. 10: the caller corrects or voids). A card number
        outside 0..51 is an IntegrityError. Nothing changes on any refusal."""
        check_call(card, hand, face_up)
        due = self._next
        if due == NONE:
            raise RuleError("round complete: no hand may draw another card (Baccarat art. 9(1))")
        if hand is not None and hand != due:
            raise RuleError("dealing error: the next card is due to %s, not %s (Baccarat arts. 7, 9, 10)"
                            % (HAND_NAMES[due], HAND_NAMES[hand]))
        return self.give(card, face_up)

    def give(self, card, face_up):
        """deal() once its checks have passed: a card checked, face_up a bool, the round not complete, and
        the card the due hand's (Shoe.deal checks all that before it: not again, card by card). Returns
        the hand it went to."""
        due = self._next
        order = self.order
        if due == PLAYER:
            self.player.append(card)
        else:
            self.banker.append(card)
        order.append(due)
        totals = self.totals
        totals[due] = (totals[due] + VALUES[card >> 2]) % 10      # art. 5: the values' sum modulo 10
        if face_up:
            self.face_up += 1
        # The hand due the next card (its own method once: a call fewer a card, issue 14).
        n = len(order)
        if n < 4:
            then = PLAYER if n % 2 == 0 else BANKER  # art. 7(1)
        elif n == 4:
            player_two = totals[PLAYER]
            banker_two = totals[BANKER]
            self._two = (player_two, banker_two)
            then = _first_drawer(player_two, banker_two)
        elif n == 5:
            drawer = order[4]
            two = self._two
            if _other_draws(self.method, two[0], two[1], totals[drawer]):
                then = BANKER if drawer == PLAYER else PLAYER
            else:
                then = NONE
        else:
            then = NONE  # art. 9(1): at most one third card each
        self._next = then
        self.complete = then == NONE
        return due

    def result(self):
        if self._next != NONE:
            raise RuleError("round not complete: the next card is due to %s" % HAND_NAMES[self._next])
        player = self.player
        banker = self.banker
        totals = self.totals                    # art. 5: kept as the cards were given
        pt = totals[PLAYER]
        bt = totals[BANKER]
        # winner_of() and is_pair() inline, without their checks again: every card was checked when dealt
        # and a total is 0..9 (give: modulo 10) (arts. 5, 9(1)-(3): the higher total wins, equal a tie;
        # art. 12: a pair is the same rank, card >> 2).
        return Result(PLAYER if pt > bt else (BANKER if bt > pt else TIE), pt, bt,
                      player[0] >> 2 == player[1] >> 2, banker[0] >> 2 == banker[1] >> 2,
                      tuple(player), tuple(banker), len(self.order))


def play(settings, cards):
    """Whole round from a dealing sequence (extra cards ignored) -> Result.
    Every card given is checked first: one the shoe cannot hold is an alarm
    (IntegrityError), never part of a result."""
    if not isinstance(cards, (list, tuple)):
        raise RuleError("cards must be a list of card numbers in dealing order, got %r" % (cards,))
    for card in cards:
        check(card)
    rnd = Round(settings)
    for card in cards:
        if rnd.complete:
            break
        rnd.deal(card)
    if not rnd.complete:
        raise RuleError("need more cards: %d given, the %s hand is due another card (Baccarat art. 9)"
                        % (len(rnd.order), HAND_NAMES[rnd.expected()]))
    return rnd.result()
