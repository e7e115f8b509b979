# The live simulator's terminal keys press the keypad at a table that keys it (Omaha), shown in the key help.
import io
import os

import pytest

from hostsim.sim import Sim

from hostsim.table_io import KEY_GAP_MS, SHORT_PRESS_MS
from tests.host.test_hostsim_screen import _screen_text, _sim

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture
def omaha(tmp_path):
    """An Omaha table the person at the terminal deals (--no-demo: no simulated dealer keys its keypad)."""
    sim = Sim(os.path.join(REPO, "boards", "sim.json"), os.path.join(REPO, "boards", "tables", "sim-omaha.json"),
              str(tmp_path), ports="loopback", ui=True, out=io.StringIO(), demo=False)
    yield sim
    sim.close()


def test_the_keypad_is_the_simulated_dealers_when_it_deals(tmp_path):
    sim = _sim(os.path.join(REPO, "boards", "sim.json"), "omaha", tmp_path)
    try:
        assert sim.dealer is not None and sim.keypad_keys == []
        assert not any(line.startswith("keypad:") for line in _screen_text(sim))
        assert dict(sim.keys)["c"] == "confirm"                     # c is CONFIRM again, not the keypad's call
    finally:
        sim.close()


def _typed(sim, monkeypatch, data):
    read, write = os.pipe()
    os.write(write, data)
    os.close(write)
    with open(read, "rb", buffering=0) as fake_stdin:
        monkeypatch.setattr("sys.stdin", fake_stdin)
        sim.read_stdin = True
        return sim._read_keys()


def test_the_keypad_help_is_shown_at_an_omaha_table_only(omaha, tmp_path):
    lines = _screen_text(omaha)
    assert lines[-3].startswith("keypad:  0-9 digits  f fold  k check  c call")
    assert "Enter enter  Bksp clear  n new  t button  e seat  $ stack" in lines[-2]
    assert lines[-1] == "keys: d deal  C confirm  v void  s shoe_change  l LCD cable  q quit"     # c is the keypad's call
    baccarat = _sim(os.path.join(REPO, "boards", "sim.json"), "baccarat", tmp_path / "b")
    try:
        assert baccarat.keypad_keys == [] and "keypad" not in "\n".join(_screen_text(baccarat))
    finally:
        baccarat.close()


def test_terminal_keys_type_keypad_keys_and_the_capital_is_the_moved_button(omaha, monkeypatch):
    roles = _typed(omaha, monkeypatch, b"b30\rC\x7fctex$n\n")
    assert roles == ["confirm"]                   # C; x is no key
    assert list(omaha.typed) == ["bet", "3", "0", "enter", "clear", "call", "button", "seat", "stack", "new", "enter"]


def test_typed_keys_are_pressed_one_after_the_other(omaha, monkeypatch):
    _typed(omaha, monkeypatch, b"00")
    clock = omaha.hw.clock
    now = clock.now_ms()
    omaha.press_typed(now)
    assert omaha.io.keypad.held() == ["0"] and len(omaha.typed) == 1
    omaha.press_typed(now + 10)                   # still held: the second 0 waits
    assert len(omaha.typed) == 1
    omaha.hw.advance(SHORT_PRESS_MS)
    omaha.release_due()
    omaha.press_typed(now + SHORT_PRESS_MS)       # released, but its release is not debounced yet
    assert omaha.io.keypad.held() == [] and len(omaha.typed) == 1
    omaha.press_typed(now + SHORT_PRESS_MS + KEY_GAP_MS)
    assert omaha.io.keypad.held() == ["0"] and len(omaha.typed) == 0
