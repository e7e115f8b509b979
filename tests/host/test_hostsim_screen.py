"""The simulator's live screen fits an 80x24 terminal and offers only the keys the board has (issue 8 item 21)."""
import io
import json
import os

import pytest
from rich.cells import cell_len
from rich.console import Console

from firmware import table_config
from hostsim.sim import Sim, board_keys
from tests.host.link_frames import board_frame

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHIPPED = ("sim", "pico", "esp32s3")
LONG_REPORT = (b'{"seq": %d, "table": "SIM-B1", "event": "card", "card": "Qh", "face_up": false, '
               b'"evidence": "a long report that is much wider than the terminal"}\r\n')


def _sim(board_path, game, tmp_path, ports="loopback"):
    return Sim(board_path, os.path.join(REPO, "boards", "tables", "sim-%s.json" % game), str(tmp_path),
               ports=ports, ui=True, out=io.StringIO())


def _screen_text(sim, width=80, height=24):
    console = Console(width=width, height=height, record=True, file=io.StringIO(), color_system="truecolor")
    console.print(sim.screen())
    return console.export_text().rstrip("\n").split("\n")


def _light_every_zone(sim):
    import machine
    import neopixel
    strip = neopixel.NeoPixel(machine.Pin(sim.board.pixel_pin), sim.board.pixel_count)
    for i in range(sim.board.pixel_count):
        strip[i] = (60, 0, 0) if i % 2 else (0, 60, 0)     # every zone mixed: the widest cells
    strip.write()


@pytest.mark.parametrize("board", SHIPPED)
@pytest.mark.parametrize("game", table_config.GAMES)
def test_the_screen_fits_80_by_24_with_many_long_reports(tmp_path, board, game):
    sim = _sim(os.path.join(REPO, "boards", board + ".json"), game, tmp_path, ports="pty")
    try:
        _light_every_zone(sim)
        for n in range(40):
            sim.tap.seen(board_frame(n, LONG_REPORT % n))
        lines = _screen_text(sim)
    finally:
        sim.close()
    assert len(lines) <= 24, "\n".join(lines)
    assert max(cell_len(line) for line in lines) <= 80, "\n".join(lines)
    text = "\n".join(lines)
    for zone in sim.board.zones[game]:
        assert zone in text                                  # every bet zone is on the screen
    for role, uid, path in sim.hw.port_paths():
        assert path in text                                  # and every port a person attaches to
    assert "dealer LCD" in text and "result LCD" in text and "watchdog" in text
    assert '{"seq": 39,' in text and '{"seq": 0,' not in text    # the latest reports, scrolled
    assert lines[-1].startswith("keys: ")


def test_the_reports_panel_takes_the_height_that_is_left(tmp_path):
    sim = _sim(os.path.join(REPO, "boards", "sim.json"), "omaha", tmp_path)
    try:
        for n in range(40):
            sim.tap.seen(board_frame(n, LONG_REPORT % n))
        small, tall = _screen_text(sim, height=24), _screen_text(sim, height=40)
    finally:
        sim.close()
    assert len(small) == 24 and len(tall) == 40
    shown = sum(1 for line in tall if '{"seq": ' in line) - sum(1 for line in small if '{"seq": ' in line)
    assert shown == 16


@pytest.mark.parametrize("board", SHIPPED)
def test_the_key_legend_lists_only_the_boards_buttons(tmp_path, board):
    sim = _sim(os.path.join(REPO, "boards", board + ".json"), "baccarat", tmp_path)
    try:
        legend = _screen_text(sim)[-1]
    finally:
        sim.close()
    assert legend == "keys: d deal  c confirm  v void  s shoe_change  l LCD cable  q quit"


def _board_with_undo_and_menu(tmp_path):
    with open(os.path.join(REPO, "boards", "sim.json")) as f:
        data = json.load(f)
    data["buttons"].update({"undo": 14, "menu": 15})
    data["buttons"].pop("void")
    path = tmp_path / "wide.json"
    path.write_text(json.dumps(data))
    return str(path)


def test_keys_follow_the_board_buttons(tmp_path, monkeypatch):
    sim = _sim(_board_with_undo_and_menu(tmp_path), "craps", tmp_path)
    try:
        assert board_keys(sim.board) == [("d", "deal"), ("c", "confirm"), ("s", "shoe_change"), ("u", "undo"),
                                         ("m", "menu")]
        assert _screen_text(sim)[-1] == "keys: d deal  c confirm  s shoe_change  u undo  m menu  l LCD cable  q quit"
        read, write = os.pipe()
        os.write(write, b"vumx")
        os.close(write)
        with open(read, "rb", buffering=0) as fake_stdin:
            monkeypatch.setattr("sys.stdin", fake_stdin)
            sim.read_stdin = True
            roles = sim._read_keys()
        assert roles == ["undo", "menu"]                    # v: this board has no void button
        for role in roles:
            sim.press(role)
        assert sim.hw.pins[14].level == 0 and sim.hw.pins[15].level == 0
    finally:
        sim.close()


@pytest.mark.parametrize("board", SHIPPED)
def test_a_long_pty_path_is_shown_whole(tmp_path, board):
    # A busy host hands out /dev/pts/140 and beyond: the path a person types into picocom is never cut.
    sim = _sim(os.path.join(REPO, "boards", board + ".json"), "craps", tmp_path, ports="pty")
    real = sim.hw.port_paths
    sim.hw.port_paths = lambda: [(role, uid, "/dev/pts/%d" % (1400 + i) if path else path)
                                 for i, (role, uid, path) in enumerate(real())]
    try:
        lines = _screen_text(sim)
        paths = [path for _, _, path in sim.hw.port_paths() if path]
    finally:
        sim.close()
    text = "\n".join(lines)
    assert paths and all(path in text for path in paths), text
    assert max(cell_len(line) for line in lines) <= 80, text


def test_the_status_line_shows_the_firmwares_boot_counter_not_the_runs_starts(tmp_path):
    """The boot number on the screen is the one in the host-link frames (kept on flash across runs);
    the simulator's own count of starts is labelled as such."""
    sim = _sim(os.path.join(REPO, "boards", "sim.json"), "baccarat", tmp_path)
    try:
        sim.tap.seen(board_frame(0, LONG_REPORT % 0, boot=5))
        text = "\n".join(_screen_text(sim))
    finally:
        sim.close()
    assert "boot #5 (power-on), start #1 of this run" in text
