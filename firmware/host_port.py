# The host's side of the board's report port, and the settings' digest for the host (the boot report's
# and a settings change's; the reset's cause is firmware/saved_state_read.py's: boot-only).
#
# read_host() takes the host-link frames the host sends (docs/host-link.md): ACK, REPLAY and TIME go
# to the sender, a REQUEST becomes the table's HOST event (roads, open_bets, or a JSON request the game
# parses: Game.host_request), and so does a RECALL (the last N rounds). Error-checked communications only:
# a plain request line is refused with host_error; what line noise leaves is counted (ctx.host_noise),
# never acted on.
import json
from binascii import crc32

from firmware.errors import SettingsError
from firmware.jsonfile import NUMBER_RULE, bad_number, duplicate_key
from firmware.link import frame as frame_mod
from firmware.link import sender as sender_mod

# copies of firmware.events (tests/host/test_const_copies.py)
_HOST = const(7)
_HOST_ARG_MASK = const(0xFFFF)
_HOST_BAD = const(3)
_HOST_HAND = const(2)
_HOST_OPEN_BETS = const(5)
_HOST_RECALL = const(4)
_HOST_ROADS = const(1)
_HOST_UNKNOWN = const(0)
_HOST_TAG_MAX = const(9999)
_HOST_TAG_SHIFT = const(16)
# copies of firmware.link.frame (tests/host/test_const_copies.py)
_BAD_CRC = const(4)
_NO_START = const(2)
_TOO_LONG = const(3)
_TRUNCATED = const(1)
# copies of firmware.link.sender (tests/host/test_const_copies.py)
_BAD_ARGUMENT = const(10)
_UNKNOWN_TYPE = const(11)

# What the host may ask in a REQUEST frame (one word: the roads, Craps' open bets; a payload starting with
# "{" is a JSON request). Bytes literals compared, not a dict made at import (issue 14).
_ROADS_REQUEST = b"roads"
_OPEN_BETS_REQUEST = b"open_bets"
_HOST_LINES_PER_PASS = const(4) # host frames read per input pass (ACKs come as fast as frames go)
# Host frames refused for what line noise does (the CRC or the line's shape): counted, not reported. A
# literal of const copies: made at import from frame_mod's names (and the sender's refusals' dict of two)
# they kept 32 + 32 bytes of the heap in the VM (issue 14).
_NOISE = (_TRUNCATED, _NO_START, _TOO_LONG, _BAD_CRC)
def settings_digest(data):
    """CRC-32 (8 hex digits) of the table file's JSON in canonical form (keys sorted, no spaces):
    the host can tell which settings the table runs with, whatever the file's layout."""
    return "%08x" % (crc32(_canonical(data).encode()) & 0xFFFFFFFF)


def _canonical(value):
    # json.dumps has no sort_keys on MicroPython: dicts are written in key order here.
    if isinstance(value, dict):
        return "{" + ",".join(json.dumps(k) + ":" + _canonical(value[k]) for k in sorted(value)) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(_canonical(v) for v in value) + "]"
    return json.dumps(value)


def read_host(ctx, elapsed_ms):
    """Host-link frames on the report port (at most _HOST_LINES_PER_PASS a pass): ACK, REPLAY and TIME
    go to the sender, a REQUEST becomes a HOST event. A plain request line (unframed) is refused
    with host_error; what line noise leaves (a frame failing its CRC, its pieces) is only counted."""
    port = ctx.host_port
    ctx.host_asked = False
    for _ in range(_HOST_LINES_PER_PASS):
        line = port.poll(elapsed_ms)
        elapsed_ms = 0
        if port.fault:
            data = bytes(port.buf[:port.fault_len])
            if _plain_request(data):
                _host_event(ctx, _HOST_UNKNOWN, ctx.table.evidence.keep(data))
            else:
                ctx.host_noise += 1
        elif line is None:
            return
        elif ctx.sender is None or line[:1] != b"#":
            if _plain_request(line):
                _host_refused(ctx, "unframed request: the host sends requests in REQUEST frames", line)
            else:
                ctx.host_noise += 1
        else:
            _host_frame(ctx, line)
        if ctx.host_asked:
            return                # one request or refusal a pass: its reason (table.host_reason) is one field


def _plain_request(data):
    """A request the host sent as a plain line (roads, open_bets, JSON), not what line noise left of a frame: a
    frame's `#` hit by noise (`{1.32 0 REPLAY*A9997F43`) still ends in its `*` and 8 hex digits."""
    text = bytes(data).strip()
    if text == _ROADS_REQUEST or text == _OPEN_BETS_REQUEST:
        return True
    return text[:1] == b"{" and not (len(text) > 9 and text[-9] == 0x2A and _hex8(text[-8:]))


def _hex8(digits):
    for c in digits:
        if not (0x30 <= c <= 0x39 or 0x41 <= c <= 0x46):
            return False
    return True


def _host_event(ctx, a, b):
    ctx.host_asked = True
    ctx.queue.put(_HOST, a, b)


def _host_refused(ctx, reason, data, tag=0):
    """HOST_BAD: host_error with the reason and data's bytes; tag: the refused request's, given back (its b is
    the evidence handle: the tag goes beside the reason, and the table journal keeps both with the event)."""
    table = ctx.table
    table.set_host_reason(reason, tag)
    _host_event(ctx, _HOST_BAD, table.evidence.keep(data))


def _host_frame(ctx, line):
    sender = ctx.sender
    command = sender.receive(line)
    if command == sender_mod.CMD_REQUEST or command == sender_mod.CMD_RECALL:
        # The host's tag (the frame's `#0.<tag>`, 0: none) goes with the event above the argument
        # (firmware/events.py, HOST_TAG_SHIFT), or beside a refusal's reason: the answer gives it back.
        tag = sender.request_tag()
        if tag > _HOST_TAG_MAX:
            _host_refused(ctx, "host frame refused: tag %d: a request's tag is 0..%d" % (tag, _HOST_TAG_MAX), line)
            return
        above = tag << _HOST_TAG_SHIFT
    if command == sender_mod.CMD_REQUEST:
        payload = sender.request()
        text = payload.strip()
        if text == _ROADS_REQUEST:
            _host_event(ctx, _HOST_ROADS, above)
        elif text == _OPEN_BETS_REQUEST:
            # b: the frames the answer may take now, the link's store staying below its alarm (which would
            # hold the next come-out), kept in the table journal with the event: a recovery's replay answers
            # or refuses as the table did (firmware/games/craps/open_bets.py)
            below = (sender.report_slots * sender.alarm_percent + 99) // 100 - 1 - sender.held()
            room = sender.room()
            room = max(0, below if below < room else room)
            _host_event(ctx, _HOST_OPEN_BETS, (room if room < _HOST_ARG_MASK else _HOST_ARG_MASK) | above)
        elif text[:1] == b"{" and ctx.game.host_request is not None:
            _json_request(ctx, payload, text, tag)
        elif text[:1] == b"{" and _names_hand(text):
            # Omaha's request at another game's table: refused by the table as roads at a Craps table is
            # (`not served by this table`, the request named and its tag given back), not as bytes it
            # does not understand.
            _host_event(ctx, _HOST_HAND, above)
        else:
            _host_refused(ctx, "unknown request", payload, tag)
    elif command == sender_mod.CMD_RECALL:
        # answered in order (firmware/round_recall.py); a count past 4 digits is the sender's bad argument
        _host_event(ctx, _HOST_RECALL, sender.recall_count | above)
    elif command == sender_mod.CMD_BAD:
        status = sender.last_status
        if status in _NOISE:
            ctx.host_noise += 1
        else:                     # a frame with a good CRC the board cannot take: the host is at fault
            reason = (frame_mod.STATUS_NAMES[status] if status < len(frame_mod.STATUS_NAMES)
                      else "bad argument" if status == _BAD_ARGUMENT
                      else "unknown type" if status == _UNKNOWN_TYPE else "refused")
            _host_refused(ctx, "host frame refused: %s" % reason, line)


def _names_hand(text):
    """A JSON object with a "hand" key (Omaha's request), the values not judged."""
    try:
        request = json.loads(text)
    except (ValueError, RuntimeError):                        # RuntimeError: nested too deeply
        return False
    return isinstance(request, dict) and "hand" in request


def _json_request(ctx, line, text, tag):
    """A JSON request, parsed and checked by the game now; its HOST event is dispatched in order, the host's
    tag packed above the game's b (0 for Omaha's hand). Refused: host_error with the reason (table.host_reason) and
    the line's bytes."""
    try:
        bad = bad_number(text.decode())           # MicroPython's parser reads 08 as 8, CPython's refuses it
        if bad is not None:
            raise ValueError("number %s: %s" % (bad, NUMBER_RULE))
        request = json.loads(text)
        twice = duplicate_key(text.decode())      # the parser kept the last of the two silently
        if twice is not None:
            raise ValueError("%s: key given twice in one object (remove one)" % twice)
        a, b = ctx.game.host_request(request)
    except (ValueError, SettingsError, RuntimeError) as exc:   # RuntimeError: nested too deeply
        _host_refused(ctx, str(exc) or type(exc).__name__, line, tag)
        return
    _host_event(ctx, a, b | tag << _HOST_TAG_SHIFT)
