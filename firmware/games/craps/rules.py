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
from firmware.compat import const
from firmware.errors import RuleError
from firmware.games.craps import bets as B
from firmware.games.craps.bets import STAKE_UNITS as _STAKE_UNITS
from firmware.games.craps.dice import check_report
from firmware.games.craps.settings import (  # noqa: F401 (the table file loads Craps settings from here)
    OFF_ON_COME_OUT_ALLOWED, REQUIRED_SETTINGS, SETTING_NAMES, TAKE_DOWN_ALLOWED, CrapsSettings, is_int,
    load_settings)

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

# When a kind may be placed and what number it takes: one tuple lookup in place_bet.
_COME_OUT_LINE = const(0)   # Pass, Don't Pass: puck OFF (art. 5(2)(1), (3))
_POINT_LINE = const(1)      # Come, Don't Come: a point is set (art. 5(2)(5), (6))
_ODDS_BET = const(2)        # behind a line bet with a point (art. 5(2))
_HARD_BET = const(3)        # any time, number 4/6/8/10 (art. 5(4)(1))
_BIG_BET = const(4)         # any time, number 4..10 but 7 (art. 5(4)(2)-(4))
_ANY_TIME = const(5)        # one-roll bets, no number (art. 5(3), 5(5))


def _placement(k):
    if k == B.PASS or k == B.DONT_PASS:
        return _COME_OUT_LINE
    if k == B.COME or k == B.DONT_COME:
        return _POINT_LINE
    if B.is_odds(k):
        return _ODDS_BET
    if k == B.HARD:
        return _HARD_BET
    if k == B.BIG_NUMBER:
        return _BIG_BET
    return _ANY_TIME


_PLACEMENT = tuple(_placement(k) for k in range(len(B.KIND_NAMES)))
del _placement   # used once: its bytecode is not kept in RAM
_KINDS = len(B.KIND_NAMES)
_FIELD = const(15)            # bets.FIELD, a const of this module: no lookup a bet (tests check they agree)


class Bet:
    """One stake on the layout. number: own point (line bets, 0 before it has one), the
    point behind which odds stand, or the hard/big number."""

    def __init__(self, bet_id, seat, kind, amount, number, parent):
        self.bet_id = bet_id
        self.seat = seat
        self.kind = kind
        self.amount = amount
        self.number = number
        self.parent = parent      # Bet backed by odds, else None
        self.in_action = False    # has stood through a valid roll
        self.outcome = B.STAND    # settlement code of the current roll (odds look at their parent's)


class CrapsTable:
    """Puck, shooter and every open bet of one craps table."""

    def __init__(self, settings):
        self.settings = load_settings(settings)
        self.point = 0                # 0: puck OFF (next roll is a come-out); else the point
        self.bets = []                # open bets in placement order (odds after their line bet)
        self.next_id = 1
        self.rolls = 0                # valid rolls
        self.no_rolls = 0             # invalid throws (re-thrown)
        self.shooter_changes = 0
        self.last_dice = None         # (d1, d2) of the last valid roll
        self.last_no_roll = None      # reason of the last report if it was a no-roll, else None
        self.shooter_changed = False  # set by the last roll (art. 4)
        self.seven_out = False        # the last roll was a seven-out

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

    # ---- placement ---------------------------------------------------------------------
    def place_bet(self, seat, kind, amount, number=0, on=None):
        """Place a bet. kind: a name from bets.KIND_NAMES; number: 4..10 for hard /
        big_number; on: bet id the odds stand behind. Returns (bet_id, None) or (None, reason).
        Malformed calls (unknown kind, wrong number for the kind, bad seat) raise RuleError."""
        s = self.settings
        k = kind
        if isinstance(kind, str):
            k = B.kind_code(kind)
        # type(x) is int first: the plain int skips the call (is_int also takes int subclasses, not bool)
        if (type(k) is not int and not is_int(k)) or not 0 <= k < _KINDS:
            raise RuleError("unknown craps bet type %r" % (kind,))
        if (type(seat) is not int and not is_int(seat)) or not 0 <= seat < s.seats:
            raise RuleError("seat %r is not at this table (seats 0..%d)" % (seat, s.seats - 1))
        if type(amount) is not int and not is_int(amount):
            raise RuleError("stake must be a whole number of table units, got %r" % (amount,))
        name = B.KIND_NAMES[k]
        if type(number) is not int and not is_int(number):  # 4.0 is not the number 4: option numbers are ints
            raise RuleError("bet number must be a whole number, got %r" % (number,))
        when = _PLACEMENT[k]
        if when == _HARD_BET:
            if number not in B.HARD_NUMBERS:
                raise RuleError("hard way number must be 4, 6, 8 or 10 (art. 5(4)(1)), got %r" % (number,))
        elif when == _BIG_BET:
            if number not in B.BIG_NUMBERS:
                raise RuleError("big number must be 4, 5, 6, 8, 9 or 10 (art. 5(4)(2)-(4)), got %r" % (number,))
        elif number:
            raise RuleError("%s takes no number" % name)
        if when == _ODDS_BET:
            if on is None:
                raise RuleError("%s needs the id of the line bet it backs" % name)
            if not is_int(on):
                raise RuleError("%s: the line bet is named by its bet id (a whole number), got %r" % (name, on))
        elif on is not None:
            raise RuleError("%s does not stand behind another bet" % name)
        return self.place_known(seat, k, amount, number, on)

    def place_known(self, seat, k, amount, number, on):
        """place_bet() past its checks of the call's form, for a caller that guarantees them from
        tables of its own (the controller's zones.KIND_NUMBER): k a kind code, seat one of the
        table's, amount an int, number the one the kind takes (0 for none and for odds), on the id
        of the line bet odds back (else None). Every rule check of the bet is made here, in
        place_bet's order: stake (art. 5(6)), maximum, open bets, phase, odds, exact payout.
        Returns (bet_id, None) or (None, reason)."""
        s = self.settings
        if amount <= 0 or amount % s.minimum:
            return None, "stake %d is not a positive multiple of the table minimum %d (art. 5(6))" % (amount, s.minimum)
        if s.maximum and amount > s.maximum:
            return None, "stake %d is over the table maximum %d" % (amount, s.maximum)
        bets = self.bets
        if len(bets) >= s.max_open_bets:
            return None, "table holds its maximum of %d open bets" % s.max_open_bets

        parent = None
        when = _PLACEMENT[k]
        if when == _COME_OUT_LINE:
            if self.point:
                return None, "%s is a come-out bet: only while the puck is OFF (art. 5(2)(1), (3))" % B.KIND_NAMES[k]
        elif when == _POINT_LINE:
            if not self.point:
                return None, "%s only once a point is set (art. 5(2)(5), (6))" % B.KIND_NAMES[k]
        elif when == _ODDS_BET:
            name = B.KIND_NAMES[k]
            parent = self.find(on)
            want = B.odds_parent_kind(k)
            if parent is None:
                return None, "%s: bet %r is not open" % (name, on)
            if parent.kind != want:
                return None, "%s must back a %s bet, bet %r is %s (art. 5(2))" % (
                    name, B.KIND_NAMES[want], on, B.KIND_NAMES[parent.kind])
            if parent.seat != seat:
                return None, "%s must back a bet of the same seat" % name
            if not parent.number:
                return None, "%s only behind a bet that has a point (art. 5(2)(2), (4), (5), (6))" % name
            number = parent.number
            multiple = s.odds_multiple(number)
            committed = amount
            for b in bets:
                if b.parent is parent:
                    committed += b.amount
            ratio = B.odds_pay(k, number)
            if k == B.PASS_ODDS or k == B.COME_ODDS:
                if committed > multiple * parent.amount:
                    return None, "odds on %d limited to %dx the line bet (%d), asked %d in all (max_odds)" % (
                        number, multiple, multiple * parent.amount, committed)
            elif committed * ratio[0] > multiple * parent.amount * ratio[1]:
                return None, "lay odds on %d limited to a win of %dx the line bet (lay %d), asked %d in all (max_odds)" % (
                    number, multiple, multiple * parent.amount * ratio[1] // ratio[0], committed)
        # One-roll and multi-roll bets: any time (art. 5(5)).

        if k == _FIELD:
            B.field_12_pays(s.field_12)   # the option is checked on every Field bet (its unit is 1 at 2:1 and 3:1)
        q = _STAKE_UNITS.get(k << 4 | number)          # (cached_stake_quantum's table, asked here first)
        if q is None:
            q = B.cached_stake_quantum(k, number, s.field_12)
        if amount % q:
            ratios = B.win_ratios(k, number, s.field_12)
            return None, "stake %d does not pay exactly: %s%s pays %s, so the stake must be a multiple of %d (no rounding)" % (
                amount, B.KIND_NAMES[k], (" %d" % number) if number else "",
                " / ".join("%d:%d" % r for r in ratios), q)

        bet_id = self.next_id
        self.next_id = bet_id + 1
        bets.append(Bet(bet_id, seat, k, amount, number, parent))
        return bet_id, None

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
        if b.in_action:
            if (b.kind == B.PASS or b.kind == B.COME) and b.number:
                return None, "%s with a point is a contract bet: decided only by the point or a 7 (art. 5(2)(1), (5))" % (
                    B.KIND_NAMES[b.kind],)
            if b.kind not in self.settings.take_down_codes:
                return None, "this table does not allow %s to be taken down once in action (take_down setting)" % (
                    B.KIND_NAMES[b.kind],)
        out = []
        keep = []
        for x in self.bets:
            if x is b or x.parent is b:
                out.append((x.bet_id, x.seat, B.KIND_NAMES[x.kind], B.zone_name(x.kind, x.number), "down", 0, x.amount))
            else:
                keep.append(x)
        self.bets = keep
        return out, None

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
        columns = B.ZONE_COLUMNS
        settle_line = B.settle_line
        settle_prop = B.settle_prop
        one_roll = B.ONE_ROLL_OUTCOMES
        odds_pay = B.odds_pay
        stand = B.STAND
        won = B.WIN
        lost = B.LOSE
        push = B.PUSH
        move = B.MOVE
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
            b.outcome = code
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
