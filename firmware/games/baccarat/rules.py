# Baccarat (万家乐) round engine: values, dealing order, art. 9 draws, outcome, pairs, payouts.
#
# Pure logic after the Macau regulation of 2007-07-03 (RULES.md, "Baccarat").
# The caller feeds one card at a time (Round.deal) and asks which hand the next
# card belongs to (Round.expected); settle() turns a result and the bets into
# integer net amounts per zone. Shoe procedure: baccarat_shoe.py; roads:
# baccarat_roads.py. Hands are small ints (PLAYER, BANKER), cards are
# firmware.cards ints (rank_index * 4 + suit).
from collections import namedtuple

from firmware.cards import check
from firmware.compat import const
from firmware.errors import RuleError, SettingsError
from firmware.games.baccarat.settings import (  # noqa: F401 (the table file loads Baccarat settings from here)
    SETTING_NAMES, TIE_OPTIONS, BaccaratSettings, check_method, check_settings, load_settings, round_settings)

PLAYER = const(0)
BANKER = const(1)
TIE = const(2)
NONE = const(-1)  # "no hand may draw": the round is complete

HAND_NAMES = ("player", "banker", "tie")

# Art. 5: point value by rank index (0 = deuce .. 12 = ace): tens and pictures
# count 0, the ace 1, the others their face value.
VALUES = bytes((2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0, 1))

# Bet zones (art. 12) in the order every report lists them.
ZONES = ("player", "banker", "tie", "player_pair", "banker_pair")


def _point(total_):
    if type(total_) is not int or total_ < 0 or total_ > 9:
        raise RuleError("a Baccarat total is 0..9 (art. 5), got %r" % (total_,))
    return total_


# --- art. 5 values, art. 9 draws ----------------------------------------------

def _points(cards):
    # Art. 5 total of checked card ints.
    t = 0
    for c in cards:
        t += VALUES[c >> 2]
    return t % 10


def value(card):
    """Art. 5: point value of a card int."""
    return VALUES[check(card) >> 2]


def total(cards):
    """Art. 5: hand total = sum of point values modulo 10."""
    if not isinstance(cards, (list, tuple)):
        raise RuleError("a hand is a list of card numbers, got %r" % (cards,))
    for c in cards:
        check(c)
    return _points(cards)


def first_drawer(player_two, banker_two):
    """Art. 9, both methods, on the two-card totals: NONE if either is a natural
    (9(1), 8 or 9: decided), PLAYER if equal (9(2): both draw, Player first),
    otherwise the lower hand (9(3): the lower draws first)."""
    if _point(player_two) >= 8 or _point(banker_two) >= 8:
        return NONE
    if player_two <= banker_two:
        return PLAYER
    return BANKER


def other_draws(method, player_two, banker_two, drawer_total):
    """Art. 9 after the first drawer's third card (total now drawer_total):
    does the other hand draw too?"""
    check_method(method)
    if _point(player_two) == _point(banker_two):
        return True  # 9(2): both draw
    other = banker_two if player_two < banker_two else player_two
    if _point(drawer_total) < other:
        return False  # 9(3)(i) both methods: still lower, the other wins standing
    if drawer_total == other:
        if method == 1:
            return True  # Method 1 9(3)(ii): greater than or equal -> the other must draw
        return False  # Method 2 9(3)(ii): equal -> the other does not draw, tie
    return True  # Method 1 (ii) / Method 2 (iii): greater -> the other must draw


def winner_of(player_total, banker_total):
    """Arts. 9(1)-(3): the higher final total wins, equal is a tie."""
    if _point(player_total) > _point(banker_total):
        return PLAYER
    if banker_total > player_total:
        return BANKER
    return TIE


def is_pair(first, second):
    """Art. 12: same rank, whatever the suit (J+J yes, J+Q no)."""
    return (check(first) >> 2) == (check(second) >> 2)


def check_call(card, hand, face_up):
    """A well-formed deal: a card int 0..51 (else IntegrityError: the reader cannot
    have produced it), hand None / PLAYER / BANKER, face_up True / False."""
    check(card)
    if hand is not None and (type(hand) is not int or (hand != PLAYER and hand != BANKER)):
        raise RuleError("hand must be player (%d), banker (%d) or None (not sensed), got %r"
                        % (PLAYER, BANKER, hand))
    if face_up is not True and face_up is not False:
        raise RuleError("face_up must be True or False, got %r" % (face_up,))


Result = namedtuple("Result", ("winner", "player_total", "banker_total", "player_pair",
                               "banker_pair", "player_cards", "banker_cards", "cards_used"))


class Round:
    """One round, fed card by card in dealing order (art. 7: P, B, P, B, then art. 9)."""

    def __init__(self, settings):
        self.method = check_method(check_settings(settings).method)
        self.settings = settings
        self.player = []
        self.banker = []
        self.order = []  # hand of each card in dealing order
        self.face_up = 0  # art. 4: face-up cards stay valid; counted for the log
        self._two = (0, 0)
        self._next = PLAYER

    def expected(self):
        """Hand due the next card: PLAYER, BANKER, or NONE when the round is complete."""
        return self._next

    @property
    def complete(self):
        return self._next == NONE

    def _advance(self):
        n = len(self.order)
        if n < 4:
            self._next = PLAYER if n % 2 == 0 else BANKER  # art. 7(1)
            return
        if n == 4:
            self._two = (_points(self.player), _points(self.banker))
            self._next = first_drawer(self._two[0], self._two[1])
            return
        if n == 5:
            drawer = self.order[4]
            hand = self.player if drawer == PLAYER else self.banker
            if other_draws(self.method, self._two[0], self._two[1], _points(hand)):
                self._next = BANKER if drawer == PLAYER else PLAYER
            else:
                self._next = NONE
            return
        self._next = NONE  # art. 9(1): at most one third card each

    def deal(self, card, hand=None, face_up=False):
        """Give the next card to the hand that is due. `hand`, if the table
        senses where the card was placed, must match expected(), else RuleError
        (a dealing error, art. 10: the caller corrects or voids). A card number
        outside 0..51 is an IntegrityError. Nothing changes on any refusal."""
        check_call(card, hand, face_up)
        due = self._next
        if due == NONE:
            raise RuleError("round complete: no hand may draw another card (Baccarat art. 9(1))")
        if hand is not None and hand != due:
            raise RuleError("dealing error: the next card is due to %s, not %s (Baccarat arts. 7, 9, 10)"
                            % (HAND_NAMES[due], HAND_NAMES[hand]))
        if due == PLAYER:
            self.player.append(card)
        else:
            self.banker.append(card)
        self.order.append(due)
        if face_up:
            self.face_up += 1
        self._advance()
        return due

    def totals(self):
        return _points(self.player), _points(self.banker)

    def result(self):
        if self._next != NONE:
            raise RuleError("round not complete: the next card is due to %s" % HAND_NAMES[self._next])
        pt, bt = self.totals()
        return Result(winner_of(pt, bt), pt, bt,
                      is_pair(self.player[0], self.player[1]),
                      is_pair(self.banker[0], self.banker[1]),
                      tuple(self.player), tuple(self.banker), len(self.order))


def play(settings, cards):
    """Whole round from a dealing sequence (extra cards ignored) -> Result.
    Every card given is checked first: one the shoe cannot hold is an alarm
    (IntegrityError), never part of a result."""
    if not isinstance(cards, (list, tuple)):
        raise RuleError("cards must be a list of card numbers in dealing order, got %r" % (cards,))
    for card in cards:
        check(card)
    rnd = Round(settings)
    for card in cards:
        if rnd.complete:
            break
        rnd.deal(card)
    if not rnd.complete:
        raise RuleError("need more cards: %d given, the %s hand is due another card (Baccarat art. 9)"
                        % (len(rnd.order), HAND_NAMES[rnd.expected()]))
    return rnd.result()


# --- art. 16 payouts, art. 17 commission, art. 11 ties -----------------------

PAIR_ODDS = const(11)  # art. 16: each Pair pays 11:1


def tie_odds(method):
    """Art. 16: Tie pays 14:1 under Method 1, 9:1 under Method 2."""
    if check_method(method) == 1:
        return 14
    return 9


def commission(option, winning_total, win):
    """Art. 17 on a Banker/Player win of `win` units. Option A: 5% when the
    winning total is 7, 8 or 9; option B: 50% when it is 4. Rounding: the
    commission is rounded DOWN to a whole unit (the fraction goes to the player)."""
    _point(winning_total)
    _amount("a win", win)
    if option == "A":
        if winning_total >= 7:
            return win * 5 // 100
        return 0
    if option == "B":
        if winning_total == 4:
            return win // 2
        return 0
    raise SettingsError("Baccarat commission option must be \"A\" or \"B\" (art. 17), got %r" % (option,))


def _amount(zone, amount):
    # Money is a whole number of table units: not a float, not a bool.
    if type(amount) is not int or amount < 0:
        raise RuleError("bet on %s must be a whole number of units >= 0, got %r" % (zone, amount))
    return amount


def _check_result(result):
    if not isinstance(result, Result) or (result.winner != PLAYER and result.winner != BANKER
                                          and result.winner != TIE):
        raise RuleError("not a Baccarat round result: %r" % (result,))
    return result


def _bet_pairs(bets):
    if not isinstance(bets, (list, tuple)):
        raise RuleError("bets must be a list of (zone, amount), got %r" % (bets,))
    for bet in bets:
        if not isinstance(bet, (list, tuple)) or len(bet) != 2:
            raise RuleError("a bet is (zone, amount), got %r" % (bet,))
    return bets


def settle_zone(settings, result, zone, amount):
    """Net of one bet on one zone given a Result -> (net, status).
    status: "win", "lose", or for Banker/Player on a tie the art. 11 option."""
    check_settings(settings)
    _check_result(result)
    amount = _amount(zone, amount)
    winner = result.winner
    if zone == "player" or zone == "banker":
        side = PLAYER if zone == "player" else BANKER
        if winner == TIE:
            option = settings.tie_option  # art. 11: not lost; returned / standing / changeable
            if option not in TIE_OPTIONS:
                raise SettingsError("Baccarat tie_option must be one of %s (art. 11), got %r"
                                    % (", ".join(TIE_OPTIONS), option))
            return 0, option
        if winner != side:
            return -amount, "lose"
        won_total = result.player_total if side == PLAYER else result.banker_total
        return amount - commission(settings.commission, won_total, amount), "win"
    if zone == "tie":
        if winner == TIE:
            return amount * tie_odds(settings.method), "win"
        return -amount, "lose"
    if zone == "player_pair" or zone == "banker_pair":
        hit = result.player_pair if zone == "player_pair" else result.banker_pair
        if hit:
            return amount * PAIR_ODDS, "win"
        return -amount, "lose"
    raise RuleError("unknown bet zone %r: expected one of %s" % (zone, ", ".join(ZONES)))


# settle_nets' outcome per zone (terms), as settle_zone decides it (the hand wins last: settle_nets tests
# kind >= _PLAYER_WIN for either).
_LOSE = const(0)          # -amount
_PUSH = const(1)          # 0: Banker/Player on a tie (art. 11), the table's tie option checked at each bet
_TIE_WIN = const(2)       # amount * tie_odds (art. 16), the method checked at each bet
_PAIR_WIN = const(3)      # amount * PAIR_ODDS (art. 16)
_PLAYER_WIN = const(4)    # amount - commission on the player's total (art. 17)
_BANKER_WIN = const(5)    # amount - commission on the banker's total


# Where each zone is in ZONES (it begins with the hands, in their order: PLAYER and BANKER index it).
_TIE_ZONE = ZONES.index("tie")
_PLAYER_PAIR_ZONE = ZONES.index("player_pair")
_BANKER_PAIR_ZONE = ZONES.index("banker_pair")


def _terms_into(result, terms):
    # Each zone's outcome in one statement (a loop over the zones comparing their names was ~6 us).
    winner = result.winner
    terms[PLAYER] = _PUSH if winner == TIE else (_PLAYER_WIN if winner == PLAYER else _LOSE)
    terms[BANKER] = _PUSH if winner == TIE else (_BANKER_WIN if winner == BANKER else _LOSE)
    terms[_TIE_ZONE] = _TIE_WIN if winner == TIE else _LOSE
    terms[_PLAYER_PAIR_ZONE] = _PAIR_WIN if result.player_pair else _LOSE
    terms[_BANKER_PAIR_ZONE] = _PAIR_WIN if result.banker_pair else _LOSE


def settle_nets(settings, result, bets, nets, terms, slots=None, n_slots=0):
    """settle_zone(settings, result, zone, amount)[0] of every bet into nets (the same index), its zone
    ZONES[i % len(ZONES)]: the seats' bets of a round side by side; 0 where nothing is bet (and nothing
    checked, as no settle_zone call). The zones' outcomes are decided once, at the first bet (the
    settings and the result checked then); each amount, tie option, method and commission option is
    checked at its bet as settle_zone checks it. terms: scratch of len(ZONES) bytes.
    slots: the indices of the bets that are not 0 (the first n_slots of it, in order), or None: only
    those are visited (a table's seats bet on a few of their zones: most of the walk was empty slots),
    and nets elsewhere are left as they are (the caller has them 0)."""
    if slots is None:
        slots = range(len(bets))            # every index (a range object indexes as slots do)
        n_slots = len(bets)
    j = 0
    while j < n_slots:                      # up to the first bet: nothing is checked without one
        i = slots[j]
        if bets[i]:
            break
        nets[i] = 0
        j += 1
    else:
        return
    check_settings(settings)
    _check_result(result)
    _terms_into(result, terms)
    width = len(ZONES)
    cut = -1            # a hand's win: the commission's numerator per unit of `per` (-1: not yet known)
    per = 1
    for j in range(j, n_slots):
        i = slots[j]
        amount = bets[i]
        if not amount:
            nets[i] = 0
            continue
        if type(amount) is not int or amount < 0:
            _amount(ZONES[i % width], amount)             # raises, as settle_zone would
        kind = terms[i % width]
        # (the outcomes by how often a table meets them: a lost bet, a hand's win, a pair, a tie)
        if kind == _LOSE:
            nets[i] = -amount
        elif kind >= _PLAYER_WIN:
            if cut >= 0:
                # A hand's win after the first: the commission the first's commission() call found
                # for this round (one winning hand, one total, the same option; the amount checked).
                nets[i] = amount - amount * cut // per
            else:
                won_total = result.player_total if kind == _PLAYER_WIN else result.banker_total
                nets[i] = amount - commission(settings.commission, won_total, amount)
                cut, per = _commission_rate(settings.commission, won_total)
        elif kind == _PAIR_WIN:
            nets[i] = amount * PAIR_ODDS
        elif kind == _TIE_WIN:
            nets[i] = amount * tie_odds(settings.method)
        else:                                             # _PUSH
            option = settings.tie_option
            if option not in TIE_OPTIONS:
                raise SettingsError("Baccarat tie_option must be one of %s (art. 11), got %r"
                                    % (", ".join(TIE_OPTIONS), option))
            nets[i] = 0


def _commission_rate(option, winning_total):
    """commission(option, winning_total, win) is win * cut // per: (cut, per), for a checked option and
    total (art. 17)."""
    if option == "A" and winning_total >= 7:
        return 5, 100
    if option == "B" and winning_total == 4:
        return 1, 2
    return 0, 1


def settle(settings, result, bets):
    """bets: list of (zone, amount) -> list of (zone, net, status), same order."""
    out = []
    for zone, amount in _bet_pairs(bets):
        net, status = settle_zone(settings, result, zone, amount)
        out.append((zone, net, status))
    return out


def settle_void(bets):
    """Art. 10: a void round returns every bet."""
    out = []
    for zone, amount in _bet_pairs(bets):
        if zone not in ZONES:
            raise RuleError("unknown bet zone %r: expected one of %s" % (zone, ", ".join(ZONES)))
        _amount(zone, amount)
        out.append((zone, 0, "void"))
    return out
