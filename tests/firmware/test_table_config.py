# table.json: the game and its regulated options, validated by the game's own engine at load.
import json

from firmware import table_config
from firmware.errors import SettingsError
from tests.firmware.expect import raises_match


def _sample(game):
    with open("boards/tables/sim-%s.json" % game) as f:
        return json.loads(f.read())


def test_samples_load_with_validated_rules():
    for game in ("baccarat", "craps", "omaha"):
        config = table_config.validate(_sample(game))
        assert config["game"] == game
        assert config["rules"] is not None


def test_regulated_option_missing_or_wrong_refused():
    config = _sample("baccarat")
    del config["settings"]["method"]             # Baccarat art. 18: never defaulted
    raises_match(SettingsError, "method", table_config.validate, config)
    config = _sample("baccarat")
    config["settings"]["decks"] = 13             # art. 1: 6 to 12 decks
    raises_match(SettingsError, "decks", table_config.validate, config)
    config = _sample("craps")
    config["settings"]["field_12"] = 4           # Craps art. 6: 2:1 or 3:1
    raises_match(SettingsError, "field_12", table_config.validate, config)
    config = _sample("omaha")
    config["settings"]["rake_percent"] = 6       # Omaha art. 16: 3% to 5%
    raises_match(SettingsError, "rake_percent", table_config.validate, config)


def test_file_shape_refused():
    raises_match(SettingsError, "unknown key", table_config.validate, {"table_id": "x", "game": "craps",
                                                                       "settings": {}, "colour": 1})
    raises_match(SettingsError, "missing 'game'", table_config.validate, {"table_id": "x", "settings": {}})
    raises_match(SettingsError, "table_id", table_config.validate, {"table_id": "", "game": "craps", "settings": {}})
    raises_match(SettingsError, "expected a JSON object", table_config.validate, [])
    raises_match(SettingsError, "not found", table_config.load, "boards/tables/none.json")
