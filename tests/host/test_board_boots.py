"""Whatever firmware.board accepts boots (issue 8 item 9): the validator is the single authority.

Every shipped board boots every game its zones support, and hypothesis mutations of the
shipped boards either are refused with a SettingsError naming the key, or boot: through
firmware.startup.boot on hostsim's machine, with the real LCD driver (firmware.drivers.lcd)
talking to simulated HD44780s. Any other exception is a failure.
"""
import copy
import json
import os

from hypothesis import HealthCheck, example, given, settings, strategies as st

from firmware import board as board_mod
from firmware import main, startup
from firmware.errors import SettingsError
from firmware.table_config import KEYPAD_GAMES
from hostsim import hardware
from tests.firmware.fakes import FakeUART

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHIPPED = sorted(n[:-5] for n in os.listdir(os.path.join(REPO, "boards")) if n.endswith(".json"))


def _shipped(name):
    with open(os.path.join(REPO, "boards", name + ".json")) as f:
        return json.load(f)


def _table(game):
    return os.path.join(REPO, "boards", "tables", "sim-%s.json" % game)


def _boot(data, game, state_dir):
    """Boot `data` (a board dict) on hostsim and run a few passes; SettingsError if refused."""
    path = os.path.join(state_dir, "board.json")
    with open(path, "w") as f:
        json.dump(data, f)
    with hardware.install(board=data if isinstance(data, dict) else None):
        import machine
        import neopixel
        ctx = startup.boot(machine, neopixel, path, _table(game), state_dir, usb_console=FakeUART())
        for _ in range(3):
            main.poll_inputs(ctx, 100)
            main.refresh_outputs(ctx, True)
        return ctx


def test_every_shipped_board_boots_every_game_its_zones_support(tmp_path):
    assert set(SHIPPED) >= {"pico", "esp32s3", "sim"}
    for name in SHIPPED:
        data = _shipped(name)
        assert sorted(data["zones"]), name
        for game in sorted(data["zones"]):
            ctx = _boot(data, game, str(tmp_path))
            assert ctx.hw.faults == [], (name, game)
            assert sorted(ctx.hw.displays) == sorted(r for r in data["displays"] if r != "i2c")
            assert sorted(ctx.hw.ports) == sorted(data["ports"])      # the pico's bet reader on its PIO too
            assert ctx.hw.lights.names == sorted(data["zones"][game])
            keypad = data.get("keypad") if game in KEYPAD_GAMES else None      # only a game that reads it
            assert (ctx.hw.keypad is None) == (keypad is None), (name, game)
            if keypad is not None:      # built, and scanned by the passes above
                assert len(ctx.hw.keypad) == len(keypad["rows"]) * len(keypad["cols"])


def test_the_largest_and_the_smallest_keypad_boot(tmp_path):
    for rows, cols, keys in ((list(range(30, 38)), list(range(40, 48)), [["enter"] + [""] * 7] + [[""] * 8] * 7),
                             ([30], [31], [["fold"]])):
        data = _shipped("sim")
        data["keypad"] = {"rows": rows, "cols": cols, "keys": keys}
        ctx = _boot(data, "omaha", str(tmp_path))
        assert len(ctx.hw.keypad) == len(rows) * len(cols) and ctx.hw.faults == []


# --- mutations -------------------------------------------------------------------------------------------

def _paths(obj, prefix=()):
    if prefix:
        yield prefix
    items = obj.items() if isinstance(obj, dict) else enumerate(obj) if isinstance(obj, list) else ()
    for key, value in items:
        yield from _paths(value, prefix + (key,))


# Values near and across the limits that matter (pins, UART/I2C ids, PIO blocks and state machines, LCD and
# OLED sizes, addresses), and of wrong types.
_VALUES = st.one_of(
    st.integers(-2, 50), st.integers(0, 130), st.sampled_from([0.0, -0.0, 1.0, 9.0, True, False, None, 1e400]),
    st.sampled_from([300, 299, 3000000, 3000001, 10000, 1000000, 1000001, 8388, 8389, 60000, 1024, 1025]),
    st.sampled_from(["", "1", "rp2040", "esp32s3", "hostsim", "confirm", "ssd1306", [], {}, [0, 1], [[0, 1]],
                     {"usb": True}, {"uart": 1, "tx": 4, "rx": 5, "baudrate": 9600},
                     {"pio": 0, "sm": 2, "tx": 26, "rx": 27, "baudrate": 9600},
                     {"pio": 1, "sm": 0, "tx": 6, "rx": 7, "baudrate": 115200},
                     {"kind": "ssd1306", "addr": 61, "width": 128, "height": 32}]),
)
_VALUES = _VALUES.map(copy.deepcopy)      # a sampled list or object must not be shared between examples
_NEW_KEYS = st.sampled_from(["undo", "menu", "dice", "shoe", "bets", "scoreboard", "pio", "sm", "extra", "baccarat",
                             "omaha", "craps", "0"])


@st.composite
def _mutated_board(draw):
    data = _shipped(draw(st.sampled_from(SHIPPED)))
    for _ in range(draw(st.sampled_from([1, 1, 1, 2, 3]))):
        section = draw(st.sampled_from(sorted(data)))        # every section as likely as the big zone maps
        inner = [(section,) + p for p in _paths(data[section])]
        path = draw(st.sampled_from(inner)) if inner and draw(st.integers(0, 7)) else (section,)
        parent = data
        for key in path[:-1]:
            parent = parent[key]
        old = parent[path[-1]]
        action = draw(st.sampled_from(["near", "near", "near", "set", "delete", "add"]))
        if action == "delete":
            del parent[path[-1]]
        elif action == "add" and isinstance(parent, dict):
            parent[draw(_NEW_KEYS)] = draw(_VALUES)
        elif action == "near" and isinstance(old, int) and not isinstance(old, bool):
            # often still valid, and then it must boot
            parent[path[-1]] = old + draw(st.sampled_from([-1, 1, -2, 2, -4, 4, -8, 8, -20, 20]))
        else:
            parent[path[-1]] = draw(_VALUES)
    return data


def _pico_with(path, value):
    data = _shipped("pico")
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = value
    return data


def _pico_without(path):
    data = _shipped("pico")
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    del parent[path[-1]]
    return data


# The boards, which the validator accepted and the hardware then refused.
@example(data=_pico_with(("displays", "dealer", "cols"), 40), game="baccarat")      # 40x4: two HD44780s
@example(data=_pico_with(("displays", "result", "cols"), 40.0), game="baccarat")
@example(data=_pico_with(("ports", "host", "uart"), 1.0), game="baccarat")
@example(data=_pico_with(("ports", "shoe", "uart"), -0.0), game="omaha")
@example(data=_pico_with(("displays", "i2c", "bus"), 0.0), game="craps")
# PIO ports and the OLED (issue 9): the validator, hostsim's rp2 and the SSD1306 driver agree.
@example(data=_pico_with(("ports", "bets", "sm"), 2), game="baccarat")               # state machines 2 and 3
@example(data=_pico_with(("ports", "bets", "sm"), 3), game="baccarat")               # there is no 4
@example(data=_pico_with(("ports", "bets", "pio"), 1), game="baccarat")
@example(data=_pico_with(("ports", "dice"), {"pio": 1, "sm": 1, "tx": 6, "rx": 7, "baudrate": 9600}), game="craps")
@example(data=_pico_with(("ports", "host"), {"pio": 1, "sm": 0, "tx": 6, "rx": 7, "baudrate": 9600}), game="craps")
@example(data=_pico_with(("displays", "scoreboard", "height"), 32), game="baccarat")
@example(data=_pico_with(("displays", "scoreboard", "height"), 48), game="baccarat")
@example(data=_pico_with(("displays", "dealer"), None), game="baccarat")           # validated, then hostsim crashed
@example(data=_pico_without(("zones", "craps", "point_8")), game="craps")          # refused at boot only
@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=_mutated_board(), game=st.sampled_from(["baccarat", "craps", "omaha"]))
def test_what_the_validator_accepts_boots(tmp_path_factory, data, game):
    try:
        board_mod.validate("mutant", json.loads(json.dumps(data)))
    except SettingsError as exc:
        message = str(exc)
        assert message.startswith("board mutant: ") and "malformed" not in message, message  # names the key
        return
    state_dir = str(tmp_path_factory.mktemp("boot"))
    try:
        _boot(data, game, state_dir)
    except SettingsError as exc:
        # Only: the board lacks the reader port this game needs, or a main zone of its layout (checked
        # with the game's zone names at boot and by tools.build: game_setup.check_zone_names).
        assert ("port, which %s needs" % game in str(exc) or "so the table could never light it" in str(exc)), exc
