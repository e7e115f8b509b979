# Baccarat table controller: shoe procedure, rounds, results, alarms and lights, run to completion.
#
# A state machine on the table core (firmware.table.Table), fed one event at a time from the fixed
# queue (cards and shoe messages, bet readings, dealer buttons, host requests); the rules are the pure
# modules beside it (rules, payouts, shoe, roads). This module decides what a card means in the table's
# state and what the dealer, the lights and the host are told (docs/baccarat.md, "The table"):
#
#   READY (no shoe) -> BURNING (art. 2(1)) -> BETTING <-> DEALING -> ... -> SHOE_CLOSED (art. 3(1))
#
# Anything the table cannot vouch for (a foreign card, an unreadable card, two cards at once, a lost
# frame) holds it in FAULTED with a dealer prompt until CONFIRM, a rescan or a long VOID closes it per
# art. 10; nothing is guessed.
from array import array

from firmware.drivers import pixels
from firmware.errors import IntegrityError
from firmware.games.baccarat.alarms import Alarms
from firmware.games.baccarat.lights import BaccaratLights
from firmware.games.baccarat.payouts import (ZONES, find_slots, keep_stakes, settle_seats, stake_round,
                                             tie_carry)
from firmware.games.baccarat.roads import Roads
from firmware.games.baccarat.shoe_procedure import ShoeProcedure
from firmware.table import Table

# copies of firmware.events (tests/host/test_const_copies.py)
_BETS = const(13)
_BETS_FAULT = const(14)
_BUTTON = const(2)
_BUTTON_PRESSED = const(1)
_CARD = const(3)
_HOST = const(7)
_HOST_ROADS = const(1)
_HOST_TAG_SHIFT = const(16)
_SHOE = const(12)
_SHOE_CUT = const(2)
_SHOE_HELLO = const(1)
_SHOE_OUT = const(4)
_SHOE_UNREAD = const(5)
_TICK = const(1)
# copies of firmware.faults (tests/host/test_const_copies.py)
_CARD_IMPOSSIBLE = const(11)
_CARD_OUT_OF_ORDER = const(14)
_CARD_UNREADABLE = const(12)
_DOUBLE_PULL = const(13)
_LINK_BACKLOG = const(17)
_SHOE_REMOVED = const(15)
_SHOE_RESTARTED = const(52)
# copies of firmware.games.baccarat.codes (tests/host/test_const_copies.py)
_BETTING = const(5)
_DEALING = const(6)
_DOUBLE_PULL_MS = const(150)
_NEWS_CLOSED = const(3)
_NEWS_RESTARTED = const(5)
_NEWS_ROADS_FULL = const(6)
_NO_CARD = const(-1)
_OUT_BETS = const(36)
_OUT_DEALT = const(33)
_OUT_RESULT = const(35)
_OUT_ROADS = const(37)
_OUT_ROUND = const(34)
_OUT_SHOE = const(32)
_SHOE_CLOSED = const(7)
_TIE_NONE = const(0)
# copies of firmware.games.baccarat.roads (tests/host/test_const_copies.py)
_MAX_ROUNDS = const(156)
# copies of firmware.statemachine (tests/host/test_const_copies.py)
_STAY = const(-1)
# copies of firmware.table_codes (tests/host/test_const_copies.py)
_FAULTED = const(2)
_OUT_BUTTON = const(2)
_OUT_STATE = const(1)
_READY = const(1)
_STARTING = const(0)


class BaccaratTable(ShoeProcedure, Alarms, BaccaratLights, Table):
    # Table.STATE_NAMES and the game's, a literal (test_kept_literals compares): one constant in flash when
    # frozen; Table.STATE_NAMES + (...) made it at import, 48 bytes of the heap in the VM (issue 14).
    STATE_NAMES = ("starting", "ready", "fault", "lamp_check", "burning", "betting", "dealing", "shoe_closed")

    def __init__(self, lights, buttons, settings, reading=None, seats=0, outbox_size=64):
        """buttons: board button index by role (confirm, void, shoe_change; -1 when absent);
        reading: the bet reader's BetReading (None: no bet reader, results without nets)."""
        self.settings = settings
        self.void_button = buttons.get("void", -1)
        self.shoe_button = buttons.get("shoe_change", -1)
        self.reading = reading
        self.seats = seats if reading is not None else 0
        width = len(ZONES)
        self.round_bets = array("i", [0] * (self.seats * width))   # the bets of the round in play
        # A list, not an array("q") (payouts.NETS_TYPE, a settle's scratch): a net is any int (a Tie bet of the
        # reader's largest stake nets more than 32 bits), a small int in its slot, no long int made at each
        # read (MicroPython's mpz build makes one a read of a "q" item: one a seat's net at the seat lights and
        # the report, 28 at the bench's result; issue 14); 4 bytes a zone, not 8.
        self.nets = [0] * (self.seats * width)
        # Where the round's bets are (the indices of round_bets not 0, the first n_bet_slots, in order),
        # taken for the round slots_round when it starts: the result's nets, its seat lights and its
        # report (reports.nets_table) visit those, not every seat's every zone (most are empty). Any other
        # round (a restored table's) walks round_bets.
        self.bet_slots = array("H", [0] * (self.seats * width))
        self.n_bet_slots = 0
        self.seat_slot_ends = array("H", [0] * self.seats)    # seat s's slots end at bet_slots[seat_slot_ends[s]]
        self.slots_round = False                  # (not a round, nor None: nothing taken yet)
        BaccaratLights.__init__(self, lights)
        self.shoe = None
        self.roads = Roads()
        self.bets_ready = False      # a reading was taken since the last round
        self.has_bets = False        # the round in play has bets
        self.bets_unread = False     # a reading was refused since the last one taken or round (BETS NOT READ)
        # The Banker and Player stakes a live tie left for the next live round (art. 11(2), (3)) once the
        # tied round is no longer the last one played (a new shoe, art. 3): each seat's [player, banker],
        # and the option they were left under (codes.TIE_*; TIE_NONE: none kept here). While the tied
        # round is the last, its record and round_bets say it (tied_round_carry).
        self.tie_stakes = array("i", [0] * (self.seats * 2))
        self.tie_kept = _TIE_NONE
        self.burned_this_round = False
        self.since_card_ms = _DOUBLE_PULL_MS
        self.held_card = _NO_CARD   # a double pull's second card, waiting for the dealer
        self.held_face_up = False
        self.hand = None             # the round in play or last played (rules.Round)
        self.record = None           # the last closed round (shoe.RoundRecord)
        self.last_hand = None        # its cards (rules.Round): self.hand moves on with the next round
        self.showing_result = False  # the lights and displays show the last result
        self.scoreboard_dirty = True
        self.prompt_void = False     # VOID was pressed short: the display says to hold it
        Table.__init__(self, lights, buttons.get("confirm", -1), outbox_size)

    # -- state entries (lights) ---------------------------------------------------
    def _enter_ready(self):
        Table._enter_ready(self)
        self.lights.set_all(pixels.DIM)

    def _enter_game(self):
        self.display_dirty = True
        self.outbox.put(_OUT_STATE, self.state, 0)         # (_emit()'s body: a call fewer, every round)
        if self.showing_result:
            self._result_lights()                # (_render_lights()'s first test: a call fewer at a result)
        else:
            self._render_lights()

    # -- STARTING: the boot lamp test -------------------------------------------------------------
    def _on_starting(self, kind, a, b):
        if kind == _CARD or kind == _SHOE or kind == _BETS:
            # The shoe speaks before the lamp test is over (it was in when the board booted):
            # the test is cut short rather than the message lost.
            self.state = _READY
            target = self._on_ready(kind, a, b)
            self.state = _STARTING
            return _READY if target == _STAY else target
        return Table._on_starting(self, kind, a, b)

    # -- READY: no shoe in play ----------------------------------------------------------
    def _on_ready(self, kind, a, b):
        if self.is_new_shoe(kind, a, b):
            return self._new_shoe()
        if kind == _CARD:
            return self._hold(_CARD_OUT_OF_ORDER, a, b)
        if kind == _SHOE and a == _SHOE_UNREAD:
            return self._alarm(_CARD_OUT_OF_ORDER, _NO_CARD)
        if kind == _BETS:
            return self._bets(a)                         # for the next shoe's first round
        if self._anywhere(kind, a, b):
            return _STAY
        return Table._on_ready(self, kind, a, b)

    # -- BETTING: between rounds -------------------------------------------------------------
    def _on_betting(self, kind, a, b):
        if kind == _TICK:
            return self._tick(a)                     # every pass has one: first, no other test before it
        if kind == _CARD:
            if self.since_card_ms < _DOUBLE_PULL_MS:
                # Out with the card that ended the last round or the burn: two cards at once, not the
                # next round's first unless the dealer says so (CONFIRM; a long VOID sets it aside).
                return self._hold(_DOUBLE_PULL, a, b)
            if self.link_backlog:
                # The round's first card (or its art. 8 burn) while the host link is backed up: no new
                # round (its reports could be lost). Held, as a double pull's card is: CONFIRM once the
                # backlog clears deals it as the round's first; a long VOID discards it (art. 10).
                return self._hold(_LINK_BACKLOG, a, b)
            if self.settings.burn_each_round and not self.burned_this_round:
                self.burned_this_round = True          # art. 8: the first card of the round is burned
                return self._burn(a, b)
            return self._start_round(a, b)
        return self._between_rounds(kind, a, b)

    def _start_round(self, card, face_up):
        shoe = self.shoe
        demo = shoe.can_start_demo()                     # art. 2(2): the table's demo rounds come first
        self.keep_tie_stakes()                           # (before has_bets is the new round's)
        carry = _TIE_NONE if demo else self.tie_kept     # a demo round decides nothing: they wait
        self.hand = shoe.start_round(demo)
        # A demonstration round is not live (art. 2(2)): it takes no bets, and a reading before it
        # stays for the first live round.
        self.has_bets = self.bets_ready and not demo
        if not demo:
            self.bets_ready = self.bets_unread = False   # (a refused reading's BETS NOT READ too)
            self.tie_kept = _TIE_NONE                    # this round decides them
        # The round's bets: the reading's, or none, but for the Banker and Player stakes a tie left on the
        # layout (art. 11(2), (3): keep_tie_stakes).
        if stake_round(self.round_bets, self.reading.amounts if self.has_bets else None, self.tie_stakes, carry):
            self.has_bets = True
        # The last round's nets made 0: settle_seats nets the bet slots only, so only the last slots found hold
        # nets (restore.py finds a restored round's), and its settle finds the others 0 without a zeroed copy
        # of nets kept to clear them (issue 14: 8 bytes a zone of a seat, 280 at 7 seats).
        nets = self.nets
        slots = self.bet_slots
        for j in range(self.n_bet_slots):
            nets[slots[j]] = 0
        self._find_slots()
        self.showing_result = False
        self.prompt_void = False
        self._emit(_OUT_ROUND, shoe.rounds, 1 if demo else 0)
        target = self._deal(card, face_up)
        return _DEALING if target == _STAY else target

    def keep_tie_stakes(self):
        """The Banker and Player stakes the last round left standing by a live tie (art. 11) into tie_stakes,
        with their option (tie_kept), before that round stops being the last one played (a new shoe, the
        next round): they wait for the next live round, in this shoe or the next."""
        if self.tie_kept != _TIE_NONE:
            return                                       # kept already (no round was played since)
        carry = self.tied_round_carry()
        if carry != _TIE_NONE and keep_stakes(self.round_bets, self.seats, self.tie_stakes):
            self.tie_kept = carry

    def tied_round_carry(self):
        """What art. 11 makes of the last round's Banker and Player bets in the next live round (codes.TIE_*,
        payouts.tie_carry)."""
        return tie_carry(self.settings.tie_option, self.record, self.has_bets)

    # -- DEALING --------------------------------------------------------------------------------
    def _on_dealing(self, kind, a, b):
        if kind == _TICK:
            return self._tick(a)                     # as _anywhere's, with no other test before it
        if kind == _CARD:
            if self.since_card_ms < _DOUBLE_PULL_MS:
                return self._hold(_DOUBLE_PULL, a, b)
            return self._deal(a, b)
        if kind == _SHOE:
            if a == _SHOE_UNREAD:
                return self._alarm(_CARD_UNREADABLE, _NO_CARD)
            if a == _SHOE_OUT:
                return self._alarm(_SHOE_REMOVED, _NO_CARD)
            if a == _SHOE_CUT:
                return self._cut_card()
            if a == _SHOE_HELLO:
                return self._alarm(_SHOE_RESTARTED, b)         # a card may have left it unreported (art. 10)
            return self._common(kind, a, b)                    # (IN: no new shoe in a round) reported
        if kind == _BETS:
            self._emit(_OUT_BETS, a, 0)                  # bets closed when the first card came out
            return _STAY
        if self._anywhere(kind, a, b):
            return _STAY
        return self._common(kind, a, b)

    def _deal(self, card, face_up):
        try:
            hand = self.shoe.deal(card, None, face_up == 1)
        except IntegrityError:
            return self._alarm(_CARD_IMPOSSIBLE, card)
        self.outbox.put(_OUT_DEALT, card, hand * 2 + (1 if face_up else 0))   # (_emit()'s body: a call fewer)
        self.since_card_ms = 0
        self.display_dirty = True
        if self.hand.complete:
            return self._finish_round(False)
        return _STAY

    def _finish_round(self, void):
        shoe = self.shoe
        record = shoe.void() if void else shoe.end_round()
        self.record = record
        self.last_hand = self.hand
        if not void:
            result = record.result
            if not record.demo:
                if self.roads.n_beads >= _MAX_ROUNDS:
                    # Only an automatic shuffler's shoe never ends (art. 2(3): no cut card):
                    # its roads start again rather than overflow.
                    self.roads = Roads()
                    self._emit(_OUT_SHOE, _NEWS_ROADS_FULL, _MAX_ROUNDS)
                self.roads.add(result.winner, result.player_pair, result.banker_pair)
                self.scoreboard_dirty = True
        self._settle(record)
        self.showing_result = True
        self.burned_this_round = False
        self.outbox.put(_OUT_RESULT, record.number, 0)    # (_emit()'s body)
        if record.last:
            self._emit(_OUT_SHOE, _NEWS_CLOSED, shoe.rounds)
            return _SHOE_CLOSED
        return _BETTING

    def _settle(self, record):
        if self.has_bets:
            if self.slots_round is not self.hand:
                self._find_slots()                       # (every other net 0: _start_round)
            settle_seats(self.settings, record, self.round_bets, self.nets, self.bet_slots, self.n_bet_slots)

    def _find_slots(self):
        """Where round_bets (the bets of self.hand) are not 0: bet_slots, n_bet_slots, and where each
        seat's slots end in them (seat_slot_ends: payouts.find_slots)."""
        self.n_bet_slots = find_slots(self.round_bets, self.seats, self.bet_slots, self.seat_slot_ends)
        self.slots_round = self.hand

    # -- events every game state takes the same way ----------------------------------------------
    def _anywhere(self, kind, a, b):
        if kind == _TICK:
            self._tick(a)
            return True
        if kind == _HOST and a == _HOST_ROADS:
            self._emit(_OUT_ROADS, 0, b >> _HOST_TAG_SHIFT)    # b: the host's tag (0: none), given back
            return True
        if kind == _BETS_FAULT:
            self._bets_refused(a, b)                     # (alarms.py: reported; the dealer told)
            return True
        if kind == _SHOE and a == _SHOE_HELLO:
            self._emit(_OUT_SHOE, _NEWS_RESTARTED, b)    # b: the HELLO line's evidence
            return True
        if kind == _BUTTON and a == self.void_button and b == _BUTTON_PRESSED:
            self._emit(_OUT_BUTTON, a, b)
            self.prompt_void = self.state == _FAULTED
            self.display_dirty = True
            return True
        return False

    def _tick(self, ms):
        """A TICK in any game state (STAY): the time since the last card, then the table's clock."""
        # Counted up to DOUBLE_PULL_MS only: the same whether the ms came in one tick or many
        # (a journal replays them coalesced).
        if self.since_card_ms < _DOUBLE_PULL_MS:
            self.since_card_ms = min(self.since_card_ms + ms, _DOUBLE_PULL_MS)
        self._common(_TICK, ms, 0)
        return _STAY

    HANDLERS = (_on_starting, _on_ready, Alarms._on_faulted) + Table.HANDLERS[3:] + (
        ShoeProcedure._on_burning, _on_betting, _on_dealing, ShoeProcedure._on_shoe_closed)
    ENTRY = Table.ENTRY[:1] + (_enter_ready,) + Table.ENTRY[2:] + (_enter_game, _enter_game, _enter_game, _enter_game)

    # -- reports and snapshots between rounds (reports.py, snapshot.py) ----------------------------------
    def game_modules(self):
        from firmware.games.baccarat import reports, snapshot
        return reports, snapshot

