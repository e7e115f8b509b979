# Craps table controller: puck, throws, bets, shooter and alarms, run to completion.
#
# A state machine on the table core (firmware.table.Table), fed one event at a
# time from the fixed queue: throws from the framed dice reader (THROW, one per
# throw whatever the reader saw), bet readings, dealer buttons. The rules are
# the engine beside it (rules.CrapsTable): every throw and every bet goes
# through it; this module decides what the dealer, the lights and the host are
# told.
#
#   READY -> COME_OUT (puck OFF) <-> POINT (puck ON), FAULTED from either and back
#
# Bet readings (placement, refusals, take-downs) are readings.py's part of it.
# Anything the dice reader cannot vouch for (a reader fault, a bad or lost
# frame) holds the table in FAULTED until CONFIRM or a long VOID; a throw seen
# while held is reported and never decided.

from firmware import throws
from firmware.errors import IntegrityError
from firmware.games.craps import rules
from firmware.games.craps.alarms import Alarms
from firmware.games.craps.lights import CrapsLights
from firmware.games.craps.readings import Readings
from firmware.games.craps.reports import SEAT_KEYS
from firmware.games.craps.zones import COME_ZONE, DONT_COME_ZONE, TRAVELLED, ZONES
from firmware.table import Table

# copies of firmware.events (tests/host/test_const_copies.py)
_BETS = const(13)
_BETS_FAULT = const(14)
_BUTTON = const(2)
_BUTTON_LONG = const(2)
_BUTTON_PRESSED = const(1)
_DICE_HELLO_AGAIN = const(1)
_DICE_READER_HELLO = const(16)
_FAULT = const(8)
_HOST = const(7)
_HOST_OPEN_BETS = const(5)
_THROW = const(15)
_TICK = const(1)
# copies of firmware.faults (tests/host/test_const_copies.py)
_BETS_RESTARTED = const(54)
_DICE_BAD_FACE = const(47)
_DICE_RESTARTED = const(53)
_LINK_BACKLOG = const(17)
# copies of firmware.games.craps.codes (tests/host/test_const_copies.py)
_COME_OUT = const(4)
_LAST_THROWS = const(6)
_OUT_BETS_FAULT = const(36)
_OUT_BET_DOWN = const(40)
_OUT_BET_REFUSED = const(34)
_OUT_OPEN_BETS = const(44)
_OUT_PUCK = const(37)
_OUT_READER = const(39)
_OUT_SHOOTER = const(35)
_OUT_THROW = const(32)
_OUT_THROW_HELD = const(38)
_POINT = const(5)
_SHOOTER_COME_OUT_CRAPS = const(1)
_SHOOTER_SEVEN_OUT = const(0)
_SHOOTER_STOPPED = const(2)
# copies of firmware.games.craps.readings (tests/host/test_const_copies.py)
_NO_BET = const(-1)
# copies of firmware.statemachine (tests/host/test_const_copies.py)
_STAY = const(-1)
# copies of firmware.table_codes (tests/host/test_const_copies.py)
_LAMP_CHECK = const(3)
_OUT_BUTTON = const(2)
_OUT_STATE = const(1)
_READY = const(1)


class CrapsController(Alarms, CrapsLights, Readings, Table):
    STATE_NAMES = Table.STATE_NAMES + ("come_out", "point")
    REPORT_RUNS = (_OUT_BET_DOWN, _OUT_BET_REFUSED)      # a reading's take-downs, its refusals: one entry each

    def __init__(self, lights, buttons, settings, reading=None, seats=0, outbox_size=64):
        """buttons: board button index by role (confirm, void, deal; -1 when absent): a long press
        of deal is the dealer's NEW SHOOTER (art. 4(1)); reading: the bet reader's BetReading over
        zones.ZONES (None: no bet reader); seats: the reader's seats (at most the engine's)."""
        self.engine = rules.CrapsTable(settings)
        self.void_button = buttons.get("void", -1)
        self.shooter_button = buttons.get("deal", -1)
        self.reading = reading
        self.seats = min(seats, self.engine.settings.seats) if reading is not None else 0
        self.placed_slots = []       # the slots (seat * zones + zone) of the pending reading's bets, ascending
        self.placed = []             # their bet ids, placed_slots[k]'s at k (the bets report walks the slots)
        self.bet_zone = {}           # open bet id -> its zone index (the reports' vocabulary)
        self.refusals = []           # (seat, zone, amount, reason, take-down?) of the last reading
        self.downs = []              # [seat, zone, stake] taken down by the last reading
        self.down_slots = []         # the slots taken down since the last throw (a few at most)
        self.full_reason = ""        # why a bet past the last reading's most was refused (readings.py)
        self.bets_unread = False     # a reading was refused whole since the last accepted one or roll (the
                                     # dealer's BETS NOT READ: the chips on the layout are not taken)
        self.nets = {}               # {seat: {zone: net}} of the bets the last throw decided
        self.decided = []            # (layout zone, result) of the bets the last roll decided (lights)
        self.throw_a = 0             # the last throw as THROW carried it
        self.throw_b = 0
        self.thrown = False          # a throw was seen since boot
        self.no_roll = False         # the last throw was a no roll
        self.puck_moved = False      # the last throw set or cleared the point
        self.last_totals = bytearray(_LAST_THROWS)  # the last valid throws' totals, newest first
        self.total_count = 0
        self.shooter = 1             # the shooter's number since the table opened
        self.shooter_rolls = 0       # valid rolls of the shooter
        self.new_shooter = False     # the dice passed on with the last throw or button
        self.deal_pressed_at = 0     # the shooter when the deal button went down (0: not seen down)
        self.shooter_kept = False    # a NEW SHOOTER held long in an alarm in play, not taken: the dealer is told
        self._zone_lights = {}       # zone name -> light index (lights.CrapsLights)
        self._bet_lights = {}        # a bet's kind and number -> (light index, colour)
        self._frame = None           # a render's colour for each light (lights.CrapsLights), made once,
        self._dim_frame = None       # and every light DIM, copied over it at each render
        self._decided_of = None      # the decided list whose lights _decided_marks holds (lights.CrapsLights)
        self._decided_marks = None
        # The reports' seats: reports.SEAT_KEYS, a literal (in flash when frozen), when it names them all
        # (a tuple made here kept 0.1-0.2 KB more; issue 14)
        seats = self.engine.settings.seats
        self._seat_keys = SEAT_KEYS if seats <= len(SEAT_KEYS) else tuple(str(seat + 1) for seat in range(seats))
        Table.__init__(self, lights, buttons.get("confirm", -1), outbox_size)

    # -- state entries (lights) ---------------------------------------------------------
    def _enter_game(self):
        self.display_dirty = True
        self._emit(_OUT_STATE, self.state)
        self._render_lights()

    # -- STARTING / READY: the first game event opens the table -------------------------------
    def _on_starting(self, kind, a, b):
        if kind == _THROW or kind == _BETS:
            # The reader speaks before the lamp test is over: the test is cut short (the table is
            # ready, and reported so), and the throw or reading is not lost.
            self.state = _READY
            Table._enter_ready(self)
            return self._open(kind, a, b)
        if kind == _DICE_READER_HELLO:
            self._emit(_OUT_READER, a, b)
            return _STAY
        if kind == _HOST and a == _HOST_OPEN_BETS:
            self._emit(_OUT_OPEN_BETS, 0, b)             # refused (open_bets.py): the bets are not known yet
            return _STAY
        return Table._on_starting(self, kind, a, b)

    def _on_lamp_check(self, kind, a, b):
        if kind == _HOST and a == _HOST_OPEN_BETS:
            self._emit(_OUT_OPEN_BETS, 0, b)             # answered (none open before the table opens); the check
            return _STAY                                 # goes on, as for any host request
        return Table.HANDLERS[_LAMP_CHECK](self, kind, a, b)

    def _on_ready(self, kind, a, b):
        if kind == _THROW or kind == _BETS or self._shooter_button(kind, a, b):
            return self._open(kind, a, b)
        if self._anywhere(kind, a, b):
            return _STAY
        return Table._on_ready(self, kind, a, b)

    def _open(self, kind, a, b):
        """The first game event: handled as in COME_OUT, where the table then is."""
        was = self.state
        self.state = _COME_OUT
        target = self._on_game(kind, a, b)
        self.state = was
        return _COME_OUT if target == _STAY else target

    # -- COME_OUT and POINT -----------------------------------------------------------------
    def _on_game(self, kind, a, b):
        if kind == _TICK:                                # every pass's: the clock only (as _anywhere takes it),
            self._common(kind, a, b)                     # no button or game event asked first
            return _STAY
        if kind == _THROW:
            if self.link_backlog and not self.engine.point:
                # A come-out (a new line-bet round, art. 5(2)(1)) while the host link is backed up:
                # not decided, as a throw that does not count is not (art. 3(2)-(3): rolled again).
                # Held for the dealer: CONFIRM once the link catches up, and the shooter throws again.
                self._emit(_OUT_THROW_HELD, a, b)
                return self._alarm(_LINK_BACKLOG, -1)
            return self._throw(a, b)
        if kind == _DICE_READER_HELLO and a == _DICE_HELLO_AGAIN:
            # The reader restarted at a table in play, after it had spoken since the board booted: a throw
            # made while it was off was never reported, and the next one would be decided in its place (as
            # a shoe's HELLO in a round, faults.SHOE_RESTARTED). Held: CONFIRM (no throw missed) or a long VOID.
            return self._alarm(_DICE_RESTARTED, b)
        if self._shooter_button(kind, a, b):
            return self._stop_shooter(a, b)
        if self._anywhere(kind, a, b):
            return _STAY
        return self._common(kind, a, b)

    def _throw(self, a, b):
        engine = self.engine
        point = engine.point
        try:
            resolved = engine.roll(throws.engine_report(a, b))
        except (IntegrityError, ValueError):
            # The driver refuses what two true dice cannot show; whatever slips by is an alarm.
            return self._common(_FAULT, _DICE_BAD_FACE, 0)
        self.thrown = True
        self.throw_a = a
        self.throw_b = b
        self.no_roll = engine.last_no_roll is not None
        self.puck_moved = engine.point != point
        self.new_shooter = engine.shooter_changed
        self.nets = {}
        if not self.no_roll:
            self._rolled(resolved)
        self._emit(_OUT_THROW, a, b)
        if self.puck_moved:
            self._emit(_OUT_PUCK, engine.point)
        if self.new_shooter:
            self._next_shooter(_SHOOTER_SEVEN_OUT if engine.seven_out else _SHOOTER_COME_OUT_CRAPS)
        self.display_dirty = True
        target = _POINT if engine.point else _COME_OUT
        if target == self.state:
            self._render_lights()
            return _STAY
        return target

    def _rolled(self, resolved):
        """A valid roll: its nets by seat and zone; the pending reading's bets are now in play."""
        self.shooter_rolls += 1
        totals = self.last_totals
        for i in range(len(totals) - 1, 0, -1):
            totals[i] = totals[i - 1]
        totals[0] = throws.face(self.throw_a, 0) + throws.face(self.throw_a, 1)
        if self.total_count < len(totals):
            self.total_count += 1
        # The record's field indexes as locals: no module attribute lookups per decided bet.
        zone_i = rules.ZONE
        result_i = rules.RESULT
        self.decided = [(r[zone_i], r[result_i]) for r in resolved]
        nets = self.nets
        bet_zone = self.bet_zone
        seat_keys = self._seat_keys
        bet_id_i = rules.BET_ID
        seat_i = rules.SEAT
        net_i = rules.NET
        zones = ZONES
        seat = -1
        row = None
        for r in resolved:
            z = bet_zone.pop(r[bet_id_i], _NO_BET)
            if z == _NO_BET:
                continue
            if r[seat_i] != seat:                        # a seat's bets come together (placement order)
                seat = r[seat_i]
                key = seat_keys[seat]
                row = nets.get(key)
                if row is None:                          # (setdefault would build a dict for every bet)
                    row = nets[key] = {}
            zone = zones[z]
            row[zone] = row.get(zone, 0) + r[net_i]
        for bet in self.engine.moved:                    # art. 5(2)(5), (6): a come bet on 6 is "come_6"
            z = bet_zone.get(bet.bet_id, _NO_BET)
            if z == COME_ZONE or z == DONT_COME_ZONE:
                bet_zone[bet.bet_id] = TRAVELLED[bet.number][z - COME_ZONE]
        # The readings' bets and take-downs are lists of the slots they filled, not tables of every seat's
        # every zone (700 at 14 seats: ~6.3 KB of RAM with the empty copies a roll cleared them from).
        self.placed_slots = []
        self.placed = []
        if self.down_slots:
            self.down_slots = []
        self.refusals = []
        self.downs = []
        self.bets_unread = False                         # a refused reading's chips: the roll's now (as its
                                                         # refusals: the next reading's bets start afresh)

    def _next_shooter(self, why):
        self.shooter += 1
        self.shooter_rolls = 0
        self.new_shooter = True
        self._emit(_OUT_SHOOTER, self.shooter, why)

    def _stop_shooter(self, a, b):
        """The dealer's NEW SHOOTER (art. 4(1): the shooter stops); the puck and bets stay."""
        self._emit(_OUT_BUTTON, a, b)
        if self.deal_pressed_at and self.deal_pressed_at != self.shooter:
            # The dice passed on (a seven-out) while the button was held for the shooter who threw:
            # that shooter has stopped already; a second change would skip the next one unseen.
            return _STAY
        self.engine.shooter_stops()
        self._next_shooter(_SHOOTER_STOPPED)
        self.display_dirty = True
        return _STAY

    # -- events every game state takes the same way ----------------------------------------------
    def _anywhere(self, kind, a, b):
        if kind == _BUTTON and a == self.shooter_button and b == _BUTTON_PRESSED:
            self.deal_pressed_at = self.shooter          # (reported by the core: False)
            return False
        if kind == _BETS:
            self._bets(a)
            return True
        if kind == _BETS_FAULT:
            self._emit(_OUT_BETS_FAULT, a, b)            # the reading was refused whole: nothing placed
            if a != _BETS_RESTARTED:                     # (its HELLO between readings refuses none)
                self.bets_unread = True                  # the dealer is told: the chips were not taken
                self.display_dirty = True
            return True
        if kind == _DICE_READER_HELLO:
            # Its first frame since boot (its power-up, or the board's own reset), or a restart before the
            # table opened: reported. (One in play is the alarm (_on_game), or in an alarm the fault: alarms.py.)
            self._emit(_OUT_READER, a, b)
            return True
        if kind == _TICK:
            self._common(kind, a, b)
            return True
        if kind == _HOST and a == _HOST_OPEN_BETS:
            self._emit(_OUT_OPEN_BETS, 0, b)             # the answer or why not: open_bets.py, in any state
            return True
        return False

    def _shooter_button(self, kind, a, b):
        # A long press: the shooter count is in the host log, never moved by a slip of the hand.
        return kind == _BUTTON and a == self.shooter_button and b == _BUTTON_LONG

    HANDLERS = (_on_starting, _on_ready, Alarms._on_faulted, _on_lamp_check, _on_game, _on_game)
    ENTRY = Table.ENTRY + (_enter_game, _enter_game)

    # -- reports and snapshots between throws (reports.py, snapshot.py) ----------------------------------
    def game_modules(self):
        from firmware.games.craps import reports, snapshot
        return reports, snapshot
