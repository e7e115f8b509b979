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

# copies of firmware.games.craps.codes (tests/host/test_const_copies.py)
_BIG_NUMBER = const(19)
_COME = const(4)
_COME_ODDS = const(6)
_DONT_COME = const(5)
_DONT_COME_ODDS = const(7)
_HARD = const(18)

_NUMBERED = (_COME_ODDS, _DONT_COME_ODDS, _HARD, _BIG_NUMBER)
_TRAVELS = (_COME, _DONT_COME)      # art. 5(2)(5), (6): a zone before, one per come point after


# ZONES[i] is the bet (KIND_NUMBER[i] = (kind, number)): each kind of bets.KIND_NAMES in turn, a
# numbered kind (_NUMBERED) once a number (bets.POINTS, HARD_NUMBERS for hard ways), the travelled
# come and don't-come bets (_TRAVELS) after both line zones, before the odds that stand behind them;
# so line bets come before their odds, and a reading places a line bet before the odds that may back
# it. Literals (issue 14): constants in flash where the code is frozen or in ROMFS, where the tuples
# built at import kept 2.4 KB of the heap (50 pairs, 38 names made, their tuples: in the VM);
# tests/firmware/test_craps_travelled.py builds them again from bets.py and compares.
ZONES = (
    "pass", "dont_pass", "pass_odds", "dont_pass_odds", "come", "dont_come", "come_4", "come_5",
    "come_6", "come_8", "come_9", "come_10", "dont_come_4", "dont_come_5", "dont_come_6", "dont_come_8",
    "dont_come_9", "dont_come_10", "come_odds_4", "come_odds_5", "come_odds_6", "come_odds_8",
    "come_odds_9", "come_odds_10", "dont_come_odds_4", "dont_come_odds_5", "dont_come_odds_6",
    "dont_come_odds_8", "dont_come_odds_9", "dont_come_odds_10", "any_craps", "any_seven", "eleven",
    "ace_deuce", "aces", "boxcars", "horn", "field", "big", "small", "hard_4", "hard_6", "hard_8",
    "hard_10", "big_number_4", "big_number_5", "big_number_6", "big_number_8", "big_number_9",
    "big_number_10",
)
KIND_NUMBER = (
    (0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (5, 0), (4, 4), (4, 5), (4, 6), (4, 8), (4, 9), (4, 10),
    (5, 4), (5, 5), (5, 6), (5, 8), (5, 9), (5, 10), (6, 4), (6, 5), (6, 6), (6, 8), (6, 9), (6, 10),
    (7, 4), (7, 5), (7, 6), (7, 8), (7, 9), (7, 10), (8, 0), (9, 0), (10, 0), (11, 0), (12, 0), (13, 0),
    (14, 0), (15, 0), (16, 0), (17, 0), (18, 4), (18, 6), (18, 8), (18, 10), (19, 4), (19, 5), (19, 6),
    (19, 8), (19, 9), (19, 10),
)

# The zone names' bytes run together, as the bet reader looks words up in them (firmware/drivers/
# bet_reader.py, which checks them against ZONES zone by zone): a literal, in flash as ZONES is (made
# by the reader it kept 0.5 KB of the heap).
ZONE_WORDS = (
    b"passdont_passpass_oddsdont_pass_oddscomedont_comecome_4come_5come_6come_8come_9come_10"
    b"dont_come_4dont_come_5dont_come_6dont_come_8dont_come_9dont_come_10come_odds_4come_odds_5"
    b"come_odds_6come_odds_8come_odds_9come_odds_10dont_come_odds_4dont_come_odds_5"
    b"dont_come_odds_6dont_come_odds_8dont_come_odds_9dont_come_odds_10any_crapsany_seveneleven"
    b"ace_deuceacesboxcarshornfieldbigsmallhard_4hard_6hard_8hard_10big_number_4big_number_5"
    b"big_number_6big_number_8big_number_9big_number_10"
)


def zone_of(kind, number):
    """The zone index of a bet of this kind: number is the come point of a come / don't-come bet
    (0 before it travelled) or of come odds, the hard or big number; other kinds take 0."""
    if kind not in _NUMBERED and kind not in _TRAVELS:
        number = 0
    for i in range(len(KIND_NUMBER)):
        if KIND_NUMBER[i][0] == kind and KIND_NUMBER[i][1] == number:
            return i
    raise ValueError("no craps bet zone for kind %r number %r" % (kind, number))


COME_ZONE = zone_of(_COME, 0)
DONT_COME_ZONE = zone_of(_DONT_COME, 0)
# The zone a bet on "come" / "dont_come" takes when its first roll's total is its come point (one
# lookup a bet at a roll): TRAVELLED[total][0] for come, [1] for dont_come; (-1, -1) where a total is
# no come point. A literal (flash), as ZONES: test_craps_travelled.py works it out from zone_of.
TRAVELLED = (
    (-1, -1), (-1, -1), (-1, -1), (-1, -1), (6, 12), (7, 13), (8, 14), (-1, -1), (9, 15), (10, 16),
    (11, 17), (-1, -1), (-1, -1),
)
