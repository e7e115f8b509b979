# Misdeal prompts of the Omaha table (a part of OmahaTable): Omaha art. 9, nothing guessed.
#
# While FAULTED the table is held where it was (resume_state); nothing is
# decided. What closes each alarm (docs/omaha.md, "Misdeal prompts"):
#   card_out_of_order  CONFIRM: the card is dealt to no one (discard, counted)
#   card_impossible    only a long VOID (a card seen twice: not one deck)
#   card_unreadable    the next card read is that card (rescan)
#   card_missing       the card is read (rescan), or CONFIRM (the keyed action is dropped)
#   shoe line fault    CONFIRM (the dealer vouches no card left), or the next card read (rescan)
# A long VOID while a hand runs is a misdeal: the hand is void, every bet returned (art. 9(2)).
from firmware import fault_kinds

# copies of firmware.events (tests/host/test_const_copies.py)
_BUTTON = const(2)
_BUTTON_LONG = const(2)
_BUTTON_PRESSED = const(1)
_CARD = const(3)
_FAULT = const(8)
_HOST = const(7)
_HOST_HAND = const(2)
_HOST_TAG_SHIFT = const(16)
_SHOE = const(12)
_SHOE_HELLO = const(1)
_SHOE_UNREAD = const(5)
# copies of firmware.faults (tests/host/test_const_copies.py)
_CARD_IMPOSSIBLE = const(11)
_CARD_MISSING = const(16)
_CARD_OUT_OF_ORDER = const(14)
_CARD_UNREADABLE = const(12)
_SHOE_RESTARTED = const(52)
# copies of firmware.games.omaha.codes (tests/host/test_const_copies.py)
_DEALING = const(4)
_NO_CARD = const(-1)
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


def _rescan_closes(code):
    """The alarms a card read closes: it is the card the shoe did not (or could not) report."""
    return code == _CARD_UNREADABLE or code == _CARD_MISSING or fault_kinds.is_reader_fault(code)


class Alarms:
    def may_confirm(self):
        """CONFIRM closes the alarm, except where only a rescan or VOID may (art. 9: never guessed)."""
        code = self.fault_code
        if code == _CARD_UNREADABLE or code == _CARD_IMPOSSIBLE:
            return not self.hand_runs()
        return True

    def _on_faulted(self, kind, a, b):
        if kind == _FAULT:
            self._further_fault(a, b)
            return _STAY
        if kind == _CARD:
            return self._card_in_alarm(a, b)
        if kind == _SHOE and a == _SHOE_UNREAD:
            if self.resume_state == _DEALING or self.fault_code == _CARD_MISSING:
                return self._on_faulted(_FAULT, _CARD_UNREADABLE, _NO_CARD)
            self._emit(_OUT_FAULT, _CARD_OUT_OF_ORDER, _NO_CARD)
            return _STAY
        if kind == _SHOE and a == _SHOE_HELLO and self.hand_runs():
            self._further_fault(_SHOE_RESTARTED, b)      # the fault it is in a hand; the alarm in force stays
            return _STAY
        if kind == _BUTTON and a == self.confirm_button and b == _BUTTON_PRESSED:
            return self._confirm(a, b)
        if kind == _BUTTON and a == self.void_button and b == _BUTTON_LONG:
            self._emit(_OUT_BUTTON, a, b)
            if not self.hand_runs():
                self.display_dirty = True
                return _STAY
            reason = fault_kinds.name(self.fault_code)
            self.acknowledge(_ACK_VOID)
            return self._misdeal(reason)
        if kind == _HOST and a == _HOST_HAND:
            self._host_refused("an alarm is open", b >> _HOST_TAG_SHIFT)
            return _STAY
        if self._anywhere(kind, a, b):
            return self.key_target if self.key_target != _FAULTED else _STAY
        return self._common(kind, a, b)

    def _misdeal(self, reason):
        """Art. 9(2): the hand is void, every bet returned; the stacks are those before the blinds. A void
        round is no round played (art. 1(2) moves the button after a round): the next hand keeps its
        button, even on a seat emptied since (a dead button: the blinds fall on the same seats)."""
        self.hand.misdeal()
        self.next_button_seat = self.button
        self.void_reason = reason
        self.held_card = _NO_CARD
        self.prompt_void = False
        return self._finish()

    def _confirm(self, a, b):
        self._emit(_OUT_BUTTON, a, b)
        if not self.may_confirm():
            self.display_dirty = True
            return _STAY
        held = self.held_card
        self.held_card = _NO_CARD
        self.prompt_void = False
        target = self.acknowledge(_ACK_CONFIRM)
        if held != _NO_CARD:
            self._discard(held)
        return target

    def _card_in_alarm(self, card, face_up):
        """A card read while held: the rescan the alarm asked for, or a card dealt to no one."""
        if self.resume_state >= _DEALING and _rescan_closes(self.fault_code):
            target = self.acknowledge(_ACK_RESCAN)
            return self._resume_with_card(target, card, face_up)
        if self.hand_runs():
            self._discard(card)
        else:                                            # no hand to count it in: reported, never lost
            self._emit(_OUT_FAULT, _CARD_OUT_OF_ORDER, card if 0 <= card < 52 else _NO_CARD)
        return _STAY

    def _discard(self, card):
        """A card set aside by the dealer: counted in the hand (it cannot come back), dealt to no one."""
        if not self.hand_runs() or card < 0 or card >= 52:
            return                                       # no hand: nothing to count it in
        if self.seen[card]:
            self._emit(_OUT_FAULT, _CARD_IMPOSSIBLE, card)
            return
        self.seen[card] = 1
        self._emit(_OUT_DEALT, card, _TO_DISCARD)
