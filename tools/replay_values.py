"""The checks of the values in tools.replay's input lines (tools/replay_input.py): each takes the value's
name and the value, raises InputError with a message that says what is wrong (the caller adds the line
number) or returns the value as the handler uses it. docs/protocol.md, "Replay input", is the reference.
"""
from firmware.device_frame import MAX_LINE
from hostsim.devices import DOWN, DiceReaderDevice
from tools.host_client import TAG_MAX

# The longest wait one line may ask for: a typo (an extra digit or three) is an error, not an hour of stepping.
MAX_WAIT_MS = 3600 * 1000
_FRAME_CHARS = set(range(0x21, 0x7F)) - {ord("*")}   # a word of a device frame (docs/protocol.md, "Frame")


class InputError(ValueError):
    """A malformed input line: the message says what is wrong (without the line number)."""


def type_name(value):
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "an object"


def check_boolean(name, value):
    if not isinstance(value, bool):
        raise InputError("%s must be true or false, got %s" % (name, type_name(value)))
    return value


def check_whole(name, value, low=0, high=None):
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError("%s must be a whole number, got %s" % (name, type_name(value)))
    if value < low or (high is not None and value > high):
        raise InputError("%s must be %d..%d, got %d" % (name, low, high, value) if high is not None
                         else "%s must be %d or more, got %d" % (name, low, value))
    return value


def check_text(name, value):
    if not isinstance(value, str):
        raise InputError("%s must be a string, got %s" % (name, type_name(value)))
    return value


def listed(names):
    return ", ".join(names) if names else "none"


def check_after_ms(name, value):
    return check_whole(name, value, 0, MAX_WAIT_MS)


def check_tag(name, value):
    """A host request's tag (docs/host-link.md, "Host to board"): given back in the answer; 0 none."""
    return check_whole(name, value, 0, TAG_MAX)


def check_reading(value):
    """{"3": {"banker": 100}} -> the same, checked: what a bet reader can put in its frames."""
    if not isinstance(value, dict):
        raise InputError("bets must be an object of seats, e.g. {\"3\": {\"banker\": 100}}, got %s"
                         % type_name(value))
    for seat, zones in value.items():
        if not seat.isdigit() or not seat.isascii():
            raise InputError("bets: seat %r must be a seat number such as \"3\"" % (seat,))
        if not isinstance(zones, dict):
            raise InputError("bets: seat %s must be an object of zones, got %s" % (seat, type_name(zones)))
        for zone, amount in zones.items():
            if not zone or "=" in zone or not set(zone.encode()) <= _FRAME_CHARS:
                raise InputError("bets: seat %s: zone %r is not a word a frame can carry" % (seat, zone))
            if amount == DOWN:                           # a take-down: "zone=-" on the wire
                word = "-"
            elif isinstance(amount, bool) or not isinstance(amount, int):
                raise InputError("bets: seat %s: %s must be a whole number or \"down\", got %s"
                                 % (seat, zone, type_name(amount)))
            else:
                word = "%d" % amount
            if len("B1 00 SEAT %s %s=%s*0000" % (seat, zone, word)) > MAX_LINE:
                raise InputError("bets: seat %s: %s=%s does not fit one frame (%d bytes at most)"
                                 % (seat, zone, word, MAX_LINE))
    return value


def check_flags(name, value):
    if not isinstance(value, list):
        raise InputError("flags must be an array of flag words, got %s" % type_name(value))
    for flag in value:
        if flag not in DiceReaderDevice.FLAGS:
            raise InputError("unknown dice flag %r (expected %s)" % (flag, listed(DiceReaderDevice.FLAGS)))
    return list(value)        # sent in the order given: the table refuses them out of the wire order


def check_cocked(name, value):
    dice = value if isinstance(value, list) else [value]
    for die in dice:
        check_whole("cocked die", die, 0, 1)
    if len(set(dice)) != len(dice):
        raise InputError("cocked: each die (0, 1) at most once, got %r" % (value,))
    return dice


def check_seat_word(what, seat):
    if not seat.isdigit() or not seat.isascii():
        raise InputError("%s: seat %r must be a seat number such as \"3\"" % (what, seat))
