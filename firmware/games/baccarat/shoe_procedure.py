# Baccarat's shoe procedure, for the table controller: a new shoe and its burn (art. 2(1)), the shoe's
# messages between rounds, the cut card (art. 3(1)), the closed shoe and the shoe change (art. 3(2)).
# A mixin of firmware/games/baccarat/controller.py's BaccaratTable, whose state it shares.
from firmware.errors import IntegrityError, RuleError
from firmware.games.baccarat import shoe as shoe_mod
from firmware.games.baccarat.roads import Roads

# copies of firmware.events (tests/host/test_const_copies.py)
_BETS = const(13)
_BUTTON = const(2)
_BUTTON_LONG = const(2)
_CARD = const(3)
_SHOE = const(12)
_SHOE_CUT = const(2)
_SHOE_HELLO = const(1)
_SHOE_IN = const(3)
_SHOE_OUT = const(4)
_SHOE_UNREAD = const(5)
# copies of firmware.faults (tests/host/test_const_copies.py)
_CARD_IMPOSSIBLE = const(11)
_CARD_OUT_OF_ORDER = const(14)
_CARD_UNREADABLE = const(12)
_SHOE_RESTARTED = const(52)
# copies of firmware.games.baccarat.codes (tests/host/test_const_copies.py)
_BETTING = const(5)
_BURNING = const(4)
_NEWS_BURNED = const(1)
_NEWS_CUT = const(2)
_NEWS_NEW = const(0)
_NEWS_REMOVED = const(4)
_NO_CARD = const(-1)
_OUT_DEALT = const(33)
_OUT_SHOE = const(32)
_TO_BURN = const(2)
# copies of firmware.statemachine (tests/host/test_const_copies.py)
_STAY = const(-1)
# copies of firmware.table_codes (tests/host/test_const_copies.py)
_READY = const(1)


class ShoeProcedure:
    def _new_shoe(self):
        self.keep_tie_stakes()       # a tie's standing stakes wait for the next live round (art. 11)
        self.shoe = shoe_mod.Shoe(self.settings)
        self.roads = Roads()
        self.scoreboard_dirty = True
        self.showing_result = False
        self.burned_this_round = False
        self.record = None
        self.hand = None
        self.last_hand = None
        self.has_bets = False        # the last round's bets went with it
        self._emit(_OUT_SHOE, _NEWS_NEW, self.settings.decks)
        return _BURNING if self.shoe.state == shoe_mod.BURNING else _BETTING

    # -- BURNING: art. 2(1) ----------------------------------------------------------------
    def _on_burning(self, kind, a, b):
        if kind == _CARD:
            return self._burn(a, b)
        return self._between_rounds(kind, a, b)

    def _burn(self, card, face_up):
        try:
            self.shoe.burn(card)
        except IntegrityError:
            return self._alarm(_CARD_IMPOSSIBLE, card)
        self._emit(_OUT_DEALT, card, _TO_BURN * 2 + (1 if face_up else 0))
        self.since_card_ms = 0
        if self.state == _BURNING and self.shoe.state == shoe_mod.READY:
            self._emit(_OUT_SHOE, _NEWS_BURNED, self.shoe.burned)
            return _BETTING
        self.display_dirty = True
        return _STAY

    def _between_rounds(self, kind, a, b):
        """BURNING and BETTING alike: the shoe's other messages and the dealer's shoe change."""
        if kind == _SHOE:
            if a == _SHOE_HELLO and self.drawing(self.state):
                return self._alarm(_SHOE_RESTARTED, b)
            if a == _SHOE_IN:
                return self._new_shoe()             # art. 3(2): the shoe may be changed after any round
            if a == _SHOE_OUT:
                self.shoe.change()
                self._emit(_OUT_SHOE, _NEWS_REMOVED)
                return _READY
            if a == _SHOE_UNREAD:
                return self._alarm(_CARD_UNREADABLE, _NO_CARD)
            if a == _SHOE_CUT:
                return self._cut_card()
        if kind == _BETS:
            return self._bets(a)
        if self.is_new_shoe(kind, a, b):
            return self._new_shoe()
        if self._anywhere(kind, a, b):
            return _STAY
        return self._common(kind, a, b)

    def _cut_card(self):
        try:
            last = self.shoe.cut_card()
        except RuleError:                                # an auto shuffler has none; a second one changes nothing
            return self._common(_SHOE, _SHOE_CUT, 0)     # reported, not taken
        self._emit(_OUT_SHOE, _NEWS_CUT, last)
        return _STAY

    # -- SHOE_CLOSED --------------------------------------------------------------------------
    def _on_shoe_closed(self, kind, a, b):
        if self.is_new_shoe(kind, a, b):
            return self._new_shoe()
        if kind == _SHOE and a == _SHOE_OUT:
            self._emit(_OUT_SHOE, _NEWS_REMOVED)
            return _READY
        if kind == _CARD:
            # held, and set aside at CONFIRM counted out of this shoe: a card it cannot hold (a seventh A of
            # hearts of six decks) is reported card_impossible (alarms._hold)
            return self._hold(_CARD_OUT_OF_ORDER, a, b)
        if kind == _SHOE and a == _SHOE_UNREAD:
            return self._alarm(_CARD_OUT_OF_ORDER, _NO_CARD)   # a card out of the closed shoe, unread (was dropped)
        if kind == _BETS:
            return self._bets(a)                         # for the next shoe's first round
        if self._anywhere(kind, a, b):
            return _STAY
        return self._common(kind, a, b)

    def drawing(self, state):
        """Is the dealer drawing cards in `state` (the table's, or the one an alarm holds)? A round in play,
        the art. 2(1) burn once its first card is out, the art. 8 burn card out before the round's first.
        A shoe's HELLO then may have lost a card, which the next card would be taken for (every card after
        it one place late): the shoe_restarted alarm (art. 10). Otherwise (bets open, a new shoe docked
        after the dealer's SHOE CHANGE, which says HELLO before its first card) it is only reported."""
        if self.in_round():
            return True
        if state == _BURNING:
            return self.shoe.burned > 0
        return state == _BETTING and self.burned_this_round

    def is_new_shoe(self, kind, a, b):
        """A new shoe (art. 3(2)): the shoe's IN, or the dealer's SHOE CHANGE held long (a new shoe discards the
        one in play, so never by a slip of the hand). Also settings_swap's test, with a change pending."""
        return kind == _SHOE and a == _SHOE_IN or kind == _BUTTON and a == self.shoe_button and b == _BUTTON_LONG
