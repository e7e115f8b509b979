# Alarm handling of the Baccarat table (a part of BaccaratTable): Baccarat art. 10, nothing guessed.
#
# While FAULTED the table is held where it was (resume_state). CONFIRM closes
# the alarm where the dealer may vouch for the table; a card read is the rescan
# an unreadable card or a lost frame asked for, else it is discarded (counted
# out of the shoe); a long VOID voids the round in play, every bet returned.
# A bet reading holds nothing either: taken for the next round between rounds, refused (reported) once a
# card of a round is out; one the reader refused (BETS_FAULT) is reported, and the dealer told while bets
# are open (BETS NOT READ).
from firmware import fault_kinds
from firmware.errors import IntegrityError
from firmware.games.baccarat import shoe as shoe_mod
from firmware.table import Table

# copies of firmware.events (tests/host/test_const_copies.py)
_BETS = const(13)
_BUTTON = const(2)
_BUTTON_LONG = const(2)
_BUTTON_PRESSED = const(1)
_CARD = const(3)
_FAULT = const(8)
_SHOE = const(12)
_SHOE_CUT = const(2)
_SHOE_HELLO = const(1)
_SHOE_OUT = const(4)
_SHOE_UNREAD = const(5)
# copies of firmware.faults (tests/host/test_const_copies.py)
_BETS_RESTARTED = const(54)
_CARD_IMPOSSIBLE = const(11)
_CARD_UNREADABLE = const(12)
_DOUBLE_PULL = const(13)
_JOURNAL_NEARLY_FULL = const(23)
_LINK_BACKLOG = const(17)
_SHOE_REMOVED = const(15)
_SHOE_RESTARTED = const(52)
# copies of firmware.games.baccarat.codes (tests/host/test_const_copies.py)
_BETTING = const(5)
_BURNING = const(4)
_DEALING = const(6)
_DOUBLE_PULL_MS = const(150)
_NO_CARD = const(-1)
_OUT_BETS = const(36)
_OUT_BETS_FAULT = const(38)
_OUT_DEALT = const(33)
_TO_DISCARD = const(3)
# copies of firmware.statemachine (tests/host/test_const_copies.py)
_STAY = const(-1)
# copies of firmware.table_codes (tests/host/test_const_copies.py)
_ACK_CONFIRM = const(0)
_ACK_RESCAN = const(1)
_ACK_VOID = const(2)
_FAULTED = const(2)
_OUT_BUTTON = const(2)
_OUT_FAULT = const(6)


class Alarms:
    def in_round(self):
        return self.shoe is not None and (self.shoe.state == shoe_mod.IN_ROUND or self.shoe.state == shoe_mod.ERROR)

    def _bets(self, reading_id):
        """A bet reading in any state but DEALING: the next round's bets, unless a card of a round is out
        (an alarm holding a round, or a first card held for the dealer: _first_card_held): then refused, as
        while dealing."""
        if self.reading is None or reading_id != self.reading.reading_id:
            return _STAY                                 # overtaken by a newer reading in the same pass
        if self.in_round() or self._first_card_held():
            self._emit(_OUT_BETS, reading_id, 0)         # bets closed when the first card came out
            return _STAY
        self.display_dirty = self.display_dirty or self.bets_unread      # BETS NOT READ goes
        self.bets_ready, self.bets_unread = True, False
        self._emit(_OUT_BETS, reading_id, 1)
        if not self.showing_result and (self.state == _BETTING or self.state == _BURNING):
            self._render_lights()                        # (an alarm's red stays; READY has no layout lit)
        return _STAY

    def _bets_refused(self, code, evidence):
        """BETS_FAULT, in any state: a bad line, a refused reading or a restart, reported. The reading accepted
        before it stands (the driver never touches it): chips the reader took are the next round's bets, as at
        Craps. A refused one's are not: while bets are open (no card of a round out) the dealer display says
        BETS NOT READ (bets_unread) until a reading is taken or the next live round starts."""
        self._emit(_OUT_BETS_FAULT, code, evidence)
        if code == _JOURNAL_NEARLY_FULL:
            # Refused by the table (no room in its journal: main._dispatch), after the driver copied it over
            # the reading taken before: that one's chips are no longer known, so no bets are ready.
            self.bets_ready = False
        if code != _BETS_RESTARTED and not self.in_round() and not self._first_card_held():
            self.bets_unread = self.display_dirty = True    # (the reader's HELLO between readings refuses none)

    def _hold(self, code, card, face_up):
        """Raise the alarm `code` with the card held for the dealer: a double pull's or a first card's while the
        host link is backed up (CONFIRM deals it on), or a card out of order (no shoe in play, the shoe closed:
        CONFIRM sets it aside, counted out of the shoe it left and reported, as a second card in the alarm is,
        _card_in_alarm; until stop 72 it was set aside unseen and uncounted). A long VOID sets it aside (_void)."""
        self.held_card = card
        self.held_face_up = face_up == 1
        return self._alarm(code, card)

    def _first_card_held(self):
        """A card held for the dealer between rounds that may be the next round's first (a double pull, the
        host link backed up): its bets are closed. (A card out of order held with no shoe in play or the shoe
        closed is no round's: the next shoe's first round's bets stay open.)"""
        return self.held_card != _NO_CARD and self.resume_state == _BETTING

    def may_confirm(self):
        """CONFIRM closes the alarm, except where only a rescan or VOID may (art. 10: never guessed)."""
        code = self.fault_code
        if code == _CARD_UNREADABLE:
            return False
        if code == _CARD_IMPOSSIBLE:
            return not self.in_round()
        if code == _LINK_BACKLOG:
            return not self.link_backlog                 # the held first card waits for the host link
        return True

    def _on_faulted(self, kind, a, b):
        code = self.fault_code
        if kind == _FAULT:
            self._further_fault(a, b)
            return _STAY
        if kind == _CARD:
            return self._card_in_alarm(a, b)
        if kind == _BETS:
            return self._bets(a)                         # taken between rounds, refused in one: reported
        if kind == _BUTTON and a == self.confirm_button and b == _BUTTON_PRESSED:
            self._emit(_OUT_BUTTON, a, b)
            if not self.may_confirm():
                self.display_dirty = True
                return _STAY
            held = self.held_card
            self.held_card = _NO_CARD
            target = self.acknowledge(_ACK_CONFIRM)
            if held != _NO_CARD and (code == _DOUBLE_PULL or code == _LINK_BACKLOG):
                return self._resume_with_card(target, held, 1 if self.held_face_up else 0)
            if held != _NO_CARD:
                self._discard(held)                      # set aside once acknowledged, as at Omaha
            return target
        if kind == _BUTTON and a == self.void_button and b == _BUTTON_LONG:
            self._emit(_OUT_BUTTON, a, b)
            return self._void()
        if kind == _SHOE and a == _SHOE_UNREAD:
            self._emit(_OUT_FAULT, _CARD_UNREADABLE, _NO_CARD) # reported; the alarm in force stays
            return _STAY
        if kind == _SHOE and a == _SHOE_HELLO and self.drawing(self.resume_state):
            self._further_fault(_SHOE_RESTARTED, b)      # the fault it is there; the alarm in force stays
            return _STAY
        if kind == _SHOE and a == _SHOE_OUT and self.in_round():
            return self._on_faulted(_FAULT, _SHOE_REMOVED, _NO_CARD)
        if kind == _SHOE and a == _SHOE_CUT and _BURNING <= self.resume_state <= _DEALING:
            return self._cut_card()                      # art. 3(1) holds whatever the alarm: never lost
        if (kind == _SHOE and a == _SHOE_OUT or self.is_new_shoe(kind, a, b)) and not self.in_round():
            return self._shoe_change_in_alarm(kind, a, b)
        if self._anywhere(kind, a, b):
            return _STAY
        return self._common(kind, a, b)

    def _card_in_alarm(self, card, face_up):
        """A card read while held: the rescan the alarm asked for, or a card dealt to no hand."""
        code = self.fault_code
        if self.resume_state >= _BURNING and (code == _CARD_UNREADABLE or fault_kinds.is_reader_fault(code)):
            if self.held_card != _NO_CARD:
                self._discard(self.held_card)
                self.held_card = _NO_CARD
            target = self.acknowledge(_ACK_RESCAN)
            return self._resume_with_card(target, card, face_up)
        self._discard(card)
        return _STAY

    def _shoe_change_in_alarm(self, kind, a, b):
        """The shoe taken out or a new one put in between rounds (art. 3(2)) while an alarm is open: taken
        as where the table was held, which it resumes in once the dealer closes the alarm."""
        if self.held_card != _NO_CARD:
            self._discard(self.held_card)                # a card held for the dealer goes with the old shoe
            self.held_card = _NO_CARD
        held_at = self.resume_state
        self.state = held_at                             # the handler below runs in that state
        target = self.HANDLERS[held_at](self, kind, a, b)
        self.state = _FAULTED
        if target != _STAY and target != _FAULTED:
            self.resume_state = target
        self.display_dirty = True
        return _STAY

    def _resume_with_card(self, target, card, face_up):
        self.since_card_ms = _DOUBLE_PULL_MS             # a rescan is not a double pull
        return Table._resume_with_card(self, target, card, face_up)

    def _discard(self, card):
        try:
            if self.shoe is not None:
                self.shoe.discard(card)
        except IntegrityError:
            self._emit(_OUT_FAULT, _CARD_IMPOSSIBLE, card)
            return
        self._emit(_OUT_DEALT, card, _TO_DISCARD * 2)

    def void_closes(self):
        """Does a long VOID close the alarm in force (_void)? In a round (voided), a card held for the dealer
        or the host link's backlog (set aside), an unreadable card between rounds but in the burn (art. 2(1):
        only its rescan there). The dealer display offers it only then (screens.py)."""
        if self.in_round() or self.held_card != _NO_CARD or self.fault_code == _LINK_BACKLOG:
            return True
        return self.fault_code == _CARD_UNREADABLE and self.resume_state != _BURNING

    def _void(self):
        """VOID held: the round in play is void, every bet returned (art. 10); or an unknown card discarded."""
        held = self.held_card
        self.held_card = _NO_CARD
        if held != _NO_CARD:
            self._discard(held)
        if self.in_round():
            self.acknowledge(_ACK_VOID)
            return self._finish_round(True)
        if held != _NO_CARD or self.fault_code == _LINK_BACKLOG:
            # A held card between rounds (a double pull after the last card, or the host link backed
            # up): set aside, no round began.
            return self.acknowledge(_ACK_VOID)
        if self.fault_code == _CARD_UNREADABLE and self.resume_state != _BURNING:
            # Discarded unseen. Where it was the art. 8 burn, the burn is done. (While burning it
            # must be rescanned: the art. 2(1) count may hang on it, and nothing is guessed.)
            if self.resume_state == _BETTING and self.settings.burn_each_round:
                self.burned_this_round = True
            return self.acknowledge(_ACK_VOID)
        self.display_dirty = True
        return _STAY
