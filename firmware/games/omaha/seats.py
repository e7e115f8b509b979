# Seats, stacks and the button of the Omaha table between hands (a part of OmahaTable).
#
# The table keeps every seat's stack (seats 1..settings.seats) and whether the
# seat is in or sitting out; a hand's payout is the next hand's stacks. The
# dealer keys them between hands (STACK, SEAT, BUTTON), or the host sends them
# with its `hand` request (docs/omaha.md, "Host requests"), parsed when the
# line arrives and kept in preallocated fields until its HOST event is
# dispatched.
from array import array

from firmware.errors import RuleError
from firmware.games.omaha import rules
from firmware.games.omaha.betting import chips_text

# copies of firmware.events (tests/host/test_const_copies.py)
_HOST_HAND = const(2)
# copies of firmware.games.omaha.codes (tests/host/test_const_copies.py)
_DEALING = const(4)
_NO_SEAT = const(0)
_OUT_BUTTON_SET = const(38)
_OUT_HAND_START = const(32)
_OUT_HOST_REFUSED = const(39)
_OUT_SEAT = const(37)
# copies of firmware.games.omaha.entry (tests/host/test_const_copies.py)
_MAX_NUMBER = const(9999999)
_NO_NUMBER = const(-1)
# copies of firmware.games.omaha.settings (tests/host/test_const_copies.py)
_MAX_PLAYERS = const(11)
_MIN_PLAYERS = const(2)
# copies of firmware.statemachine (tests/host/test_const_copies.py)
_STAY = const(-1)

# The most chips one hand may hold: every stack after its payout (at most the hand's total) must fit the
# stacks' array("i"), and stay a small int on a 32-bit MicroPython port (no heap while betting).
_MAX_HAND_CHIPS = const(0x3FFFFFFF)


def _whole(value):
    return isinstance(value, int) and not isinstance(value, bool)


class Seats:
    def __init__(self):
        n = self.seats + 1                          # index: seat number (0 unused)
        self.stacks = array("i", [0] * n)
        self.seat_in = bytearray(b"\x01" * n)       # 1: dealt in when it has chips; 0: sitting out
        self.button = _NO_SEAT                      # the last hand's button
        self.next_button_seat = _NO_SEAT            # keyed for the next hand, or kept after a void one
        self.showing_result = False
        self.host_button = _NO_SEAT                 # the parsed host request, until its HOST event
        self.host_stacks = array("i", [0] * n)
        self.host_has_stacks = False

    def playing(self, seat):
        return self.seat_in[seat] == 1 and self.stacks[seat] > 0

    def players(self):
        """Seats dealt in the next hand, ascending (allocates: a hand starts)."""
        return [s for s in range(1, self.seats + 1) if self.playing(s)]

    # -- keyed between hands ------------------------------------------------------------------
    def _keyed_seat(self):
        """The seat number keyed before the command, or None (refused) when it is no seat."""
        seat = self.entry.seat
        if seat == _NO_NUMBER or seat < 1 or seat > self.seats:
            self._refuse("key a seat 1..%d before the command" % self.seats, "SEAT 1-%d" % self.seats)
            return None
        return seat

    def _key_button(self):
        seat = self._keyed_seat()
        if seat is None:
            return
        if self.entry.amount != _NO_NUMBER:
            self._refuse("BUTTON takes a seat only", "SEAT BUTTON ENTER")
            return
        self.next_button_seat = seat
        self._emit(_OUT_BUTTON_SET, seat)
        self._render_lights()

    def _key_seat(self):
        seat = self._keyed_seat()
        if seat is None:
            return
        if self.entry.amount != _NO_NUMBER:
            self._refuse("SEAT takes a seat only", "SEAT SEAT ENTER")
            return
        self.seat_in[seat] = 0 if self.seat_in[seat] else 1
        self._emit(_OUT_SEAT, seat)
        self._render_lights()

    def _key_stack(self):
        seat = self._keyed_seat()
        if seat is None:
            return
        if self.entry.amount == _NO_NUMBER:
            self._refuse("STACK needs an amount (0 empties the seat)", "SEAT STACK AMOUNT")
            return
        if self.entry.amount > _MAX_NUMBER:
            self._refuse("a stack is at most %d" % _MAX_NUMBER, "STACK MAX " + chips_text(_MAX_NUMBER))
            return
        self.stacks[seat] = self.entry.amount
        if self.entry.amount == 0:
            self.seat_in[seat] = 1      # an empty seat: sitting out left with its player; a buy-in there plays
        self._emit(_OUT_SEAT, seat)
        self._render_lights()

    # -- a hand starts (NEW ENTER or the host's request) ---------------------------------------------
    def _start_hand(self, from_host, button=_NO_SEAT, tag=0):
        """from_host: the host's request (tag: its, given back in hand_start or host_error), else the keypad's."""
        if self.link_backlog:
            # The host link is backed up: a new hand's reports could be lost. No card is out yet, so
            # the refusal is the dealer display's answer (and action_refused / host_error for the host).
            return self._not_started(from_host, "the host link is backed up: no new hand until it catches up",
                                     "HOST AWAY: NO HAND", tag)
        players = self.players()
        if len(players) < _MIN_PLAYERS:
            return self._not_started(from_host, "at least %d players with chips are needed to start a hand "
                                     "(art. 2(3))" % _MIN_PLAYERS, "NEED 2 PLAYERS", tag)
        if len(players) > _MAX_PLAYERS:
            return self._not_started(from_host, "%d players with chips: at most %d can be dealt from one 52-card "
                                     "deck (art. 1(1)): sit a seat out" % (len(players), _MAX_PLAYERS),
                                     "MAX %d PLAYERS" % _MAX_PLAYERS, tag)
        chips = 0
        for s in players:
            chips += self.stacks[s]
        if chips > _MAX_HAND_CHIPS:
            return self._not_started(from_host, "the stacks in play total %d chips, more than one hand can hold "
                                     "(%d): key smaller stacks" % (chips, _MAX_HAND_CHIPS), "STACKS TOO BIG", tag)
        if button == _NO_SEAT:
            button = self.next_button_seat
        if button == _NO_SEAT:
            # Art. 1: the first hand's button is the first seat in from the croupier's left; then it
            # moves clockwise to the next seat in after each round (art. 1(2); after a void one it was
            # kept as next_button_seat: alarms._misdeal).
            button = players[0] if self.button == _NO_SEAT else rules.next_button(self.button, players)
        try:
            hand = rules.OmahaHand(self.settings, button, [(s, self.stacks[s]) for s in players])
        except RuleError as exc:
            return self._not_started(from_host, str(exc), "CANNOT START", tag)
        self.hand = hand
        self.result = None
        self.showing_result = False
        self.void_reason = ""
        self.next_button_seat = _NO_SEAT
        self.button = button
        self.hand_no += 1
        for i in range(len(self.seen)):
            self.seen[i] = 0
        self._emit(_OUT_HAND_START, self.hand_no, tag)
        return _DEALING

    def _not_started(self, from_host, reason, display, tag):
        if from_host:
            self._host_refused(reason, tag)
        else:
            self._refuse(reason, display)
        return _STAY

    def _carry_stacks(self, result):
        """The payout (or the stacks before the blinds, when void) is the next hand's stacks."""
        for seat, chips in result.stacks:
            self.stacks[seat] = chips

    # -- the host's `hand` request --------------------------------------------------------------------
    def host_request(self, request):
        """A parsed JSON request from the host -> (a, b) of its HOST event; ValueError (the reason) if it
        is malformed. Nothing changes until the event is dispatched (_host_hand)."""
        if not isinstance(request, dict) or len(request) != 1 or "hand" not in request:
            raise ValueError('unknown request: expected {"hand": {"button": seat, "stacks": {seat: chips}}}')
        fields = request["hand"]
        if not isinstance(fields, dict):
            raise ValueError("hand: expected an object with button and/or stacks")
        for key in fields:
            if key != "button" and key != "stacks":
                raise ValueError("hand: unknown key %r (expected button, stacks)" % (key,))
        button = fields.get("button", _NO_SEAT)
        if "button" in fields and (not _whole(button) or button < 1 or button > self.seats):
            raise ValueError("hand: button must be a seat 1..%d, got %r" % (self.seats, button))
        stacks = fields.get("stacks")
        if stacks is not None:
            self._parse_stacks(stacks)
        self.host_button = button
        self.host_has_stacks = stacks is not None
        return _HOST_HAND, 0

    def _parse_stacks(self, stacks):
        if not isinstance(stacks, dict):
            raise ValueError("hand: stacks must be an object {seat: chips}")
        parsed = self.host_stacks
        for i in range(len(parsed)):
            parsed[i] = 0
        players = 0
        for key in stacks:
            seat = int(key) if isinstance(key, str) and key.isdigit() and key[0] != "0" else 0
            if seat < 1 or seat > self.seats:
                raise ValueError("hand: seat must be 1..%d, got %r" % (self.seats, key))
            chips = stacks[key]
            if not _whole(chips) or chips < 0 or chips > _MAX_NUMBER:
                raise ValueError("hand: stack of seat %s must be a whole number 0..%d, got %r"
                                 % (key, _MAX_NUMBER, chips))
            parsed[seat] = chips
            if chips > 0:
                players += 1
        if players < _MIN_PLAYERS:
            raise ValueError("hand: at least %d players with chips are needed (art. 2(3))" % _MIN_PLAYERS)
        if players > _MAX_PLAYERS:
            raise ValueError("hand: at most %d players can be dealt from one deck" % _MAX_PLAYERS)

    def _host_hand(self, tag):
        """The host's `hand` request, dispatched in READY: its stacks and button, then the hand starts (tag:
        the request's, given back, 0 none). A request refused changes nothing: its button goes only to the
        hand it starts, and its stacks are taken only when nothing but the host link's backlog could refuse
        it (they were checked when parsed: 2 to 11 players, each stack bounded)."""
        button = self.host_button
        has_stacks = self.host_has_stacks
        self.host_button = _NO_SEAT
        self.host_has_stacks = False
        if self.link_backlog:
            return self._start_hand(True, _NO_SEAT, tag)    # refused, the table as it was
        if has_stacks:
            for seat in range(1, self.seats + 1):
                self.stacks[seat] = self.host_stacks[seat]
                self.seat_in[seat] = 1                  # the host's stacks say who plays: not listed, empty
        return self._start_hand(True, button, tag)

    def _host_refused(self, reason, tag):
        """A host request this table does not serve now (a hand in play, an alarm open, the hand refused):
        the reason kept for its host_error report, the request's tag given back in it (0: none)."""
        self.host_reason = reason
        self._emit(_OUT_HOST_REFUSED, 0, tag)
