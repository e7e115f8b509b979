# The players at a simulated Omaha table: a host-side copy of each hand and a seeded policy for its actions.
#
# HandMirror follows one hand from the table's host reports alone: built from
# the hand_start report (button, stacks, the table's settings), fed every
# `dealt` card and every `action` the table took, it runs the firmware's own
# engine (firmware.games.omaha.rules.OmahaHand) on them, so it knows whose turn
# it is and what that seat may legally do (legal(): the engine's Legal, pot-limit
# maximum included) without looking into the firmware's objects. Each action
# report is checked against the copy (the seat, the bet, the stack, the pot):
# a difference is a mismatch, which a headless run counts (it would mean the
# table and its engine disagree).
#
# Players.choose(legal) picks one legal action with a seeded random policy:
# folds (only facing a bet), checks, calls, bets and raises anywhere in the legal
# range (the minimum, the pot-limit maximum, or between), and all-ins now and then,
# so short stacks go all in and side pots happen. keys(seat, choice) is the
# dealer's keypad entry for it (docs/omaha.md "The dealer keypad").
# Used by hostsim.omaha_dealer.
import collections

from firmware import cards
from firmware.games.omaha import rules as omaha
from firmware.games.omaha.betting import BET, CALL, CHECK, FOLD, RAISE

ALLIN = "allin"                 # the keypad's ALLIN command (an all-in bet, raise, or call)
ENTER = "enter"
STACK = "stack"
NEW = "new"

# act: fold/check/call/bet/raise/allin; amount: the "to" amount of a bet or raise (None otherwise).
Choice = collections.namedtuple("Choice", ("act", "amount"))

# How often a player does what (weights, before the legality filter). Facing a bet: fold, call, raise;
# no bet yet: check, bet. ALLIN_WEIGHT applies whenever going all in is itself legal.
FACING = ((FOLD, 25), (CALL, 50), (RAISE, 20))
OPEN = ((CHECK, 65), (BET, 30))
ALLIN_WEIGHT = 5
# Where in the legal range a bet or raise goes: the minimum, the (pot-limit) maximum, or between.
SIZES = (("min", 40), ("max", 25), ("between", 35))

_STREETS = omaha.STREETS


class MirrorError(Exception):
    """The reports cannot be followed by the engine (a card or action it refuses): the copy is lost."""


class HandMirror:
    """The firmware's engine fed what the host reports said about one hand."""

    def __init__(self, settings, start):
        """settings: the table's OmahaSettings; start: the hand_start report (a dict)."""
        self.number = start.get("hand")
        self.players = [int(s) for s in start["players"]]
        stacks = [(int(seat), chips) for seat, chips in start["stacks"].items()]
        self.hand = omaha.OmahaHand(settings, int(start["button"]), stacks)
        self.mismatches = []          # what differed between a report and the copy (text)
        blinds = start.get("blinds") or {}
        self._check("players", self.players, list(self.hand.seats))
        mine = dict((str(self.hand.seats[i]), self.hand.betting.total[i]) for i in range(2))
        self._check("blinds", dict((str(k), v) for k, v in blinds.items()), mine)

    def _check(self, what, reported, mine):
        if reported != mine:
            self.mismatches.append("hand %s %s: reported %r, engine %r" % (self.number, what, reported, mine))

    # -- what comes next -------------------------------------------------------------
    def expected(self):
        """The engine's expected(): ("hole", seat) / ("burn", None) / ("board", None) / ("action", seat) / ..."""
        return self.hand.expected()

    def wants_card(self):
        return self.hand.expected()[0] in (omaha.EXPECT_HOLE, omaha.EXPECT_BURN, omaha.EXPECT_BOARD)

    def to_act(self):
        """The seat to act, or None when the hand waits for a card or is over."""
        kind, seat = self.hand.expected()
        return seat if kind == omaha.EXPECT_ACTION else None

    def legal(self):
        return self.hand.legal()

    def stack(self, seat):
        """The seat's chips behind (not yet bet), as the engine has them."""
        return self.hand.stack[self.hand.index_of(seat)]

    def choose(self, players):
        """The seat to act and its Choice by the players' policy (None when no action is awaited)."""
        seat = self.to_act()
        if seat is None:
            return None
        return seat, players.choose(self.hand.legal(), self.stack(seat))

    def done(self):
        return self.hand.expected()[0] in (omaha.EXPECT_DONE, omaha.EXPECT_VOID)

    # -- what the table reported -------------------------------------------------------
    def dealt(self, report):
        """A `dealt` report: the card goes to the engine as it went to the table's (a discard: nowhere)."""
        to = report.get("to")
        if to == "discard":
            return
        try:
            kind, seat = self.hand.deal(cards.parse(report["card"]))
        except Exception as exc:
            raise MirrorError("hand %s: card %r: %s" % (self.number, report.get("card"), exc))
        if kind == omaha.EXPECT_HOLE:
            self._check("hole card seat", (to, report.get("seat")), ("hole", str(seat)))
        else:
            self._check("card", to, kind)
        if kind == omaha.EXPECT_BOARD:
            self._check("street", report.get("street"), _board_street(len(self.hand.board)))

    def acted(self, report):
        """An `action` report: the same action on the engine; its bet, stack and pot compared."""
        seat = int(report["seat"])
        act = report["act"]
        amount = report.get("amount") if act in (BET, RAISE) else None
        street = _STREETS[self.hand.street]
        try:
            i = self.hand.index_of(seat)
            behind, put = self.hand.stack[i], self.hand.betting.total[i]
            self.hand.act(seat, act, amount)
        except Exception as exc:
            raise MirrorError("hand %s: action %s %s %s: %s" % (self.number, seat, act, amount, exc))
        bet = self.hand.history[-1][3]
        put = self.hand.betting.total[i] - put
        self._check("action street", report.get("street"), street)
        self._check("seat %d bet" % seat, report.get("amount"), bet)
        # The stack and pot right after the action: an action that ends the hand is reported before the
        # payout (the engine's stack has it already; its pot, every chip put in, stays).
        self._check("seat %d stack" % seat, report.get("stack"), behind - put)
        self._check("pot", report.get("pot"), self.hand.pot_total())
        self._check("seat %d all in" % seat, bool(report.get("all_in")), behind - put == 0 and act != FOLD)

    def settled(self, report):
        """The hand_result report: the engine's final stacks and rake compared with the table's."""
        if report.get("void"):
            if not self.done():
                self.hand.misdeal()
        elif not self.done():
            self.mismatches.append("hand %s: the table settled it, the engine expects %s"
                                   % (self.number, self.hand.expected()[0]))
            return
        result = self.hand.result()
        self._check("stacks", report.get("stacks"), dict((str(s), c) for s, c in result.stacks))
        self._check("rake", report.get("rake"), result.rake)


class Players:
    """The seeded policy of every player at the table (one rng: the run is the same for a seed)."""

    def __init__(self, rng, allin_weight=ALLIN_WEIGHT):
        self.rng = rng
        self.allin_weight = allin_weight

    def choose(self, legal, stack):
        """One legal action (a Choice) for the player to act, given the engine's Legal and his stack."""
        options = []
        if legal.can_check:
            options.extend(w for w in OPEN if w[0] == CHECK)
        else:
            options.extend(w for w in FACING if w[0] in (FOLD, CALL))
        if legal.kind is not None:
            word = BET if legal.kind == BET else RAISE
            # a bet or raise whose only amount is all in is the all-in entry
            if legal.min_to < legal.max_to or legal.max_to < legal.all_in_to:
                options.append((word, dict(OPEN + FACING)[word]))
        if self.allin_weight and can_go_all_in(legal, stack):
            options.append((ALLIN, self.allin_weight))
        act = self._weighted(options)
        if act in (BET, RAISE):
            return Choice(act, self._size(legal))
        return Choice(act, None)

    def _weighted(self, options):
        total = sum(w for _, w in options)
        r = self.rng.randrange(total)
        for act, w in options:
            if r < w:
                return act
            r -= w
        raise AssertionError("unreachable")

    def _size(self, legal):
        top = legal.max_to if legal.max_to < legal.all_in_to else legal.all_in_to - 1
        top = max(top, legal.min_to)
        size = self._weighted(SIZES)
        if size == "min" or top == legal.min_to:
            return legal.min_to
        if size == "max":
            return top
        return self.rng.randint(legal.min_to, top)


def can_go_all_in(legal, stack):
    """True when the seat's whole stack is a legal action: a bet or raise to it that the limit allows,
    or a call that takes every chip (docs/omaha.md, ALLIN)."""
    if stack <= 0:
        return False
    if legal.kind is not None and legal.max_to == legal.all_in_to:
        return True
    return not legal.can_check and legal.call == stack


def _board_street(board_size):
    """The street a board card belongs to, from the board's size after it."""
    return "flop" if board_size <= 3 else "turn" if board_size == 4 else "river"


def choice_as_engine(choice, legal):
    """(act, amount) the engine takes for a Choice (ALLIN as the bet, raise or call it amounts to)."""
    if choice.act != ALLIN:
        return choice.act, choice.amount
    if legal.kind is not None and legal.max_to == legal.all_in_to:
        return legal.kind, legal.all_in_to
    return CALL, None


def number_keys(n):
    """The digit keys of a whole number >= 0 ("1", "2", "0" for 120)."""
    return list(str(int(n)))


def action_keys(seat, choice):
    """The keypad entry [seat] ACTION [amount] ENTER for a Choice (the legends of the keypad)."""
    keys = number_keys(seat) + [choice.act]
    if choice.amount is not None:
        keys += number_keys(choice.amount)
    return keys + [ENTER]


def stack_keys(seat, amount):
    """seat STACK amount ENTER: the seat's stack (a buy-in)."""
    return number_keys(seat) + [STACK] + number_keys(amount) + [ENTER]


def new_hand_keys():
    return [NEW, ENTER]
