# Baccarat table controller: shoe procedure, rounds, results, alarms and lights, run to completion.
#
# A state machine on the table core (firmware.table.Table), fed one event at a
# time from the fixed queue: cards and shoe messages from the framed shoe,
# bet readings, dealer buttons, host requests. The rules are the pure modules
# beside it (rules, shoe, roads); this module decides what a card means in the
# table's state and what the dealer, the lights and the host are told.
#
#   READY (no shoe) -> BURNING (art. 2(1)) -> BETTING <-> DEALING -> ... -> SHOE_CLOSED (art. 3(1))
#
# No button is needed in the normal flow: the first card after a result starts
# the next round (after the art. 8 burn when the table's burn_each_round says
# so); the last bet reading before that card is the round's bets; the result
# follows the last card art. 9 calls for. Anything the table cannot vouch for
# (a foreign card, an unreadable card, two cards at once, a lost frame) holds
# the table in FAULTED with a dealer prompt until CONFIRM, a rescan or a long
# VOID closes it per art. 10; nothing is guessed.
from array import array

from firmware import faults
from firmware.compat import const
from firmware.drivers import pixels
from firmware.errors import IntegrityError, RuleError
from firmware.events import (BETS, BETS_FAULT, BUTTON, BUTTON_LONG, BUTTON_PRESSED, CARD, FAULT, HOST, HOST_ROADS,
                             SHOE, SHOE_CUT, SHOE_HELLO, SHOE_IN, SHOE_OUT, SHOE_UNREAD, TICK)
from firmware.games.baccarat import rules
from firmware.games.baccarat import shoe as shoe_mod
from firmware.games.baccarat.roads import Roads
from firmware.statemachine import STAY
from firmware.table import (ACK_CONFIRM, ACK_RESCAN, ACK_VOID, FAULTED, OUT_BUTTON, OUT_FAULT, OUT_STATE, READY,
                            STARTING, Table)

BURNING = const(4)        # art. 2(1): burning the start of a new shoe
BETTING = const(5)        # between rounds: bets open, the next card starts a round
DEALING = const(6)        # a round in progress
SHOE_CLOSED = const(7)    # art. 3(1): the last round was played; a new shoe is needed

# Outbox codes of this controller, from table.OUT_GAME_FIRST (32) on (firmware.report asks
# game_report() for their reports). Literals: const() takes no names from other modules.
OUT_SHOE = const(32)      # a: SHOE_NEWS index, b: its number (decks, cards, round)
OUT_DEALT = const(33)     # a: card, b: destination * 2 + face up
OUT_ROUND = const(34)     # a: round number, b: 1 demo
OUT_RESULT = const(35)    # a: round number (the controller keeps the rest)
OUT_BETS = const(36)      # a: reading id, b: 1 taken for the next round / 0 refused
OUT_ROADS = const(37)     # the roads of the shoe (a host request)
OUT_BETS_FAULT = const(38)  # a: fault code, b: evidence (the reading was refused)

# OUT_SHOE's a.
_NEW = const(0)
_BURNED = const(1)
_CUT = const(2)
_CLOSED = const(3)
_REMOVED = const(4)
_RESTARTED = const(5)
SHOE_NEWS = ("new", "burned", "cut_card", "closed", "removed", "restarted")

# Where a card went (OUT_DEALT's b // 2): the hands are rules.PLAYER / rules.BANKER.
TO_BURN = const(2)
TO_DISCARD = const(3)
DESTINATIONS = ("player", "banker", "burn", "discard")

DOUBLE_PULL_MS = const(150)   # two cards closer than this came out together (no dealer draws that fast)
_NO_CARD = const(-1)

# What the dealer may do about each alarm: how severe it is (a worse alarm replaces a milder one).
_SEVERITY_CARD_IMPOSSIBLE = const(4)
_SEVERITY_UNREADABLE = const(3)
_SEVERITY_HELD = const(2)
_SEVERITY_READER = const(1)


def _severity(code):
    if code == faults.CARD_IMPOSSIBLE:
        return _SEVERITY_CARD_IMPOSSIBLE
    if code == faults.CARD_UNREADABLE:
        return _SEVERITY_UNREADABLE
    if code == faults.DOUBLE_PULL or code == faults.SHOE_REMOVED:
        return _SEVERITY_HELD
    if faults.is_reader_fault(code):
        return _SEVERITY_READER
    return 0


class BaccaratTable(Table):
    STATE_NAMES = Table.STATE_NAMES + ("burning", "betting", "dealing", "shoe_closed")

    def __init__(self, lights, buttons, settings, reading=None, seats=0, outbox_size=64):
        """buttons: board button index by role (confirm, void, shoe_change; -1 when absent);
        reading: the bet reader's BetReading (None: no bet reader, results without nets)."""
        self.settings = settings
        self.void_button = buttons.get("void", -1)
        self.shoe_button = buttons.get("shoe_change", -1)
        self.reading = reading
        self.seats = seats if reading is not None else 0
        width = len(rules.ZONES)
        self.round_bets = array("i", [0] * (self.seats * width))   # the bets of the round in play
        self.nets = array("i", [0] * (self.seats * width))
        self.zone_light = [lights.index(zone) for zone in rules.ZONES]
        self.seat_light = [lights.index("seat%d" % seat) for seat in range(1, self.seats + 1)]
        self.shoe = None
        self.roads = Roads()
        self.bets_ready = False      # a reading was taken since the last round
        self.has_bets = False        # the round in play has bets
        self.burned_this_round = False
        self.since_card_ms = DOUBLE_PULL_MS
        self.held_card = _NO_CARD    # a double pull's second card, waiting for the dealer
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
        self._emit(OUT_STATE, self.state)
        self._render_lights()

    def _render_lights(self):
        if self.showing_result:
            self._result_lights()
            return
        lights = self.lights
        lights.set_all(pixels.OFF)
        colour = pixels.DIM if self.state == DEALING else pixels.WHITE
        if self.state == SHOE_CLOSED:
            colour = pixels.DIM
        for i in self.zone_light:
            if i >= 0:
                lights.set(i, colour)
        bets = self.round_bets if self.state == DEALING else None
        for seat in range(self.seats):
            if self.seat_light[seat] >= 0 and self._seat_has_chips(seat, bets):
                lights.set(self.seat_light[seat], pixels.BLUE)

    def _seat_has_chips(self, seat, amounts):
        width = len(rules.ZONES)
        if amounts is None:
            if not self.bets_ready:
                return False
            amounts = self.reading.amounts
        for z in range(width):
            if amounts[seat * width + z]:
                return True
        return False

    def _result_lights(self):
        lights = self.lights
        lights.set_all(pixels.OFF)
        record = self.record
        win = pixels.GOLD if record.demo else pixels.GREEN
        if record.void:
            for i in self.zone_light:
                if i >= 0:
                    lights.set(i, pixels.WHITE)
            return
        result = record.result
        hits = (result.winner == rules.PLAYER, result.winner == rules.BANKER, result.winner == rules.TIE,
                result.player_pair, result.banker_pair)
        for z in range(len(hits)):
            i = self.zone_light[z]
            if i >= 0:
                lights.set(i, win if hits[z] else pixels.OFF)
        if not self.has_bets:
            return
        width = len(rules.ZONES)
        for seat in range(self.seats):
            i = self.seat_light[seat]
            if i < 0 or not self._seat_has_chips(seat, self.round_bets):
                continue
            net = 0
            for z in range(width):
                net += self.nets[seat * width + z]
            lights.set(i, win if net > 0 else (pixels.WHITE if net == 0 else pixels.OFF))

    # -- STARTING: the boot lamp test -------------------------------------------------------------
    def _on_starting(self, kind, a, b):
        if kind == CARD or kind == SHOE or kind == BETS:
            # The shoe speaks before the lamp test is over (it was in when the board booted):
            # the test is cut short rather than the message lost.
            self.state = READY
            target = self._on_ready(kind, a, b)
            self.state = STARTING
            return READY if target == STAY else target
        return Table._on_starting(self, kind, a, b)

    # -- READY: no shoe in play ----------------------------------------------------------
    def _on_ready(self, kind, a, b):
        if kind == SHOE and a == SHOE_IN or self._shoe_button(kind, a, b):
            return self._new_shoe()
        if kind == CARD:
            return self._alarm(faults.CARD_OUT_OF_ORDER, a)
        if kind == SHOE and a == SHOE_UNREAD:
            return self._alarm(faults.CARD_OUT_OF_ORDER, _NO_CARD)
        if self._anywhere(kind, a, b):
            return STAY
        return Table._on_ready(self, kind, a, b)

    def _new_shoe(self):
        self.shoe = shoe_mod.Shoe(self.settings)
        self.roads = Roads()
        self.scoreboard_dirty = True
        self.showing_result = False
        self.burned_this_round = False
        self.record = None
        self.hand = None
        self.last_hand = None
        self._emit(OUT_SHOE, _NEW, self.settings.decks)
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
            self._emit(OUT_SHOE, _BURNED, self.shoe.burned)
            return BETTING
        self.display_dirty = True
        return STAY

    # -- BETTING: between rounds -------------------------------------------------------------
    def _on_betting(self, kind, a, b):
        if kind == CARD:
            if self.settings.burn_each_round and not self.burned_this_round:
                self.burned_this_round = True          # art. 8: the first card of the round is burned
                return self._burn(a, b)
            return self._start_round(a, b)
        return self._between_rounds(kind, a, b)

    def _between_rounds(self, kind, a, b):
        """BURNING and BETTING alike: the shoe's other messages and the dealer's shoe change."""
        if kind == SHOE:
            if a == SHOE_IN:
                return self._new_shoe()             # art. 3(2): the shoe may be changed after any round
            if a == SHOE_OUT:
                self.shoe.change()
                self._emit(OUT_SHOE, _REMOVED)
                return READY
            if a == SHOE_UNREAD:
                return self._alarm(faults.CARD_UNREADABLE, _NO_CARD)
            if a == SHOE_CUT:
                return self._cut_card()
        if kind == BETS:
            return self._bets(a)
        if self._shoe_button(kind, a, b):
            return self._new_shoe()
        if self._anywhere(kind, a, b):
            return STAY
        return self._common(kind, a, b)

    def _bets(self, reading_id):
        if self.reading is None or reading_id != self.reading.reading_id:
            return STAY                                  # overtaken by a newer reading in the same pass
        self.bets_ready = True
        self._emit(OUT_BETS, reading_id, 1)
        if not self.showing_result:
            self._render_lights()
        return STAY

    def _start_round(self, card, face_up):
        shoe = self.shoe
        demo = shoe.can_start_demo()                     # art. 2(2): the table's demo rounds come first
        self.hand = shoe.start_round(demo)
        self.has_bets = self.bets_ready
        self.bets_ready = False
        if self.has_bets:
            amounts = self.reading.amounts
            for i in range(len(amounts)):
                self.round_bets[i] = amounts[i]
        self.showing_result = False
        self.prompt_void = False
        self._emit(OUT_ROUND, shoe.rounds, 1 if demo else 0)
        target = self._deal(card, face_up)
        return DEALING if target == STAY else target

    # -- DEALING --------------------------------------------------------------------------------
    def _on_dealing(self, kind, a, b):
        if kind == CARD:
            if self.since_card_ms < DOUBLE_PULL_MS:
                self.held_card = a
                self.held_face_up = b == 1
                return self._alarm(faults.DOUBLE_PULL, a)
            return self._deal(a, b)
        if kind == SHOE:
            if a == SHOE_UNREAD:
                return self._alarm(faults.CARD_UNREADABLE, _NO_CARD)
            if a == SHOE_OUT:
                return self._alarm(faults.SHOE_REMOVED, _NO_CARD)
            if a == SHOE_CUT:
                return self._cut_card()
            if a == SHOE_HELLO:
                self._emit(OUT_SHOE, _RESTARTED)
            return STAY
        if kind == BETS:
            self._emit(OUT_BETS, a, 0)                   # bets closed when the first card came out
            return STAY
        if self._anywhere(kind, a, b):
            return STAY
        return self._common(kind, a, b)

    def _deal(self, card, face_up):
        try:
            hand = self.shoe.deal(card, None, face_up == 1)
        except IntegrityError:
            return self._alarm(faults.CARD_IMPOSSIBLE, card)
        self._emit(OUT_DEALT, card, hand * 2 + (1 if face_up else 0))
        self.since_card_ms = 0
        self.display_dirty = True
        if self.hand.complete:
            return self._finish_round(False)
        return STAY

    def _finish_round(self, void):
        shoe = self.shoe
        record = shoe.void() if void else shoe.end_round()
        self.record = record
        self.last_hand = self.hand
        if not void:
            result = record.result
            if not record.demo:
                self.roads.add(result.winner, result.player_pair, result.banker_pair)
                self.scoreboard_dirty = True
        self._settle(record)
        self.showing_result = True
        self.burned_this_round = False
        self._emit(OUT_RESULT, record.number)
        if record.last:
            self._emit(OUT_SHOE, _CLOSED, shoe.rounds)
            return SHOE_CLOSED
        return BETTING

    def _settle(self, record):
        """Nets of every seat's zones (arts. 11, 16, 17 and the commission option); void: all returned."""
        if not self.has_bets:
            return
        width = len(rules.ZONES)
        bets = self.round_bets
        for i in range(len(bets)):
            if record.void or not bets[i]:
                self.nets[i] = 0
            else:
                self.nets[i] = rules.settle_zone(self.settings, record.result, rules.ZONES[i % width], bets[i])[0]

    def _cut_card(self):
        try:
            last = self.shoe.cut_card()
        except RuleError:
            return STAY                                  # an auto shuffler has none; a second one changes nothing
        self._emit(OUT_SHOE, _CUT, last)
        return STAY

    # -- SHOE_CLOSED --------------------------------------------------------------------------
    def _on_shoe_closed(self, kind, a, b):
        if kind == SHOE and a == SHOE_IN or self._shoe_button(kind, a, b):
            return self._new_shoe()
        if kind == SHOE and a == SHOE_OUT:
            self._emit(OUT_SHOE, _REMOVED)
            return READY
        if kind == CARD:
            return self._alarm(faults.CARD_OUT_OF_ORDER, a)
        if self._anywhere(kind, a, b):
            return STAY
        return self._common(kind, a, b)

    # -- events every game state takes the same way ----------------------------------------------
    def _anywhere(self, kind, a, b):
        if kind == TICK:
            if self.since_card_ms < DOUBLE_PULL_MS:
                self.since_card_ms += a
            self._common(kind, a, b)
            return True
        if kind == HOST and a == HOST_ROADS:
            self._emit(OUT_ROADS)
            return True
        if kind == BETS_FAULT:
            self.bets_ready = False                      # the reading was refused whole: no nets for it
            self._emit(OUT_BETS_FAULT, a, b)
            return True
        if kind == SHOE and a == SHOE_HELLO:
            self._emit(OUT_SHOE, _RESTARTED)
            return True
        if kind == BUTTON and a == self.void_button and b == BUTTON_PRESSED:
            self._emit(OUT_BUTTON, a, b)
            self.prompt_void = self.state == FAULTED
            self.display_dirty = True
            return True
        return False

    def _shoe_button(self, kind, a, b):
        # A long press: a new shoe discards the one in play, so never by a slip of the hand.
        return kind == BUTTON and a == self.shoe_button and b == BUTTON_LONG

    # -- alarms (FAULTED) ---------------------------------------------------------------------------
    def _alarm(self, code, card):
        return self._common(FAULT, code, card)

    def resume_after_fault(self):
        state = self.state
        return state if state >= BURNING else READY

    def in_round(self):
        return self.shoe is not None and (self.shoe.state == shoe_mod.IN_ROUND or self.shoe.state == shoe_mod.ERROR)

    def may_confirm(self):
        """CONFIRM closes the alarm, except where only a rescan or VOID may (art. 10: never guessed)."""
        code = self.fault_code
        if code == faults.CARD_UNREADABLE:
            return False
        if code == faults.CARD_IMPOSSIBLE:
            return not self.in_round()
        return True

    def _on_faulted(self, kind, a, b):
        code = self.fault_code
        if kind == FAULT:
            if _severity(a) > _severity(code):           # the worse alarm is the one to close
                self.fault_code = a
                self.fault_detail = b
            else:
                self._emit(OUT_FAULT, a, b)              # reported; the worse alarm in force stays
            self.display_dirty = True
            return STAY
        if kind == CARD:
            return self._card_in_alarm(a, b)
        if kind == BUTTON and a == self.confirm_button and b == BUTTON_PRESSED:
            self._emit(OUT_BUTTON, a, b)
            if not self.may_confirm():
                self.display_dirty = True
                return STAY
            held = self.held_card
            self.held_card = _NO_CARD
            target = self.acknowledge(ACK_CONFIRM)
            if held != _NO_CARD and code == faults.DOUBLE_PULL:
                return self._resume_with_card(target, held, 1 if self.held_face_up else 0)
            if held != _NO_CARD:
                self._discard(held)
            return target
        if kind == BUTTON and a == self.void_button and b == BUTTON_LONG:
            self._emit(OUT_BUTTON, a, b)
            return self._void()
        if kind == SHOE and a == SHOE_UNREAD:
            self._emit(OUT_FAULT, faults.CARD_UNREADABLE, _NO_CARD)   # reported; the alarm in force stays
            return STAY
        if kind == SHOE and a == SHOE_OUT and self.in_round():
            return self._on_faulted(FAULT, faults.SHOE_REMOVED, _NO_CARD)
        if self._anywhere(kind, a, b):
            return STAY
        return self._common(kind, a, b)

    def _card_in_alarm(self, card, face_up):
        """A card read while held: the rescan the alarm asked for, or a card dealt to no hand."""
        code = self.fault_code
        if self.resume_state >= BURNING and (code == faults.CARD_UNREADABLE or faults.is_reader_fault(code)):
            if self.held_card != _NO_CARD:
                self._discard(self.held_card)
                self.held_card = _NO_CARD
            target = self.acknowledge(ACK_RESCAN)
            return self._resume_with_card(target, card, face_up)
        self._discard(card)
        return STAY

    def _resume_with_card(self, target, card, face_up):
        """Go on where the table was held, with this card as if it had just arrived."""
        self.state = target                              # the handler below runs in that state
        self.since_card_ms = DOUBLE_PULL_MS              # a rescan is not a double pull
        then = self.HANDLERS[target](self, CARD, card, face_up)
        self.state = FAULTED                             # dispatch takes the transition and its entry
        if then == FAULTED:                              # the card raised an alarm of its own
            self._emit_fault()
            self.display_dirty = True
            return STAY
        return target if then == STAY else then

    def _discard(self, card):
        try:
            if self.shoe is not None:
                self.shoe.discard(card)
        except IntegrityError:
            self._emit(OUT_FAULT, faults.CARD_IMPOSSIBLE, card)
            return
        self._emit(OUT_DEALT, card, TO_DISCARD * 2)

    def _void(self):
        """VOID held: the round in play is void, every bet returned (art. 10); or an unknown card discarded."""
        held = self.held_card
        self.held_card = _NO_CARD
        if held != _NO_CARD:
            self._discard(held)
        if self.in_round():
            self.acknowledge(ACK_VOID)
            return self._finish_round(True)
        if self.fault_code == faults.CARD_UNREADABLE:
            return self.acknowledge(ACK_VOID)           # the unreadable card is discarded unseen
        self.display_dirty = True
        return STAY

    HANDLERS = (_on_starting, _on_ready, _on_faulted) + Table.HANDLERS[3:] + (
        _on_burning, _on_betting, _on_dealing, _on_shoe_closed)
    ENTRY = Table.ENTRY[:1] + (_enter_ready,) + Table.ENTRY[2:] + (_enter_game, _enter_game, _enter_game, _enter_game)

    # -- reports ------------------------------------------------------------------------------------
    def game_report(self, code, a, b):
        from firmware.games.baccarat import reports
        return reports.game_report(self, code, a, b)
