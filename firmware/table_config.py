# Table settings file (table.json): which game this table runs and its options.
#
# {"table_id": "B01", "game": "baccarat", "settings": {...}}: the settings are
# validated by the game's own engine and kept, validated, as config["rules"].
#
# Regulated options (Baccarat art. 18) are never defaulted silently: a missing
# or unknown setting is an error at load, and the table does not open.
import os

from firmware import jsonfile
from firmware.errors import SettingsError

GAMES = ("baccarat", "craps", "omaha")
# The games whose table reads the dealer keypad (Omaha: every action is keyed). At another game's table a board's
# keypad is not brought up: never scanned, its keys no events, its driver not imported (docs/boards.md).
KEYPAD_GAMES = ("omaha",)
KEYS = ("table_id", "game", "settings")
# Each game's engine validates its own regulated options (load_settings(dict)).
SETTINGS_MODULES = {
    "baccarat": "firmware.games.baccarat.settings",
    "craps": "firmware.games.craps.settings",
    "omaha": "firmware.games.omaha.settings",
}


def validate(data):
    if not isinstance(data, dict):
        raise SettingsError("table settings: expected a JSON object")
    for key in data:
        if key not in KEYS:
            raise SettingsError("table settings: unknown key %r (expected %s)" % (key, ", ".join(KEYS)))
    for key in KEYS:
        if key not in data:
            raise SettingsError("table settings: missing %r" % key)
    if not _valid_table_id(data["table_id"]):
        table_id = data["table_id"]
        shown = repr(table_id[:16]) if isinstance(table_id, str) else "of type %s" % type(table_id).__name__
        raise SettingsError("table settings: table_id must be 1-12 printable ASCII characters (it heads every "
                            "report and the dealer display), got %s" % shown)
    game = data["game"]
    if not isinstance(game, str) or game not in GAMES:
        shown = repr(game) if isinstance(game, str) else "of type %s" % type(game).__name__
        raise SettingsError("table settings: game %s unknown (expected %s)" % (shown, ", ".join(GAMES)))
    if not isinstance(data["settings"], dict):
        raise SettingsError("table settings: settings must be an object")
    module = __import__(SETTINGS_MODULES[game], None, None, ["load_settings"])
    try:
        data["rules"] = module.load_settings(data["settings"])
    except SettingsError as exc:
        raise SettingsError("table settings: %s" % exc)
    except (TypeError, AttributeError, KeyError, IndexError, RuntimeError) as exc:
        # A value the engine's checks did not foresee (RuntimeError: nested too deeply
        # for a message on MicroPython; CPython's RecursionError is one): still a refusal.
        raise SettingsError("table settings: settings: malformed (%s: %s)" % (type(exc).__name__, exc))
    return data


def _valid_table_id(table_id):
    # Printable ASCII: every report carries it, and a host-link frame carries nothing else (MicroPython's
    # json.dumps writes "Â" as its UTF-8 bytes, which no frame can send: each report, and the fault sent in
    # its place, would fail); the LCD shows no other character either.
    if not isinstance(table_id, str) or not 1 <= len(table_id) <= 12:
        return False
    for ch in table_id:
        if not " " <= ch <= "~":
            return False
    return True


def read(path, unique=True):
    """The parsed, not yet validated, JSON of a table settings file; SettingsError if it is no JSON (or,
    unique, a key is twice in one object: {"method": 1, "method": 2} is never read as Method 2)."""
    _finish_replace(path)
    return jsonfile.parse(jsonfile.read(path, "table settings file"), "table settings " + path, unique)


def _finish_replace(path):
    """A settings change from the console writes PATH.new whole, then renames it over the file; where the
    rename cannot replace (FAT), the old file is removed first: a power cut between the two leaves only
    PATH.new, complete (firmware/settings_swap.py), and the rename is finished here."""
    try:
        os.stat(path)
        return
    except OSError:
        pass
    try:
        os.rename(path + ".new", path)
    except OSError:
        pass


def load(path):
    return validate(read(path))


def table_id(path):
    """The file's table_id if it has a valid one, else None (even if the rest of the file is wrong)."""
    try:
        data = read(path, False)      # a key twice elsewhere in the file: the table still names itself
    except SettingsError:
        return None
    if isinstance(data, dict) and _valid_table_id(data.get("table_id")):
        return data["table_id"]
    return None
