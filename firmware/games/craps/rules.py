# Craps (花旗骰, dispatch 53/2010): puck, bet placement, take-down and settlement.
#
# Incremental API for the table controller:
#   table = CrapsTable(load_settings({...}))
#   bet_id, reason = table.place_bet(seat, "pass", 10)        # reason is None on success
#   resolved = table.roll((3, 4))                              # or a reader report dict
#   for r in resolved: r[SEAT], r[ZONE], r[RESULT], r[NET] ...
# Money is integer table units. A stake must be a multiple of the table minimum (art. 5(6)) AND
# make every payout of its bet exact (e.g. a multiple of 5 for odds 6:5 on a 6): otherwise the bet
# is REFUSED with a reason. Payouts are never rounded. Table settings: settings.py.
from firmware.errors import RuleError
from firmware.games.craps import bets as B
from firmware.games.craps.dice import check_report
from firmware.games.craps.settings import is_int, load_settings

# copies of firmware.games.craps.codes (tests/host/test_const_copies.py)
_BIG_NUMBER = const(19)
_COME = const(4)
_COME_ODDS = const(6)
_DONT_COME_ODDS = const(7)
_FIELD = const(15)
_HARD = const(18)
_LOSE = const(2)
_MOVE = const(4)
_PASS = const(0)
_PUSH = const(3)
_STAND = const(0)
_WIN = const(1)
_ZONE_COLUMNS = const(11)

# Resolved bet record: a tuple (bet_id, seat, kind name, zone, result, net, stake).
BET_ID = 0
SEAT = 1
KIND = 2
ZONE = 3
RESULT = 4   # "win", "lose", "push" or "down" (taken down, stake returned)
NET = 5      # amount won (+) or lost (-); 0 for push/down
STAKE = 6

# What the roll loop does with a kind: one tuple lookup instead of is_line()/is_odds() calls.
_LINE = const(0)
_ODDS = const(1)
_ONE_ROLL = const(2)   # one-roll bets (art. 5(3)): decided from bets.ONE_ROLL_OUTCOMES
_MULTI_ROLL = const(3)  # hard ways and big numbers (art. 5(4))


def _kind_group(k):
    if B.is_line(k):
        return _LINE
    if B.is_odds(k):
        return _ODDS
    if B.is_one_roll(k):
        return _ONE_ROLL
    return _MULTI_ROLL


_GROUP = tuple(_kind_group(k) for k in range(len(B.KIND_NAMES)))
del _kind_group   # used once: its bytecode is not kept in RAM

from firmware.games.craps.placement import Placement


class CrapsTable(Placement):
    """Puck, shooter and every open bet of one craps table."""

    def __init__(self, settings):
        self.settings = load_settings(settings)
        self.point = 0                # 0: puck OFF (next roll is a come-out); else the point
        self.bets = []                # open bets in placement order (odds after their line bet)
        self.next_id = 1
        self._zone_units = None       # place_reading: each zone's stake unit, as learnt
        self.rolls = 0                # valid rolls
        self.no_rolls = 0             # invalid throws (re-thrown)
        self.shooter_changes = 0
        self.last_dice = None         # (d1, d2) of the last valid roll
        self.last_no_roll = None      # reason of the last report if it was a no-roll, else None
        self.shooter_changed = False  # set by the last roll (art. 4)
        self.seven_out = False        # the last roll was a seven-out
        self.moved = []               # the line bets the last roll gave their point (art. 5(2)(1), (5), (6))

    # ---- queries -----------------------------------------------------------------------
    def come_out(self):
        """True when the next roll is a come-out roll (puck OFF)."""
        return self.point == 0

    def phase(self):
        """"come_out" (puck OFF: Pass/Don't Pass may be placed) or "point" (Come/Don't Come, odds)."""
        return "point" if self.point else "come_out"

    def find(self, bet_id):
        for b in self.bets:
            if b.bet_id == bet_id:
                return b
        return None

    def open_bets(self, seat=None):
        """[(bet_id, seat, kind name, zone, amount)] of the open bets (of one seat)."""
        out = []
        for b in self.bets:
            if seat is None or b.seat == seat:
                out.append((b.bet_id, b.seat, B.KIND_NAMES[b.kind], B.zone_name(b.kind, b.number), b.amount))
        return out

    def may_shoot(self, seat):
        """Art. 2(1): only a player with a bet of at least the minimum may throw."""
        for b in self.bets:
            if b.seat == seat:
                return True
        return False

    def option_bet_open(self):
        """Is a bet open that a table option decides? A Field bet (field_12 sets its payout, art. 6(12)),
        a hard way, big number or come odds (off_on_come_out: does a come-out roll decide it, art. 5(5)).
        A bet is decided under the options it was placed under: a settings change waits for none."""
        for b in self.bets:
            k = b.kind
            if k == _FIELD or k == _HARD or k == _BIG_NUMBER or k == _COME_ODDS or k == _DONT_COME_ODDS:
                return True
        return False

    # ---- take down -----------------------------------------------------------------------
    def take_down(self, bet_id):
        """Return a bet's stake to the player. Returns (resolved list, None) or (None, reason).
        A bet that has not yet stood through a roll may always be withdrawn; afterwards only the
        kinds in the take_down setting, and never Pass/Come once they have a point. Odds
        behind a withdrawn line bet come down with it."""
        if not is_int(bet_id):
            raise RuleError("a bet is named by its bet id (a whole number), got %r" % (bet_id,))
        b = self.find(bet_id)
        if b is None:
            return None, "bet %r is not open" % (bet_id,)
        reason = self.down_refusal(b)
        if reason is not None:
            return None, reason
        out = []
        keep = []
        for x in self.bets:
            if x is b or x.parent is b:
                out.append((x.bet_id, x.seat, B.KIND_NAMES[x.kind], B.zone_name(x.kind, x.number), "down", 0, x.amount))
            else:
                keep.append(x)
        self.bets = keep
        return out, None

    def down_refusal(self, b):
        """Why the open bet b may not be taken down now (take_down's rules), or None: nothing changes."""
        if b.in_action:
            if (b.kind == _PASS or b.kind == _COME) and b.number:
                return "%s with a point is a contract bet: decided only by the point or a 7 (art. 5(2)(1), (5))" % (
                    B.KIND_NAMES[b.kind],)
            if b.kind not in self.settings.take_down_codes:
                return "this table does not allow %s to be taken down once in action (take_down setting)" % (
                    B.KIND_NAMES[b.kind],)
        return None

    # ---- shooter -----------------------------------------------------------------------------
    def shooter_stops(self):
        """Art. 4(1): the shooter no longer bets; the dice pass to the next player."""
        self.shooter_changes += 1

    # ---- rolls ---------------------------------------------------------------------------------
    def roll(self, report):
        """Feed one dice report. Returns the list of bets this roll decided (resolved tuples).

        A no-roll report (art. 3(2)-(3)) returns [] and changes nothing but no_rolls and
        last_no_roll. An impossible report raises DiceError before anything changes."""
        B.field_12_pays(self.settings.field_12)  # an option changed after validation fails here, before any change
        d1, d2, reason = check_report(report)
        self.shooter_changed = False
        self.seven_out = False
        if self.moved:
            self.moved = []
        if reason is not None:
            self.no_rolls += 1
            self.last_no_roll = reason
            return []
        self.last_no_roll = None
        self.last_dice = (d1, d2)
        self.rolls += 1
        total = d1 + d2
        come_out = self.point == 0
        resolved = self._settle(d1, d2, come_out)
        self._move_puck(total, come_out)
        return resolved

    def _settle(self, d1, d2, come_out):
        """Decide every open bet on one valid roll: the resolved tuples; the standing bets stay."""
        total = d1 + d2
        s = self.settings
        off = s.off_codes
        field_12 = s.field_12
        # The loop runs once per open bet: everything it uses is a local (no module or attribute
        # lookups per bet), the kind's group comes from one tuple, the zone from bets.ZONE_TABLE.
        group = _GROUP
        names = B.KIND_NAMES
        zones = B.ZONE_TABLE
        columns = _ZONE_COLUMNS
        settle_line = B.settle_line
        settle_prop = B.settle_prop
        one_roll = B.ONE_ROLL_OUTCOMES
        odds_pay = B.odds_pay
        stand = _STAND
        won = _WIN
        lost = _LOSE
        push = _PUSH
        move = _MOVE
        moved = self.moved
        resolved = []
        keep = []
        for b in self.bets:
            k = b.kind
            g = group[k]
            if g == _LINE:
                code, win, stake = settle_line(k, b.number, total)
                if code == move:
                    b.number = total
                    code = stand
                    moved.append(b)                   # (the controller names a travelled come bet by it)
                b.outcome = code                      # odds (after their line bet) read it; no other bet's is read
            elif g == _ODDS:
                pcode = b.parent.outcome
                if pcode == stand:
                    code = stand
                    win = stake = 1
                elif come_out and k in off:
                    code, win, stake = push, 1, 1     # odds were off: returned with the decision
                elif pcode == won:
                    code = won
                    win, stake = odds_pay(k, b.number)
                else:
                    code, win, stake = (lost, 1, 1) if pcode == lost else (push, 1, 1)
            elif come_out and k in off:
                code = stand                          # off: stands through the come-out
                win = stake = 1
            elif g == _ONE_ROLL:
                out = one_roll[k][total]
                if out is None:                       # the Field's 12 (art. 6(12)): by the table's option
                    out = settle_prop(k, b.number, d1, d2, field_12)
                code, win, stake = out
            else:
                code, win, stake = settle_prop(k, b.number, d1, d2, field_12)
            if code == stand:
                b.in_action = True
                keep.append(b)
                continue
            if code == won:
                net = b.amount * win // stake
                result = "win"
            elif code == lost:
                net = -b.amount
                result = "lose"
            else:
                net = 0
                result = "push"
            resolved.append((b.bet_id, b.seat, names[k], zones[k * columns + b.number], result, net, b.amount))
        self.bets = keep
        return resolved

    def _move_puck(self, total, come_out):
        """The puck (art. 5(2)(1)) and the shooter (art. 4) after a valid roll."""
        if come_out:
            if total in B.POINTS:
                self.point = total
            elif self.settings.shooter_change_on_come_out_craps and (total == 2 or total == 3 or total == 12):
                self.shooter_changed = True       # art. 4(2), literal reading (table option)
        elif total == self.point:
            self.point = 0
        elif total == 7:
            self.point = 0
            self.seven_out = True
            self.shooter_changed = True           # art. 4(2) as read: the seven-out
        if self.shooter_changed:
            self.shooter_changes += 1
