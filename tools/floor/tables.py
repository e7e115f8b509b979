"""A floor's tables file and its MQTT topic names (docs/floor.md, "Running it", "Topics and payloads")."""
import os

from tools import json_input

_NOT_IN_A_NAME = "/+#"        # MQTT's topic separator and wildcards
_FILE_KEYS = ("floor", "tables")
_TABLE_KEYS = ("table", "port", "baud", "reopen")


class TablesError(ValueError):
    """A tables file that cannot be used (what is wrong, and where)."""


def load_tables(path):
    """tables.json -> (floor, [{"table", "port", "baud"}, ...]). TablesError names what is wrong."""
    try:
        with open(path) as f:
            spec = json_input.loads(f.read())     # a key given twice refused (json keeps the last one silently)
    except RecursionError:
        raise TablesError("%s: nested too deeply" % path)
    except (OSError, ValueError) as exc:
        raise TablesError("%s: %s" % (path, exc))
    if not isinstance(spec, dict) or not isinstance(spec.get("tables"), list) or not spec["tables"]:
        raise TablesError('%s: expected {"floor": NAME, "tables": [{"table": NAME, "port": PATH}, ...]}' % path)
    _known_keys(path, spec, _FILE_KEYS)
    floor = spec.get("floor", "floor")
    _check_name(path, "floor", floor)
    tables, seen, ports = [], set(), {}
    for i, entry in enumerate(spec["tables"]):
        where = "%s: tables[%d]" % (path, i)
        if not isinstance(entry, dict) or not isinstance(entry.get("port"), str) or not entry["port"]:
            raise TablesError("%s: needs a \"port\" (a serial device path)" % where)
        _known_keys(where, entry, _TABLE_KEYS)
        name = entry.get("table")
        _check_name(where, "table", name)
        if name in seen or name == "status":
            raise TablesError("%s: table name %r is used twice or reserved" % (where, name))
        seen.add(name)
        if not _device_path(entry["port"]):
            raise TablesError("%s: port %r is no device path (a NUL, a control or an unencodable character)"
                              % (where, entry["port"]))
        # Two links on one device would each read part of its frames, and publish them as their table's.
        device = os.path.realpath(entry["port"])
        if device in ports:
            raise TablesError("%s: port %r is already the port of table %r"
                              % (where, entry["port"], ports[device]))
        ports[device] = name
        baud = entry.get("baud", 115200)
        if not isinstance(baud, int) or isinstance(baud, bool) or baud <= 0:
            raise TablesError("%s: baud must be a positive integer" % where)
        reopen = entry.get("reopen", True)
        if not isinstance(reopen, bool):
            raise TablesError("%s: reopen must be true or false" % where)
        tables.append({"table": name, "port": entry["port"], "baud": baud, "reopen": reopen})
    return floor, tables


def _device_path(port):
    """A path the OS can be given (os.path.realpath and open() raise on a NUL or a lone surrogate)."""
    try:
        os.fsencode(port)
    except UnicodeError:
        return False
    return port.isprintable()


def _known_keys(where, obj, known):
    """A misspelt key ("baudrate") would be ignored, and its default used without a word."""
    for key in obj:
        if key not in known:
            raise TablesError("%s: unknown key %r (expected %s)" % (where, key, ", ".join(known)))


def check_floor(name, where="--floor"):
    """A floor name given on the command line, checked as a tables file's: the name, or TablesError."""
    _check_name(where, "floor", name)
    return name


def _check_name(where, what, name):
    if not isinstance(name, str) or not name or any(c in name for c in _NOT_IN_A_NAME) or not name.isprintable():
        raise TablesError("%s: %s name %r must be a non-empty string without / + #" % (where, what, name))


def topic(floor, table, event):
    """A report's topic, whatever its "event" (the board's; a bad one must not stop the gateway): a
    string, each character outside printable ASCII or one of / + # as "_" (a lone surrogate from a JSON
    escape cannot be UTF-8, a NUL breaks the broker's connection); "report" for none, anything but a
    string, and "status", the gateway's own topic."""
    if not isinstance(event, str) or not event or event == "status":
        event = "report"
    event = "".join("_" if c in _NOT_IN_A_NAME or not " " <= c <= "~" else c for c in event)
    return "casino/%s/%s/%s" % (floor, table, event)


def status_topic(floor, table):
    """The table's link status (retained), written by the gateway alone."""
    return "casino/%s/%s/status" % (floor, table)
