# Craps bets (dispatch 53/2010 art. 5) and their payouts (art. 6): kinds, zones, one-roll settlement.
#
# Every payout is an integer ratio WIN:STAKE, so a winning stake s nets s * win // stake.
# The table refuses any stake for which that division is not exact (see stake_quantum),
# so no payout is ever rounded.
from firmware.errors import RuleError, SettingsError

# The bet kinds (KIND_NAMES's indexes), the settlement codes (RESULT_NAMES's) and ZONE_TABLE's columns are
# firmware/games/craps/codes.py's (a code table a board never imports).
# copies of firmware.games.craps.codes (tests/host/test_const_copies.py)
_ACES = const(12)
_ACE_DEUCE = const(11)
_ANY_CRAPS = const(8)
_ANY_SEVEN = const(9)
_BIG = const(16)
_BIG_NUMBER = const(19)
_BOXCARS = const(13)
_COME = const(4)
_COME_ODDS = const(6)
_DONT_COME = const(5)
_DONT_COME_ODDS = const(7)
_DONT_PASS = const(1)
_DONT_PASS_ODDS = const(3)
_ELEVEN = const(10)
_FIELD = const(15)
_HARD = const(18)
_HORN = const(14)
_LOSE = const(2)
_MOVE = const(4)
_PASS = const(0)
_PASS_ODDS = const(2)
_PUSH = const(3)
_SMALL = const(17)
_STAND = const(0)
_WIN = const(1)
_ZONE_COLUMNS = const(11)

KIND_NAMES = (
    "pass", "dont_pass", "pass_odds", "dont_pass_odds",
    "come", "dont_come", "come_odds", "dont_come_odds",
    "any_craps", "any_seven", "eleven", "ace_deuce", "aces", "boxcars",
    "horn", "field", "big", "small", "hard", "big_number",
)

RESULT_NAMES = ("stand", "win", "lose", "push", "move")

POINTS = (4, 5, 6, 8, 9, 10)
HARD_NUMBERS = (4, 6, 8, 10)
BIG_NUMBERS = (4, 5, 6, 8, 9, 10)

# Art. 6(2): Pass / Come odds; art. 6(4): Don't Pass / Don't Come odds. (win, stake) per point.
_ODDS_RIGHT = {4: (2, 1), 10: (2, 1), 5: (3, 2), 9: (3, 2), 6: (6, 5), 8: (6, 5)}
_ODDS_WRONG = {4: (1, 2), 10: (1, 2), 5: (2, 3), 9: (2, 3), 6: (5, 6), 8: (5, 6)}
# Art. 6(14): Hard 6/8 9:1, Hard 4/10 7:1.
_HARD_PAY = {4: (7, 1), 10: (7, 1), 6: (9, 1), 8: (9, 1)}
# Art. 6(15): Big 6/8 7:6, Big 5/9 7:5, Big 4/10 9:5.
_BIG_PAY = {6: (7, 6), 8: (7, 6), 5: (7, 5), 9: (7, 5), 4: (9, 5), 10: (9, 5)}
# Art. 6(5)-(10): one-roll single-number bets, (winning totals, win, stake).
_ONE_ROLL = {
    _ANY_CRAPS: ((2, 3, 12), 7, 1),   # art. 5(3)(1), 6(5)
    _ANY_SEVEN: ((7,), 4, 1),         # art. 5(3)(2), 6(6)
    _ELEVEN: ((11,), 15, 1),          # art. 5(3)(3), 6(7)
    _ACE_DEUCE: ((3,), 15, 1),        # art. 5(3)(4), 6(8)
    _ACES: ((2,), 30, 1),             # art. 5(3)(5), 6(9)
    _BOXCARS: ((12,), 30, 1),         # art. 5(3)(6), 6(10)
}


def field_12_pays(field_12):
    """Art. 6(12): a 12 on the Field pays 2:1 or 3:1 (table option); any other option is refused."""
    if field_12 == 2 and type(field_12) is int:
        return 2
    if field_12 == 3 and type(field_12) is int:
        return 3
    raise SettingsError("field_12 must be 2 or 3 (Field pays 12 at 2:1 or 3:1, art. 6(12)), got %r" % (field_12,))


# Name -> kind code: one dict lookup per placed bet instead of a scan of KIND_NAMES.
_KIND_CODES = {}
for _i in range(len(KIND_NAMES)):
    _KIND_CODES[KIND_NAMES[_i]] = _i


def kind_code(name):
    """Bet kind name (e.g. "dont_come") -> kind code; RuleError if unknown."""
    if isinstance(name, str):   # an unhashable name (a list) is refused below, not a TypeError
        code = _KIND_CODES.get(name)
        if code is not None:
            return code
    raise RuleError("unknown craps bet type %r: expected one of %s" % (name, ", ".join(KIND_NAMES)))


def is_line(kind):
    return kind == _PASS or kind == _DONT_PASS or kind == _COME or kind == _DONT_COME


def is_odds(kind):
    return kind == _PASS_ODDS or kind == _DONT_PASS_ODDS or kind == _COME_ODDS or kind == _DONT_COME_ODDS


def is_one_roll(kind):
    return _ANY_CRAPS <= kind <= _SMALL


def odds_parent_kind(kind):
    """Odds kind -> the line kind it must stand behind (art. 5(2)(2), (4), (5), (6))."""
    return (_PASS, _DONT_PASS, _COME, _DONT_COME)[(kind - _PASS_ODDS) if kind < _COME_ODDS else (kind - _COME_ODDS + 2)]


def odds_pay(kind, point):
    """(win, stake) of an odds bet on point: art. 6(2) for Pass/Come, 6(4) for Don't."""
    if kind == _PASS_ODDS or kind == _COME_ODDS:
        return _ODDS_RIGHT[point]
    return _ODDS_WRONG[point]


def win_ratios(kind, number, field_12):
    """Every (win, stake) ratio a bet of this kind can be paid at (for stake checks)."""
    if is_line(kind) or kind == _BIG or kind == _SMALL:
        return ((1, 1),)
    if is_odds(kind):
        return (odds_pay(kind, number),)
    if kind in _ONE_ROLL:
        entry = _ONE_ROLL[kind]
        return ((entry[1], entry[2]),)
    if kind == _HORN:
        return ((27, 4), (3, 1))                 # art. 6(11)
    if kind == _FIELD:
        return ((1, 1), (2, 1), (field_12_pays(field_12), 1))    # art. 6(12)
    if kind == _HARD:
        return (_HARD_PAY[number],)
    return (_BIG_PAY[number],)                    # BIG_NUMBER


def stake_quantum(kind, number, field_12):
    """Smallest stake unit for which every payout of the bet is an exact integer."""
    q = 1
    for ratio in win_ratios(kind, number, field_12):
        d = ratio[1]
        # lcm(q, d) without math.gcd (not on every port): d is tiny.
        m = q
        while m % d:
            m += q
        q = m
    return q


# kind << 4 | number -> stake_quantum(): a table asks for the same few units again and again
# (cached_stake_quantum fills it; rules.CrapsTable.place_known asks it first, without a call).
STAKE_UNITS = {}


def cached_stake_quantum(kind, number, field_12):
    """stake_quantum() for a kind code and a number 0..15 the table has validated, computed once."""
    if kind == _FIELD:
        field_12_pays(field_12)   # the option is still checked on every Field bet; its unit is 1 at 2:1 and 3:1
    key = kind << 4 | number
    q = STAKE_UNITS.get(key)
    if q is None:
        q = stake_quantum(kind, number, field_12)
        STAKE_UNITS[key] = q
    return q


def _zone_name(kind, number):
    # zone_name() worked out: it fills ZONE_TABLE, and answers what the table does not hold.
    if kind == _PASS or kind == _PASS_ODDS:
        return "pass"
    if kind == _DONT_PASS or kind == _DONT_PASS_ODDS:
        return "dont_pass"
    if kind == _COME or kind == _DONT_COME or kind == _COME_ODDS or kind == _DONT_COME_ODDS:
        if number:
            return "point_%d" % number   # a come bet moves to its number's box
        return "come" if kind == _COME else "dont_come"
    if kind == _HARD:
        return "hard_%d" % number
    if kind == _BIG_NUMBER:
        return "big_%d" % number
    return KIND_NAMES[kind]


# Every zone name: ZONE_TABLE[kind * ZONE_COLUMNS + number] is _zone_name(kind, number) for numbers
# 0..10 (a bet's number never exceeds 10), a row a kind, so settling a roll formats no strings. A
# literal (issue 14): in flash where the code is frozen or in ROMFS (made at import, its tuple kept
# 0.9 KB of the heap, and its names "point_7"... more where no literal had them); test_craps_bets compares.
ZONE_TABLE = (
    # pass
     "pass", "pass", "pass", "pass", "pass", "pass", "pass", "pass", "pass", "pass", "pass",
    # dont_pass
     "dont_pass", "dont_pass", "dont_pass", "dont_pass", "dont_pass", "dont_pass", "dont_pass",
     "dont_pass", "dont_pass", "dont_pass", "dont_pass",
    # pass_odds
     "pass", "pass", "pass", "pass", "pass", "pass", "pass", "pass", "pass", "pass", "pass",
    # dont_pass_odds
     "dont_pass", "dont_pass", "dont_pass", "dont_pass", "dont_pass", "dont_pass", "dont_pass",
     "dont_pass", "dont_pass", "dont_pass", "dont_pass",
    # come
     "come", "point_1", "point_2", "point_3", "point_4", "point_5", "point_6", "point_7", "point_8",
     "point_9", "point_10",
    # dont_come
     "dont_come", "point_1", "point_2", "point_3", "point_4", "point_5", "point_6", "point_7", "point_8",
     "point_9", "point_10",
    # come_odds
     "dont_come", "point_1", "point_2", "point_3", "point_4", "point_5", "point_6", "point_7", "point_8",
     "point_9", "point_10",
    # dont_come_odds
     "dont_come", "point_1", "point_2", "point_3", "point_4", "point_5", "point_6", "point_7", "point_8",
     "point_9", "point_10",
    # any_craps
     "any_craps", "any_craps", "any_craps", "any_craps", "any_craps", "any_craps", "any_craps",
     "any_craps", "any_craps", "any_craps", "any_craps",
    # any_seven
     "any_seven", "any_seven", "any_seven", "any_seven", "any_seven", "any_seven", "any_seven",
     "any_seven", "any_seven", "any_seven", "any_seven",
    # eleven
     "eleven", "eleven", "eleven", "eleven", "eleven", "eleven", "eleven", "eleven", "eleven", "eleven",
     "eleven",
    # ace_deuce
     "ace_deuce", "ace_deuce", "ace_deuce", "ace_deuce", "ace_deuce", "ace_deuce", "ace_deuce",
     "ace_deuce", "ace_deuce", "ace_deuce", "ace_deuce",
    # aces
     "aces", "aces", "aces", "aces", "aces", "aces", "aces", "aces", "aces", "aces", "aces",
    # boxcars
     "boxcars", "boxcars", "boxcars", "boxcars", "boxcars", "boxcars", "boxcars", "boxcars", "boxcars",
     "boxcars", "boxcars",
    # horn
     "horn", "horn", "horn", "horn", "horn", "horn", "horn", "horn", "horn", "horn", "horn",
    # field
     "field", "field", "field", "field", "field", "field", "field", "field", "field", "field", "field",
    # big
     "big", "big", "big", "big", "big", "big", "big", "big", "big", "big", "big",
    # small
     "small", "small", "small", "small", "small", "small", "small", "small", "small", "small", "small",
    # hard
     "hard_0", "hard_1", "hard_2", "hard_3", "hard_4", "hard_5", "hard_6", "hard_7", "hard_8", "hard_9",
     "hard_10",
    # big_number
     "big_0", "big_1", "big_2", "big_3", "big_4", "big_5", "big_6", "big_7", "big_8", "big_9", "big_10",
)


def zone_name(kind, number):
    """Layout zone a bet sits in (the board's "zones" keys): lights and host reports use it.

    number: hard/big number; the own point of a Come/Don't Come bet (0 before it has one);
    the point of an odds bet.
    """
    if type(kind) is int and type(number) is int and 0 <= kind < len(KIND_NAMES) and 0 <= number < _ZONE_COLUMNS:
        return ZONE_TABLE[kind * _ZONE_COLUMNS + number]
    return _zone_name(kind, number)


def settle_line(kind, own_point, total):
    """Pass / Come (right) or Don't Pass / Don't Come (wrong) bet on one roll.

    own_point 0: the roll is the bet's come-out (art. 5(2)(1), (3), (5), (6));
    else the point must repeat before a 7. Returns (code, win, stake).
    """
    right = kind == _PASS or kind == _COME
    if own_point == 0:
        if total == 7 or total == 11:        # natural
            return (_WIN, 1, 1) if right else (_LOSE, 1, 1)
        if total == 2 or total == 3:         # craps
            return (_LOSE, 1, 1) if right else (_WIN, 1, 1)
        if total == 12:                      # craps for Pass/Come, bar (push) for Don't
            return (_LOSE, 1, 1) if right else (_PUSH, 1, 1)
        return (_MOVE, 1, 1)
    if total == own_point:
        return (_WIN, 1, 1) if right else (_LOSE, 1, 1)
    if total == 7:
        return (_LOSE, 1, 1) if right else (_WIN, 1, 1)
    return (_STAND, 1, 1)


def settle_prop(kind, number, d1, d2, field_12):
    """One-roll (art. 5(3)) or multi-roll (art. 5(4)) bet on one roll -> (code, win, stake)."""
    total = d1 + d2
    # The multi-roll bets first: the table settles one-roll bets from ONE_ROLL_OUTCOMES.
    if kind == _HARD:                          # art. 5(4)(1): the pair wins; 7 or easy way loses
        if total == 7:
            return (_LOSE, 1, 1)
        if total == number:
            if d1 == d2:
                return (_WIN,) + _HARD_PAY[number]
            return (_LOSE, 1, 1)
        return (_STAND, 1, 1)
    if kind == _BIG_NUMBER:                    # art. 5(4)(2)-(4): the number before a 7
        if total == number:
            return (_WIN,) + _BIG_PAY[number]
        if total == 7:
            return (_LOSE, 1, 1)
        return (_STAND, 1, 1)
    if kind in _ONE_ROLL:
        entry = _ONE_ROLL[kind]
        if total in entry[0]:
            return (_WIN, entry[1], entry[2])
        return (_LOSE, 1, 1)
    if kind == _HORN:                          # art. 5(3)(7), 6(11): whole-stake ratios
        if total == 2 or total == 12:
            return (_WIN, 27, 4)
        if total == 3 or total == 11:
            return (_WIN, 3, 1)
        return (_LOSE, 1, 1)
    if kind == _FIELD:                         # art. 5(3)(8), 6(12)
        if total == 2:
            return (_WIN, 2, 1)
        if total == 12:
            return (_WIN, field_12_pays(field_12), 1)
        if total == 3 or total == 4 or total == 9 or total == 10 or total == 11:
            return (_WIN, 1, 1)
        return (_LOSE, 1, 1)
    if kind == _BIG:                           # art. 5(3)(9): 8-12 wins, 7 loses
        return (_WIN, 1, 1) if total >= 8 else (_LOSE, 1, 1)
    if kind == _SMALL:                         # art. 5(3)(9): 2-6 wins, 7 loses
        return (_WIN, 1, 1) if total <= 6 else (_LOSE, 1, 1)
    raise RuleError("not a proposition bet kind: %r" % (kind,))


# ONE_ROLL_OUTCOMES[kind][total] = settle_prop(kind, 0, d1, d2, field_12) for a one-roll kind (art. 5(3)),
# None where it depends on field_12 (the Field's 12, art. 6(12)): the table asks settle_prop() for it;
# None for the other kinds. A literal (issue 14): in flash where the code is frozen or in ROMFS (worked
# out at import it kept 1 KB of the heap in the VM); test_craps_bets compares it with settle_prop.
ONE_ROLL_OUTCOMES = (
    None, None, None, None, None, None, None, None,      # the line bets and their odds: not one-roll
    (None, None, (_WIN, 7, 1), (_WIN, 7, 1), (_LOSE, 1, 1), (_LOSE, 1, 1), (_LOSE, 1, 1), (_LOSE, 1, 1),
     (_LOSE, 1, 1), (_LOSE, 1, 1), (_LOSE, 1, 1), (_LOSE, 1, 1), (_WIN, 7, 1)),  # any_craps, art. 5(3)(1), 6(5)
    (None, None, (_LOSE, 1, 1), (_LOSE, 1, 1), (_LOSE, 1, 1), (_LOSE, 1, 1), (_LOSE, 1, 1), (_WIN, 4, 1),
     (_LOSE, 1, 1), (_LOSE, 1, 1), (_LOSE, 1, 1), (_LOSE, 1, 1), (_LOSE, 1, 1)),  # any_seven, art. 5(3)(2), 6(6)
    (None, None, (_LOSE, 1, 1), (_LOSE, 1, 1), (_LOSE, 1, 1), (_LOSE, 1, 1), (_LOSE, 1, 1), (_LOSE, 1, 1),
     (_LOSE, 1, 1), (_LOSE, 1, 1), (_LOSE, 1, 1), (_WIN, 15, 1), (_LOSE, 1, 1)),  # eleven, art. 5(3)(3), 6(7)
    (None, None, (_LOSE, 1, 1), (_WIN, 15, 1), (_LOSE, 1, 1), (_LOSE, 1, 1), (_LOSE, 1, 1), (_LOSE, 1, 1),
     (_LOSE, 1, 1), (_LOSE, 1, 1), (_LOSE, 1, 1), (_LOSE, 1, 1), (_LOSE, 1, 1)),  # ace_deuce, art. 5(3)(4), 6(8)
    (None, None, (_WIN, 30, 1), (_LOSE, 1, 1), (_LOSE, 1, 1), (_LOSE, 1, 1), (_LOSE, 1, 1), (_LOSE, 1, 1),
     (_LOSE, 1, 1), (_LOSE, 1, 1), (_LOSE, 1, 1), (_LOSE, 1, 1), (_LOSE, 1, 1)),  # aces, art. 5(3)(5), 6(9)
    (None, None, (_LOSE, 1, 1), (_LOSE, 1, 1), (_LOSE, 1, 1), (_LOSE, 1, 1), (_LOSE, 1, 1), (_LOSE, 1, 1),
     (_LOSE, 1, 1), (_LOSE, 1, 1), (_LOSE, 1, 1), (_LOSE, 1, 1), (_WIN, 30, 1)),  # boxcars, art. 5(3)(6), 6(10)
    (None, None, (_WIN, 27, 4), (_WIN, 3, 1), (_LOSE, 1, 1), (_LOSE, 1, 1), (_LOSE, 1, 1), (_LOSE, 1, 1),
     (_LOSE, 1, 1), (_LOSE, 1, 1), (_LOSE, 1, 1), (_WIN, 3, 1), (_WIN, 27, 4)),  # horn, art. 5(3)(7), 6(11)
    (None, None, (_WIN, 2, 1), (_WIN, 1, 1), (_WIN, 1, 1), (_LOSE, 1, 1), (_LOSE, 1, 1), (_LOSE, 1, 1),
     (_LOSE, 1, 1), (_WIN, 1, 1), (_WIN, 1, 1), (_WIN, 1, 1), None),             # field, art. 5(3)(8), 6(12)
    (None, None, (_LOSE, 1, 1), (_LOSE, 1, 1), (_LOSE, 1, 1), (_LOSE, 1, 1), (_LOSE, 1, 1), (_LOSE, 1, 1),
     (_WIN, 1, 1), (_WIN, 1, 1), (_WIN, 1, 1), (_WIN, 1, 1), (_WIN, 1, 1)),      # big, art. 5(3)(9)
    (None, None, (_WIN, 1, 1), (_WIN, 1, 1), (_WIN, 1, 1), (_WIN, 1, 1), (_WIN, 1, 1), (_LOSE, 1, 1),
     (_LOSE, 1, 1), (_LOSE, 1, 1), (_LOSE, 1, 1), (_LOSE, 1, 1), (_LOSE, 1, 1)),  # small, art. 5(3)(9)
    None, None,                                          # hard ways, big numbers: multi-roll
)
