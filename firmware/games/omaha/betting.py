# Omaha betting round: who must act, the legal range of a bet or raise, applying an action (arts. 6, 11-13).
#
# Amounts of bet/raise are "to" amounts: the total the player's bet in this
# betting round becomes. Pot-limit ("limit game", art. 11(2)): at most the pot,
# a raise being "call, then raise by the pot". No-limit (art. 11(3)): at least
# the minimum, any amount up to all-in. A raise is at least the previous bet
# or raise increment of the round (art. 12(1)); pot-limit allows 3 raises per
# round unless heads-up (art. 12(2),(4)). An all-in for less than a full raise
# does not reopen the betting to players who already acted, and does not count
# as one of the 3 raises. A bet/raise beyond the player's chips is all in
# (every bet is limited by the chips on the table), when all in is allowed.
from firmware.errors import RuleError
from firmware.games.omaha.settings import raise_cap_applies, unlimited_size

# copies of firmware.games.omaha.settings (tests/host/test_const_copies.py)
_POT_LIMIT_RAISE_CAP = const(3)

FOLD = "fold"
CHECK = "check"
CALL = "call"
BET = "bet"
RAISE = "raise"
# (FOLD, CHECK, CALL, BET, RAISE) as a literal, one constant in flash when frozen (made at import from the
# names it kept 32 bytes of the heap in the VM; in ROMFS a literal tuple is made in RAM at load, its strings
# not; issue 14): test_kept_literals compares.
ACTIONS = ("fold", "check", "call", "bet", "raise")

LIMIT_POT = "pot"  # max_to is the pot limit
LIMIT_STACK = "stack"  # max_to is the player's all-in


def chips_text(amount):
    """Amount with thousands separators, as the dealer display shows it: 1250 -> '1,250'."""
    digits = str(amount)
    sign = ""
    if digits[0] == "-":
        sign = "-"
        digits = digits[1:]
    groups = []
    while len(digits) > 3:
        groups.insert(0, digits[-3:])
        digits = digits[:-3]
    groups.insert(0, digits)
    return sign + ",".join(groups)


class BetRangeError(RuleError):
    """A bet/raise outside the legal range; min_to/max_to and the dealer display text ride along."""

    def __init__(self, message, action, min_to, max_to, display):
        super().__init__(message)
        self.action = action
        self.min_to = min_to
        self.max_to = max_to
        self.display = display  # e.g. "POT MAX 1,250", as the dealer display shows it


class Legal:
    """What the player to act may do now."""

    def __init__(self, index, seat):
        self.index = index
        self.seat = seat
        self.can_check = False
        self.call = 0  # chips a call puts in (limited by the stack: an all-in call)
        self.kind = None  # BET, RAISE or None when no bet/raise is allowed
        self.min_to = 0  # bet/raise-to range (both = all_in_to when only all-in is left)
        self.max_to = 0
        self.limit = LIMIT_STACK  # what max_to comes from
        self.all_in_to = 0
        self.why_not = ""  # why kind is None

    def display(self):
        """Short dealer-display text, e.g. 'CALL 20 RAISE 40-1,250 POT MAX 1,250'."""
        parts = ["CHECK" if self.can_check else "CALL " + chips_text(self.call)]
        if self.kind is not None:
            word = "BET " if self.kind == BET else "RAISE "
            if self.min_to == self.max_to:
                parts.append(word + chips_text(self.max_to) + " ALL-IN")
            else:
                parts.append(word + chips_text(self.min_to) + "-" + chips_text(self.max_to))
                parts.append(("POT MAX " if self.limit == LIMIT_POT else "MAX ") + chips_text(self.max_to))
        return " ".join(parts)


class Betting:
    """Bets of one hand: this round's bets, the hand's contributions, raise bookkeeping."""

    def __init__(self, settings, stack, folded):
        n = len(stack)
        self.settings = settings
        self.stack = stack  # the hand's stack list, updated in place
        self.folded = folded  # the hand's folded flags (read only here)
        self.bet = [0] * n  # this betting round
        self.total = [0] * n  # this hand
        self.acted = [False] * n  # acted since the last full bet/raise
        self.current = 0  # highest bet of this round
        self.min_inc = settings.big_blind  # smallest raise increment now
        self.raises = 0  # full raises this round (pot-limit cap)

    def post(self, i, amount):
        """A blind (art. 5); a short stack posts what it has and is all in."""
        self._put(i, amount if amount < self.stack[i] else self.stack[i])

    def open_preflop(self, big_blind):
        # The big blind is the round's opening bet, in full even if posted short.
        self.current = big_blind
        self.min_inc = big_blind

    def open_round(self):
        for i in range(len(self.bet)):
            self.bet[i] = 0
            self.acted[i] = False
        self.current = 0
        self.min_inc = self.settings.big_blind  # art. 11(3): minimum bet
        self.raises = 0

    def pot(self):
        total = 0
        for t in self.total:
            total += t
        return total

    def others_with_chips(self, i):
        """Is anyone else still in and not all in (so could answer a bet)?"""
        for q in range(len(self.stack)):
            if q != i and not self.folded[q] and self.stack[q] > 0:
                return True
        return False

    def needs_action(self, i):
        if self.folded[i] or self.stack[i] == 0:
            return False  # all in: no more decisions this hand
        if self.bet[i] < self.current:
            return True  # facing a bet: call, raise or fold
        if self.acted[i]:
            return False
        return self.others_with_chips(i)

    def _put(self, i, chips):
        self.stack[i] -= chips
        self.bet[i] += chips
        self.total[i] += chips

    def apply(self, legal, action, amount):
        """Apply check/call/bet/raise for legal.index (RuleError/BetRangeError if refused)."""
        i = legal.index
        if action == CHECK or action == CALL:
            if amount is not None:
                raise RuleError("%s takes no amount" % action)
            if action == CHECK and not legal.can_check:
                raise RuleError("seat %d cannot check: %d to call (art. 7(3))" % (legal.seat, legal.call))
            if action == CALL:
                if legal.can_check:
                    # What the seat may do instead: pre-flop the big blind's option is a raise (art. 6(4)).
                    instead = "check or " + legal.kind if legal.kind is not None else "check"
                    raise RuleError("seat %d has no bet to call: %s" % (legal.seat, instead))
                self._put(i, legal.call)
            self.acted[i] = True
            return
        if not isinstance(amount, int) or isinstance(amount, bool):
            raise RuleError("%s needs a whole amount: the total of this round's bet, got %r" % (action, amount))
        if legal.kind is None:
            raise RuleError("seat %d may not %s: %s" % (legal.seat, action, legal.why_not))
        if action != legal.kind:
            if legal.kind == BET:
                raise RuleError("no bet to raise in this round: seat %d may bet" % legal.seat)
            raise RuleError("there is already a bet of %d: seat %d may raise" % (self.current, legal.seat))
        asked = amount
        if amount > legal.all_in_to:
            # Every bet is limited by the chips the player has on the table
            # (art. 11(2)1, 11(3)): asking for more is going all in.
            amount = legal.all_in_to
        if amount < legal.min_to or amount > legal.max_to:
            # The article the range comes from: past the pot (a stack's most is its all-in, taken above), art.
            # 11(2); under the least, a bet's the minimum bet, art. 11(3), a raise's a full raise, art. 12(1).
            if amount > legal.max_to:
                display = ("POT MAX " if legal.limit == LIMIT_POT else "MAX ") + chips_text(legal.max_to)
                article = "11(2)"
            else:
                display = "MIN " + chips_text(legal.min_to)
                article = "11(3)" if action == BET else "12(1)"
            if legal.min_to == legal.max_to:
                allowed = "only all-in to %d" % legal.max_to
            else:
                allowed = "%s to %d..%d" % (action, legal.min_to, legal.max_to)
            raise BetRangeError("seat %d %s to %d refused: %s (%s, art. %s)"
                                % (legal.seat, action, asked, allowed, display, article),
                                action, legal.min_to, legal.max_to, display)
        increment = amount - self.current
        full = increment >= self.min_inc
        self._put(i, amount - self.bet[i])
        if action == BET:
            reopen = True  # the round's first bet: everyone else must answer it
            if amount > self.min_inc:
                self.min_inc = amount
        else:
            reopen = full  # art. 12(1): a full raise sets the next minimum increment
            if full:
                self.min_inc = increment
                self.raises += 1
        self.current = amount
        if reopen:
            for q in range(len(self.acted)):
                self.acted[q] = False
        self.acted[i] = True


def legal_actions(b, i, seat, live_count):
    """-> Legal for player i of Betting b, with live_count players not folded."""
    s = b.settings
    legal = Legal(i, seat)
    mine = b.bet[i]
    chips = b.stack[i]
    all_in_to = mine + chips
    legal.all_in_to = all_in_to
    if b.current > mine:
        legal.call = b.current - mine if b.current - mine < chips else chips
    else:
        legal.can_check = True
    heads_up = live_count == 2  # art. 12(4): only two players in the round
    if all_in_to <= b.current:
        legal.why_not = "a call puts seat %d all in" % seat
        return legal
    if not b.others_with_chips(i):
        legal.why_not = "every other player is all in"
        return legal
    if b.current > 0 and b.acted[i]:
        legal.why_not = "the all-in was less than a full raise, betting is not reopened: call or fold"
        return legal
    if b.current > 0 and b.raises >= _POT_LIMIT_RAISE_CAP and raise_cap_applies(s, heads_up):
        legal.why_not = "%d raises already in this round: call or fold (art. 12(2))" % _POT_LIMIT_RAISE_CAP
        return legal
    legal.kind = RAISE if b.current > 0 else BET
    min_to = b.current + b.min_inc
    if unlimited_size(s, heads_up):
        max_to = all_in_to
    else:
        # Art. 11(2): call first, then raise by at most the pot after the call.
        max_to = b.current + b.pot() + (b.current - mine)
        if max_to < min_to:
            max_to = min_to  # the minimum bet stays allowed on a tiny pot
        if max_to < all_in_to:
            legal.limit = LIMIT_POT
    if max_to > all_in_to:
        max_to = all_in_to
    if min_to > all_in_to:
        min_to = all_in_to  # short: only all-in (less than a full raise) is left
    legal.min_to = min_to
    legal.max_to = max_to
    return legal

