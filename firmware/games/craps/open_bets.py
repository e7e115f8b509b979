# Craps: the bets open on the layout now, the answer to the host's `open_bets` request.
#
# A host that lost reports (a LOST frame: the board's store was full, docs/host-link.md) no longer knows
# which bets the table holds: the throws' nets and the RECALL tell what was decided, not what is still on
# the layout. It asks `open_bets` and gets them in one report, by seat and zone (the reports' words,
# zones.ZONES; two bets of a seat on one zone added up), with the point and the shooter. The report is
# made only where the host link's store takes all of it and stays below its alarm (which would hold the
# next come-out), with room left for a reading's refusal whole: the frames it may take came with the
# request (the HOST event's b, firmware/host_port.py, kept in the table journal with the event, so a
# recovery's replay answers or refuses as the table did). Else a host_error says so, and the host asks
# again once it has caught up. While the table starts (its lamp test, before the recovery) the bets are
# not known yet: refused too. Imported when asked, released once the report is made
# (firmware/parts.py, OPEN_BETS_ON_DEMAND): a table keeps none of it.
import json

from firmware.games.craps.reports import SEAT_KEYS
from firmware.games.craps.zones import ZONES, zone_of

# copies of firmware.events (tests/host/test_const_copies.py)
_HOST_ARG_MASK = const(0xFFFF)
_HOST_TAG_SHIFT = const(16)
# copies of firmware.table_codes (tests/host/test_const_copies.py)
_STARTING = const(0)

_PIECE = const(128)          # firmware.startup HOST_PIECE: a report's bytes a frame
_KEPT_FRAMES = const(3)      # left free for a reading's refusal whole (readings.py, _WHOLE_FRAMES)
# The report's bytes around its fields at most: `{"seq": ` and 10 digits, `, "table": ` and a 12-character
# id quoted, each character escaped, `, "event": "open_bets"` and the `, ` before the fields.
_ENVELOPE = const(80)


def bets_table(table):
    """{seat: {zone: amount}} of the open bets, seats and zones in the layout's order (ZONES)."""
    width = len(ZONES)
    totals = {}
    for bet in table.engine.bets:
        slot = bet.seat * width + zone_of(bet.kind, bet.number)
        totals[slot] = totals.get(slot, 0) + bet.amount
    out = {}
    row = None
    row_seat = -1
    for slot in sorted(totals):
        seat = slot // width
        if seat != row_seat:
            row_seat = seat
            row = out[SEAT_KEYS[seat] if seat < len(SEAT_KEYS) else str(seat + 1)] = {}
        row[ZONES[slot - seat * width]] = totals[slot]
    return out


def frames(fields):
    """The host link's frames the report of these fields takes at most."""
    return (_ENVELOPE + len(json.dumps(fields)) + _PIECE - 1) // _PIECE


def answer(table, b):
    """The answer to the HOST event's b: the room below its tag (firmware/events.py, HOST_TAG_SHIFT), or -1."""
    return report(table, -1) if b < 0 else report(table, b & _HOST_ARG_MASK, b >> _HOST_TAG_SHIFT)


def report(table, room, tag=0):
    """The answer to the request (room: the frames the answer could take when it came, -1 unknown; tag: the
    host's, given back when not 0): ("open_bets", its fields), or ("host_error", why it is refused)."""
    if table.state == _STARTING:
        return "host_error", _tagged({"error": "open_bets refused: the table is starting (its lamp test): ask "
                                               "again once it is ready", "request": "open_bets"}, tag)
    engine = table.engine
    fields = _tagged({"point": engine.point or None, "shooter": table.shooter, "count": len(engine.bets),
                      "bets": bets_table(table)}, tag)
    need = frames(fields)
    if room >= 0 and need > room - _KEPT_FRAMES:
        why = "open_bets refused: the answer takes %d frames, the host link has room for %d now: ask again once " \
              "it has caught up" % (need, max(0, room - _KEPT_FRAMES))
        return "host_error", _tagged({"error": why, "request": "open_bets"}, tag)
    return "open_bets", fields


def _tagged(fields, tag):
    if tag:
        fields["tag"] = tag
    return fields
