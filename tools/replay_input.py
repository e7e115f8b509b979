"""The input lines of tools.replay: one JSON object a line, each naming one kind of input by its key.

KINDS maps each key to its handler and the other keys it allows (with their
checks and defaults). A handler gets the HeadlessTable, the key's value and
the options; it checks everything first and raises InputError (the caller
adds the line number) before it touches the table, then acts through the
table's TableIO and steps the firmware until it has taken the input in.
docs/protocol.md, "Replay input", is the reference.
"""
import json

from firmware import cards
from firmware.device_frame import MAX_LINE
from firmware.errors import CardCodeError
from hostsim.devices import DOWN, DiceReaderDevice
from hostsim.table_io import BETS_PORT, DICE_PORT, HOST_PORT, SHOE_PORT

CONSOLE_PORT = "console"

# The longest wait one line may ask for: a typo (an extra digit or three) is an error, not an hour of stepping.
MAX_WAIT_MS = 3600 * 1000
# A card comes out at least this long after the previous one (virtual time), as a dealer draws:
# the table takes two cards closer than its double-pull window as one pull. "after_ms" overrides it.
DEALER_PACE_MS = 400
# {"shoe": WORD} -> the TableIO method: what the shoe reports.
SHOE_WORDS = {"new": "shoe_new", "out": "shoe_out", "unreadable": "unreadable", "hello": "shoe_hello"}
_FRAME_CHARS = set(range(0x21, 0x7F)) - {ord("*")}   # a word of a device frame (docs/protocol.md, "Frame")


class InputError(ValueError):
    """A malformed input line: the message says what is wrong (without the line number)."""


# -- value checks ------------------------------------------------------------------
def _type_name(value):
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


def _boolean(name, value):
    if not isinstance(value, bool):
        raise InputError("%s must be true or false, got %s" % (name, _type_name(value)))
    return value


def _whole(name, value, low=0, high=None):
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError("%s must be a whole number, got %s" % (name, _type_name(value)))
    if value < low or (high is not None and value > high):
        raise InputError("%s must be %d..%d, got %d" % (name, low, high, value) if high is not None
                         else "%s must be %d or more, got %d" % (name, low, value))
    return value


def _text(name, value):
    if not isinstance(value, str):
        raise InputError("%s must be a string, got %s" % (name, _type_name(value)))
    return value


def _listed(names):
    return ", ".join(names) if names else "none"


def _port(table, role, what):
    if role not in table.board.ports:
        raise InputError("%s: board %s has no %s port (it has %s)"
                         % (what, table.board.name, role, _listed(table.io.port_roles())))


# -- handlers ------------------------------------------------------------------------
def _shoe(table, value, options):
    word = _text("shoe", value)
    if word not in SHOE_WORDS:
        raise InputError("unknown shoe report %r (expected %s)" % (word, _listed(sorted(SHOE_WORDS))))
    _port(table, SHOE_PORT, "shoe")
    getattr(table.io, SHOE_WORDS[word])()
    table.take_in(SHOE_PORT)


def _card(table, value, options):
    try:
        code = cards.name(cards.parse(_text("card", value)))
    except CardCodeError:
        raise InputError("unknown card code %r (rank 23456789TJQKA, then suit cdhs: \"Td\")" % (value,))
    _port(table, SHOE_PORT, "card")
    table.pace_card(options["after_ms"])
    table.io.card(code, options["face_up"])
    table.take_in(SHOE_PORT)


def _after_ms(name, value):
    return _whole(name, value, 0, MAX_WAIT_MS)


def _cut_card(table, value, options):
    if value is not True:
        raise InputError("cut_card must be true")
    _port(table, SHOE_PORT, "cut_card")
    table.io.cut_card()
    table.take_in(SHOE_PORT)


def _shoe_fault(table, value, options):
    code = _whole("shoe_fault", value)
    _port(table, SHOE_PORT, "shoe_fault")
    table.io.shoe_fault(code)
    table.take_in(SHOE_PORT)


def _bets(table, value, options):
    reading = _reading(value)
    _port(table, BETS_PORT, "bets")
    table.io.bets(reading)
    table.take_in(BETS_PORT)


def _reading(value):
    """{"3": {"banker": 100}} -> the same, checked: what a bet reader can put in its frames."""
    if not isinstance(value, dict):
        raise InputError("bets must be an object of seats, e.g. {\"3\": {\"banker\": 100}}, got %s"
                         % _type_name(value))
    for seat, zones in value.items():
        if not seat.isdigit() or not seat.isascii():
            raise InputError("bets: seat %r must be a seat number such as \"3\"" % (seat,))
        if not isinstance(zones, dict):
            raise InputError("bets: seat %s must be an object of zones, got %s" % (seat, _type_name(zones)))
        for zone, amount in zones.items():
            if not zone or "=" in zone or not set(zone.encode()) <= _FRAME_CHARS:
                raise InputError("bets: seat %s: zone %r is not a word a frame can carry" % (seat, zone))
            if amount == DOWN:                           # a take-down: "zone=-" on the wire
                word = "-"
            elif isinstance(amount, bool) or not isinstance(amount, int):
                raise InputError("bets: seat %s: %s must be a whole number or \"down\", got %s"
                                 % (seat, zone, _type_name(amount)))
            else:
                word = "%d" % amount
            if len("B1 00 SEAT %s %s=%s*0000" % (seat, zone, word)) > MAX_LINE:
                raise InputError("bets: seat %s: %s=%s does not fit one frame (%d bytes at most)"
                                 % (seat, zone, word, MAX_LINE))
    return value


def _dice(table, value, options):
    """{"dice": [3, 4]}: one throw as the dice reader sends it (a face 1..9 as its digit, so that a
    face a true die cannot show reaches the table; null: a die the reader could not see)."""
    if not isinstance(value, list) or len(value) != 2:
        raise InputError("dice must be an array of two faces such as [3, 4], got %s" % _type_name(value))
    faces = [None if face is None else _whole("dice face", face, 1, 9) for face in value]
    _port(table, DICE_PORT, "dice")
    table.io.throw(faces[0], faces[1], options["flags"], options["cocked"])
    table.take_in(DICE_PORT)


def _flags(name, value):
    if not isinstance(value, list):
        raise InputError("flags must be an array of flag words, got %s" % _type_name(value))
    for flag in value:
        if flag not in DiceReaderDevice.FLAGS:
            raise InputError("unknown dice flag %r (expected %s)" % (flag, _listed(DiceReaderDevice.FLAGS)))
    return list(value)        # sent in the order given: the table refuses them out of the wire order


def _cocked(name, value):
    dice = value if isinstance(value, list) else [value]
    for die in dice:
        _whole("cocked die", die, 0, 1)
    if len(set(dice)) != len(dice):
        raise InputError("cocked: each die (0, 1) at most once, got %r" % (value,))
    return dice


def _button(table, value, options):
    role = _text("button", value)
    roles = table.io.button_roles()
    if role not in roles:
        raise InputError("unknown button %r (board %s has %s)" % (role, table.board.name, _listed(roles)))
    table.press(role, options["long"])


def _raw(table, value, options):
    if not isinstance(value, dict):
        raise InputError("raw must be an object {\"port\": ..., \"hex\": ...}, got %s" % _type_name(value))
    for key in value:
        if key not in ("port", "hex"):
            raise InputError("raw: unknown key %r (expected port, hex)" % (key,))
    for key in ("port", "hex"):
        if key not in value:
            raise InputError("raw: missing %r" % key)
    role = _text("raw port", value["port"])
    if role not in table.board.ports:
        raise InputError("unknown port %r (board %s has %s)" % (role, table.board.name,
                                                                _listed(table.io.port_roles())))
    try:
        data = bytes.fromhex(_text("raw hex", value["hex"]))
    except ValueError:
        raise InputError("raw: bad hex %r (pairs of hex digits, spaces allowed between bytes)" % (value["hex"],))
    table.io.send(role, data)
    table.take_in(role)


def _hand(table, value, options):
    """{"hand": {"button": 3, "stacks": {"1": 1000}}}: the host's request to start an Omaha hand, sent
    in a REQUEST frame on the report port (docs/omaha.md, "Host requests"; docs/host-link.md), through
    the host client; the table judges its values."""
    if not isinstance(value, dict):
        raise InputError("hand must be an object such as {\"button\": 3, \"stacks\": {\"1\": 1000}}, got %s"
                         % _type_name(value))
    for key in value:
        if key not in ("button", "stacks"):
            raise InputError("hand: unknown key %r (expected button, stacks)" % (key,))
    if "button" in value:
        _whole("hand: button", value["button"], 1)
    stacks = value.get("stacks", {})
    if not isinstance(stacks, dict):
        raise InputError("hand: stacks must be an object of seats, e.g. {\"1\": 1000}, got %s" % _type_name(stacks))
    for seat, chips in stacks.items():
        _seat_word("hand: stacks", seat)
        _whole("hand: stacks: seat %s" % seat, chips)
    _port(table, HOST_PORT, "hand")
    _shoe_on(table)
    table.io.send(HOST_PORT, table.client.request(json.dumps({"hand": value})))
    table.take_in(HOST_PORT)


def _shoe_on(table):
    """The shoe is on before the hand it deals starts: its power-up HELLO is taken in first (a HELLO
    during the hand would be the table's shoe_restarted alarm, docs/protocol.md)."""
    if SHOE_PORT in table.board.ports:
        table.io.shoe_on()
        table.take_in(SHOE_PORT)


def _seat_word(what, seat):
    if not seat.isdigit() or not seat.isascii():
        raise InputError("%s: seat %r must be a seat number such as \"3\"" % (what, seat))


# The dealer's actions on the keypad (docs/omaha.md, "The dealer keypad").
ACTS = ("fold", "check", "call", "bet", "raise", "allin")


def _action(table, value, options):
    """{"action": {"seat": 4, "act": "raise", "amount": 30}} -> the keys 4 RAISE 3 0 ENTER."""
    if not isinstance(value, dict):
        raise InputError("action must be an object such as {\"seat\": 4, \"act\": \"call\"}, got %s"
                         % _type_name(value))
    for key in value:
        if key not in ("seat", "act", "amount"):
            raise InputError("action: unknown key %r (expected seat, act, amount)" % (key,))
    if "act" not in value:
        raise InputError("action: missing \"act\" (%s)" % _listed(ACTS))
    act = _text("action: act", value["act"])
    if act not in ACTS:
        raise InputError("action: unknown act %r (expected %s)" % (act, _listed(ACTS)))
    legends = []
    if "seat" in value:
        legends.extend("%d" % _whole("action: seat", value["seat"], 1))
    legends.append(act)
    if "amount" in value:
        legends.extend("%d" % _whole("action: amount", value["amount"]))
    legends.append("enter")
    _type(table, legends)


def _keys(table, value, options):
    """{"keys": "4 raise 30 enter"}: keypad keys as the dealer presses them; a number is its digit keys."""
    words = _text("keys", value).split()
    if not words:
        raise InputError("keys: no key given (e.g. \"4 raise 30 enter\")")
    legends = []
    for word in words:
        if word.isdigit() and word.isascii():
            legends.extend(word)
        else:
            legends.append(word)
    _type(table, legends)


def _type(table, legends):
    """Check every legend against the board's keypad, then press each in turn."""
    have = table.io.key_legends()
    if not have:
        raise InputError("board %s has no keypad" % table.board.name)
    for legend in legends:
        if legend not in have:
            raise InputError("no key %r on the keypad of board %s (it has %s)"
                             % (legend, table.board.name, _listed(sorted(have))))
    _shoe_on(table)
    table.type_keys(legends)


def _console(table, value, options):
    """{"console": "status"}: a line typed on the console, a byte a pass as a person types, then CR.
    Control characters pass as typed ("\u007f" is Backspace, "\u0003" Ctrl-C)."""
    data = _text("console", value).encode()
    _port(table, CONSOLE_PORT, "console")
    for byte in data + b"\r":
        table.io.send(CONSOLE_PORT, bytes((byte,)))
        table.step()
    table.take_in(CONSOLE_PORT)


def _power_cut(table, value, options):
    """{"power_cut": true}: the board loses its power here and boots again on the same flash."""
    if value is not True:
        raise InputError("power_cut must be true")
    table.power_cut()


def _wait(table, value, options):
    table.run_for(_whole("wait_ms", value, 0, MAX_WAIT_MS))


# key -> (handler, {other key: (check(name, value) -> value, default)})
KINDS = {
    "shoe": (_shoe, {}),
    "card": (_card, {"face_up": (_boolean, False), "after_ms": (_after_ms, DEALER_PACE_MS)}),
    "cut_card": (_cut_card, {}),
    "shoe_fault": (_shoe_fault, {}),
    "bets": (_bets, {}),
    "dice": (_dice, {"flags": (_flags, []), "cocked": (_cocked, [])}),
    "button": (_button, {"long": (_boolean, False)}),
    "hand": (_hand, {}),
    "action": (_action, {}),
    "keys": (_keys, {}),
    "raw": (_raw, {}),
    "console": (_console, {}),
    "wait_ms": (_wait, {}),
    "power_cut": (_power_cut, {}),
}


def parse(text):
    """One input line (str) -> (handler, value, options); InputError if it is malformed."""
    try:
        obj = json.loads(text)
    except ValueError as exc:
        raise InputError("not JSON (%s)" % exc)
    except RecursionError:
        raise InputError("not JSON (nested too deeply)")
    if not isinstance(obj, dict):
        raise InputError("expected a JSON object such as {\"card\": \"Ah\"}, got %s" % _type_name(obj))
    kinds = [key for key in obj if key in KINDS]
    if len(kinds) > 1:
        raise InputError("one input a line, got %s" % " and ".join(repr(k) for k in kinds))
    if not kinds:
        shown = "unknown key %r" % (next(iter(obj)),) if obj else "an empty object"
        raise InputError("%s (expected one of %s)" % (shown, _listed(list(KINDS))))
    kind = kinds[0]
    handler, allowed = KINDS[kind]
    for key in obj:
        if key != kind and key not in allowed:
            raise InputError("unknown key %r in a %s line (%s)" % (
                key, kind, "allowed: %s" % _listed(list(allowed)) if allowed else "it takes no other key"))
    options = {}
    for name, (check, default) in allowed.items():
        options[name] = check(name, obj[name]) if name in obj else default
    return handler, obj[kind], options


def run_line(table, text):
    """Parse one input line and do it on the HeadlessTable; InputError (nothing done) if it is malformed."""
    handler, value, options = parse(text)
    handler(table, value, options)
