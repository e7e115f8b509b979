# Baccarat shoe procedure (arts. 1-4, 8, 10): burn, demo rounds, cut card, dealing errors, composition.
#
# A Shoe is fed the events of the table: every card read out of the shoe
# (burn() or deal()), the cut card (cut_card()), the dealer's start/end of a
# round and corrections. It keeps how many of each card the shoe still holds,
# so a card the shoe cannot contain is a card-integrity alarm (IntegrityError),
# never a result.
from collections import namedtuple

from firmware.errors import IntegrityError, RuleError, SettingsError
from firmware.games.baccarat.rules import Round, HAND_NAMES, check_call
from firmware.games.baccarat.settings import SETTING_NAMES, check_settings
from firmware import cards as _cards

# copies of firmware.cards (tests/host/test_const_copies.py)
_DECK_SIZE = const(52)
# copies of firmware.games.baccarat.rules (tests/host/test_const_copies.py)
_NONE = const(-1)

# Shoe states.
BURNING = const(0)  # art. 2(1): burn procedure at the start of the shoe
READY = const(1)  # between rounds
IN_ROUND = const(2)
ERROR = const(3)  # art. 10: a dealing error waits for correct() or void()
CLOSED = const(4)  # art. 3: last round played or shoe changed; reshuffle
STATE_NAMES = ("burning", "ready", "in_round", "dealing_error", "closed")

# Dealing-error kinds (art. 10).
WRONG_HAND = "wrong_hand"  # card placed on the hand that was not due: move it
EXTRA_CARD = "extra_card"  # card drawn when no hand may draw: discard it

RoundRecord = namedtuple("RoundRecord", ("number", "demo", "void", "result", "last", "face_up"))


class DealingError(RuleError):
    """Art. 10: a dealing error; the card is out of the shoe, the round is held
    until the dealer corrects it (Shoe.correct) or voids the round (Shoe.void)."""

    def __init__(self, message, kind):
        super().__init__(message)
        self.kind = kind


def burn_count(card, burn):
    """Art. 2(1) option: cards burned AFTER the first card, from its value.
    Reading ("first_card"): tens and pictures count 10, ace 1, others face value.
    Option "first_card_points": art. 5 points (tens and pictures 0)."""
    r = _cards.check(card) >> 2
    if burn != "first_card" and burn != "first_card_points":
        raise SettingsError("burn_count needs burn option \"first_card\" or \"first_card_points\" "
                            "(Baccarat art. 2(1)), got %r" % (burn,))
    if r == 12:
        return 1
    if r >= 8:
        if burn == "first_card":
            return 10
        return 0
    return r + 2


class Shoe:
    """One shoe from shuffle to reshuffle under a table's BaccaratSettings (load_settings)."""

    def __init__(self, settings):
        check_settings(settings)
        for name in SETTING_NAMES:
            if not hasattr(settings, name):
                raise SettingsError("Baccarat setting %r missing: a shoe needs every table setting" % (name,))
        self.settings = settings
        self.decks = settings.decks
        if settings.dealer != "shoe" and settings.dealer != "auto_shuffler":
            raise SettingsError("Baccarat dealer must be \"shoe\" or \"auto_shuffler\" (arts. 2(3), 7(2)), "
                                "got %r" % (settings.dealer,))
        self.auto = settings.dealer == "auto_shuffler"
        self.counts = bytearray(52)
        self._full = bytearray(52)  # every card `decks` times: what a refill copies back
        for i in range(52):
            self._full[i] = self.decks
        self._refill()
        self.burned = 0
        self.rounds = 0  # rounds started (demo + live)
        self.live_rounds = 0
        self.demo_rounds = 0
        self.last_round = 0  # number of the last round once the cut card is out; 0 = not yet
        self.round = None
        self.round_demo = False
        self.pending = None  # (kind, card, hand) of a dealing error
        self._first_burn = False
        if self.auto:
            # Art. 2(3): the automatic shuffler-dealer deals at once, no burn.
            self.burn_left = 0
            self.state = READY
        elif settings.burn == "decks":
            self.burn_left = self.decks  # art. 2(1): as many cards as decks
            self.state = BURNING
        elif settings.burn == "first_card" or settings.burn == "first_card_points":
            self.burn_left = -1  # the first card decides
            self.state = BURNING
        else:
            raise SettingsError("Baccarat burn option %r unknown (art. 2(1))" % (settings.burn,))

    def _refill(self):
        # One copy into the same buffer (the automatic shuffler refills every round, art. 7(2)):
        # no loop over the 52 counts, nothing allocated.
        self.counts[:] = self._full
        self.remaining = self.decks * 52

    def _take(self, card):
        _cards.check(card)
        if self.counts[card] == 0:
            raise IntegrityError("card-integrity alarm: %s cannot come out: all %d of it in this %d-deck shoe "
                                 "are already out (Baccarat art. 1)"
                                 % (_cards.name(card), self.decks, self.decks))
        self.counts[card] -= 1
        self.remaining -= 1

    def _discard(self, card):
        # Art. 1: a card read out of the shoe has left it, whatever is refused
        # next; it is counted out and discarded, so the composition never drifts.
        self._take(card)
        self.burned += 1

    def discard(self, card):
        """A card read out of the shoe that is dealt to no hand (read during an alarm, art. 10):
        counted out. IntegrityError if the shoe cannot hold it (it is an alarm of its own)."""
        self._discard(card)

    def state_name(self):
        return STATE_NAMES[self.state]

    def can_start_demo(self):
        """Art. 2(2): demonstration rounds only at the start of the shoe, at most
        the table's demo_rounds (<= 3)."""
        return (self.state == READY and self.live_rounds == 0
                and self.demo_rounds < self.settings.demo_rounds)

    def burn(self, card):
        """A card read and discarded: the art. 2(1) procedure while burning, or
        the art. 8 burn at the start of a round (between rounds). A card number
        outside 0..51 is an IntegrityError and changes nothing; a real card
        refused at the wrong time is still counted out of the shoe."""
        _cards.check(card)
        if self.state == BURNING:
            self._take(card)
            self.burned += 1
            if self.burn_left == -1:
                self.burn_left = burn_count(card, self.settings.burn)
            else:
                self.burn_left -= 1
            if self.burn_left == 0:
                self.state = READY
            return self.burn_left
        if self.state != READY:
            self._discard(card)
            raise RuleError("cannot burn now (shoe %s): art. 8 burns come at the start of a round; "
                            "the card is counted out of the shoe" % self.state_name())
        self._take(card)
        self.burned += 1
        return 0

    def start_round(self, demo=False):
        if self.state == BURNING:
            raise RuleError("burn procedure not finished: %s more card(s) to burn (Baccarat art. 2(1))"
                            % ("the first card decides how many" if self.burn_left < 0 else self.burn_left))
        if self.state == CLOSED:
            raise RuleError("shoe finished: reshuffle and start a new shoe (Baccarat art. 3(1))")
        if self.state != READY:
            raise RuleError("a round is already in progress (shoe %s)" % self.state_name())
        if demo and not self.can_start_demo():
            raise RuleError("no demonstration round allowed now: at most %d, only before the first live round "
                            "(Baccarat art. 2(2))" % self.settings.demo_rounds)
        if self.auto:
            self._refill()  # art. 7(2): the machine got every card back after the last round
        self.round = Round(self.settings)
        self.round_demo = demo
        self.rounds += 1
        if demo:
            self.demo_rounds += 1
        else:
            self.live_rounds += 1
        self.state = IN_ROUND
        return self.round

    def expected(self):
        """Hand due the next card, or NONE (no round, round complete, error pending)."""
        if self.state != IN_ROUND:
            return _NONE
        return self.round.expected()

    def deal(self, card, hand=None, face_up=False):
        """A card out of the shoe for the round. Returns the hand it belongs to.
        Art. 4: a face-up card is valid. Raises IntegrityError for a card the shoe
        cannot hold, DealingError (art. 10) for a misplaced or extra card.
        A malformed call (card number outside 0..51, unknown hand) changes
        nothing; any real card refused is still counted out of the shoe (art. 1)."""
        if hand is None and (face_up is True or face_up is False):
            # all check_call() tests when no hand is sensed (a call fewer); cards.check() only for what is
            # not an int 0..51 (it raises, but for an int subclass: a call fewer a card)
            if type(card) is not int or card < 0 or card >= _DECK_SIZE:
                _cards.check(card)
        else:
            check_call(card, hand, face_up)
        state = self.state                      # (fields read once into locals: the last card's pass)
        if state == ERROR:
            self._discard(card)
            raise RuleError("dealing error pending (%s): correct() or void() first (Baccarat art. 10); "
                            "%s is counted out of the shoe and discarded" % (self.pending[0], _cards.name(card)))
        if state == BURNING or state == CLOSED:
            self._discard(card)
            raise RuleError("no card may be dealt now (shoe %s); %s is counted out of the shoe and discarded"
                            % (self.state_name(), _cards.name(card)))
        counts = self.counts
        if counts[card] == 0:
            self._take(card)                    # (raises: the card cannot come out, art. 1)
        counts[card] -= 1                       # _take() without its card check again (check_call's)
        self.remaining -= 1
        rnd = self.round
        if state == READY or rnd.complete:
            self.pending = (EXTRA_CARD, card, hand)
            self.state = ERROR
            raise DealingError("dealing error: %s drawn when no hand may draw (Baccarat arts. 9, 10): "
                               "correct() discards it, or void() the round" % _cards.name(card), EXTRA_CARD)
        if hand is not None:                    # (a table that does not sense the hand asks nothing)
            due = rnd.expected()
            if hand != due:
                self.pending = (WRONG_HAND, card, hand)
                self.state = ERROR
                raise DealingError("dealing error: %s placed on %s but due to %s (Baccarat arts. 7, 9, 10): "
                                   "correct() moves it, or void() the round"
                                   % (_cards.name(card), HAND_NAMES[hand], HAND_NAMES[due]), WRONG_HAND)
        return rnd.give(card, face_up)      # (Round.deal()'s checks: done above)

    def correct(self):
        """Art. 10: the dealer corrects the pending error at once: a misplaced
        card goes to the hand that was due, an extra card is discarded."""
        if self.state != ERROR:
            raise RuleError("no dealing error to correct")
        kind, card, _hand = self.pending
        self.pending = None
        self.state = IN_ROUND if self.round is not None else READY
        if kind == WRONG_HAND:
            return self.round.deal(card)
        self.burned += 1
        return _NONE

    def void(self):
        """Art. 10: an error that cannot be corrected voids the round: every bet is
        returned (baccarat.settle_void). Returns the round's record."""
        if self.state == ERROR and self.round is None:
            return self.correct()  # nothing to void: the stray card is discarded
        if self.state != IN_ROUND and self.state != ERROR:
            raise RuleError("no round in progress to void")
        if self.pending is not None:
            self.burned += 1
            self.pending = None
        return self._close_round(True)

    def cut_card(self):
        """Art. 3(1): the cut card came out. The round in progress (or, between
        rounds, the next one) is the last, or one more follows (cut_card option)."""
        if self.auto:
            raise RuleError("the automatic shuffler-dealer has no cut card (Baccarat art. 2(3))")
        if self.last_round:
            raise RuleError("cut card already out")
        current = self.rounds if self.state in (IN_ROUND, ERROR) else self.rounds + 1
        option = self.settings.cut_card
        if option == "last_round":
            self.last_round = current
        elif option == "one_more":
            self.last_round = current + 1
        else:
            raise SettingsError("Baccarat cut_card option %r unknown (art. 3(1))" % (option,))
        return self.last_round

    def end_round(self):
        """Close a complete round -> RoundRecord (result flagged demo if so)."""
        if self.state != IN_ROUND:
            raise RuleError("no round in progress (shoe %s)" % self.state_name())
        rnd = self.round
        if not rnd.complete:
            raise RuleError("round not complete: the next card is due to %s" % HAND_NAMES[rnd.expected()])
        # _close_round(False), inline (a call fewer in the last card's pass)
        last = self.last_round != 0 and self.rounds >= self.last_round
        record = RoundRecord(self.rounds, self.round_demo, False, rnd.result(), last, rnd.face_up)
        self.round = None
        self.state = CLOSED if last else READY
        return record

    def _close_round(self, void):
        rnd = self.round
        result = None if void else rnd.result()
        last = self.last_round != 0 and self.rounds >= self.last_round
        record = RoundRecord(self.rounds, self.round_demo, void, result, last, rnd.face_up)
        self.round = None
        self.state = CLOSED if last else READY
        return record

    def change(self):
        """Art. 3(2): the house changes the shoe after any round."""
        if self.state == IN_ROUND or self.state == ERROR:
            raise RuleError("the shoe may be changed only after a round (Baccarat art. 3(2))")
        self.state = CLOSED
        self.burn_left = 0      # a shoe taken out in its burn (art. 2(1)): the burn ends with it
