# Omaha hand engine: blinds, dealing from the shoe, betting order, showdown and payout (arts. 2, 5-10, 13, 16).
#
# Incremental: the table controller feeds one card (deal) or one action (act)
# at a time and asks expected() what comes next and legal() what the player
# to act may do. Betting limits live in betting.py; pots, rake and who wins
# each pot in pots.py. Players are indexed in dealing order: index 0 is the first
# player left of the button (small blind, art. 5), index 1 the big blind.
# All amounts are ints in the table's smallest unit; chips are conserved.
from firmware.cards import check, name
from firmware.errors import IntegrityError, RuleError
from firmware.games.omaha.betting import (
    ACTIONS, BET, CALL, CHECK, FOLD, RAISE, BetRangeError, Betting, legal_actions)
from firmware.games.omaha.hand_value import best_value, prepare_board
from firmware.games.omaha.pots import award, build_pots, rake_pots
from firmware.games.omaha.settings import OmahaSettings, odd_chip_from_button

# copies of firmware.games.omaha.settings (tests/host/test_const_copies.py)
_MAX_PLAYERS = const(11)
_MIN_PLAYERS = const(2)

# What the hand expects next (expected()[0]).
EXPECT_HOLE = "hole"  # a hole card for the seat given (art. 6(1))
EXPECT_BURN = "burn"  # a burn card (arts. 7(1), 8(1), 8(3))
EXPECT_BOARD = "board"  # a board card: flop x3, turn, river
EXPECT_ACTION = "action"  # the seat given must act (art. 6(3)-(5), 7(2), 8(2))
EXPECT_DONE = "done"  # settled: result() is final
EXPECT_VOID = "void"  # misdeal: the round is void, bets returned (art. 9(2))

STREETS = ("preflop", "flop", "turn", "river")
_BOARD_AFTER_STREET = (0, 3, 4, 5)  # board size once each street's cards are out

__all__ = ("ACTIONS", "BET", "CALL", "CHECK", "FOLD", "RAISE", "BetRangeError", "OmahaHand",
           "HandResult", "next_button")


class HandResult:
    """The settled hand, by seat: pots (Pot with seats), returned bet, rake, final stacks, nets."""

    def __init__(self, void, pots, returned, rake, stacks, nets, values):
        self.void = void
        self.pots = pots  # [Pot]: eligible/winners are seats; shares are (seat, amount)
        self.returned = returned  # (seat, amount) of an uncalled bet, or None
        self.rake = rake
        self.stacks = stacks  # ((seat, final stack), ...) ascending seat, every seat given
        self.nets = nets  # ((seat, final - start), ...) same order
        self.values = values  # ((seat, hand value), ...) players at showdown; () if won by folds


def _is_int(v):
    # Seats, chips and amounts are ints: not a float, not a bool.
    return isinstance(v, int) and not isinstance(v, bool)


def next_button(button, occupied):
    """Art. 1(2): after each round the button moves clockwise to the next occupied seat."""
    if not _is_int(button):
        raise RuleError("button must be a seat number, got %r" % (button,))
    if not isinstance(occupied, (list, tuple)) or not all(_is_int(s) for s in occupied):
        raise RuleError("occupied seats must be a list of seat numbers, got %r" % (occupied,))
    seats = sorted(occupied)
    if not seats:
        raise RuleError("no occupied seat to move the button to")
    for s in seats:
        if s > button:
            return s
    return seats[0]


def _players(settings, button, stacks):
    """(seat, chips) pairs, checked -> ([(dealing order, seat, chips)] of those with chips, sorted; seats
    without chips)."""
    if not isinstance(stacks, (list, tuple)):
        raise RuleError("stacks must be a list of (seat, chips), got %r" % (stacks,))
    seen = []
    players = []
    idle = []
    for pair in stacks:
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            raise RuleError("a stack is (seat, chips), got %r" % (pair,))
        seat, chips = pair
        if not _is_int(seat) or seat < 1 or seat > settings.seats:
            raise RuleError("seat must be 1..%d (numbered clockwise from the croupier's left), got %r"
                            % (settings.seats, seat))
        if seat in seen:
            raise RuleError("seat %d listed twice" % seat)
        seen.append(seat)
        if not _is_int(chips) or chips < 0:
            raise RuleError("stack of seat %d must be a whole number >= 0, got %r" % (seat, chips))
        if chips > 0:
            # clockwise distance from the button's left: dealing order (art. 6(1))
            players.append(((seat - button - 1) % settings.seats, seat, chips))
        else:
            idle.append(seat)
    if len(players) < _MIN_PLAYERS:
        raise RuleError("at least %d players with chips are needed to start a round (art. 2(3))" % _MIN_PLAYERS)
    if len(players) > _MAX_PLAYERS:
        raise RuleError("at most %d players can be dealt from one 52-card deck" % _MAX_PLAYERS)
    players.sort()
    return players, idle


class OmahaHand:
    """One round of Omaha from the blinds to the payout."""

    def __init__(self, settings, button, stacks):
        if not isinstance(settings, OmahaSettings):
            raise RuleError("settings must be an OmahaSettings")
        settings = settings.copy()  # checked again; the hand keeps the options it started with
        if not _is_int(button) or button < 1 or button > settings.seats:
            raise RuleError("button must be a seat 1..%d, got %r" % (settings.seats, button))
        players, idle = _players(settings, button, stacks)
        n = len(players)
        self.settings = settings
        self.button = button
        self.n = n
        self.seats = [p[1] for p in players]
        self.start = [p[2] for p in players]
        self.stack = list(self.start)
        self.idle = idle
        # Every seat of the hand in ascending order, (seat, player index), -1 for an idle seat: the
        # order of the result's stacks and nets, worked out once here rather than sorted at the payout.
        self._seat_order = sorted([(self.seats[i], i) for i in range(n)] + [(s, -1) for s in idle])
        self.hole = [[] for _ in range(n)]
        self._holes = 0     # hole cards dealt so far (art. 6(1)): kept, not counted per card
        self._legal = None  # the Legal of the player to act: worked out once, when the turn passes (_advance)
        self.board = []
        self.burns = []
        self._dealt = bytearray(52)
        self.folded = [False] * n
        self._live = n      # players not folded: counted down at each fold, not counted per action
        self.values = None
        self.street = 0
        self.phase = EXPECT_HOLE
        self.to_act = -1
        self.history = []  # (street, seat, action, bet-to) per accepted action
        self._result = None
        # Art. 5: before dealing, the first player left of the button posts the
        # small blind, the second the big blind (a short stack posts what it has).
        self.betting = Betting(settings, self.stack, self.folded)
        self.betting.post(0, settings.small_blind)
        self.betting.post(1, settings.big_blind)
        self.betting.open_preflop(settings.big_blind)

    # --- what comes next --------------------------------------------------

    def expected(self):
        """-> (kind, seat or None): EXPECT_HOLE/ACTION name a seat, the others None."""
        if self.phase == EXPECT_HOLE:
            return EXPECT_HOLE, self.seats[self._holes % self.n]
        if self.phase == EXPECT_ACTION:
            return EXPECT_ACTION, self.seats[self.to_act]
        return self.phase, None

    def index_of(self, seat):
        if not _is_int(seat):
            raise RuleError("a seat is a seat number, got %r" % (seat,))
        for i in range(self.n):
            if self.seats[i] == seat:
                return i
        raise RuleError("seat %r is not in this hand" % (seat,))

    def pot_total(self):
        """All chips in the middle, this round's bets included (what POT limit uses)."""
        return self.betting.pot()

    def legal(self):
        """The options of the player to act (a Legal); RuleError if no action is expected."""
        if self.phase != EXPECT_ACTION:
            raise RuleError("no action expected now: the hand expects %s" % self.describe())
        return self._legal

    # --- feeding the hand ---------------------------------------------------

    def deal(self, card):
        """One card from the shoe, in dealing order -> (kind, seat or None) it was dealt as."""
        check(card)
        if self.phase not in (EXPECT_HOLE, EXPECT_BURN, EXPECT_BOARD):
            raise RuleError("no card expected now: the hand expects %s" % self.describe())
        if self._dealt[card]:
            raise IntegrityError("card %s dealt twice in one hand: not one 52-card deck (misdeal, art. 9)"
                                 % name(card))
        self._dealt[card] = 1
        if self.phase == EXPECT_HOLE:
            # Art. 6(1): four cards each, one at a time, clockwise from left of the button.
            i = self._holes % self.n
            self.hole[i].append(card)
            self._holes += 1
            if self._holes == 4 * self.n:
                self._start_round(0)
            return EXPECT_HOLE, self.seats[i]
        if self.phase == EXPECT_BURN:
            self.burns.append(card)
            self.phase = EXPECT_BOARD
            return EXPECT_BURN, None
        self.board.append(card)
        if len(self.board) == _BOARD_AFTER_STREET[self.street + 1]:
            self._start_round(self.street + 1)
        return EXPECT_BOARD, None

    def act(self, seat, action, amount=None):
        """The player to act folds, checks, calls, bets or raises to `amount` (this round's total)."""
        if self.phase != EXPECT_ACTION:
            raise RuleError("no action expected now: the hand expects %s" % self.describe())
        p = self.to_act
        if not _is_int(seat):
            raise RuleError("a seat is a seat number, got %r" % (seat,))
        if seat != self.seats[p]:
            raise RuleError("seat %s may not act now: seat %d is to act (art. 6(3)-(5))" % (seat, self.seats[p]))
        if action not in ACTIONS:
            raise RuleError("unknown action %r: expected fold, check, call, bet or raise" % (action,))
        if action == FOLD:
            if amount is not None:
                raise RuleError("fold takes no amount")
            self.folded[p] = True  # art. 13: the folded chips stay in the pot
            self._live -= 1
        else:
            self.betting.apply(self._legal, action, amount)
        self.history.append((self.street, seat, action, self.betting.bet[p]))
        if self._live == 1:
            self._finish(False)
            return
        self._advance(p)

    def misdeal(self):
        """Art. 9(2): a misdeal that cannot be corrected voids the round and returns every bet."""
        if self.phase == EXPECT_DONE:
            raise RuleError("the hand is already settled: a misdeal must be declared before the payout")
        if self.phase == EXPECT_VOID:
            return self._result
        for i in range(self.n):
            self.stack[i] = self.start[i]
        self.phase = EXPECT_VOID
        self.to_act = -1
        self._legal = None
        self._result = HandResult(True, [], None, 0, self._stacks_by_seat(), self._nets(), ())
        return self._result

    def result(self):
        """The settled HandResult; RuleError while the hand is still running."""
        if self._result is None:
            raise RuleError("the hand is not over: it expects %s" % self.describe())
        return self._result

    # --- internals ----------------------------------------------------------

    def describe(self):
        """What the hand expects next, in words (for error messages)."""
        kind, seat = self.expected()
        if kind == EXPECT_ACTION:
            return "an action from seat %d" % seat
        if kind == EXPECT_HOLE:
            return "a hole card for seat %d" % seat
        if kind in (EXPECT_BURN, EXPECT_BOARD):
            return "a %s card" % kind
        return "nothing (%s)" % kind

    def _start_round(self, street):
        # Pre-flop the player left of the big blind opens and the big blind acts
        # last (art. 6(3)-(4)); later rounds open left of the button and the
        # button acts last (arts. 6(5), 7(2), 8(2)).
        self.street = street
        if street > 0:
            self.betting.open_round()
            self._advance(self.n - 1)
        else:
            self._advance(1)

    def _advance(self, after):
        self._legal = None
        n = self.n
        for k in range(1, n + 1):
            q = (after + k) % n
            if self.betting.needs_action(q):
                self.phase = EXPECT_ACTION
                self.to_act = q
                # Worked out once per action, here where the turn passes: the controller, the
                # screens and act() all read it; nothing else changes what it depends on.
                self._legal = legal_actions(self.betting, q, self.seats[q], self._live)
                return
        self.to_act = -1
        if self.street == 3:
            self._finish(True)  # art. 8(5): showdown after the last betting round
        else:
            self.phase = EXPECT_BURN

    def _finish(self, showdown):
        # The payout (art. 10): comprehensions of lists, not generators, which MicroPython runs slower.
        seats = self.seats
        stack = self.stack
        live = [not f for f in self.folded]
        values = [0] * self.n
        shown = ()
        if showdown:
            # Art. 10(1)-(2): best five of exactly two hole + three board cards wins.
            prepared = prepare_board(self.board)
            for i in range(self.n):
                if live[i]:
                    values[i] = best_value(self.hole[i], prepared)
            shown = tuple([(seats[i], values[i]) for i in range(self.n) if live[i]])
        returned, pots = build_pots(self.betting.total, live)
        s = self.settings
        rake = rake_pots(pots, s.rake_tenths, s.rake_cap) if s.rake_tenths else 0
        from_button = odd_chip_from_button(s)
        for pot in pots:
            winners, shares = award(pot, values, seats, from_button)
            for k in range(len(winners)):
                stack[winners[k]] += shares[k]
            # The pot by player index until here, by seat from here: the result's (the same object).
            eligible = [seats[i] for i in pot.eligible]
            eligible.sort()
            pot.eligible = tuple(eligible)
            pot.winners = tuple([seats[i] for i in winners])
            pot.shares = tuple([(seats[winners[k]], shares[k]) for k in range(len(winners))])
        back = None
        if returned is not None:
            stack[returned[0]] += returned[1]
            back = (seats[returned[0]], returned[1])
        if sum(self.stack) + rake != sum(self.start):
            raise IntegrityError("chips not conserved: %d in, %d out + %d rake"
                                 % (sum(self.start), sum(self.stack), rake))
        self.values = values
        self.phase = EXPECT_DONE
        self._result = HandResult(False, pots, back, rake, self._stacks_by_seat(), self._nets(), shown)

    def _stacks_by_seat(self):
        stack = self.stack
        return tuple([(s, stack[i] if i >= 0 else 0) for s, i in self._seat_order])

    def _nets(self):
        stack = self.stack
        start = self.start
        return tuple([(s, stack[i] - start[i] if i >= 0 else 0) for s, i in self._seat_order])
