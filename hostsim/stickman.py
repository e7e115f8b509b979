# The people at a simulated Craps table: the stickman passing the dice and the bettors, through TableIO.
#
# Stickman(io, settings, seats, seed, pace) has the shooter throw two fair dice
# (seeded) every pace.throw_ms of virtual time and, before each roll, puts the
# bettors' chips on the bet reader (hostsim.craps_bettors) as one reading:
# call tick(now_ms) often and hand it every host report (on_report). It
# follows the table as a stickman watches the layout: a reading goes on only
# after the table decided the last roll, the dice go out only once the table
# has reported that reading and the last throw; nothing is thrown while the
# table is held in an alarm (`fault`) or not open yet.
#
# At small seeded rates (and on demand, inject()) a throw goes wrong the ways
# the framed dice reader reports it (Craps art. 3):
#   invalid      one of INVALID_KINDS: a die off the table (unread), a short
#                throw, a short throw off a wall (which stands, art. 3(2)(2)),
#                dice that did not roll: a no roll but for the wall
#   cocked       a die rests cocked; the reader gives the larger visible face
#                and the throw counts as read (art. 3(1))
#
# One alarm the stickman closes himself, as the table's procedure has the dealer
# do: a come-out throw held because the host link was backed up (a `throw` report
# with no_roll "alarm", the link_backlog fault): once the table reports the
# backlog cleared, CONFIRM, and the shooter throws again. Every other alarm waits
# for a person (the live view's keys).
# Used by hostsim.sim (the live view) and hostsim.craps_autoplay (headless runs).
import collections
import random

from hostsim.craps_bettors import CrapsBettors
from hostsim.table_io import BETS_PORT, DICE_PORT

# throw_ms: a throw every this long; bets_lead_ms: the chips this long before the throw.
Pace = collections.namedtuple("Pace", ("throw_ms", "bets_lead_ms"))
LIVE_PACE = Pace(2500, 1200)        # watchable: a throw every 2.5 s of virtual time
FAST_PACE = Pace(200, 100)          # as fast as the table takes it (each step still waits for the reports)

INVALID = "invalid"
COCKED = "cocked"
FAULTS = (INVALID, COCKED)
INVALID_RATE = 0.03                 # chance that a throw is an invalid one (seeded)
COCKED_RATE = 0.03                  # chance that a die rests cocked (seeded)
# The invalid throws as the reader flags them (art. 3(2)-(3)): kind -> flag words.
OFF_TABLE = "off_table"
SHORT = "short"
SHORT_WALL = "short_wall"
NOT_ROLLED = "not_rolled"
INVALID_KINDS = (OFF_TABLE, SHORT, SHORT_WALL, NOT_ROLLED)
_FLAGS = {OFF_TABLE: ("off_table",), SHORT: ("short",), SHORT_WALL: ("short", "wall"), NOT_ROLLED: ("not_rolled",)}
# Live view keys of the injected throws (hostsim.sim), with their legend text.
FAULT_KEYS = (("1", INVALID, "invalid throw"), ("2", COCKED, "cocked die"))

# The table states in which the shooter throws; anything else (starting, lamp_check, fault) waits.
_THROWING_STATES = ("ready", "come_out", "point")
KEEP_THROWS = 5000                  # the throws sent, kept for tests (the oracle replays them)

Throw = collections.namedtuple("Throw", ("d1", "d2", "flags", "cocked", "kind"))


class Stickman:
    """Runs one Craps table's dice and bettors through a hostsim.table_io.TableIO; seats: bettors' seats."""

    def __init__(self, io, settings, seats, seed=None, pace=LIVE_PACE, invalid_rate=INVALID_RATE,
                 cocked_rate=COCKED_RATE):
        root = random.Random(seed)
        self.io = io
        self.settings = settings
        self.seats = seats
        self.pace = pace
        self.invalid_rate = invalid_rate
        self.cocked_rate = cocked_rate
        self.dice_rng = random.Random(root.getrandbits(64))
        self.fault_rng = random.Random(root.getrandbits(64))
        self.bettor_rng = random.Random(root.getrandbits(64))
        self.has_reader = BETS_PORT in io.board.ports
        self.bettors = self._new_bettors()
        self.state = None           # the table's last reported state
        self.point = None           # the puck as the table reported it (None: OFF)
        self.shooter = 1
        self.next_at = None         # virtual time (ms) of the next throw
        self.bets_down = False      # the chips for the coming roll are on the reader (or none wanted)
        self.awaiting_bets = False  # a reading was sent; the table has not reported it yet
        self.awaiting_throw = False  # a throw was sent; the table has not reported it yet
        self.pending = []           # throws asked for (FAULTS), not thrown yet
        self.sent = collections.deque(maxlen=KEEP_THROWS)   # Throw of each throw sent
        self.injected = collections.Counter()               # invalid kinds and cocked, as thrown
        self.boots = 0
        self.opened = False         # the table has had its first throw time since it booted
        self.backlog = False        # the table reported link_backlog raised, not yet cleared
        self.throw_held = False     # a come-out throw held for the backlog: CONFIRM once it clears
        self.confirmed = False      # that CONFIRM was pressed (once an alarm)

    def _new_bettors(self):
        if not self.seats or not self.has_reader:
            return None
        return CrapsBettors(self.settings, self.seats, self.bettor_rng)

    # -- what the tester asks ---------------------------------------------------------------
    def inject(self, fault):
        """Make the next throw go wrong this way (one of FAULTS)."""
        if fault not in FAULTS:
            raise ValueError("unknown throw fault %r: expected one of %s" % (fault, ", ".join(FAULTS)))
        self.pending.append(fault)

    def puck(self):
        """The puck as the table last reported it: "puck OFF" or "puck ON 6"."""
        return "puck ON %d" % self.point if self.point else "puck OFF"

    def waits_for_person(self):
        """The table holds an alarm the stickman leaves to a person."""
        return self.state == "fault"

    def status(self, now):
        """One short line for the live view: the puck and shooter, what the stickman waits for."""
        parts = [self.puck(), "shooter %d" % self.shooter]
        if self.waits_for_person():
            parts.append("stickman waits: close the alarm (c confirm, v void)")
        elif self.pending:
            parts.append("next throw: %s" % self.pending[0].replace("_", " "))
        return ", ".join(parts)

    # -- what the table says -------------------------------------------------------------------
    def on_report(self, report):
        """Follow the table: one host report (a dict)."""
        event = report.get("event")
        if event == "boot":
            self.boots += 1
            if self.boots > 1:
                self._table_restarted()
        elif event == "state" or event == "recovered":    # (a recovered report says the state the boot left)
            state = report.get("state")
            if self.state == "fault" and state != "fault":
                self.next_at = None          # the table goes on: the next throw a whole throw_ms later
                self.throw_held = self.confirmed = False
            self.state = state
        elif event == "fault" and report.get("fault") == "link_backlog":
            self.backlog = not report.get("cleared", False)
        elif event == "bets":
            self.awaiting_bets = False
            if report.get("accepted") is False and self.bettors is not None:
                self.bettors.refused_whole()
        elif event == "throw":
            self._thrown(report)
        elif event == "puck":
            self.point = report.get("point")
        elif event == "shooter":
            self.shooter = report.get("shooter", self.shooter)

    def _thrown(self, report):
        self.awaiting_throw = False
        if report.get("no_roll") == "alarm":
            self.throw_held = True           # held: never decided, the chips stay for the throw again
            return
        self.point = report.get("point")
        if report.get("valid"):
            if self.bettors is not None:
                self.bettors.thrown(tuple(report["dice"]))
            self.bets_down = False           # the next roll's chips go on

    def _table_restarted(self):
        """The board booted again mid-game: the table has no bets and no puck; so has the shadow."""
        self.bettors = self._new_bettors()
        self.point = None
        self.next_at = None
        self.opened = False
        self.bets_down = False
        self.awaiting_bets = False
        self.awaiting_throw = False
        self.backlog = self.throw_held = self.confirmed = False

    # -- the stickman's hands ------------------------------------------------------------------------
    def tick(self, now):
        """Do what is due at virtual time now (ms)."""
        if self.state == "fault" and self.throw_held and not self.backlog and not self.confirmed:
            self.confirmed = True            # the link caught up: the held throw's alarm closed
            self.io.press("confirm")
            return
        if self.state not in _THROWING_STATES or self.awaiting_bets or self.awaiting_throw:
            return
        if self.next_at is None:
            # The table's first throw as soon as the chips are down; after an alarm a whole throw time.
            self.next_at = now + (self.pace.throw_ms if self.opened else self.pace.bets_lead_ms)
            self.opened = True
        if not self.bets_down:
            if now >= self.next_at - self.pace.bets_lead_ms and self._quiet():
                self._bets()
            return
        if now < self.next_at or not self._quiet():
            return
        self._throw()
        self.next_at = now + self.pace.throw_ms

    def _quiet(self):
        """The table has read everything sent to it."""
        io = self.io
        return not io.waiting(DICE_PORT) and (not self.has_reader or not io.waiting(BETS_PORT))

    def _bets(self):
        self.bets_down = True
        if self.bettors is None:
            return
        reading = self.bettors.reading()
        if reading:
            self.io.bets(reading)
            self.awaiting_bets = True

    def next_throw(self):
        """The next throw (a Throw): fair faces, sometimes invalid or cocked (asked for, or by chance)."""
        rng = self.dice_rng
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        fault = self.pending.pop(0) if self.pending else None
        if fault is None:
            r = self.fault_rng.random()
            if r < self.invalid_rate:
                fault = INVALID
            elif r < self.invalid_rate + self.cocked_rate:
                fault = COCKED
        if fault == INVALID:
            kind = self.fault_rng.choice(INVALID_KINDS)
            return Throw(d1, None if kind == OFF_TABLE else d2, _FLAGS[kind], (), kind)
        if fault == COCKED:
            return Throw(d1, d2, (), (self.fault_rng.randrange(2),), COCKED)
        return Throw(d1, d2, (), (), None)

    def _throw(self):
        throw = self.next_throw()
        if throw.kind is not None:
            self.injected[throw.kind] += 1
        self.sent.append(throw)
        self.awaiting_throw = True
        self.io.throw(throw.d1, throw.d2, throw.flags, throw.cocked)
