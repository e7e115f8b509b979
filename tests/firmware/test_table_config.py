# table.json: the game and its regulated options, validated by the game's own engine at load.
import json

from firmware import table_config
from firmware.errors import SettingsError
from tests.firmware.expect import raises, raises_match


def _sample(game):
    with open("boards/tables/sim-%s.json" % game) as f:
        return json.loads(f.read())


def _fields(rules, names):
    return dict((name, getattr(rules, name)) for name in names)


def test_samples_load_with_validated_rules():
    # Each sample's regulated options come back as the engine's settings object, value for value.
    config = table_config.load("boards/tables/sim-baccarat.json")
    assert (config["table_id"], config["game"]) == ("SIM-B1", "baccarat")
    assert _fields(config["rules"], ("method", "commission", "tie_option", "decks", "burn", "cut_card",
                                     "demo_rounds", "dealer", "burn_each_round")) == {
        "method": 1, "commission": "A", "tie_option": "returned", "decks": 8, "burn": "decks",
        "cut_card": "last_round", "demo_rounds": 0, "dealer": "shoe", "burn_each_round": False}
    config = table_config.load("boards/tables/sim-craps.json")
    assert (config["table_id"], config["game"]) == ("SIM-C1", "craps")
    rules = config["rules"]
    assert _fields(rules, ("minimum", "maximum", "field_12", "seats", "shooter_change_on_come_out_craps")) == {
        "minimum": 5, "maximum": 5000, "field_12": 2, "seats": 14, "shooter_change_on_come_out_craps": False}
    assert tuple(rules.max_odds) == (3, 4, 5) and tuple(rules.off_on_come_out) == ()
    assert tuple(rules.take_down) == ("dont_pass", "dont_come", "pass_odds", "dont_pass_odds", "come_odds",
                                      "dont_come_odds", "hard", "big_number")
    config = table_config.load("boards/tables/sim-omaha.json")
    assert (config["table_id"], config["game"]) == ("SIM-O1", "omaha")
    assert _fields(config["rules"], ("structure", "small_blind", "big_blind", "rake_percent", "rake_cap_big_blinds",
                                     "odd_chip", "heads_up", "seats")) == {
        "structure": "pot_limit", "small_blind": 5, "big_blind": 10, "rake_percent": 5, "rake_cap_big_blinds": 5,
        "odd_chip": "croupier", "heads_up": "no_raise_cap", "seats": 10}


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


SCRATCH = "/tmp"     # exists on CPython hosts and in the VM


def _write_bytes(path, data):
    with open(path, "wb") as f:
        f.write(data)


def test_file_not_utf8_or_nested_too_deeply_is_a_settings_error():
    path = SCRATCH + "/t_table_bytes.json"
    text = json.dumps(_sample("omaha"))
    _write_bytes(path, text.encode().replace(b"SIM-O1", b"SIM-\xc3O1"))     # a lead byte with no follower
    raises_match(SettingsError, "table settings %s: not valid UTF-8" % path, table_config.load, path)
    deep = b"[" * 20000 + b"]" * 20000
    for doc in (deep, text.encode().replace(b'"seats": 10', b'"seats": ' + deep)):
        _write_bytes(path, doc)
        raises_match(SettingsError, "table settings", table_config.load, path)


def test_a_file_the_heap_cannot_parse_is_a_settings_error_saying_so():
    # On a board the parser's MemoryError (a table or board file too large for the heap left) is the
    # file's refusal in words, as every other reason a file is refused (mutant seed 72: the message's
    # formatting could raise instead with every test passing).
    from firmware import jsonfile

    class _Parser:
        def loads(self, raw):
            raise MemoryError("memory allocation failed")

    real = jsonfile.json
    jsonfile.json = _Parser()
    try:
        raises_match(SettingsError, "table settings t.json: too large to parse", jsonfile.parse, b"{}",
                     "table settings t.json")
    finally:
        jsonfile.json = real


def test_a_file_saved_with_a_byte_order_mark_is_refused_saying_so_on_both_runtimes():
    # A technician's editor (Windows Notepad) saves "UTF-8" with a BOM: CPython's parser refused it as
    # "Unexpected UTF-8 BOM (decode using utf-8-sig)", MicroPython's as "syntax error in JSON".
    from firmware import board
    path = SCRATCH + "/t_table_bom.json"
    _write_bytes(path, b"\xef\xbb\xbf" + json.dumps(_sample("omaha")).encode())
    want = "starts with a byte order mark (save the file as UTF-8 without BOM)"
    raises_match(SettingsError, "table settings %s: %s" % (path, want), table_config.load, path)
    with open("boards/pico.json", "rb") as f:
        raises_match(SettingsError, "board pico: " + want, board.parse, "pico", b"\xef\xbb\xbf" + f.read())


def test_game_of_the_wrong_type_refused():
    for game in (["craps"], {"a": 1}, 1, None):
        config = _sample("craps")
        config["game"] = game
        raises_match(SettingsError, "table settings: game", table_config.validate, config)


def test_table_id_read_even_from_a_refused_file():
    path = SCRATCH + "/t_table_id.json"
    config = _sample("craps")
    config["settings"]["field_12"] = 4
    _write_bytes(path, json.dumps(config).encode())
    raises(SettingsError, table_config.load, path)
    assert table_config.table_id(path) == "SIM-C1"
    for doc in (b"[]", b'{"table_id": ""}', b'{"table_id": 5}', b"{"):
        _write_bytes(path, doc)
        assert table_config.table_id(path) is None
    assert table_config.table_id("boards/tables/none.json") is None


def test_a_key_given_twice_is_refused_naming_it():
    # JSON parsers keep the last of two equal keys: {"method": 1, ..., "method": 2} would run Method 2
    # (Baccarat art. 9) under a file whose first line says Method 1. Refused, wherever the key is.
    path = SCRATCH + "/t_table_twice.json"
    text = json.dumps(_sample("baccarat"))
    for doc, where in ((text.replace('"method": 1,', '"method": 1, "method": 2,'), "settings.method"),
                       (text.replace('"game":', '"table_id": "B02", "game":'), "table_id"),
                       (text.replace('"decks": 8,', '"decks": 8, "\\u0064ecks": 6,'), "settings.decks")):
        _write_bytes(path, doc.encode())
        raises_match(SettingsError, "table settings %s: %s: key given twice" % (path, where), table_config.load, path)
    craps = json.dumps(_sample("craps")).replace('"max_odds":', '"max_odds": [1, 1, 1], "max_odds":')
    _write_bytes(path, craps.encode())
    raises_match(SettingsError, "settings.max_odds: key given twice", table_config.load, path)
    assert table_config.table_id(path) == "SIM-C1"          # the boot refusal report still names the table
    # The same key in two different objects, or inside a string, is no repeat.
    same = {"table_id": '"g":1,"g":2', "game": "omaha", "settings": _sample("omaha")["settings"]}
    same["settings"]["seats"] = {"seats": 1}     # an object of its own: refused for its value, not as a repeat
    _write_bytes(path, json.dumps(same).encode())
    raises_match(SettingsError, "setting seats must be a whole number", table_config.load, path)


def test_a_key_given_twice_is_found_past_escaped_backslashes_and_quotes():
    # A quote ends a string unless an odd run of backslashes precedes it: a key of one backslash ("\\"),
    # a key holding an escaped backslash and an escaped quote (three before the quote), a string value
    # ending in a backslash (mutants seed 72: a run of three counted even, a backslash at a part's start
    # not counted, each lived).
    from firmware.jsonfile import duplicate_key
    assert duplicate_key(r'{"x\\\"y": 1, "x\\\"y": 2}') == 'x\\"y'   # as parsed: x, a backslash, a quote, y
    assert duplicate_key(r'{"\\": 1, "\\": 2}') == "\\"
    assert duplicate_key(r'{"k": "\\", "k2": 1, "k2": 2}') == "k2"
    assert duplicate_key(r'{"a\\": 1, "b": {"a\\": 2}}') is None


def test_table_id_must_be_printable_ascii():
    # Every report carries the table_id; MicroPython's json.dumps writes "\u00c2" as UTF-8 bytes that no
    # host-link frame carries, so a table named "T\u00c2BLE" failed every report (and the fault in its
    # place) and crashed at boot on the board, while the simulator (CPython escapes it) booted.
    for table_id in ("T\u00c2BLE", "B\t1", "\u4e2d", "B01\x7f", "", "x" * 13, 12, None):
        config = _sample("baccarat")
        config["table_id"] = table_id
        raises_match(SettingsError, "table_id must be 1-12 printable ASCII characters", table_config.validate,
                     config)
    path = SCRATCH + "/t_table_ascii.json"
    config = _sample("omaha")
    config["table_id"] = "T\u00c2BLE"
    _write_bytes(path, json.dumps(config).encode())
    assert table_config.table_id(path) is None          # the boot refusal report goes out with table null
    for table_id in ("Table 7", "B-01/\"~", "x" * 12, "B"):              # (one character: mutants seed 72)
        config = _sample("baccarat")
        config["table_id"] = table_id
        assert table_config.validate(config)["table_id"] == table_id


def test_a_value_the_engines_checks_did_not_foresee_is_still_a_refusal_in_words():
    # The games' loaders refuse every wrong value they know with a SettingsError; one that raised anything
    # else from deep in an engine (a TypeError, a RuntimeError nested too deeply) is the file's refusal too,
    # naming the exception, never a crash at boot (mutant seed 72: the message's formatting could raise).
    from firmware.games.craps import settings as craps_settings
    real = craps_settings.load_settings

    def unforeseen(settings):
        raise TypeError("unsupported types")

    craps_settings.load_settings = unforeseen
    try:
        raises_match(SettingsError, "table settings: settings: malformed (TypeError: unsupported types)",
                     table_config.validate, _sample("craps"))
    finally:
        craps_settings.load_settings = real


def test_a_number_has_one_spelling_in_the_table_file_on_both_runtimes():
    # Regression: MicroPython's JSON parser took "decks": 08 (8), 007, 3. and -08, which CPython's refuses
    # (tools.deploy checks a file on CPython): the board ran a file the deploy check refused. Both refuse
    # them now, with JSON's -0 (one spelling of a number: jsonfile.NUMBER_RULE, docs/console.md "Numbers").
    path = SCRATCH + "/t_table_numbers.json"
    text = json.dumps(_sample("baccarat"))
    for spelled in ("08", "008", "-08", "8.", "-0"):
        _write_bytes(path, text.replace('"decks": 8,', '"decks": %s,' % spelled).encode())
        exc = raises(SettingsError, table_config.load, path)
        assert "table settings %s: " % path in str(exc), (spelled, str(exc))
    _write_bytes(path, text.replace('"demo_rounds": 0,', '"demo_rounds": -0,').encode())
    raises_match(SettingsError, "number -0: a number is digits without a leading zero", table_config.load, path)
    # What JSON writes stays readable, in strings too ("08" as a table id is no number).
    for doc, decks in ((text, 8), (text.replace('"SIM-B1"', '"08-+8 -0"').replace('"decks": 8,', '"decks": 10,'), 10)):
        _write_bytes(path, doc.encode())
        assert table_config.load(path)["rules"].decks == decks


def test_the_number_rule_reads_what_json_writes_and_nothing_else():
    from firmware.jsonfile import bad_number, number, numeral
    for text, value in (("0", 0), ("8", 8), ("10", 10), ("999999999", 999999999), ("-5", -5)):
        assert number(text) == value and numeral(text), text
    for text in ("08", "+8", "-0", "007", "-08", "8.", ".5", "3.5", "-", "", "8a", "1e1", " 8"):
        assert number(text) is None and not numeral(text), text
    assert number("3.5", True) == 3.5 and number("5.0", True) == 5 and number("03.5", True) is None
    assert number("-0.0", True) is None and number("3.", True) is None
    assert bad_number('{"a": [1, -2, 3.5, 1e5, 2E-3, true, null], "b": "08 +8 \\" 08"}') is None
    assert bad_number('{"a": [1, 08]}') == "08" and bad_number('{"a": -0.0}') == "-0.0"
    assert bad_number('{"a\\"": 3.}') == "3."
    # Not JSON (a host request is scanned before it is parsed): a string cut off after a backslash ends the
    # scan, no IndexError; the parser then refuses the text.
    assert bad_number('{"a\\') is None and bad_number('{"a": "b\\\\\\') is None
