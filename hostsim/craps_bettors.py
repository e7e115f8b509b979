# Emulated bettors at a simulated Craps table: what the bet reader sees on the layout before a throw.
#
# CrapsBettors(settings, seats, rng).reading() is one reading, {seat: {zone: amount}}
# over the zones of firmware/games/craps/zones.py, ready for
# hostsim.table_io.TableIO.bets(): the bets placed since the last throw, random
# by phase (come-out: Pass / Don't Pass, field, one-roll props; point: odds on the
# seat's line bet within max_odds, Come / Don't Come, odds on its come points;
# hard ways and big numbers any time, art. 5(4)-(5)), in whole multiples of
# the table minimum that also pay exactly (art. 5(6), stake units of art. 6).
#
# Legality is not guessed here: every bet is first placed on a shadow engine
# (firmware.games.craps.rules.CrapsTable, the controller's own engine) in the
# order the controller places a reading (seat by seat, zones in layout order,
# odds found as the controller finds them), and only the bets it accepts are
# sent. The shadow then rolls every throw the table decides (thrown()), so a
# refusal at the table is a real mismatch between host and firmware.
# Seeded with a random.Random, so a seed replays the same bets.
import random

from firmware.games.craps import bets as B
from firmware.games.craps import codes as BC
from firmware.games.craps.rules import CrapsTable
from firmware.games.craps.zones import KIND_NUMBER, ZONES

SEATED = 0.5              # chance that a seat puts chips down before a throw
MAX_UNITS = 6             # a bet is 1..MAX_UNITS stake units (the minimum, made exact for its payout)
PROP_ZONES = ("any_craps", "any_seven", "eleven", "ace_deuce", "aces", "boxcars", "horn", "big", "small")
CHANCES = {"line": 0.7, "field": 0.15, "prop": 0.1, "hard": 0.1, "big_number": 0.08, "odds": 0.5,
           "come": 0.3, "come_odds": 0.35}


def _gcd(a, b):
    while b:
        a, b = b, a % b
    return a


class CrapsBettors:
    """The bettors on seats 1..seats of one Craps table; reading() places the chips for the next throw."""

    def __init__(self, settings, seats, rng=None, seated=SEATED):
        if not isinstance(seats, int) or seats < 0:
            raise ValueError("seats must be a whole number >= 0, got %r" % (seats,))
        self.shadow = CrapsTable(settings)
        self.settings = self.shadow.settings
        self.seats = min(seats, self.settings.seats)
        self.rng = rng if rng is not None else random.Random()
        self.seated = seated
        self.readings = 0
        self.placed = 0           # bets sent (each accepted by the shadow engine first)
        self.dropped = 0          # bets the shadow engine refused: never sent
        self.pending = []         # shadow bet ids of the last reading (taken down if the table refuses it)

    # -- the stake ----------------------------------------------------------------------
    def unit(self, kind, number):
        """The smallest stake of this bet that is a multiple of the minimum and pays exactly."""
        q = B.stake_quantum(kind, number, self.settings.field_12)
        m = self.settings.minimum
        return m * q // _gcd(m, q)

    def stake(self, kind, number, most=None):
        """A random stake of this bet (None when none fits under `most` or the table maximum)."""
        unit = self.unit(kind, number)
        top = self.settings.maximum or unit * MAX_UNITS
        if most is not None:
            top = min(top, most)
        units = min(MAX_UNITS, top // unit)
        if units < 1:
            return None
        return unit * self.rng.randint(1, units)

    # -- what a seat wants ---------------------------------------------------------------
    def wishes(self, seat):
        """[(zone, amount)] a seat (0-based) would put down now, before the engine's say."""
        rng = self.rng
        shadow = self.shadow
        chance = CHANCES
        out = []

        def want(zone, most=None):
            kind, number = KIND_NUMBER[ZONES.index(zone)]
            if B.is_odds(kind):
                parent = self.backed(seat, kind, number)
                if parent is None:
                    return
                number = parent.number
            amount = self.stake(kind, number, most)
            if amount is not None:
                out.append((zone, amount))

        if shadow.point == 0:
            if rng.random() < chance["line"]:
                want(rng.choice(("pass", "dont_pass")))
        else:
            for line, odds in ((BC.PASS, "pass_odds"), (BC.DONT_PASS, "dont_pass_odds")):
                parent = self._first(seat, line)
                if parent is not None and rng.random() < chance["odds"]:
                    want(odds, self.odds_room(parent, BC.PASS_ODDS if line == BC.PASS else BC.DONT_PASS_ODDS))
            if rng.random() < chance["come"]:
                want(rng.choice(("come", "dont_come")))
            for bet in shadow.bets:
                if bet.seat == seat and bet.kind in (BC.COME, BC.DONT_COME) and bet.number \
                        and rng.random() < chance["come_odds"]:
                    odds = BC.COME_ODDS if bet.kind == BC.COME else BC.DONT_COME_ODDS
                    want("%s_%d" % (B.KIND_NAMES[odds], bet.number), self.odds_room(bet, odds))
        if rng.random() < chance["field"]:
            want("field")
        if rng.random() < chance["prop"]:
            want(rng.choice(PROP_ZONES))
        if rng.random() < chance["hard"]:
            want("hard_%d" % rng.choice(B.HARD_NUMBERS))
        if rng.random() < chance["big_number"]:
            want("big_number_%d" % rng.choice(B.BIG_NUMBERS))
        return out

    def odds_room(self, parent, kind):
        """The most odds a seat may add behind `parent` (max_odds, less the odds already there)."""
        multiple = self.settings.odds_multiple(parent.number)
        there = sum(b.amount for b in self.shadow.bets if b.parent is parent)
        if kind in (BC.PASS_ODDS, BC.COME_ODDS):
            return multiple * parent.amount - there
        win, stake = B.odds_pay(kind, parent.number)
        return multiple * parent.amount * stake // win - there

    def _first(self, seat, kind):
        for bet in self.shadow.bets:
            if bet.seat == seat and bet.kind == kind and bet.number:
                return bet
        return None

    def backed(self, seat, kind, number):
        """The line bet odds of this zone stand behind, found as the controller finds it
        (firmware/games/craps/controller.py, _backed): the seat's first such bet with a point."""
        want = B.odds_parent_kind(kind)
        for bet in self.shadow.bets:
            if bet.seat == seat and bet.kind == want and bet.number and (not number or bet.number == number):
                return bet
        return None

    # -- one reading ---------------------------------------------------------------------
    def reading(self):
        """{seat: {zone: amount}} (seats 1-based) of the bets the shadow engine took, in the layout's order."""
        self.readings += 1
        self.pending = []
        out = {}
        for seat in range(self.seats):
            if self.rng.random() >= self.seated:
                continue
            wished = dict(self.wishes(seat))
            row = {}
            for z in range(len(ZONES)):         # the controller's order: line bets before their odds
                zone = ZONES[z]
                if zone in wished and self._place(seat, z, wished[zone]):
                    row[zone] = wished[zone]
            if row:
                out[seat + 1] = row
        return out

    def _place(self, seat, z, amount):
        kind, number = KIND_NUMBER[z]
        on = None
        if B.is_odds(kind):
            parent = self.backed(seat, kind, number)
            if parent is None:
                self.dropped += 1
                return False
            on, number = parent.bet_id, 0
        bet_id, reason = self.shadow.place_bet(seat, kind, amount, number, on)
        if reason is not None:
            self.dropped += 1
            return False
        self.placed += 1
        self.pending.append(bet_id)
        return True

    def refused_whole(self):
        """The table refused the last reading whole (a bets fault): its bets come off the shadow too."""
        for bet_id in self.pending:
            if self.shadow.find(bet_id) is not None:
                self.shadow.take_down(bet_id)
        self.placed -= len(self.pending)
        self.pending = []

    def thrown(self, report):
        """The table decided this throw (a dice report for rules.CrapsTable.roll): so does the shadow."""
        self.pending = []
        return self.shadow.roll(report)

