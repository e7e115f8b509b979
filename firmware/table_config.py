# Table settings file (table.json): which game this table runs and its options.
#
# {"table_id": "B01", "game": "baccarat", "settings": {...}}: the settings are
# validated by the game's own engine and kept, validated, as config["rules"].
#
# Regulated options (Baccarat art. 18) are never defaulted silently: a missing
# or unknown setting is an error at load, and the table does not open.
import json

from firmware.errors import SettingsError

GAMES = ("baccarat", "craps", "omaha")
KEYS = ("table_id", "game", "settings")
# Each game's engine validates its own regulated options (load_settings(dict)).
SETTINGS_MODULES = {
    "baccarat": "firmware.games.baccarat",
    "craps": "firmware.games.craps",
    "omaha": "firmware.games.omaha_settings",
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
    table_id = data["table_id"]
    if not isinstance(table_id, str) or not 1 <= len(table_id) <= 12:
        raise SettingsError("table settings: table_id must be 1-12 characters")
    if data["game"] not in GAMES:
        raise SettingsError("table settings: game %r unknown (expected %s)" % (data["game"], ", ".join(GAMES)))
    if not isinstance(data["settings"], dict):
        raise SettingsError("table settings: settings must be an object")
    module = __import__(SETTINGS_MODULES[data["game"]], None, None, ["load_settings"])
    try:
        data["rules"] = module.load_settings(data["settings"])
    except SettingsError as exc:
        raise SettingsError("table settings: %s" % exc)
    return data


def load(path):
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        raise SettingsError("table settings file %s not found" % path)
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise SettingsError("table settings %s: not valid JSON (%s)" % (path, exc))
    return validate(data)
