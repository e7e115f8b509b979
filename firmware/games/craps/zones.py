# The Craps bet vocabulary: one zone name per bet, shared by the bet reader, the controller and the
# host reports (the judge's bet types, tools/judge_craps.py, with the number appended for numbered
# bets: "pass", "come_odds_6", "hard_8", "big_number_6").
#
# A come / don't-come bet is placed on "come" / "dont_come" and travels with its first roll to its
# come point (Craps art. 5(2)(5), (6)): from then on it is "come_6" / "dont_come_6", as its odds are
# "come_odds_6", so each bet on the layout has a zone of its own in the reports and take-downs. Chips
# are never put straight on a come point (placement.py refuses a reading's "come_6" bet).
#
# A zone names what the chips are, not where the light is: the layout's light for a bet is
# bets.zone_name(kind, number) (a come bet on 6 and its odds light the come point's box, "point_6").
from firmware.games.craps import bets as B

# copies of firmware.games.craps.codes (tests/host/test_const_copies.py)
_BIG_NUMBER = const(19)
_COME = const(4)
_COME_ODDS = const(6)
_DONT_COME = const(5)
_DONT_COME_ODDS = const(7)
_HARD = const(18)

_NUMBERED = (_COME_ODDS, _DONT_COME_ODDS, _HARD, _BIG_NUMBER)
_TRAVELS = (_COME, _DONT_COME)      # art. 5(2)(5), (6): a zone before, one per come point after


def _build():
    zones = []
    kinds = []
    for kind in range(len(B.KIND_NAMES)):
        name = B.KIND_NAMES[kind]
        if kind in _NUMBERED:
            numbers = B.HARD_NUMBERS if kind == _HARD else B.POINTS
            for n in numbers:
                zones.append("%s_%d" % (name, n))
                kinds.append((kind, n))
        else:
            zones.append(name)
            kinds.append((kind, 0))
        if kind == _DONT_COME:
            # the travelled come bets after both line zones, before the odds that stand behind them
            for travelled in _TRAVELS:
                for n in B.POINTS:
                    zones.append("%s_%d" % (B.KIND_NAMES[travelled], n))
                    kinds.append((travelled, n))
    return tuple(zones), tuple(kinds)


# ZONES[i] is the bet (KIND_NUMBER[i] = (kind, number)); line bets come before their odds, so a
# reading places a line bet before the odds that may back it.
ZONES, KIND_NUMBER = _build()
del _build   # used once: its bytecode is not kept in RAM


def zone_of(kind, number):
    """The zone index of a bet of this kind: number is the come point of a come / don't-come bet
    (0 before it travelled) or of come odds, the hard or big number; other kinds take 0."""
    if kind not in _NUMBERED and kind not in _TRAVELS:
        number = 0
    for i in range(len(KIND_NUMBER)):
        if KIND_NUMBER[i][0] == kind and KIND_NUMBER[i][1] == number:
            return i
    raise ValueError("no craps bet zone for kind %r number %r" % (kind, number))


def _travel_table():
    # TRAVELLED[total] = (come's zone on that point, dont_come's), -1 where a total is no come point
    out = []
    for total in range(13):
        if total in B.POINTS:
            out.append((zone_of(_COME, total), zone_of(_DONT_COME, total)))
        else:
            out.append((-1, -1))
    return tuple(out)


COME_ZONE = zone_of(_COME, 0)
DONT_COME_ZONE = zone_of(_DONT_COME, 0)
# The zone a bet on "come" / "dont_come" takes when its first roll's total is its come point (one
# lookup a bet at a roll): TRAVELLED[total][0] for come, [1] for dont_come.
TRAVELLED = _travel_table()
del _travel_table
