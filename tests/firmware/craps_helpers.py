# Shared by the craps test modules (dual-runtime): a table with the usual options, placing, outcomes.
from firmware.games.craps import rules as C
from firmware.games.craps import settings as CS

# A pair of dice for each total (easy way where one exists, so hard ways are tested explicitly).
D = {2: (1, 1), 3: (1, 2), 4: (1, 3), 5: (1, 4), 6: (2, 4), 7: (3, 4), 8: (3, 5), 9: (4, 5),
     10: (4, 6), 11: (5, 6), 12: (6, 6)}
BASE = {"minimum": 5, "field_12": 2, "max_odds": [3, 4, 5], "off_on_come_out": [],
        "take_down": list(CS.TAKE_DOWN_ALLOWED), "shooter_change_on_come_out_craps": False}


def table(**extra):
    options = {}
    for k in BASE:
        options[k] = BASE[k]
    for k in extra:
        options[k] = extra[k]
    return C.CrapsTable(options)


def place(t, kind, amount, number=0, on=None, seat=0):
    bet_id, reason = t.place_bet(seat, kind, amount, number, on)
    assert reason is None, reason
    return bet_id


def outcome(resolved, bet_id):
    """(result, net) of bet_id among a roll's resolved bets, or None if it was not decided."""
    for r in resolved:
        if r[C.BET_ID] == bet_id:
            return (r[C.RESULT], r[C.NET])
    return None
