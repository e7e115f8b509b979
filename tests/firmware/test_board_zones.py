# A board's bet-zone map against its game: every zone a light the game lights, every main zone there.
#
# firmware/game_setup.py check_zone_names: at boot for the table's layout, by tools.build for every
# layout of the file (firmware/board.py checks the map's shape: ranges, overlaps, seat numbering).
from firmware import board
from firmware.errors import SettingsError
from firmware.game_setup import check_zone_names, main_zones
from tests.firmware.expect import raises_match
from tests.firmware.test_board import _data


def test_a_zone_its_game_never_lights_is_refused_naming_it():
    # A typo in a zone name ("bankr") booted: that light stayed dark and the banker's had no pixels.
    from firmware.game_setup import check_zone_names
    for layout, zone, other in (("baccarat", "banker", "bankr"), ("craps", "hard_6", "hard6"),
                                ("omaha", "pot", "pots")):
        d = _data()
        d["zones"][layout][other] = d["zones"][layout].pop(zone)
        b = board.validate("pico", d)
        raises_match(SettingsError, "board pico: zones.%s.%s: no light of the %s layout has that name"
                     % (layout, other, layout), check_zone_names, b, layout)
    d = _data()
    d["zones"]["craps"]["seat1"] = d["zones"]["craps"].pop("field")     # a Craps layout lights no seats
    raises_match(SettingsError, "zones.craps.seat1: no light", check_zone_names, board.validate("pico", d), "craps")
    for name in ("pico", "esp32s3", "sim"):           # the shipped boards' every layout
        b = board.load("boards/%s.json" % name)
        for layout in b.zones:
            check_zone_names(b, layout)
    # A number no Craps bet of that kind takes is no light either: "hard_5", "point_7", "big_7" and
    # "hard_0" were taken (every number 0..10 of every kind was a name), and stayed dark.
    for zone in ("hard_5", "point_7", "big_7", "hard_0", "point_1", "big_11"):
        d = _data()
        d["zones"]["craps"][zone] = d["zones"]["craps"].pop("horn")
        exc = raises_match(SettingsError, "zones.craps.%s: no light of the craps layout has that name" % zone,
                           check_zone_names, board.validate("pico", d), "craps")
        listed = str(exc).split("(its zones: ")[1]
        assert "hard_0" not in listed and "point_7" not in listed and "hard_10, big_4" in listed


def test_a_layout_without_one_of_its_games_main_zones_is_refused_naming_it():
    # Regression: a map without "banker" (Baccarat) or "pass" (Craps) was accepted, and those bets could
    # never be lit: the result's winning zone stayed dark, a Pass bet showed nowhere.
    for layout, zone in (("baccarat", "player"), ("baccarat", "banker"), ("baccarat", "tie"), ("craps", "pass"),
                         ("craps", "dont_pass"), ("craps", "come"), ("craps", "dont_come"), ("craps", "point_6"),
                         ("omaha", "button"), ("omaha", "pot")):
        d = _data()
        del d["zones"][layout][zone]
        b = board.validate("pico", d)                   # the map's shape is right...
        exc = raises_match(SettingsError, "board pico: zones.%s: no %s zone" % (layout, zone),
                           check_zone_names, b, layout)   # ...but a main zone has no light
        assert "(a %s layout needs %s)" % (layout, ", ".join(main_zones(layout))) in str(exc)
    d = _data()
    for zone in ("player_pair", "banker_pair"):         # side bets (Baccarat art. 12): a layout may lack them
        del d["zones"]["baccarat"][zone]
    for zone in ("horn", "field", "big_6", "hard_8", "ace_deuce"):   # nor every Craps bet of arts. 5(3), 5(4)
        del d["zones"]["craps"][zone]
    for layout in ("baccarat", "craps"):
        check_zone_names(board.validate("pico", d), layout)
    d = _data()
    del d["zones"]["craps"]                             # no craps map at all: a board for the other games...
    b = board.validate("pico", d)
    check_zone_names(b, "baccarat")
    raises_match(SettingsError, "board pico: zones: no craps layout, so the table could never light it (a craps "
                 "layout needs pass, dont_pass, ", check_zone_names, b, "craps")   # ...never a craps table
