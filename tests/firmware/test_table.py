# The table state machine: lamp test, ready, faults and the dealer's acknowledgement.
from firmware import faults
from firmware.drivers.pixels import GOLD, OFF, RED, WHITE, ZoneLights
from firmware.events import BUTTON, CARD, FAULT, TICK
from firmware import table as t
from tests.firmware.fakes import FakeStrip

ZONES = [("banker", [[0, 3]]), ("player", [[4, 7]]), ("tie", [[8, 9]])]


def _table():
    strip = FakeStrip(10)
    return t.Table(ZoneLights(strip, 10, ZONES), confirm_button=2), strip


def _outbox(table):
    out = []
    while table.outbox.get():
        out.append((table.outbox.kind, table.outbox.a, table.outbox.b))
    return out


def test_boot_lamp_test_lights_each_zone_then_ready():
    table, strip = _table()
    assert table.state == t.STARTING
    seen = []
    for _ in range(20):
        table.dispatch(TICK, t.LAMP_STEP_MS, 0)
        table.lights.show()
        lit = [i for i in range(3) if table.lights.colours[i] is GOLD]
        if lit and lit not in seen:
            seen.append(lit)
        if table.state == t.READY:
            break
    assert seen == [[0], [1], [2]]
    assert table.state == t.READY
    assert table.lights.colours == [WHITE, WHITE, WHITE]
    assert strip.pixels[9] == WHITE
    assert (t.OUT_STATE, t.READY, 0) in _outbox(table)


def test_show_writes_only_when_changed():
    table, strip = _table()
    table.lights.show()
    writes = strip.writes
    assert not table.lights.show()
    assert strip.writes == writes


def test_inputs_are_reported_in_order():
    table, _ = _table()
    table.dispatch(CARD, 51, 0)
    table.dispatch(BUTTON, 1, 1)
    out = _outbox(table)
    assert out[-2:] == [(t.OUT_CARD, 51, 0), (t.OUT_BUTTON, 1, 1)]
    assert table.last_kind == BUTTON


def test_fault_holds_until_confirm():
    table, _ = _table()
    for _ in range(10):
        table.dispatch(TICK, 100, 0)
    table.dispatch(FAULT, faults.BAD_CARD, 0)
    assert table.state == t.FAULTED
    assert table.lights.colours == [RED, RED, RED]
    table.dispatch(BUTTON, 1, 1)             # not CONFIRM: still faulted
    assert table.state == t.FAULTED
    table.dispatch(BUTTON, 2, 1)             # CONFIRM
    assert table.state == t.READY
    out = _outbox(table)
    assert (t.OUT_FAULT, faults.BAD_CARD, 0) in out
    assert (t.OUT_ACK, faults.BAD_CARD, 0) in out


def test_second_fault_while_faulted_is_reported_too():
    table, _ = _table()
    table.dispatch(FAULT, faults.BAD_CARD, 0)
    _outbox(table)
    table.dispatch(FAULT, faults.BAD_DICE, 37)
    assert (t.OUT_FAULT, faults.BAD_DICE, 37) in _outbox(table)


def test_outbox_overflow_counted_not_silent():
    table, _ = _table()
    for i in range(200):
        table.dispatch(CARD, i % 52, 0)
    assert table.outbox.overflows > 0


def test_lamp_check():
    table, _ = _table()
    table.lamp(1)
    assert table.lights.colours == [OFF, GOLD, OFF]
    table.lamp(-1)
    assert table.lights.colours == [WHITE, WHITE, WHITE]
