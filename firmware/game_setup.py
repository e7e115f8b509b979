# Which table controller, devices and screens a game runs with: the one place that knows per game.
#
# Boot (firmware.startup) calls build() once the hardware is up. Baccarat reads
# the framed shoe (firmware.drivers.shoe) and, where the board has one, the bet
# reader; its controller is firmware.games.baccarat.controller. Craps reads
# the framed dice reader (firmware.drivers.dice_reader) and, where the board
# has one, the bet reader over the Craps bet zones; its controller is
# firmware.games.craps.controller. Omaha reads the framed shoe and the dealer
# keypad (polled by firmware.main as hw.keypad); its controller is
# firmware.games.omaha.controller, which also takes the host's JSON `hand`
# request (Game.host_request).

from firmware.errors import SettingsError
from firmware.parts import Game  # noqa: F401  (kept after boot: firmware/parts.py)
from firmware.parts import release

# copies of firmware.games.craps.codes (tests/host/test_const_copies.py)
_BIG_NUMBER = const(19)
_COME = const(4)
_COME_ODDS = const(6)
_DONT_COME = const(5)
_DONT_COME_ODDS = const(7)
_HARD = const(18)

# Which reader port each game takes its cards or dice from.
READER_ROLE = {"baccarat": "shoe", "omaha": "shoe", "craps": "dice"}
# The OLED driver and its geometry, once a table that draws nothing on the board's OLED (Craps, Omaha) has
# handed it to a Panel (firmware/drivers/ssd1306_panel.py): nothing after boot imports them there.
BLANK_OLED_RELEASED = ("firmware.drivers.ssd1306", "firmware.drivers.ssd1306_geometry")


def seat_count(board, layout):
    """Seats on the layout: zones seat1, seat2, ... in a row."""
    zones = board.zones.get(layout, {})
    n = 0
    while "seat%d" % (n + 1) in zones:
        n += 1
    return n


def zone_names(layout):
    """The names a layout's lights may have besides its seats: every zone its game lights."""
    if layout == "baccarat":
        from firmware.games.baccarat.payouts import ZONES
        return ZONES
    if layout == "craps":
        return _craps_zone_names()
    from firmware.games.omaha.lights import ZONES
    return ZONES


def _craps_zone_names():
    """Every zone a Craps bet lights, of the numbers its kind takes (come bets and their odds: the point's
    box; a hard way or big number: its number; the puck and a hard way hit light those too). Not
    bets.ZONE_TABLE, which holds every number 0..10 of every kind (hard_3, point_7: never lit)."""
    from firmware.games.craps import bets as B
    names = []
    for kind in range(len(B.KIND_NAMES)):
        if kind == _HARD:
            numbers = B.HARD_NUMBERS
        elif kind == _BIG_NUMBER:
            numbers = B.BIG_NUMBERS
        elif kind in (_COME, _DONT_COME, _COME_ODDS, _DONT_COME_ODDS):
            numbers = (0,) + B.POINTS
        else:
            numbers = (0,)
        for number in numbers:
            name = B.zone_name(kind, number)
            if name not in names:
                names.append(name)
    return names


def main_zones(layout):
    """The zones a layout of this game must have: its main bets (and the places they are lit), without which
    the table would play them unseen. Side bets and the other bets of a layout may be left out."""
    if layout == "baccarat":
        return ("player", "banker", "tie")             # Baccarat art. 12 (the pairs are side bets)
    if layout == "craps":
        # The line bets (Craps art. 5(2)(1), (3), (5), (6)) and the point boxes: the puck, a come bet's
        # come point and the odds behind it (bets.zone_name: "point_6").
        return ("pass", "dont_pass", "come", "dont_come", "point_4", "point_5", "point_6", "point_8", "point_9",
                "point_10")
    return ("button", "pot")                           # Omaha art. 1: the dealer button; the pot


# The seat lights' names the lights take instead of the board file's copies: literals (interned strings,
# which take no heap; a layout of more seats keeps its copies of the rest).
_SEAT_LIGHTS = ("seat1", "seat2", "seat3", "seat4", "seat5", "seat6", "seat7", "seat8", "seat9", "seat10",
                "seat11", "seat12", "seat13", "seat14")


def _share_names(names, vocabulary):
    """Each of the lights' zone names found in vocabulary becomes that object (kept anyway: a literal, or the
    game's zone table): the copy parsed from the board file is freed (0.2-0.3 KB a table)."""
    for i in range(len(names)):
        for word in vocabulary:
            if word == names[i]:
                names[i] = word
                break


def check_zone_names(board, layout):
    """SettingsError for a zone of the board's layout that its game never lights (a typo: "bankr" would
    stay dark, and the "banker" light missing), or a main zone of the game it lacks (main_zones); seats
    (seat1, ...) are board.py's to check."""
    names = zone_names(layout)
    seats = layout != "craps"                    # a Craps layout has no seat lights
    zones = board.zones.get(layout, {})
    for zone in sorted(zones):
        if zone in names or seats and zone.startswith("seat"):
            continue
        raise SettingsError("board %s: zones.%s.%s: no light of the %s layout has that name (its zones: %s%s)"
                            % (board.name, layout, zone, layout, "seat1.., " if seats else "", ", ".join(names)))
    needed = main_zones(layout)
    for zone in needed:
        if zone not in zones:
            where = "zones.%s: no %s zone" % (layout, zone) if zones else "zones: no %s layout" % layout
            raise SettingsError("board %s: %s, so the table could never light it (a %s layout needs %s)"
                                % (board.name, where, layout, ", ".join(needed)))


def build(board, config, hw, queue):
    game = config["game"]
    if hw.lights is not None:
        _share_names(hw.lights.names, zone_names(game))
        _share_names(hw.lights.names, _SEAT_LIGHTS)
    buttons = dict((role, board.button_index(role)) for role, _ in board.buttons)
    if game == "baccarat":
        return _baccarat(board, config, hw, queue, buttons)
    oled = hw.displays.get("scoreboard")
    if oled is not None:
        take_oled(game, None, hw, oled)
    if game == "craps":
        return _craps(config, hw, queue, buttons)
    return _omaha(board, config, hw, queue, buttons)


def _baccarat(board, config, hw, queue, buttons):
    from firmware.bets import BetReading
    from firmware.drivers.shoe import Shoe
    from firmware.games.baccarat import payouts, screens
    from firmware.games.baccarat.controller import BaccaratTable

    reading = None
    seats = seat_count(board, "baccarat")
    if "bets" in hw.ports and seats:
        reading = BetReading(payouts.ZONES, seats)
    table = BaccaratTable(hw.lights, buttons, config["rules"], reading, seats)
    g = Game(table, screens)
    from firmware.games.baccarat import recall
    g.rounds = recall
    g.devices.append(Shoe(hw.ports["shoe"], queue, table.evidence))
    if reading is not None:
        from firmware.drivers.bet_reader import BetReader
        g.devices.append(BetReader(hw.ports["bets"], queue, table.evidence, payouts.ZONES, seats, reading))
    oled = hw.displays.get("scoreboard")
    if oled is not None:
        take_oled("baccarat", g, hw, oled)
    return g


def take_oled(game_name, game, hw, oled):
    """The board's OLED (an SSD1306 set up) in the table: a Baccarat table's scoreboard; at the others a blank
    panel, its 1 KB picture freed (and the SSD1306 driver with it: imported again by nothing). At boot, and
    once one missing at boot answers (firmware/display_loss.py)."""
    if game_name == "baccarat":
        from firmware.games.baccarat.scoreboard import Scoreboard
        game.scoreboard = (Scoreboard(oled, oled.width, oled.height), oled)
        hw.displays["scoreboard"] = oled
        return
    from firmware.drivers.ssd1306_panel import Panel
    hw.displays["scoreboard"] = Panel(oled)
    release(BLANK_OLED_RELEASED)


def _craps(config, hw, queue, buttons):
    from firmware.bets import BetReading
    from firmware.drivers.dice_reader import DiceReader
    from firmware.games.craps import screens
    from firmware.games.craps.controller import CrapsController
    from firmware.games.craps.zones import ZONE_WORDS, ZONES

    reading = None
    seats = config["rules"].seats          # the layout has no seat zones: the table's seats setting
    if "bets" in hw.ports:
        reading = BetReading(ZONES, seats)
    table = CrapsController(hw.lights, buttons, config["rules"], reading, seats)
    g = Game(table, screens)
    from firmware.games.craps import recall
    g.rounds = recall
    g.devices.append(DiceReader(hw.ports["dice"], queue, table.evidence))
    if reading is not None:
        from firmware.drivers.bet_reader import BetReader
        g.devices.append(BetReader(hw.ports["bets"], queue, table.evidence, ZONES, seats, reading,
                                   take_downs=True, words=ZONE_WORDS))
    return g


def _omaha(board, config, hw, queue, buttons):
    from firmware.drivers.shoe import Shoe
    from firmware.games.omaha import screens
    from firmware.games.omaha.controller import OmahaTable

    # board.keypad_keys: the dealer keypad's legend per key index (the board's keypad section).
    table = OmahaTable(hw.lights, buttons, config["rules"], board.keypad_keys)
    g = Game(table, screens)
    from firmware.games.omaha import recall
    g.rounds = recall
    g.devices.append(Shoe(hw.ports["shoe"], queue, table.evidence))
    g.host_request = table.host_request
    return g
