"""`make sim` at a Baccarat table as a person sees it: the scoreboard face, the fault keys, --snapshot (issue 9)."""
import io
import json
import os
import struct
import zlib

import pytest
from rich.cells import cell_len
from rich.console import Console

from firmware.games.baccarat.roads import Roads
from firmware.games.baccarat.rules import BANKER, PLAYER, TIE
from firmware.games.baccarat.scoreboard import Scoreboard
from hostsim import hardware
from hostsim.dealer import DOUBLE_PULL, GARBLED, UNREADABLE
from hostsim.oled import SimSSD1306, find_oled
from hostsim.sim import Sim
from tests.host.link_frames import board_frame
from tests.host.test_sim_keypad import _typed     # (the live view reading keys typed at a terminal)

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OLED_ADDR = 0x3C
FAULT_LEGEND = "faults: 1 unreadable card  2 double pull  3 garbled frame   view: o scoreboard"


def _board(name="sim"):
    return os.path.join(REPO, "boards", name + ".json")


def _sim(tmp_path, game="baccarat", board=None, **kwargs):
    return Sim(board or _board(), os.path.join(REPO, "boards", "tables", "sim-%s.json" % game), str(tmp_path),
               ports="loopback", ui=True, out=io.StringIO(), **kwargs)


def _screen(sim, width=80, height=24):
    console = Console(width=width, height=height, record=True, file=io.StringIO(), color_system="truecolor")
    console.print(sim.screen())
    return console.export_text().rstrip("\n").split("\n")


def _draw_scoreboard(hw):
    """An OLED on the display bus with a shoe's roads drawn by the firmware's driver (as boot will, once
    the board files name a scoreboard display); returns the glass."""
    import machine
    from firmware.drivers.ssd1306 import SSD1306

    glass = find_oled(hw) or hw.attach_i2c(0, OLED_ADDR, SimSSD1306(128, 64, name="scoreboard"))
    addr = next(a for (bus, a), d in hw.i2c_devices.items() if d is glass)
    oled = SSD1306(machine.I2C(0, scl=machine.Pin(21), sda=machine.Pin(20), freq=400000), addr, 128, 64)
    roads = Roads()
    for i in range(40):
        roads.add((BANKER, PLAYER, BANKER, TIE, PLAYER, PLAYER)[i % 6], i % 7 == 2, i % 5 == 1)
    Scoreboard(oled, 128, 64).draw(roads)
    oled.show()
    return glass


def _fill_reports(sim, n=40):
    for i in range(n):
        sim.tap.seen(board_frame(i, b'{"seq": %d, "table": "SIM-B1", "event": "state", "state": "betting"}' % i))


# -- the scoreboard in the live view ---------------------------------------------------------------------------

@pytest.mark.parametrize("board", ["sim", "pico", "esp32s3"])
def test_the_scoreboard_face_fits_80x24_with_the_glass_the_lights_and_a_report(tmp_path, board):
    sim = _sim(tmp_path, board=_board(board))
    try:
        glass = _draw_scoreboard(sim.hw)
        _fill_reports(sim)
        sim.show_scoreboard = True
        lines = _screen(sim)
    finally:
        sim.close()
    text = "\n".join(lines)
    assert len(lines) <= 24 and max(cell_len(line) for line in lines) <= 80, text
    picture = glass.to_text(scale=2).split("\n")
    assert len(picture) == 16 and sum(line.strip() != "" for line in picture) > 10
    for row in picture:
        assert any(line.startswith(row) for line in lines), row             # the whole glass, row by row
    assert "scoreboard OLED 128x64, I2C 0 0x3c" in text
    for zone in sim.board.zones["baccarat"]:
        assert zone in text                                                  # the lights beside it
    assert '{"seq": 39,' in text and "virtual time" in text
    assert lines[-2:] == [FAULT_LEGEND, "keys: d deal  c confirm  v void  s shoe_change  l LCD cable  q quit"]


def test_a_board_without_a_scoreboard_says_so(tmp_path):
    sim = _sim(tmp_path, board=_board_without_oled(tmp_path))
    try:
        sim.show_scoreboard = True
        lines = _screen(sim)
    finally:
        sim.close()
    assert lines[1] .startswith("scoreboard: (no scoreboard on this board)") and len(lines) <= 24


def test_the_table_face_adds_the_scoreboard_when_the_terminal_is_tall_enough(tmp_path):
    sim = _sim(tmp_path)
    try:
        glass = _draw_scoreboard(sim.hw)
        _fill_reports(sim)
        small, short, tall = _screen(sim), _screen(sim, height=35), _screen(sim, height=36)
    finally:
        sim.close()
    assert "dealer LCD" in "\n".join(small) and "scoreboard OLED" not in "\n".join(small + short)
    assert "dealer LCD" in "\n".join(tall) and "scoreboard OLED" in "\n".join(tall) and len(tall) == 36
    assert glass.to_text(scale=2).split("\n")[3] in tall
    assert sum('{"seq": ' in line for line in tall) == 1                    # reports still have a line
    assert "36 lines with the sim board" in open(os.path.join(REPO, "docs", "hostsim.md")).read()


def test_the_fault_keys_reach_the_dealer_and_o_switches_the_face(tmp_path, monkeypatch):
    sim = _sim(tmp_path)
    try:
        roles = _typed(sim, monkeypatch, b"132oc")
        assert roles == ["confirm"]
        assert sim.dealer.pending == [UNREADABLE, GARBLED, DOUBLE_PULL] and sim.show_scoreboard
        sim.dealer.on_report({"event": "state", "state": "fault"})
        text = "\n".join(_screen(sim))
    finally:
        sim.close()
    assert "dealer waits: close the alarm (c confirm, v void)" in text     # the dealer's line on the panel


def test_l_pulls_the_dealer_lcds_cable_and_reseats_it(tmp_path, monkeypatch):
    # A technician shows the table riding out a loose cable: display_missing at the next write, display_back
    # within 5 s of the reseat (firmware/display_loss.py); the view shows the LCD's panel empty meanwhile.
    sim = _sim(tmp_path)
    try:
        assert _typed(sim, monkeypatch, b"l") == []
        assert sim.io.unplugged() == ["dealer"] and "(no device attached)" in "\n".join(_screen(sim))
        sim.pull_or_reseat("dealer")
        assert sim.io.unplugged() == []
    finally:
        sim.close()


# Omaha: no fault keys, but its keypad's help when the person deals (--no-demo; the digits type on the keypad
# there: tests/host/test_sim_keypad.py).
@pytest.mark.parametrize("game, demo, legend", [("baccarat", False, "view: o scoreboard"), ("craps", False, None),
                                                ("omaha", False, "         Enter enter  Bksp clear  n new  t button  "
                                                                 "e seat  $ stack")])
def test_fault_keys_only_where_a_dealer_deals_baccarat(tmp_path, monkeypatch, game, demo, legend):
    sim = _sim(tmp_path, game=game, demo=demo)
    try:
        lines = _screen(sim)
        assert _typed(sim, monkeypatch, b"123o") == []
    finally:
        sim.close()
    assert (sim.dealer is None) == (not demo) and sim.show_scoreboard == (game == "baccarat")
    if legend is None:
        assert lines[-2].startswith("╰")                                     # the reports panel, no legend
    else:
        assert lines[-2] == legend


def test_the_live_table_deals_rounds_with_bets_through_tableio(tmp_path):
    out = io.StringIO()
    sim = Sim(_board(), os.path.join(REPO, "boards", "tables", "sim-baccarat.json"), str(tmp_path),
              ports="loopback", seconds=30, speed=10.0, seed=1, out=out)
    try:
        from hostsim.sim import Quit
        with pytest.raises(Quit):
            sim.run()
    finally:
        sim.close()
    reports = [json.loads(l[len("host: "):]) for l in out.getvalue().splitlines() if l.startswith("host: ")]
    events = [r["event"] for r in reports]
    assert "fault" not in events
    assert any(r["event"] == "bets" and r["accepted"] for r in reports)
    results = [r for r in reports if r["event"] == "result"]
    assert results and all("nets" in r for r in results)
    cards = [r for r in reports if r["event"] == "card"]
    assert len(cards) <= 30 / 1.5 + 1                                       # a card every 1.5 s, no faster


# -- --snapshot ------------------------------------------------------------------------------------------------------

def _board_without_oled(tmp_path):
    with open(_board()) as f:
        data = json.load(f)
    data["displays"] = dict((k, v) for k, v in data["displays"].items() if v.get("kind") != "ssd1306")
    path = tmp_path / "no-oled.json"
    path.write_text(json.dumps(data))
    return str(path)


def _png(path):
    """(width, height, rows of RGB byte strings) of a PNG as SimSSD1306.to_png writes it (8-bit RGB, filter 0)."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, chunks = 8, {}
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        assert struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])[0] == zlib.crc32(kind + body)
        chunks[kind] = chunks.get(kind, b"") + body
        pos += 12 + length
    width, height, depth, colour = struct.unpack(">IIBB", chunks[b"IHDR"][:10])
    assert (depth, colour) == (8, 2) and b"IEND" in chunks
    raw = zlib.decompress(chunks[b"IDAT"])
    stride = 1 + 3 * width
    rows = [raw[i * stride:(i + 1) * stride] for i in range(height)]
    assert len(raw) == stride * height and all(row[0] == 0 for row in rows)
    return width, height, [row[1:] for row in rows]


def _lit(rows):
    return sum(1 for row in rows for i in range(0, len(row), 3) if row[i])


@pytest.mark.parametrize("mode", [["--headless", "--rounds", "2"], ["--no-ui", "--no-pty", "--seconds", "3"]])
def test_snapshot_on_a_board_without_a_scoreboard_is_refused_at_startup(tmp_path, capsys, mode):
    from hostsim import __main__ as cli

    target = tmp_path / "board.png"
    status = cli.main(mode + ["--board", _board_without_oled(tmp_path), "--snapshot", str(target),
                              "--state-dir", str(tmp_path)])
    captured = capsys.readouterr()
    assert status == 2 and not target.exists()
    assert captured.err.strip().splitlines()[-1] == "sim: --snapshot: board no-oled has no scoreboard display"
    assert "{" not in captured.out                                           # nothing was played


@pytest.mark.parametrize("mode", [["--headless", "--rounds", "3"], ["--no-ui", "--no-pty", "--seconds", "2"]])
def test_snapshot_writes_the_glass_as_a_png(tmp_path, monkeypatch, capsys, mode):
    from hostsim import __main__ as cli

    glasses = []
    real = hardware.configure_from_board

    def with_scoreboard(hw, board):              # the scoreboard display role has not landed in boards/ yet
        real(hw, board)
        glass = find_oled(hw)
        if glass is None:
            glass = hw.attach_i2c(0, OLED_ADDR, SimSSD1306(128, 64, name="scoreboard"))
        glasses.append(glass)
        _draw_scoreboard(hw)

    monkeypatch.setattr(hardware, "configure_from_board", with_scoreboard)
    target = tmp_path / "board.png"
    status = cli.main(mode + ["--seed", "3", "--snapshot", str(target), "--state-dir", str(tmp_path)])
    assert status == 0, capsys.readouterr().err
    width, height, rows = _png(target)
    assert (width, height) == (128 * 4, 64 * 4)
    pixels = glasses[-1].pixels()
    assert [[1 if row[12 * x] else 0 for x in range(128)] for row in rows[::4]] == pixels
    assert _lit(rows) > 1000


def test_snapshot_of_the_scoreboard_the_firmware_drew():
    # Once the board files name the scoreboard display (the board-file change of issue 9), the firmware
    # draws the roads after each result and --snapshot writes them.
    with open(_board()) as f:
        displays = json.load(f)["displays"]
    if not any(spec.get("kind") == "ssd1306" for spec in displays.values()):
        pytest.skip("boards/sim.json has no scoreboard display yet")
    import subprocess
    import sys
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        target = os.path.join(tmp, "roads.png")
        proc = subprocess.run([sys.executable, "-m", "hostsim", "--headless", "--rounds", "20", "--seed", "4",
                               "--snapshot", target], cwd=REPO, capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stderr
        width, height, rows = _png(target)
    assert (width, height) == (512, 256) and _lit(rows) > 2000



@pytest.mark.parametrize("rounds", [1, 7])
def test_headless_snapshot_shows_the_roads_of_every_round_played(tmp_path, rounds):
    # The headless run stops at the last result's report, and the firmware draws its displays at most
    # every DISPLAY_MS: the snapshot was written before that pass (after 1 round it showed "#0", an
    # empty scoreboard, beside a summary of 1 round played).
    from hostsim.autoplay import Run, play_and_summarise
    from hostsim.framebuf import MONO_VLSB, FrameBuffer

    run = Run(_board(), os.path.join(REPO, "boards", "tables", "sim-baccarat.json"), str(tmp_path), seed=3)
    glass = find_oled(run.table.hw)
    target = tmp_path / "roads.png"
    out = io.StringIO()
    assert play_and_summarise(run, rounds, str(target), out, io.StringIO(), lambda summary: False) == 0
    roads = run.table.ctx.table.roads
    assert roads.bead_count() == json.loads(out.getvalue())["rounds"] == rounds
    canvas = FrameBuffer(bytearray(128 * 64 // 8), 128, 64, MONO_VLSB)
    Scoreboard(canvas, 128, 64).draw_all(roads)              # every round played, drawn whole
    expected = [[canvas.pixel(x, y) for x in range(128)] for y in range(64)]
    assert glass.pixels() == expected
    _width, _height, rows = _png(target)
    assert [[1 if row[12 * x] else 0 for x in range(128)] for row in rows[::4]] == expected
