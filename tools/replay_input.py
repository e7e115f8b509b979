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
from firmware.errors import CardCodeError
from firmware.table_config import KEYPAD_GAMES
from hostsim.table_io import BETS_PORT, DICE_PORT, HOST_PORT, SHOE_PORT
from tools import json_input
from tools.replay_values import (  # InputError, MAX_WAIT_MS: also tools.replay_input's (tools.replay, tests)
    MAX_WAIT_MS, InputError, check_after_ms, check_boolean, check_cocked, check_flags, check_reading, check_seat_word,
    check_tag, check_text, check_whole, listed, type_name,
)

CONSOLE_PORT = "console"

# A card comes out at least this long after the previous one (virtual time), as a dealer draws:
# the table takes two cards closer than its double-pull window as one pull. "after_ms" overrides it.
DEALER_PACE_MS = 400
# {"shoe": WORD} -> the TableIO method: what the shoe reports.
SHOE_WORDS = {"new": "shoe_new", "out": "shoe_out", "unreadable": "unreadable", "hello": "shoe_hello"}
# {"host": WORD}: the host line cut both ways, or working again.
HOST_WORDS = ("away", "back")


def _port(table, role, what):
    if role not in table.board.ports:
        raise InputError("%s: board %s has no %s port (it has %s)"
                         % (what, table.board.name, role, listed(table.io.port_roles())))


# -- handlers ------------------------------------------------------------------------
def _shoe(table, value, options):
    word = check_text("shoe", value)
    if word not in SHOE_WORDS:
        raise InputError("unknown shoe report %r (expected %s)" % (word, listed(sorted(SHOE_WORDS))))
    _port(table, SHOE_PORT, "shoe")
    getattr(table.io, SHOE_WORDS[word])()
    table.take_in(SHOE_PORT)


def _card(table, value, options):
    try:
        code = cards.name(cards.parse(check_text("card", value)))
    except CardCodeError:
        raise InputError("unknown card code %r (rank 23456789TJQKA, then suit cdhs: \"Td\")" % (value,))
    _port(table, SHOE_PORT, "card")
    table.pace_card(options["after_ms"])
    table.io.card(code, options["face_up"])
    table.take_in(SHOE_PORT)


def _cut_card(table, value, options):
    if value is not True:
        raise InputError("cut_card must be true")
    _port(table, SHOE_PORT, "cut_card")
    table.io.cut_card()
    table.take_in(SHOE_PORT)


def _shoe_fault(table, value, options):
    code = check_whole("shoe_fault", value)
    _port(table, SHOE_PORT, "shoe_fault")
    table.io.shoe_fault(code)
    table.take_in(SHOE_PORT)


def _bets(table, value, options):
    reading = check_reading(value)
    _port(table, BETS_PORT, "bets")
    table.io.bets(reading)
    table.take_in(BETS_PORT)


def _dice(table, value, options):
    """{"dice": [3, 4]}: one throw as the dice reader sends it (a face 1..9 as its digit, so that a
    face a true die cannot show reaches the table; null: a die the reader could not see)."""
    if not isinstance(value, list) or len(value) != 2:
        raise InputError("dice must be an array of two faces such as [3, 4], got %s" % type_name(value))
    faces = [None if face is None else check_whole("dice face", face, 1, 9) for face in value]
    _port(table, DICE_PORT, "dice")
    table.io.throw(faces[0], faces[1], options["flags"], options["cocked"])
    table.take_in(DICE_PORT)


def _button(table, value, options):
    role = check_text("button", value)
    roles = table.io.button_roles()
    if role not in roles:
        raise InputError("unknown button %r (board %s has %s)" % (role, table.board.name, listed(roles)))
    table.press(role, options["long"])


def _raw(table, value, options):
    if not isinstance(value, dict):
        raise InputError("raw must be an object {\"port\": ..., \"hex\": ...}, got %s" % type_name(value))
    for key in value:
        if key not in ("port", "hex"):
            raise InputError("raw: unknown key %r (expected port, hex)" % (key,))
    for key in ("port", "hex"):
        if key not in value:
            raise InputError("raw: missing %r" % key)
    role = check_text("raw port", value["port"])
    if role not in table.board.ports:
        raise InputError("unknown port %r (board %s has %s)" % (role, table.board.name,
                                                                listed(table.io.port_roles())))
    try:
        data = bytes.fromhex(check_text("raw hex", value["hex"]))
    except ValueError:
        raise InputError("raw: bad hex %r (pairs of hex digits, spaces allowed between bytes)" % (value["hex"],))
    if role == HOST_PORT:
        _host_here(table, "raw on the host port")
    table.io.send(role, data)
    table.take_in(role)


def _hand(table, value, options):
    """{"hand": {"button": 3, "stacks": {"1": 1000}}}: the host's request to start an Omaha hand, sent
    in a REQUEST frame on the report port (docs/omaha.md, "Host requests"; docs/host-link.md), through
    the host client; the table judges its values."""
    if not isinstance(value, dict):
        raise InputError("hand must be an object such as {\"button\": 3, \"stacks\": {\"1\": 1000}}, got %s"
                         % type_name(value))
    for key in value:
        if key not in ("button", "stacks"):
            raise InputError("hand: unknown key %r (expected button, stacks)" % (key,))
    if "button" in value:
        check_whole("hand: button", value["button"], 1)
    stacks = value.get("stacks", {})
    if not isinstance(stacks, dict):
        raise InputError("hand: stacks must be an object of seats, e.g. {\"1\": 1000}, got %s" % type_name(stacks))
    for seat, chips in stacks.items():
        check_seat_word("hand: stacks", seat)
        check_whole("hand: stacks: seat %s" % seat, chips)
    _port(table, HOST_PORT, "hand")
    _host_here(table, "hand")
    _shoe_on(table)
    table.io.send(HOST_PORT, table.client.request(json.dumps({"hand": value}), options["tag"]))
    table.take_in(HOST_PORT)


def _roads(table, value, options):
    """{"roads": true}: the host asks for the roads (a Baccarat table answers with a `roads` report)."""
    _word_request(table, value, "roads", options["tag"])


def _open_bets(table, value, options):
    """{"open_bets": true}: the host asks for the bets open on the layout (a Craps table answers with an
    `open_bets` report, or a `host_error` when its link has no room for it now: docs/craps.md)."""
    _word_request(table, value, "open_bets", options["tag"])


def _word_request(table, value, word, tag):
    """A one-word host request (the line's value must be true), in a REQUEST frame on the report port
    through the host client (docs/protocol.md, "Host reports"), with the line's "tag" (0: none)."""
    if value is not True:
        raise InputError("%s must be true" % word)
    _port(table, HOST_PORT, word)
    _host_here(table, word)
    table.io.send(HOST_PORT, table.client.request(word.encode(), tag))
    table.take_in(HOST_PORT)


def _recall(table, value, options):
    """{"recall": 10}: the host asks for the table's last 10 rounds (hands, throws), in a RECALL frame on the
    report port through the host client; the table judges the count (1..100, else a `host_error`) and answers
    with one `recall` report a round, oldest first (docs/protocol.md, "Host reports"; docs/journal.md,
    "Recall"). A count past the frame's 4 digits goes on the wire too: the link refuses it."""
    check_whole("recall", value)
    _port(table, HOST_PORT, "recall")
    _host_here(table, "recall")
    table.io.send(HOST_PORT, table.client.recall(value, options["tag"]))
    table.take_in(HOST_PORT)


def needs_the_host(line):
    """Is this input line (a parsed dict) one the host sends: refused while it is away (_host_here)?"""
    raw = line.get("raw")
    return "hand" in line or "roads" in line or "recall" in line or "open_bets" in line or (
        isinstance(raw, dict) and raw.get("port") == HOST_PORT)


def _host_here(table, what):
    """A line the host sends needs the host: while it is away its line is cut (nothing it sends arrives)."""
    if table.host_away:
        raise InputError("%s: the host is away (its line is cut both ways); a {\"host\": \"back\"} line first"
                         % what)


def _host(table, value, options):
    """{"host": "away"}, {"host": "back"}: the host line is cut both ways, or works again (no time passes:
    the next line, or the catch-up after the input, runs the firmware). docs/protocol.md, "Replay input"."""
    word = check_text("host", value)
    if word not in HOST_WORDS:
        raise InputError("unknown host word %r (expected %s)" % (word, listed(sorted(HOST_WORDS))))
    away = word == "away"
    if away and table.host_away:
        raise InputError("the host is away already (since an earlier {\"host\": \"away\"} line)")
    if not away and not table.host_away:
        raise InputError("the host is not away (no {\"host\": \"away\"} line before this one)")
    _port(table, HOST_PORT, "host")
    if away:
        table.host_leaves()
    else:
        table.host_returns()


def _shoe_on(table):
    """The shoe is on before the hand it deals starts: its power-up HELLO is taken in first (a HELLO
    during the hand would be the table's shoe_restarted alarm, docs/protocol.md). Not at a table whose game
    reads no shoe (Craps): there its HELLO would be input on a port the game does not use, a fault."""
    if SHOE_PORT in table.board.ports and table.ctx.reader_role == SHOE_PORT:
        table.io.shoe_on()
        table.take_in(SHOE_PORT)


# The dealer's actions on the keypad (docs/omaha.md, "The dealer keypad").
ACTS = ("fold", "check", "call", "bet", "raise", "allin")


def _action(table, value, options):
    """{"action": {"seat": 4, "act": "raise", "amount": 30}} -> the keys 4 RAISE 3 0 ENTER."""
    if not isinstance(value, dict):
        raise InputError("action must be an object such as {\"seat\": 4, \"act\": \"call\"}, got %s"
                         % type_name(value))
    for key in value:
        if key not in ("seat", "act", "amount"):
            raise InputError("action: unknown key %r (expected seat, act, amount)" % (key,))
    if "act" not in value:
        raise InputError("action: missing \"act\" (%s)" % listed(ACTS))
    act = check_text("action: act", value["act"])
    if act not in ACTS:
        raise InputError("action: unknown act %r (expected %s)" % (act, listed(ACTS)))
    legends = []
    if "seat" in value:
        legends.extend("%d" % check_whole("action: seat", value["seat"], 1))
    legends.append(act)
    if "amount" in value:
        legends.extend("%d" % check_whole("action: amount", value["amount"]))
    legends.append("enter")
    _type(table, legends)


def _keys(table, value, options):
    """{"keys": "4 raise 30 enter"}: keypad keys as the dealer presses them; a number is its digit keys."""
    words = check_text("keys", value).split()
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
    game = table.ctx.config["game"]
    if game not in KEYPAD_GAMES:             # the firmware does not scan it there: the keys would do nothing
        raise InputError("a %s table does not read the keypad (only %s)" % (game, listed(KEYPAD_GAMES)))
    for legend in legends:
        if legend not in have:
            raise InputError("no key %r on the keypad of board %s (it has %s)"
                             % (legend, table.board.name, listed(sorted(have))))
    _shoe_on(table)
    table.type_keys(legends)


def _console(table, value, options):
    """{"console": "status"}: a line typed on the console, a byte a pass as a person types, then CR.
    Control characters pass as typed ("\u007f" is Backspace, "\u0003" Ctrl-C)."""
    data = check_text("console", value).encode()
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


def _unplug(table, value, options):
    """{"unplug": "dealer"}: the display's cable pulled (no time passes: the firmware finds out at its next
    probe of it, every second, or write to it)."""
    _display_cable(table, "unplug", value)


def _plug(table, value, options):
    """{"plug": "dealer"}: the cable back in, the display powered up blank and not set up (the firmware takes a
    display it left out back at its next try, every 5 s: display_back; one it had not noticed out it sets up
    again at its next probe: display_restarted (an LCD at its next write if that comes first); one missing at
    boot at its next try too)."""
    _display_cable(table, "plug", value)


def _display_cable(table, what, value):
    role = check_text(what, value)
    try:
        getattr(table.io, what)(role)
    except ValueError as exc:
        raise InputError("%s: %s" % (what, exc))


def _wait(table, value, options):
    table.run_for(check_whole("wait_ms", value, 0, MAX_WAIT_MS))


# key -> (handler, {other key: (check(name, value) -> value, default)})
KINDS = {
    "shoe": (_shoe, {}),
    "card": (_card, {"face_up": (check_boolean, False), "after_ms": (check_after_ms, DEALER_PACE_MS)}),
    "cut_card": (_cut_card, {}),
    "shoe_fault": (_shoe_fault, {}),
    "bets": (_bets, {}),
    "dice": (_dice, {"flags": (check_flags, []), "cocked": (check_cocked, [])}),
    "button": (_button, {"long": (check_boolean, False)}),
    "hand": (_hand, {"tag": (check_tag, 0)}),
    "roads": (_roads, {"tag": (check_tag, 0)}),
    "open_bets": (_open_bets, {"tag": (check_tag, 0)}),
    "recall": (_recall, {"tag": (check_tag, 0)}),
    "action": (_action, {}),
    "keys": (_keys, {}),
    "raw": (_raw, {}),
    "console": (_console, {}),
    "wait_ms": (_wait, {}),
    "power_cut": (_power_cut, {}),
    "unplug": (_unplug, {}),
    "plug": (_plug, {}),
    "host": (_host, {}),
}


def parse(text):
    """One input line (str) -> (handler, value, options); InputError if it is malformed."""
    try:
        obj = json_input.loads(text)
    except json_input.Refused as exc:           # a key twice (json keeps the last: a silent other input)
        raise InputError(str(exc))
    except ValueError as exc:
        raise InputError("not JSON (%s)" % exc)
    except RecursionError:
        raise InputError("not JSON (nested too deeply)")
    if not isinstance(obj, dict):
        raise InputError("expected a JSON object such as {\"card\": \"Ah\"}, got %s" % type_name(obj))
    kinds = [key for key in obj if key in KINDS]
    if len(kinds) > 1:
        raise InputError("one input a line, got %s" % " and ".join(repr(k) for k in kinds))
    if not kinds:
        shown = "unknown key %r" % (next(iter(obj)),) if obj else "an empty object"
        raise InputError("%s (expected one of %s)" % (shown, listed(list(KINDS))))
    kind = kinds[0]
    handler, allowed = KINDS[kind]
    for key in obj:
        if key != kind and key not in allowed:
            raise InputError("unknown key %r in a %s line (%s)" % (
                key, kind, "allowed: %s" % listed(list(allowed)) if allowed else "it takes no other key"))
    options = {}
    for name, (check, default) in allowed.items():
        options[name] = check(name, obj[name]) if name in obj else default
    return handler, obj[kind], options


def run_line(table, text):
    """Parse one input line and do it on the HeadlessTable; InputError (nothing done) if it is malformed."""
    handler, value, options = parse(text)
    handler(table, value, options)
