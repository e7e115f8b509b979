# Craps bet placement (dispatch 53/2010 art. 5): the checks a bet must pass to go on the layout, as
# a part of rules.CrapsTable (the engine: puck, open bets, settings). place_bet() checks the call's
# form too; place_known() the rules only, for a caller sure of the form; place_reading() a bet
# reading's bets at once, each taken as place_known() would take it.
from firmware.errors import RuleError
from firmware.games.craps import bets as B
from firmware.games.craps.bets import STAKE_UNITS as _STAKE_UNITS
from firmware.games.craps.settings import is_int

# copies of firmware.games.craps.codes (tests/host/test_const_copies.py)
_BIG_NUMBER = const(19)
_COME = const(4)
_COME_ODDS = const(6)
_DONT_COME = const(5)
_DONT_PASS = const(1)
_FIELD = const(15)
_HARD = const(18)
_PASS = const(0)
_PASS_ODDS = const(2)
_STAND = const(0)

# When a kind may be placed and what number it takes: one tuple lookup in place_bet.
_COME_OUT_LINE = const(0)   # Pass, Don't Pass: puck OFF (art. 5(2)(1), (3))
_POINT_LINE = const(1)      # Come, Don't Come: a point is set (art. 5(2)(5), (6))
_ODDS_BET = const(2)        # behind a line bet with a point (art. 5(2))
_HARD_BET = const(3)        # any time, number 4/6/8/10 (art. 5(4)(1))
_BIG_BET = const(4)         # any time, number 4..10 but 7 (art. 5(4)(2)-(4))
_ANY_TIME = const(5)        # one-roll bets, no number (art. 5(3), 5(5))


def _placement(k):
    if k == _PASS or k == _DONT_PASS:
        return _COME_OUT_LINE
    if k == _COME or k == _DONT_COME:
        return _POINT_LINE
    if B.is_odds(k):
        return _ODDS_BET
    if k == _HARD:
        return _HARD_BET
    if k == _BIG_NUMBER:
        return _BIG_BET
    return _ANY_TIME


_PLACEMENT = tuple(_placement(k) for k in range(len(B.KIND_NAMES)))
del _placement   # used once: its bytecode is not kept in RAM
_KINDS = len(B.KIND_NAMES)
# place_reading's stake units by zone (_reading_units): a unit > 0 once learnt, 0 before; these below 0
_STOP = const(-1)             # odds: the caller finds the line bet they back
_CLOSED = const(-2)           # a line bet the phase refuses: place_known's reason
_SPOT = const(-3)             # a hard way or big number at a table with a maximum: place_known adds up the spot
_TRAVELLED = const(-4)        # a come bet's come point ("come_6"): chips are never put there (_travelled)
_NO_CAP = const(0x3FFFFFFF)   # place_reading's cap without a table maximum (a larger stake: place_known's)


def _reading_units(kind_number, minimum):
    """[puck OFF, puck ON, the Field's zone or -1, minimum, the hard way and big number zones]: each
    phase's list of every zone's unit for place_reading, learnt as bets come (0 until then: _unit), or
    _STOP for odds, _CLOSED for the line bets the phase refuses (place_known's phase checks) and
    _TRAVELLED for a come bet's come point; for the table minimum given."""
    lists = []
    field = -1
    spots = [z for z in range(len(kind_number)) if _PLACEMENT[kind_number[z][0]] in (_HARD_BET, _BIG_BET)]
    for closed in (_POINT_LINE, _COME_OUT_LINE):
        units = [0] * len(kind_number)
        for z in range(len(kind_number)):
            k = kind_number[z][0]
            when = _PLACEMENT[k]
            if when == _ODDS_BET:
                units[z] = _STOP
            elif when == closed:
                units[z] = _CLOSED
            if when == _POINT_LINE and kind_number[z][1]:
                units[z] = _TRAVELLED
            if k == _FIELD:
                field = z
        lists.append(units)
    return [lists[0], lists[1], field, minimum, spots]


def _travelled(k, number):
    """Why a reading's bet on a come point ("come_6", "dont_come_6") is refused: a come bet is placed on
    "come" and travels there with its first roll (art. 5(2)(5), (6)); no rule puts chips there (art. 7)."""
    name = B.KIND_NAMES[k]
    return ("%s_%d: a %s bet is placed on %s and travels to its come point with its first roll (art. 5(2)(%d)): "
            "no bet is put on the come point" % (name, number, name, name, 5 if k == _COME else 6))


def _unit(k, number, field_12, minimum):
    """A zone's unit for place_reading: the least common multiple of the table minimum (art. 5(6))
    and the stake unit that pays exactly (place_known's last check), so that one remainder makes both
    checks. The Field's option is checked as place_known checks it (a wrong one raises)."""
    if k == _FIELD:
        B.field_12_pays(field_12)
    q = _STAKE_UNITS.get(k << 4 | number)
    if q is None:
        q = B.cached_stake_quantum(k, number, field_12)
    a, b = minimum, q
    while b:
        a, b = b, a % b
    return minimum * q // a


class Bet:
    """One stake on the layout. number: own point (line bets, 0 before it has one), the
    point behind which odds stand, or the hard/big number.

    An instance's attributes live in a dict that grows 0 -> 2 -> 4 -> 6 -> 8 entries as they are stored
    (MicroPython): the five every bet has and a roll reads are its own; the others are the class's until
    a bet has its own (odds' parent; a roll stood through, a line bet's outcome), so a bet of a reading
    (50 at a CLOSE) is made with three growths of its dict, not four. (A number read from the class
    costs every roll and render more than its store saves.)"""

    parent = None                 # the Bet backed by odds
    in_action = False             # has stood through a valid roll
    outcome = _STAND              # a line bet's settlement code of the current roll (its odds read it)

    def __init__(self, bet_id, seat, kind, amount, number, parent):
        self.bet_id = bet_id
        self.seat = seat
        self.kind = kind
        self.amount = amount
        self.number = number
        if parent is not None:
            self.parent = parent


class Placement:
    """Bet placement of rules.CrapsTable (its settings, point, bets and next_id)."""

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
        when = _PLACEMENT[k]
        if s.maximum and (when == _HARD_BET or when == _BIG_BET):
            # Chips added to a hard way or big number after a roll are a bet of their own on the same
            # spot: the maximum bounds the spot, or adding each roll would pass it.
            spot = amount
            for b in bets:
                if b.seat == seat and b.kind == k and b.number == number:
                    spot += b.amount
            if spot > s.maximum:
                return None, "%s %d: %d in all on this seat's spot is over the table maximum %d" % (
                    B.KIND_NAMES[k], number, spot, s.maximum)
        if len(bets) >= s.max_open_bets:
            return None, "table holds its maximum of %d open bets" % s.max_open_bets

        parent = None
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
            if k == _PASS_ODDS or k == _COME_ODDS:
                if committed > multiple * parent.amount:
                    return None, "odds on %d limited to %dx the line bet (%d), asked %d in all (max_odds)" % (
                        number, multiple, multiple * parent.amount, committed)
            elif committed * ratio[0] > multiple * parent.amount * ratio[1]:
                return None, "lay odds on %d limited to a win of %dx the line bet (lay %d), asked %d in all (max_odds)" % (
                    number, multiple, multiple * parent.amount * ratio[1] // ratio[0], committed)
            if s.maximum and committed > s.maximum:       # odds added after a roll: the same spot
                return None, "odds on %d: %d in all behind the line bet is over the table maximum %d" % (
                    number, committed, s.maximum)
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

    def refusal(self, seat, k, amount, number, on):
        """place_known()'s reason for the bet, or None where it would place it: nothing is placed (a bet past
        a caller's own bound gets the rules' reason before the bound's). RuleError as place_known."""
        next_id = self.next_id
        bet_id, reason = self.place_known(seat, k, amount, number, on)
        if reason is None:
            self.bets.pop()                              # the one just appended
            self.next_id = next_id
        return reason

    def place_reading(self, chips, at, amounts, limit, width, kind_number, placed, placed_slots, bet_zone,
                      refusals, most=_NO_CAP):
        """A bet reading's bets from chips[at] on, in order, each placed or refused exactly as
        place_known() would (the same checks, order and reasons; a bet on a come point, which
        place_known is never asked for, refused first: _travelled), until an odds bet: the caller names
        the line bet odds back (or refuses them) and goes on after it. chips: the slots holding
        chips (seat * width + zone, ascending; a take-down's amount, <= 0, is passed over); a slot
        from limit on is not read; amounts by slot; kind_number: (kind code, number) by zone. A bet
        placed: its id appended to placed and its slot to placed_slots, bet_zone[id] = its zone;
        refused: (seat, zone, amount, reason, False) in refusals (a RuleError's text too). most: the
        caller's own bound on placed's length (none by default): a bet past it that the rules would take
        is the caller's too (one they refuse: their reason, here).
        Returns the index in chips of the odds bet or of that bet, or len(chips). A bet that passes every check is placed here without the call (a reading's 50
        bets: the settings read once); any other goes through place_known() for its reason."""
        s = self.settings
        minimum = s.minimum
        cap = s.maximum or _NO_CAP
        field_12 = s.field_12
        plan = self._zone_units                          # (_reading_units)
        if plan is None or len(plan[0]) != len(kind_number) or plan[3] != minimum:
            plan = self._zone_units = _reading_units(kind_number, minimum)
        units = plan[1 if self.point else 0]
        if s.maximum:
            for z in plan[4]:                            # spots added up by place_known (a hard way, a big
                units[z] = _SPOT                         # number): not placed here
        if plan[2] >= 0:
            units[plan[2]] = 0                           # the Field's unit learnt once a reading: its option
        bets = self.bets                                 # (field_12) checked as place_known checks it
        room = s.max_open_bets - len(bets)               # bets the table may still hold
        full = most - len(placed) < room                 # the caller's bound comes first: its room
        if full:
            room = most - len(placed)
        next_id = self.next_id                           # (self.next_id written back before any other call)
        new = object.__new__
        n = len(chips)
        for at in range(at, n):
            slot = chips[at]
            if slot >= limit:
                break
            amount = amounts[slot]
            if amount <= 0:                              # a take-down (the caller's)
                continue
            seat = slot // width
            z = slot - seat * width
            u = units[z]                                 # the zone's unit; 0: not learnt; < 0: see above
            if not u and not amount % minimum and amount <= cap and room > 0:
                # place_known's checks before the Field's option and the payout's, passed: the unit learnt
                self.next_id = next_id                   # (a wrong Field option raises, as place_known)
                k, number = kind_number[z]
                u = units[z] = _unit(k, number, field_12, minimum)
            # place_known's checks, in its order, all passed (a multiple of the minimum and of the payout's
            # unit: of u): placed here; any failing: place_known's reason
            if u > 0 and not amount % u and amount <= cap and room > 0:
                k, number = kind_number[z]
                bet = new(Bet)                           # Bet(next_id, seat, k, amount, number, None), its
                bet.bet_id = next_id                     # __init__'s stores made here: a call less a bet
                bet.seat = seat                          # (~0.4 us in the VM; tests check the bets are alike)
                bet.kind = k
                bet.amount = amount
                bet.number = number
                bets.append(bet)
                placed.append(next_id)
                placed_slots.append(slot)
                bet_zone[next_id] = z
                next_id += 1
                room -= 1
                continue
            if u == _STOP:                               # odds: the caller's
                self.next_id = next_id
                return at
            k, number = kind_number[z]
            if u == _TRAVELLED:
                refusals.append((seat, z, amount, _travelled(k, number), False))
                continue
            self.next_id = next_id
            try:
                if full and room <= 0:                   # past the caller's most: the rules' reason first,
                    bet_id, reason = None, self.refusal(seat, k, amount, number, None)
                    if reason is None:                   # the caller's for a bet the rules would take
                        return at
                else:
                    bet_id, reason = self.place_known(seat, k, amount, number, None)
            except RuleError as exc:                     # a bet the table cannot hold at all
                bet_id, reason = None, str(exc)
            next_id = self.next_id
            if reason is None:
                room -= 1
                placed.append(bet_id)
                placed_slots.append(slot)
                bet_zone[bet_id] = z
            else:
                refusals.append((seat, z, amount, reason, False))
        self.next_id = next_id
        return n
