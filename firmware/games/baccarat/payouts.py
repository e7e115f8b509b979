# Baccarat bets' outcomes: the zones (art. 12), ties (art. 11), payouts (art. 16), commission (art. 17),
# void rounds (art. 10).
#
# Pure logic after the Macau regulation (RULES.md, "Baccarat"), on a round's Result (rules.py):
# settle() turns a result and the bets into integer net amounts per zone; settle_nets() and
# settle_seats() do the same for a table's seats' bets side by side, allocating nothing. The table's
# seats' bets (controller.BaccaratTable's round_bets) also find here what a live tie leaves standing
# (tie_carry, keep_stakes, stake_round: art. 11) and where they are not 0 (find_slots).
from firmware.errors import RuleError, SettingsError
from firmware.games.baccarat.rules import Result, check_total
from firmware.games.baccarat.settings import TIE_OPTIONS, check_method, check_settings

# copies of firmware.games.baccarat.codes (tests/host/test_const_copies.py)
_TIE_CHANGEABLE = const(2)
_TIE_NONE = const(0)
_TIE_STANDING = const(1)
# copies of firmware.games.baccarat.rules (tests/host/test_const_copies.py)
_BANKER = const(1)
_PLAYER = const(0)
_TIE = const(2)

# Bet zones (art. 12) in the order every report lists them.
ZONES = ("player", "banker", "tie", "player_pair", "banker_pair")
# The type of an array settle_nets may fill: 64-bit, as a stake of up to the bet reader's MAX_AMOUNT
# (999,999,999) at 14:1 (art. 16) nets more than a 32-bit int holds. The table's own nets are a list of
# ints (controller.BaccaratTable.nets: no long int made at each read, as a "q" item is on MicroPython).
NETS_TYPE = "q"

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
    check_total(winning_total)
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
    if not isinstance(result, Result) or (result.winner != _PLAYER and result.winner != _BANKER
                                          and result.winner != _TIE):
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
        side = _PLAYER if zone == "player" else _BANKER
        if winner == _TIE:
            option = settings.tie_option  # art. 11: not lost; returned / standing / changeable
            if option not in TIE_OPTIONS:
                raise SettingsError("Baccarat tie_option must be one of %s (art. 11), got %r"
                                    % (", ".join(TIE_OPTIONS), option))
            return 0, option
        if winner != side:
            return -amount, "lose"
        won_total = result.player_total if side == _PLAYER else result.banker_total
        return amount - commission(settings.commission, won_total, amount), "win"
    if zone == "tie":
        if winner == _TIE:
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
# const(), folded into the code, not globals (issue 14); test_kept_literals checks them by ZONES.index.
_TIE_ZONE = const(2)
_PLAYER_PAIR_ZONE = const(3)
_BANKER_PAIR_ZONE = const(4)


def _terms_into(result, terms):
    # The result checked, then each zone's outcome in one statement (a loop over the zones comparing their
    # names was ~6 us).
    _check_result(result)
    winner = result.winner
    terms[_PLAYER] = _PUSH if winner == _TIE else (_PLAYER_WIN if winner == _PLAYER else _LOSE)
    terms[_BANKER] = _PUSH if winner == _TIE else (_BANKER_WIN if winner == _BANKER else _LOSE)
    terms[_TIE_ZONE] = _TIE_WIN if winner == _TIE else _LOSE
    terms[_PLAYER_PAIR_ZONE] = _PAIR_WIN if result.player_pair else _LOSE
    terms[_BANKER_PAIR_ZONE] = _PAIR_WIN if result.banker_pair else _LOSE


def settle_nets(settings, result, bets, nets, terms, slots=None, n_slots=0):
    """settle_zone(settings, result, zone, amount)[0] of every bet into nets (the same index), its zone
    ZONES[i % len(ZONES)]: the seats' bets of a round side by side; 0 where nothing is bet (and nothing
    checked, as no settle_zone call). The zones' outcomes are decided once, at the first bet (the
    settings and the result checked then); each amount and tie option is checked at its bet as settle_zone
    checks it, the method and commission option at the first bet that reads them (the same settings at every
    bet: the same refusal, at the same bet). terms: scratch of len(ZONES) bytes.
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
    _terms_into(result, terms)          # (the result checked first)
    width = len(ZONES)
    cut = -1            # a hand's win: the commission's numerator per unit of `per` (-1: not yet known)
    per = 1
    odds = -1           # a tie's odds, from the first Tie bet won (-1: not yet known)
    type_of = type      # the builtins as locals: their two lookups a bet were half of its amount's check
    integer = int
    for j in range(j, n_slots):
        i = slots[j]
        amount = bets[i]
        if type_of(amount) is not integer or amount <= 0:  # (one test a bet for nothing bet and a bad amount)
            if not amount:
                nets[i] = 0
                continue
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
            if odds < 0:
                odds = tie_odds(settings.method)          # (the method checked at the first: it is the same)
            nets[i] = amount * odds
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


_TERMS = bytearray(len(ZONES))      # settle_nets' scratch (the loop runs to completion: one is enough)


def settle_seats(settings, record, bets, nets, slots=None, n_slots=0):
    """Nets of every seat's zones into nets (arts. 11, 16, 17 and the commission option); void: all returned.
    record: the round's shoe.RoundRecord. slots, n_slots: where the bets are not 0 (settle_nets: only those
    netted, the caller has the rest of nets 0), or None: every zone visited."""
    if record.void:
        for i in range(len(bets)):
            nets[i] = 0
        return
    settle_nets(settings, record.result, bets, nets, _TERMS, slots, n_slots)


# -- a table's seats' bets: each seat's ZONES side by side (controller.BaccaratTable.round_bets) ---------
def tie_carry(option, record, has_bets):
    """What art. 11 makes of a round's Banker and Player bets in the next live round (record: the round's
    shoe.RoundRecord or None, has_bets: it had bets; option: the table's tie_option): TIE_STANDING
    (option 2: they play again unchanged, whatever a reading says of those zones; chips added to one
    are a new bet on top of it), TIE_CHANGEABLE (option 3: they play again unless a reading since the tie
    changed them) or TIE_NONE (option 1, returned; or the round was no live tie with bets)."""
    if not has_bets or record is None or record.void or record.demo or record.result.winner != _TIE:
        return _TIE_NONE
    if option == "standing":
        return _TIE_STANDING
    if option == "changeable":
        return _TIE_CHANGEABLE
    return _TIE_NONE


def keep_stakes(bets, seats, kept):
    """Each seat's Banker and Player stakes of bets into kept (each seat's [player, banker]): True when
    any is not 0 (a tie with only Tie or Pair bets keeps none)."""
    width = len(ZONES)
    any_kept = False
    for seat in range(seats):
        kept[seat * 2] = bets[seat * width + _PLAYER]
        kept[seat * 2 + 1] = bets[seat * width + _BANKER]
        if kept[seat * 2] or kept[seat * 2 + 1]:
            any_kept = True
    return any_kept


def stake_round(bets, amounts, kept, carry):
    """A round's bets into bets: the reading's amounts, or none (None: never the last round's, its seats
    would light), but for the Banker and Player stakes kept (keep_stakes) under carry (TIE_*), which play
    again where more (art. 11(2): always; 11(3): when no reading came since). True when one of them does."""
    width = len(ZONES)
    played = False
    for i in range(len(bets)):
        new = amounts[i] if amounts is not None else 0
        if carry and i % width <= _BANKER and (carry == _TIE_STANDING or amounts is None):
            tied = kept[i // width * 2 + i % width]
            if tied > new:
                new = tied                               # the tied stake plays again: not less (chips added
                played = True                            # to it, a new bet, play with it)
        bets[i] = new
    return played


def find_slots(bets, seats, slots, ends):
    """Where bets are not 0: their indices into slots, in order, and where each seat's end into ends
    (seat s's slots end at slots[ends[s]]: its seat light sums its nets without a search) -> how many."""
    width = len(ZONES)
    n = 0
    for seat in range(seats):
        base = seat * width
        for i in range(base, base + width):
            if bets[i]:
                slots[n] = i
                n += 1
        ends[seat] = n
    return n
