# The bytes behind a table event, for the table journal (docs/journal.md, "What the journal must keep
# with an event"): what the table reads when it dispatches the event, kept with it so a replay after a
# reset dispatches the same thing. (kind, a, b) alone is the whole event for the others. Put back by the
# recovery (firmware/recovery_replay.py, put_behind: boot-only).
import struct

from firmware import fault_kinds

# copies of firmware.faults (tests/host/test_const_copies.py)
_JOURNAL_NEARLY_FULL = const(23)
# copies of firmware.events (tests/host/test_const_copies.py)
_BETS = const(13)
_BETS_FAULT = const(14)
_CONSOLE = const(6)
_CONSOLE_ERROR = const(10)
_CON_ACT_COMMAND = const(7)
_DICE_READER_HELLO = const(16)
_FAULT = const(8)
_HOST = const(7)
_HOST_BAD = const(3)
_HOST_HAND = const(2)
_HOST_UNKNOWN = const(0)
_SHOE = const(12)
_SHOE_HELLO = const(1)

# An evidence record's length when its bytes were overwritten before the event was journalled (no line
# is that long: a reader's line is at most its buffer, a host line its frame): replayed as GONE.
_GONE_LENGTH = const(0xFFFF)


def _evidence_handle(kind, a):
    """True when the event's b is an evidence handle."""
    return ((kind == _SHOE and a == _SHOE_HELLO) or (kind == _BETS_FAULT and a != _JOURNAL_NEARLY_FULL)
            or kind == _DICE_READER_HELLO
            or kind == _CONSOLE_ERROR or (kind == _HOST and (a == _HOST_UNKNOWN or a == _HOST_BAD))
            or (kind == _FAULT and fault_kinds.has_evidence(a)) or (kind == _CONSOLE and a == _CON_ACT_COMMAND))


# The kinds whose b may be an evidence handle (_evidence_handle() tells by a): any other event but a
# reading or a host hand (a card, a throw, a key, a button, a tick, a lamp: most records) has nothing
# behind it, told by one bit rather than _evidence_handle()'s call and its seven tests.
_MAY_HAVE_EVIDENCE = const((1 << _SHOE) | (1 << _BETS_FAULT) | (1 << _DICE_READER_HELLO) | (1 << _CONSOLE_ERROR)
                           | (1 << _HOST) | (1 << _FAULT) | (1 << _CONSOLE))


def _ints(values, nonzero=None, lead=0):
    """An array of ints, sparse: its length, then (index, value) of the ones not 0 (a bet reading is
    seats x zones, mostly empty). nonzero: those indexes in order where the caller has them (a
    reading's slots()): the record is then filled in place, without a walk of every value. lead:
    bytes left at the start for the caller's head (packed there: no second buffer joined to it)."""
    if nonzero is None:
        nonzero = [i for i in range(len(values)) if values[i]]
    out = bytearray(lead + 4 + 6 * len(nonzero))
    pack_into = struct.pack_into                 # (a local: no module attribute lookup an entry)
    pack_into("<HH", out, lead, len(values), len(nonzero))
    at = lead + 4
    for i in nonzero:
        pack_into("<Hi", out, at, i, values[i])
        at += 6
    return out


def behind(table, kind, a, b):
    """The bytes behind the event (b"" for none)."""
    if kind == _BETS and getattr(table, "reading", None) is not None:
        reading = table.reading
        out = _ints(reading.amounts, reading.slots(), 4)
        struct.pack_into("<i", out, 0, reading.reading_id)
        room = getattr(table, "link_room", -1)
        if room >= 0:                            # the host link's room it was bounded by (Craps: readings.py)
            out += struct.pack("<H", room)
        return bytes(out)                        # (bytes, as every other event's)
    if kind == _HOST and a == _HOST_HAND and getattr(table, "host_stacks", None) is not None:
        return struct.pack("<iB", table.host_button, 1 if table.host_has_stacks else 0) + _ints(table.host_stacks)
    if _evidence_handle(kind, a) and b:
        if table.evidence.gone(b):
            out = struct.pack("<HH", _GONE_LENGTH, 0)   # overwritten before this record: said so, not ""
        else:
            data, n = table.evidence.raw(b)
            out = struct.pack("<HH", n, len(data)) + data
        if kind == _HOST and a == _HOST_BAD:
            reason = table.host_reason.encode()
            out += struct.pack("<H", len(reason)) + reason
            if table.host_reason_tag:          # the refused request's tag, after it (none: the bytes as before tags)
                out += struct.pack("<H", table.host_reason_tag)
        return out
    return b""


def behind_into(buf, at, limit, table, kind, a, b):
    """behind()'s bytes written into buf[at:limit] where they are built in place (none; a bet
    reading's, as behind() packs them, when they fit): returns the offset after them, or -1 (nothing
    written: the caller builds them with behind()). The table journal's record of a card or a
    closed 50-bet reading is thus built where the journal encodes it (firmware/recovery.py)."""
    if kind == _BETS and getattr(table, "reading", None) is not None:
        reading = table.reading
        values = reading.amounts
        nonzero = reading.slots()
        room = getattr(table, "link_room", -1)
        end = at + 8 + 6 * len(nonzero) + (2 if room >= 0 else 0)
        if end > limit:
            return -1
        pack_into = struct.pack_into             # (a local: no module attribute lookup an entry)
        pack_into("<iHH", buf, at, reading.reading_id, len(values), len(nonzero))
        at += 8
        for i in nonzero:
            pack_into("<Hi", buf, at, i, values[i])
            at += 6
        if room >= 0:
            pack_into("<H", buf, at, room)
        return end
    if not (_MAY_HAVE_EVIDENCE >> kind) & 1:
        return at                                # a card's record, a throw's: nothing behind it
    if kind == _HOST and a == _HOST_HAND and getattr(table, "host_stacks", None) is not None:
        return -1
    if _evidence_handle(kind, a) and b:
        return -1
    return at

