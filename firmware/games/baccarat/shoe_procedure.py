# Baccarat's shoe procedure, for the table controller: a new shoe and its burn (art. 2(1)), the shoe's
# messages between rounds, the cut card (art. 3(1)), the closed shoe and the shoe change (art. 3(2)).
# A mixin of firmware/games/baccarat/controller.py's BaccaratTable, whose state it shares.
from firmware import faults
from firmware.errors import IntegrityError, RuleError
from firmware.events import BETS, BUTTON, BUTTON_LONG, CARD, SHOE, SHOE_CUT, SHOE_IN, SHOE_OUT, SHOE_UNREAD
from firmware.games.baccarat import shoe as shoe_mod
from firmware.games.baccarat.codes import (BETTING, BURNING, NEWS_BURNED, NEWS_CUT, NEWS_NEW, NEWS_REMOVED, NO_CARD,
                                           OUT_DEALT, OUT_SHOE, TO_BURN)
from firmware.games.baccarat.roads import Roads
from firmware.statemachine import STAY
from firmware.table import READY


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
        self._emit(OUT_SHOE, NEWS_NEW, self.settings.decks)
        return BURNING if self.shoe.state == shoe_mod.BURNING else BETTING

    # -- BURNING: art. 2(1) ----------------------------------------------------------------
    def _on_burning(self, kind, a, b):
        if kind == CARD:
            return self._burn(a, b)
        return self._between_rounds(kind, a, b)

    def _burn(self, card, face_up):
        try:
            self.shoe.burn(card)
        except IntegrityError:
            return self._alarm(faults.CARD_IMPOSSIBLE, card)
        self._emit(OUT_DEALT, card, TO_BURN * 2 + (1 if face_up else 0))
        self.since_card_ms = 0
        if self.state == BURNING and self.shoe.state == shoe_mod.READY:
            self._emit(OUT_SHOE, NEWS_BURNED, self.shoe.burned)
            return BETTING
        self.display_dirty = True
        return STAY

    def _between_rounds(self, kind, a, b):
        """BURNING and BETTING alike: the shoe's other messages and the dealer's shoe change."""
        if kind == SHOE:
            if a == SHOE_IN:
                return self._new_shoe()             # art. 3(2): the shoe may be changed after any round
            if a == SHOE_OUT:
                self.shoe.change()
                self._emit(OUT_SHOE, NEWS_REMOVED)
                return READY
            if a == SHOE_UNREAD:
                return self._alarm(faults.CARD_UNREADABLE, NO_CARD)
            if a == SHOE_CUT:
                return self._cut_card()
        if kind == BETS:
            return self._bets(a)
        if self._shoe_button(kind, a, b):
            return self._new_shoe()
        if self._anywhere(kind, a, b):
            return STAY
        return self._common(kind, a, b)

    def _cut_card(self):
        try:
            last = self.shoe.cut_card()
        except RuleError:
            return STAY                                  # an auto shuffler has none; a second one changes nothing
        self._emit(OUT_SHOE, NEWS_CUT, last)
        return STAY

    # -- SHOE_CLOSED --------------------------------------------------------------------------
    def _on_shoe_closed(self, kind, a, b):
        if kind == SHOE and a == SHOE_IN or self._shoe_button(kind, a, b):
            return self._new_shoe()
        if kind == SHOE and a == SHOE_OUT:
            self._emit(OUT_SHOE, NEWS_REMOVED)
            return READY
        if kind == CARD:
            return self._alarm(faults.CARD_OUT_OF_ORDER, a)
        if kind == BETS:
            return self._bets(a)                         # for the next shoe's first round
        if self._anywhere(kind, a, b):
            return STAY
        return self._common(kind, a, b)

    def _shoe_button(self, kind, a, b):
        # A long press: a new shoe discards the one in play, so never by a slip of the hand.
        return kind == BUTTON and a == self.shoe_button and b == BUTTON_LONG
