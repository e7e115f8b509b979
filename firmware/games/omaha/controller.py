# Omaha table controller: hands from the framed shoe and the dealer keypad, run to completion.
#
# A state machine on the table core (firmware.table.Table), fed one event at a
# time from the fixed queue: cards and shoe messages from the framed shoe, keys
# from the dealer keypad, dealer buttons, host requests. The rules are the
# engine beside it (rules.OmahaHand): every card and every action goes through
# it; this module decides what a card or a key means in the table's state and
# what the dealer, the lights and the host are told (docs/omaha.md, "The table").
#
#   STARTING -> READY (no hand) -> DEALING <-> BETTING -> READY (result shown); FAULTED from any and back
#
# Anything that would make the table's knowledge of the hand wrong (a card out
# of order, a card seen twice, an unread card, an action keyed while a card is
# awaited, a shoe line fault) holds the table in FAULTED with a misdeal prompt
# (Omaha art. 9): the dealer corrects it at once, or holds VOID and the hand is
# void with every bet returned (art. 9(2)). Nothing is guessed.
from firmware.errors import IntegrityError, RuleError
from firmware.games.omaha import rules
from firmware.games.omaha.alarms import Alarms
from firmware.games.omaha.betting import BetRangeError
from firmware.games.omaha.entry import Entry, command_word, is_action, key_code
from firmware.games.omaha.lights import OmahaLights
from firmware.games.omaha.seats import Seats
from firmware.table import Table

# copies of firmware.events (tests/host/test_const_copies.py)
_BUTTON = const(2)
_BUTTON_LONG = const(2)
_BUTTON_PRESSED = const(1)
_CARD = const(3)
_HOST = const(7)
_HOST_HAND = const(2)
_HOST_TAG_SHIFT = const(16)
_KEY = const(17)
_SHOE = const(12)
_SHOE_HELLO = const(1)
_SHOE_UNREAD = const(5)
_TICK = const(1)
# copies of firmware.faults (tests/host/test_const_copies.py)
_CARD_IMPOSSIBLE = const(11)
_CARD_MISSING = const(16)
_CARD_OUT_OF_ORDER = const(14)
_CARD_UNREADABLE = const(12)
_SHOE_RESTARTED = const(52)
# copies of firmware.games.omaha.codes (tests/host/test_const_copies.py)
_BETTING = const(5)
_DEALING = const(4)
_FACE_UP = const(128)
_K_ALLIN = const(19)
_K_BUTTON = const(11)
_K_FOLD = const(14)
_K_NEW = const(10)
_K_NONE = const(255)
_K_RAISE = const(18)
_K_SEAT = const(12)
_K_STACK = const(13)
_NO_CARD = const(-1)
_OUT_ACTION = const(34)
_OUT_DEALT = const(33)
_OUT_REFUSED = const(35)
_OUT_RESULT = const(36)
_OUT_SHOE_HELLO = const(40)
_TO_BOARD = const(2)
_TO_BURN = const(1)
_TO_HOLE = const(0)
# copies of firmware.games.omaha.entry (tests/host/test_const_copies.py)
_ENTERED = const(1)
_IGNORED = const(3)
_MAX_DIGITS = const(9)
_NO_NUMBER = const(-1)
_OVERFLOW = const(2)
# copies of firmware.statemachine (tests/host/test_const_copies.py)
_STAY = const(-1)
# copies of firmware.table_codes (tests/host/test_const_copies.py)
_FAULTED = const(2)
_OUT_BUTTON = const(2)
_OUT_STATE = const(1)
_READY = const(1)
_STARTING = const(0)

# The action of each key _K_FOLD.._K_RAISE (fold, check, call, bet, raise: rules.ACTIONS' order), by
# key - _K_FOLD: a tuple literal (the dict it was, built at import, kept 64 bytes of the heap in the VM; in
# ROMFS the tuple is made in RAM at load, its strings not; issue 14). test_kept_literals compares.
_ACTION_WORDS = ("fold", "check", "call", "bet", "raise")


class OmahaTable(Alarms, Seats, OmahaLights, Table):
    # Table.STATE_NAMES and the game's, a literal (test_kept_literals compares): one constant in flash when
    # frozen; Table.STATE_NAMES + (...) made it at import, 32 bytes of the heap in the VM (issue 14).
    STATE_NAMES = ("starting", "ready", "fault", "lamp_check", "dealing", "betting")

    def __init__(self, lights, buttons, settings, key_legends, outbox_size=64):
        """buttons: board button index by role (confirm, void, deal; -1 when absent): a long press of
        void is the misdeal (art. 9(2)); key_legends: the dealer keypad's legend per key index
        ("new", "7", "raise", ... "" where there is no key)."""
        self.settings = settings
        self.seats = settings.seats
        self.void_button = buttons.get("void", -1)
        self.key_codes = bytearray(len(key_legends))
        for i in range(len(key_legends)):
            self.key_codes[i] = key_code(key_legends[i])
        self.entry = Entry()
        self.answer = ""             # the dealer display's answer to the last entry ("" none)
        self.refusal = (None, None, None, "", "")   # seat, act, amount, reason, display of the last refusal
        self.hand = None             # the hand in play, or the last one (rules.OmahaHand)
        self.result = None           # its HandResult once over
        self.hand_no = 0             # hands started since the table opened
        self.void_reason = ""
        self.seen = bytearray(52)    # cards out of the shoe in this hand (dealt or discarded)
        self.held_card = _NO_CARD    # a card out of order, waiting for CONFIRM (discard) or VOID
        self.act_stack = 0           # the last action's seat: chips left, pot after it, all in
        self.act_pot = 0
        self.act_all_in = False
        self.prompt_void = False     # VOID pressed short: the display says to hold it
        self.key_target = _STAY      # where the last key takes the table
        Seats.__init__(self)
        OmahaLights.__init__(self, lights)
        Table.__init__(self, lights, buttons.get("confirm", -1), outbox_size)

    # -- state entries ---------------------------------------------------------------
    def _enter_ready(self):
        Table._enter_ready(self)
        self._render_lights()

    def _enter_game(self):
        self.display_dirty = True
        self._emit(_OUT_STATE, self.state)
        self._render_lights()

    def hand_runs(self):
        """A hand is dealt or bet and not over (a misdeal may still void it, art. 9)."""
        if self.hand is None:
            return False
        kind = self.hand.expected()[0]
        return kind != rules.EXPECT_DONE and kind != rules.EXPECT_VOID

    # -- STARTING / READY -----------------------------------------------------------------
    def _on_starting(self, kind, a, b):
        if kind == _CARD or kind == _SHOE or kind == _KEY or (kind == _HOST and a == _HOST_HAND):
            # Input before the lamp test is over: the test is cut short rather than the input lost.
            # (A host's roads or RECALL is answered by the core without it: the test goes on.)
            self.state = _READY
            target = self._on_ready(kind, a, b)
            self.state = _STARTING
            return _READY if target == _STAY else target
        return Table._on_starting(self, kind, a, b)

    def _on_ready(self, kind, a, b):
        if kind == _CARD:
            self.held_card = a
            return self._alarm(_CARD_OUT_OF_ORDER, a)
        if kind == _SHOE and a == _SHOE_UNREAD:
            return self._alarm(_CARD_OUT_OF_ORDER, _NO_CARD)
        if kind == _HOST and a == _HOST_HAND:
            return self._host_hand(b >> _HOST_TAG_SHIFT)     # b: the host's tag (0: none), given back
        if self._anywhere(kind, a, b):
            return self.key_target
        return Table._on_ready(self, kind, a, b)

    # -- DEALING and BETTING -----------------------------------------------------------------
    def _on_hand(self, kind, a, b):
        if kind == _CARD:
            return self._card(a, b)
        if kind == _SHOE and a == _SHOE_HELLO:
            return self._alarm(_SHOE_RESTARTED, b)           # a card may have left it unreported
        if kind == _SHOE and a == _SHOE_UNREAD:
            if self.state == _DEALING:
                return self._alarm(_CARD_UNREADABLE, _NO_CARD)
            return self._alarm(_CARD_OUT_OF_ORDER, _NO_CARD)
        if kind == _BUTTON and a == self.void_button and b == _BUTTON_LONG:
            self._emit(_OUT_BUTTON, a, b)
            return self._misdeal("misdeal")
        if kind == _HOST and a == _HOST_HAND:
            self._host_refused("a hand is in play", b >> _HOST_TAG_SHIFT)
            return _STAY
        if self._anywhere(kind, a, b):
            return self.key_target
        return self._common(kind, a, b)

    def _card(self, card, face_up):
        if card < 0 or card >= 52 or self.seen[card]:
            return self._alarm(_CARD_IMPOSSIBLE, card if 0 <= card < 52 else _NO_CARD)
        hand = self.hand
        kind, seat = hand.expected()
        if kind != rules.EXPECT_HOLE and kind != rules.EXPECT_BURN and kind != rules.EXPECT_BOARD:
            self.held_card = card
            return self._alarm(_CARD_OUT_OF_ORDER, card)
        try:
            hand.deal(card)
        except IntegrityError:
            return self._alarm(_CARD_IMPOSSIBLE, card)
        self.seen[card] = 1
        up = _FACE_UP if face_up else 0                  # an exposed card is dealt on, and told to the host
        if kind == rules.EXPECT_HOLE:
            self._emit(_OUT_DEALT, card, _TO_HOLE + 4 * seat + up)
        elif kind == rules.EXPECT_BURN:
            self._emit(_OUT_DEALT, card, _TO_BURN + up)
        else:
            n = len(hand.board)
            self._emit(_OUT_DEALT, card, _TO_BOARD + 4 * (1 if n <= 3 else n - 2) + up)
        return self._next_state()

    def _next_state(self):
        """Where the hand is now: a card awaited (DEALING), an action (BETTING), or over (READY)."""
        kind = self.hand.expected()[0]
        if kind == rules.EXPECT_DONE:
            return self._finish()
        target = _BETTING if kind == rules.EXPECT_ACTION else _DEALING
        self.display_dirty = True
        if target == self.state:
            self._render_lights()
            return _STAY
        return target

    def _finish(self):
        self.result = self.hand.result()
        self._carry_stacks(self.result)
        self.showing_result = True
        self._emit(_OUT_RESULT, self.hand_no)
        self.display_dirty = True
        if self.state == _READY:
            self._render_lights()
        return _READY

    # -- the keypad ------------------------------------------------------------------------------
    def _key(self, index):
        """One key; sets key_target (the state to go to, or STAY)."""
        self.key_target = _STAY
        code = self.key_codes[index] if 0 <= index < len(self.key_codes) else _K_NONE
        what = self.entry.press(code)
        if what == _IGNORED:
            return
        self.answer = ""
        self.display_dirty = True
        if what == _OVERFLOW:
            self._refuse("at most %d digits in a number" % _MAX_DIGITS, "TOO MANY DIGITS")
        elif what == _ENTERED:
            self.key_target = self._enter()
            self.entry.clear()

    def _enter(self):
        command = self.entry.command
        if self.state == _FAULTED:
            self._refuse("an alarm is open: CONFIRM or hold VOID first (art. 9)", "ALARM OPEN")
        elif command == _K_NONE:
            self._refuse("no command keyed", "KEY A COMMAND")
        elif is_action(command):
            if self.state == _BETTING:
                return self._action(command)
            if self.state == _DEALING:
                return self._alarm(_CARD_MISSING, _NO_CARD)
            self._refuse("no hand in play: NEW ENTER starts one", "NO HAND")
        elif self.state != _READY:
            self._refuse("a hand is in play: the table is changed between hands", "HAND IN PLAY")
        elif command == _K_NEW:
            if self.entry.seat != _NO_NUMBER or self.entry.amount != _NO_NUMBER:
                self._refuse("NEW takes no number", "NEW ENTER")
            else:
                return self._start_hand(False)
        elif command == _K_BUTTON:
            self._key_button()
        elif command == _K_SEAT:
            self._key_seat()
        elif command == _K_STACK:
            self._key_stack()
        return _STAY

    def _refuse(self, reason, display):
        """A keypad entry not applied: the display answers at once, the host hears why."""
        e = self.entry
        self.refusal = (e.seat if e.seat != _NO_NUMBER else None, command_word(e.command),
                        e.amount if e.amount != _NO_NUMBER else None, reason, display)
        self.answer = display
        self.display_dirty = True
        self._emit(_OUT_REFUSED)
        self.entry.clear()

    def _action(self, command):
        hand = self.hand
        e = self.entry
        to_act = hand.expected()[1]
        seat = to_act if e.seat == _NO_NUMBER else e.seat
        legal = hand.legal()
        amount = None if e.amount == _NO_NUMBER else e.amount
        if command == _K_ALLIN:
            if amount is not None:
                self._refuse("all in takes no amount", legal.display())
                return _STAY
            if seat != to_act:
                action = rules.CALL                       # the engine refuses it as any action out of turn
            elif legal.kind is not None:
                action, amount = legal.kind, legal.all_in_to
            elif legal.call > 0 and legal.call == hand.stack[legal.index]:
                action = rules.CALL                       # the call is all it has
            else:
                self._refuse("seat %d may not go all in: %s" % (seat, legal.why_not or "nothing to call"),
                             legal.display())
                return _STAY
        else:
            action = _ACTION_WORDS[command - _K_FOLD]
            if amount is None and seat == to_act and (action == rules.BET or action == rules.RAISE):
                self._refuse("%s needs an amount: the seat's total bet in this betting round" % action,
                             legal.display())
                return _STAY
        try:
            hand.act(seat, action, amount)
        except BetRangeError as exc:
            self._refuse(str(exc), exc.display)
            return _STAY
        except RuleError as exc:
            self._refuse(str(exc), "SEAT %d TO ACT" % to_act if seat != to_act else legal.display())
            return _STAY
        i = legal.index
        self.act_stack = hand.start[i] - hand.betting.total[i]
        self.act_pot = hand.pot_total()
        self.act_all_in = self.act_stack == 0
        self._emit(_OUT_ACTION, len(hand.history) - 1)
        return self._next_state()

    # -- events every state takes the same way -----------------------------------------------------
    def _anywhere(self, kind, a, b):
        self.key_target = _STAY
        if kind == _KEY:
            self._key(a)
            return True
        if kind == _TICK:
            self._common(kind, a, b)
            return True
        if kind == _SHOE and a == _SHOE_HELLO:
            self._emit(_OUT_SHOE_HELLO, 0, b)            # between hands: reported, no card in doubt
            return True
        if kind == _BUTTON and a == self.void_button and b == _BUTTON_PRESSED:
            self._emit(_OUT_BUTTON, a, b)
            self.prompt_void = self.state == _FAULTED
            self.display_dirty = True
            return True
        return False

    HANDLERS = (_on_starting, _on_ready, Alarms._on_faulted) + Table.HANDLERS[3:] + (_on_hand, _on_hand)
    ENTRY = Table.ENTRY[:1] + (_enter_ready,) + Table.ENTRY[2:] + (_enter_game, _enter_game)

    # -- reports and snapshots between hands (reports.py, snapshot.py) ----------------------------------
    def game_modules(self):
        from firmware.games.omaha import reports, snapshot
        return reports, snapshot
