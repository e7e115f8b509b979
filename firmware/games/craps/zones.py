# The Craps bet vocabulary: one zone name per bet, shared by the bet reader, the controller and the
# host reports (the judge's bet types, tools/judge_craps.py, with the number appended for numbered
# bets: "pass", "come_odds_6", "hard_8", "big_number_6").
#
# A zone names what the chips are, not where the light is: the layout's light for a bet is
# bets.zone_name(kind, number) (a come bet's odds light the come point's box, "point_6").
from firmware.games.craps import bets as B

_NUMBERED = (B.COME_ODDS, B.DONT_COME_ODDS, B.HARD, B.BIG_NUMBER)


def _build():
    zones = []
    kinds = []
    for kind in range(len(B.KIND_NAMES)):
        name = B.KIND_NAMES[kind]
        if kind in _NUMBERED:
            numbers = B.HARD_NUMBERS if kind == B.HARD else B.POINTS
            for n in numbers:
                zones.append("%s_%d" % (name, n))
                kinds.append((kind, n))
        else:
            zones.append(name)
            kinds.append((kind, 0))
    return tuple(zones), tuple(kinds)


# ZONES[i] is the bet (KIND_NUMBER[i] = (kind, number)); line bets come before their odds, so a
# reading places a line bet before the odds that may back it.
ZONES, KIND_NUMBER = _build()


def zone_of(kind, number):
    """The zone index of a bet of this kind: number is the come point of come odds, the hard or big
    number; other kinds take 0 (a come bet that travelled is still "come")."""
    if kind not in _NUMBERED:
        number = 0
    for i in range(len(KIND_NUMBER)):
        if KIND_NUMBER[i][0] == kind and KIND_NUMBER[i][1] == number:
            return i
    raise ValueError("no craps bet zone for kind %r number %r" % (kind, number))
