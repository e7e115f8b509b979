# Host reports of the Craps controller's own outbox codes (docs/protocol.md, "Host reports").
#
# Called by firmware.report.Reporter when it drains the outbox, right after the
# event that queued the entry, so the controller's fields still describe it.
from firmware import fault_kinds, throws
from firmware.games.craps.zones import ZONES

# copies of firmware.games.craps.codes (tests/host/test_const_copies.py)
_OUT_BETS = const(33)
_OUT_BETS_FAULT = const(36)
_OUT_BETS_NO_ROOM = const(43)
_OUT_BET_DOWN = const(40)
_OUT_BET_DOWN_MORE = const(42)
_OUT_BET_REFUSED = const(34)
_OUT_BET_REFUSED_MORE = const(41)
_OUT_OPEN_BETS = const(44)
_OUT_PUCK = const(37)
_OUT_READER = const(39)
_OUT_SHOOTER = const(35)
_OUT_THROW = const(32)
_OUT_THROW_HELD = const(38)

# OUT_SHOOTER's b (codes.SHOOTER_*): why the dice passed on (art. 4), the report's "why".
SHOOTER_WHY = ("seven_out", "come_out_craps", "stopped")

# Seat keys of the reports (seat index 0 -> "1"): a tuple's entry costs a tenth of str() on the VM, and a
# result names every seat that bet; a seat past them (a table of more seats) goes through str().
SEAT_KEYS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10",
             "11", "12", "13", "14", "15", "16", "17", "18", "19", "20")
_SEAT_KEYS_MAX = const(20)

# Why a reading was refused whole (OUT_BETS_NO_ROOM): the host link's store has no room for its reports.
NO_ROOM_REASON = "host link full: no room for its reports"
NO_ROLL_WORDS = ("invalid", "off_table", "short", "not_rolled")   # by check_report's order (art. 3)


def no_roll_word(b):
    """The reason of a no roll, as one word, from THROW's flags (the first check_report applies)."""
    if b & throws.FLAG_BITS[4]:
        return "invalid"
    if b & throws.FLAG_BITS[0]:
        return "off_table"
    if b & throws.FLAG_BITS[1] and not b & throws.FLAG_BITS[2]:
        return "short"
    return "not_rolled"


def game_report(table, code, a, b):
    if code == _OUT_THROW or code == _OUT_THROW_HELD:
        return "throw", throw_fields(table, code, a, b)
    if code == _OUT_PUCK:
        return "puck", {"puck": "on" if a else "off", "point": a or None}
    if code == _OUT_SHOOTER:
        return "shooter", {"shooter": a, "why": SHOOTER_WHY[b]}
    if code == _OUT_BETS:
        return "bets", {"reading": a, "accepted": True, "placed": placed_table(table), "refused": b}
    if code == _OUT_BET_REFUSED:
        seat, z, amount, reason, down = table.refusals[a]
        fields = {"seat": str(seat + 1), "zone": ZONES[z], "amount": amount, "reason": reason}
        if down:
            fields["take_down"] = True                   # amount: the stake that stays in play (0: none)
        return "bet_refused", fields
    if code == _OUT_BET_REFUSED_MORE:
        seats = {}                                       # refusals past the itemized ones (the last b), by seat
        refusals = table.refusals
        for i in range(len(refusals) - b, len(refusals)):
            key = str(refusals[i][0] + 1)
            seats[key] = seats.get(key, 0) + 1
        return "bets_refused_more", {"reading": a, "more": b, "seats": seats}
    if code == _OUT_BET_DOWN:
        seat, z, stake = table.downs[a]
        return "bet_taken_down", {"seat": str(seat + 1), "zone": ZONES[z], "amount": stake}
    if code == _OUT_BET_DOWN_MORE:
        return "bets_taken_down_more", {"reading": a, "more": b, "bets": downs_table(table.downs, b)}
    if code == _OUT_BETS_NO_ROOM:                        # refused whole: b bets and take-downs, none taken
        return "bets", {"reading": a, "accepted": False, "reason": NO_ROOM_REASON, "refused": b}
    if code == _OUT_BETS_FAULT:
        return fault_kinds.bets_fault_report(table.evidence, a, b)
    if code == _OUT_READER:
        return "dice_reader", {"dice_reader": "restarted", "bytes": table.evidence.text(b)}
    if code == _OUT_OPEN_BETS:                           # the host's open_bets request (b: the link's room, the tag)
        from firmware import parts
        from firmware.games.craps import open_bets
        answer = open_bets.answer(table, b)
        parts.release(parts.OPEN_BETS_ON_DEMAND)
        return answer
    return "fault", {"fault": "unknown_outbox_code", "detail": code}


def throw_fields(table, code, a, b):
    report = throws.report(a, b)
    engine = table.engine
    fields = {"dice": report["dice"]}
    if report["flags"]:
        fields["flags"] = report["flags"]
    if report["cocked"]:
        fields["cocked"] = report["cocked"]
    if code == _OUT_THROW_HELD:
        fields.update({"valid": False, "no_roll": "alarm", "point": engine.point or None, "shooter_change": False})
        return fields
    fields["valid"] = not table.no_roll
    if table.no_roll:
        fields["no_roll"] = no_roll_word(b)
    fields["point"] = engine.point or None
    fields["shooter_change"] = bool(table.new_shooter and not table.no_roll)
    if table.nets:
        fields["nets"] = table.nets
    return fields


def placed_table(table):
    """{seat: {zone: amount}} of the bets the last reading placed (refused ones are not there)."""
    out = {}
    width = len(ZONES)
    zones = ZONES
    seat_keys = SEAT_KEYS
    amounts = table.reading.amounts
    row = None
    row_seat = -1
    # The controller's placed_slots: the slots of the reading's bets it placed, ascending (the seats'
    # keys in the same order as ever): walked instead of all seats x zones (700 at 14 seats, mostly
    # empty: 167 us for 50 bets in the VM), or of the reading's slots with chips, each looked up in
    # placed (69 -> ~50 us).
    for i in table.placed_slots:
        seat = i // width
        if seat != row_seat:
            row_seat = seat
            row = {}
            out[seat_keys[seat] if seat < _SEAT_KEYS_MAX else str(seat + 1)] = row
        row[zones[i - seat * width]] = amounts[i]
    return out


def downs_table(downs, last):
    """{seat: {zone: stake returned}} of the last `last` take-downs (rows [seat, zone, stake])."""
    out = {}
    for i in range(len(downs) - last, len(downs)):
        seat, z, stake = downs[i]
        key = str(seat + 1)
        row = out.get(key)
        if row is None:
            row = out[key] = {}
        row[ZONES[z]] = stake
    return out
