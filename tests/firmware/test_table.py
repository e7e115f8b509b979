# The table state machine: lamp test, ready, faults and the dealer's acknowledgement.
from firmware import faults
from firmware.drivers.pixels import GOLD, OFF, RED, WHITE, ZoneLights
from firmware.events import (BUTTON, CARD, CON_NO_ZONE, CON_REFUSED, CON_UNKNOWN_COMMAND, CONSOLE_ERROR, FAULT,
                             FAULT_RESTORED, LAMP, LAMP_ALL, LAMP_CHECK_END, TICK)
from firmware import table_codes as t
from firmware.table import Table
from tests.firmware.fakes import FakeStrip

ZONES = [("banker", [[0, 3]]), ("player", [[4, 7]]), ("tie", [[8, 9]])]


def _table():
    strip = FakeStrip(10)
    return Table(ZoneLights(strip, 10, ZONES), confirm_button=2), strip


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
    table.dispatch(BUTTON, 1, 1)
    table.dispatch(BUTTON, 1, 0)
    out = _outbox(table)
    assert out[-2:] == [(t.OUT_BUTTON, 1, 1), (t.OUT_BUTTON, 1, 0)]
    assert (table.last_kind, table.last_a, table.last_b) == (BUTTON, 1, 0)


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
    table.dispatch(FAULT, faults.QUEUE_FULL, 37)
    assert (t.OUT_FAULT, faults.QUEUE_FULL, 37) in _outbox(table)


def test_outbox_overflow_counted_not_silent():
    table, _ = _table()
    for i in range(200):
        table.dispatch(BUTTON, 1, i & 1)
    assert table.outbox.overflows > 0


def _ready():
    table, strip = _table()
    while table.state != t.READY:
        table.dispatch(TICK, t.LAMP_STEP_MS, 0)
    _outbox(table)
    return table


def test_lamp_check_is_a_state_entered_from_ready():
    table = _ready()
    table.dispatch(LAMP, 1, 0)
    assert table.state == t.LAMP_CHECK
    assert table.lights.colours == [OFF, GOLD, OFF]
    table.dispatch(LAMP, LAMP_ALL, 0)
    assert table.lights.colours == [WHITE, WHITE, WHITE]
    table.dispatch(LAMP, 2, 0)
    assert table.lights.colours == [OFF, OFF, GOLD]
    assert _outbox(table) == [(t.OUT_STATE, t.LAMP_CHECK, 0), (t.OUT_LAMP, 1, 0), (t.OUT_LAMP, LAMP_ALL, 0),
                              (t.OUT_LAMP, 2, 0)]


def test_lamp_check_end_restores_the_lights_with_one_state_report():
    """issue 8 #13: ending the check used to re-run the entry action outside dispatch."""
    table = _ready()
    table.dispatch(LAMP, 0, 0)
    _outbox(table)
    table.dispatch(LAMP, LAMP_CHECK_END, 0)
    assert table.state == t.READY and table.lights.colours == [WHITE, WHITE, WHITE]
    assert _outbox(table) == [(t.OUT_LAMP, LAMP_CHECK_END, 0), (t.OUT_STATE, t.READY, 0)]
    table.dispatch(LAMP, LAMP_CHECK_END, 0)             # nothing to end: nothing happens or is reported
    assert table.state == t.READY and _outbox(table) == []


def test_lamp_refused_while_faulted_keeps_the_alarm():
    """issue 8 #13: `lamp all` during a fault turned the red alarm white."""
    table = _ready()
    table.dispatch(FAULT, faults.BAD_CARD, 0)
    _outbox(table)
    for a in (LAMP_ALL, 1, LAMP_CHECK_END):
        table.dispatch(LAMP, a, 0)
        assert table.state == t.FAULTED and table.lights.colours == [RED, RED, RED]
    # Refusals are reported (the console checks first; these arrived behind a fault in the same pass).
    assert _outbox(table) == [(t.OUT_CONSOLE_ERROR, CON_REFUSED, 0), (t.OUT_CONSOLE_ERROR, CON_REFUSED, 0)]


def test_lamp_refused_during_the_boot_lamp_test():
    table, _ = _table()
    _outbox(table)
    table.dispatch(LAMP, LAMP_ALL, 0)
    assert table.state == t.STARTING
    assert _outbox(table) == [(t.OUT_CONSOLE_ERROR, CON_REFUSED, 0)]


def test_lamp_zone_out_of_range_is_reported_not_raised():
    table = _ready()
    for a in (3, 99, -3):
        table.dispatch(LAMP, a, 0)
    assert table.state == t.READY
    assert _outbox(table) == [(t.OUT_CONSOLE_ERROR, CON_NO_ZONE, 0)] * 3


def test_fault_during_lamp_check_shows_the_alarm():
    table = _ready()
    table.dispatch(LAMP, LAMP_ALL, 0)
    table.dispatch(FAULT, faults.PARTIAL_LINE, 0)
    assert table.state == t.FAULTED and table.lights.colours == [RED, RED, RED]
    table.dispatch(BUTTON, 2, 1)
    assert table.state == t.READY and table.lights.colours == [WHITE, WHITE, WHITE]


def test_console_error_goes_through_the_outbox_in_order():
    """issue 8 #14: one report path, in event order."""
    table = _ready()
    handle = table.evidence.keep(b"fly me")
    table.dispatch(BUTTON, 1, 1)
    table.dispatch(CONSOLE_ERROR, CON_UNKNOWN_COMMAND, handle)
    table.dispatch(BUTTON, 1, 0)
    assert _outbox(table) == [(t.OUT_BUTTON, 1, 1), (t.OUT_CONSOLE_ERROR, CON_UNKNOWN_COMMAND, handle),
                              (t.OUT_BUTTON, 1, 0)]
    assert table.evidence.text(handle) == "fly me"


def test_a_card_no_game_state_takes_is_an_alarm_not_lost():
    # The core reports no card itself: a CARD reaching it (a card drawn during a lamp check, at a
    # table that deals none) is the card_out_of_order alarm naming the card, held until CONFIRM.
    table = _ready()
    table.dispatch(CARD, 51, 1)
    assert table.state == t.FAULTED and table.lights.colours == [RED, RED, RED]
    assert (table.fault_code, table.fault_detail) == (faults.CARD_OUT_OF_ORDER, 51)
    assert _outbox(table) == [(t.OUT_STATE, t.FAULTED, 0), (t.OUT_FAULT, faults.CARD_OUT_OF_ORDER, 51)]
    table.dispatch(CARD, 7, 0)                          # another while held: reported too
    assert _outbox(table) == [(t.OUT_FAULT, faults.CARD_OUT_OF_ORDER, 7)]
    table.dispatch(BUTTON, 2, 1)
    assert table.state == t.READY
    table.dispatch(LAMP, LAMP_ALL, 0)                   # during a technician's lamp check
    _outbox(table)
    table.dispatch(CARD, 0, 0)
    assert table.state == t.FAULTED and (table.fault_code, table.fault_detail) == (faults.CARD_OUT_OF_ORDER, 0)
    table.dispatch(BUTTON, 2, 1)
    assert table.state == t.READY                       # the lamp check is over: READY's lights
    assert table.lights.colours == [WHITE, WHITE, WHITE]


def test_uptime_marks_the_display_dirty_once_a_second():
    """issue 8 #15: a TICK never marked the display dirty, so the LCD showed a stale uptime."""
    table = _ready()
    table.dispatch(TICK, 1000 - table.uptime_part_ms - 10, 0)
    table.display_dirty = False
    table.dispatch(TICK, 5, 0)                          # same second shown: no redraw
    assert not table.display_dirty
    seconds = table.uptime_s
    table.dispatch(TICK, 5, 0)                          # the shown second changes
    assert table.display_dirty and table.uptime_s == seconds + 1
    table.display_dirty = False
    table.dispatch(TICK, 2500, 0)                       # a long pass: whole seconds carried over
    assert table.display_dirty and table.uptime_s == seconds + 3 and table.uptime_part_ms == 500


def test_restored_fault_is_reported_as_restored_and_acknowledged_like_any():
    """issue 8 #17: a fault from before the reset puts the table straight back into FAULT."""
    table, _ = _table()
    _outbox(table)
    table.dispatch(FAULT_RESTORED, faults.BAD_CARD, 7)
    assert table.state == t.FAULTED and table.lights.colours == [RED, RED, RED]
    assert _outbox(table) == [(t.OUT_STATE, t.FAULTED, 0), (t.OUT_FAULT_RESTORED, faults.BAD_CARD, 7)]
    table.dispatch(FAULT, faults.CRASHED, 0)            # a new fault on top is a new fault
    assert _outbox(table) == [(t.OUT_FAULT, faults.CRASHED, 0)]
    table.dispatch(BUTTON, 2, 1)
    assert table.state == t.READY and (table.fault_code, table.fault_detail) == (0, 0)


def test_every_game_numbers_its_states_after_the_core():
    # Table.resume_after_fault holds a game where it was for any state from GAME_FIRST_STATE on.
    from firmware.games.baccarat import codes as baccarat
    from firmware.games.craps import codes as craps
    from firmware.games.omaha import codes as omaha
    assert t.GAME_FIRST_STATE == t.LAMP_CHECK + 1
    assert baccarat.BURNING == craps.COME_OUT == omaha.DEALING == t.GAME_FIRST_STATE
