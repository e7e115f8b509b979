# The simulated keypad: a held key joins its row and column wires, the firmware's own scan reads it
# through hostsim's machine.Pin, and TableIO / HeadlessTable key it on the virtual clock.
import os

import pytest

from firmware import board as board_mod
from firmware import events
from firmware.events import KEY
from firmware.statemachine import EventQueue
from firmware.hardware import bring_up
from hostsim import hardware
from hostsim.headless import SETTLE_MS, HeadlessTable
from hostsim.keypad import SimKeypad
from hostsim.pins import IN
from hostsim.table_io import KEY_GAP_MS, SHORT_PRESS_MS, TableIO

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BOARD = os.path.join(REPO, "boards", "sim.json")
KEYS = ["new", "button", "seat", "stack", "1", "2", "3", "fold", "4", "5", "6", "check", "7", "8", "9", "call",
        "clear", "0", "enter", "bet", "allin", "raise"]


@pytest.fixture
def sim():
    board = board_mod.load(BOARD)
    hw = hardware.install(board=board)
    yield hw, board
    hardware.uninstall()


def _events(queue):
    out = []
    while queue.get():
        out.append((queue.kind, queue.a, queue.b))
    return out


def test_a_column_reads_low_only_while_the_held_keys_row_is_pulled_low(sim):
    hw, board = sim
    import machine
    spec = board.keypad
    fold = board.key_index("fold")                       # row 1, column 3
    row = machine.Pin(spec["rows"][1], machine.Pin.OPEN_DRAIN, value=1)
    other_row = machine.Pin(spec["rows"][2], machine.Pin.OPEN_DRAIN, value=1)
    col = machine.Pin(spec["cols"][3], machine.Pin.IN, machine.Pin.PULL_UP)
    keys = SimKeypad(hw, spec)
    keys.press("fold")
    assert keys.held() == ["fold"] and keys.index("fold") == fold
    assert col.value() == 1                  # the row is released: high impedance pulls nothing
    other_row.value(0)
    assert col.value() == 1                  # a row the key does not join
    other_row.value(1)
    row.value(0)
    assert col.value() == 0
    row.value(1)
    assert col.value() == 1
    row.init(machine.Pin.IN, machine.Pin.PULL_UP)        # an input row pulls nothing either
    assert col.value() == 1
    row.init(machine.Pin.OPEN_DRAIN, value=0)
    assert col.value() == 0
    keys.release("fold")
    assert col.value() == 1 and keys.held() == []


def test_a_column_irq_fires_when_the_scan_reaches_a_held_key(sim):
    hw, board = sim
    import machine
    row = machine.Pin(board.keypad["rows"][0], machine.Pin.OPEN_DRAIN, value=1)
    col = machine.Pin(board.keypad["cols"][0], machine.Pin.IN, machine.Pin.PULL_UP)
    falls = []
    col.irq(lambda pin: falls.append(pin.value()), machine.Pin.IRQ_FALLING)
    keys = SimKeypad(hw, board.keypad)
    keys.press("new")
    assert falls == []
    row.value(0)
    assert falls == [0]
    keys.release("new")                      # the column goes back up: no falling edge
    keys.press("new")
    assert falls == [0, 0]                   # joined to a row already low


def test_the_firmware_driver_scans_the_simulated_matrix(sim):
    hw, board = sim
    import machine
    import neopixel
    fw = bring_up(board, "omaha", machine, neopixel)
    keys = SimKeypad(hw, board.keypad)
    queue = EventQueue(16)
    for legend in ("enter", "fold", "new", "raise", "0"):
        keys.press(legend)
        for _ in range(3):
            fw.keypad.poll(queue)
        keys.release(legend)
        for _ in range(3):
            fw.keypad.poll(queue)
    assert _events(queue) == [(KEY, board.key_index(legend), 0) for legend in ("enter", "fold", "new", "raise", "0")]
    for pin in board.keypad["rows"]:
        assert hw.pins[pin].mode == machine.Pin.OPEN_DRAIN and hw.pins[pin].out == 1     # released between scans


def test_three_keys_on_a_rectangle_ghost_in_the_simulation_and_the_driver_posts_nothing(sim):
    hw, board = sim
    import machine
    import neopixel
    fw = bring_up(board, "omaha", machine, neopixel)
    keys = SimKeypad(hw, board.keypad)
    queue = EventQueue(16)
    for legend in ("1", "3", "7"):           # rows 1 and 3, columns 0 and 2: "9" is the fourth corner
        keys.press(legend)
    for _ in range(10):
        fw.keypad.poll(queue)
    assert fw.keypad._read[board.key_index("9")] == 1           # the wires ghost "9"
    assert _events(queue) == []


def test_an_unknown_legend_names_the_keys_there_are(sim):
    hw, board = sim
    io = TableIO(hw, board)
    assert io.key_legends() == KEYS
    with pytest.raises(ValueError) as info:
        io.press_key("double")
    assert "no key 'double'" in str(info.value) and "new, button, seat, stack, 1" in str(info.value)
    with pytest.raises(ValueError):
        io.press_key("")                     # an empty matrix position is no key
    assert not io.holding()


def test_a_board_without_a_keypad_has_no_keys(tmp_path):
    import json
    with open(BOARD) as f:
        data = json.load(f)
    del data["keypad"]
    board = board_mod.validate("nokeys", data)
    hw = hardware.install(board=board)
    try:
        io = TableIO(hw, board)
        assert io.key_legends() == [] and io.keypad is None
        with pytest.raises(ValueError, match="board nokeys has no keypad"):
            io.press_key("enter")
    finally:
        hardware.uninstall()


def test_press_key_holds_the_key_until_release_due(sim):
    hw, board = sim
    io = TableIO(hw, board)
    assert io.press_key("bet") == SHORT_PRESS_MS
    assert io.keypad.held() == ["bet"] and io.holding()
    hw.advance(SHORT_PRESS_MS - 1)
    io.release_due()
    assert io.keypad.held() == ["bet"]
    hw.advance(1)
    io.release_due()
    assert io.keypad.held() == [] and not io.holding()


def _booted(tmp_path, game):
    table = HeadlessTable(BOARD, os.path.join(REPO, "boards", "tables", "sim-%s.json" % game), str(tmp_path),
                          lambda line: None)
    try:
        table.boot()
        table.wait_booted()
        seen = []
        dispatch = table.ctx.table.dispatch
        table.ctx.table.dispatch = lambda kind, a, b: (seen.append((kind, a, b)), dispatch(kind, a, b))
        yield table, seen
    finally:
        table.close()


@pytest.fixture
def booted(tmp_path):
    yield from _booted(tmp_path, "omaha")      # the game that reads the keypad (KEYPAD_GAMES)


@pytest.fixture
def booted_baccarat(tmp_path):
    yield from _booted(tmp_path, "baccarat")


def _keys(seen):
    return [(kind, a, b) for kind, a, b in seen if kind == events.KEY]


def test_table_io_press_key_reaches_the_booted_firmware_as_one_key_event(booted):
    table, seen = booted
    table.run_for(table.io.press_key("call", hold_ms=2000))     # held 2 s: still one press
    table.io.release_due()
    table.run_for(SETTLE_MS)
    assert _keys(seen) == [(KEY, table.board.key_index("call"), 0)]


def test_a_table_whose_game_reads_no_keypad_does_not_scan_it(booted_baccarat):
    """Baccarat on a board with a keypad: the keypad is not brought up (firmware.table_config.KEYPAD_GAMES), so a
    key pressed is no event (nor a journal record), and its row pins are never driven."""
    table, seen = booted_baccarat
    assert table.ctx.hw.keypad is None
    rows = [table.hw.pin(pin) for pin in table.board.keypad["rows"]]
    table.type_keys(["bet", "1", "enter"])
    assert _keys(seen) == [] and all(row.mode == IN for row in rows)      # never made open drain, never driven


def test_type_keys_keys_a_sequence_and_a_repeated_key_twice(booted):
    table, seen = booted
    start = table.now_ms()
    table.type_keys(["bet", "1", "0", "0", "enter"])
    index = table.board.key_index
    assert _keys(seen) == [(KEY, index(legend), 0) for legend in ("bet", "1", "0", "0", "enter")]
    assert table.now_ms() - start == 5 * (SHORT_PRESS_MS + KEY_GAP_MS) + SETTLE_MS
    with pytest.raises(ValueError, match="no key 'double'"):
        table.type_keys(["bet", "double"])
    assert len(_keys(seen)) == 5            # nothing of a refused sequence was keyed
