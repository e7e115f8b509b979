# The fixed-size event queue and the allocation-free dispatch path.
from firmware import events, faults
from firmware.compat import IS_MICROPYTHON, heap_lock, heap_unlock
from firmware.drivers.pixels import ZoneLights
from firmware.events import (BUTTON, CARD, CON_UNKNOWN_COMMAND, CONSOLE_ERROR, FAULT, FAULT_RESTORED,
                             LAMP, LAMP_ALL, LAMP_CHECK_END, TICK)
from firmware.statemachine import EventQueue
from firmware.table_codes import FAULTED, LAMP_CHECK, READY
from firmware.table import Table
from tests.firmware.fakes import FakeStrip


def test_fifo_order_and_fields():
    q = EventQueue(4)
    assert q.put(TICK, 10)
    assert q.put(CARD, 51, 1)
    assert len(q) == 2
    assert q.get() and (q.kind, q.a, q.b) == (TICK, 10, 0)
    assert q.get() and (q.kind, q.a, q.b) == (CARD, 51, 1)
    assert not q.get()


def test_wraps_around_many_times():
    q = EventQueue(3)
    for i in range(100):
        assert q.put(BUTTON, i, i & 1)
        assert q.get() and q.a == i and q.b == i & 1
    assert len(q) == 0


def test_full_queue_refuses_and_counts():
    q = EventQueue(2)
    assert q.put(TICK, 1) and q.put(TICK, 2)
    assert not q.put(TICK, 3)
    assert q.overflows == 1
    assert q.get() and q.a == 1      # nothing already queued was lost
    assert q.put(TICK, 4)
    assert q.get() and q.a == 2
    assert q.get() and q.a == 4


def test_negative_and_large_args():
    q = EventQueue(2)
    q.put(events.FAULT, -5, 1 << 20)
    assert q.get() and q.a == -5 and q.b == 1 << 20


def _ready_table():
    zones = [("banker", [[0, 3]]), ("player", [[4, 7]]), ("tie", [[8, 9]])]
    table = Table(ZoneLights(FakeStrip(10), 10, zones), confirm_button=0)
    while table.state != READY:
        table.dispatch(TICK, 100, 0)
    while table.outbox.get():
        pass
    return table


def test_heap_locked_dispatch_allocates_nothing():
    """A button/card/tick dispatch runs with the heap locked (MicroPython proves it)."""
    table = _ready_table()
    q = EventQueue(8)
    if IS_MICROPYTHON:
        # The lock is real here: allocating under it must fail, or this test proves nothing.
        heap_lock()
        try:
            [1, 2, 3]
            allocated = True
        except MemoryError:
            allocated = False
        heap_unlock()
        assert not allocated
    start = table.transitions
    heap_lock()
    try:
        for i in range(50):
            q.put(TICK, 10)
            q.put(BUTTON, 1, i & 1)
            q.put(CARD, i % 52, 0)       # no game takes it here: the core's card_out_of_order alarm
            q.put(BUTTON, 0, 1)          # CONFIRM -> READY
            while q.get():
                table.dispatch(q.kind, q.a, q.b)
            while table.outbox.get():
                pass
    finally:
        heap_unlock()
    assert table.state == READY and table.transitions == start + 50 * 2
    assert table.last_kind == BUTTON and table.last_a == 0


def _one_of_each(q, i):
    """Every event the console and the boot post (issue 8), and a fault acknowledged."""
    q.put(TICK, 400)                     # the shown second changes every few passes
    q.put(LAMP, i % 3)                   # READY -> LAMP_CHECK
    q.put(LAMP, LAMP_ALL)
    q.put(LAMP, LAMP_CHECK_END)          # -> READY
    q.put(CONSOLE_ERROR, CON_UNKNOWN_COMMAND, i + 1)
    q.put(FAULT, faults.BAD_CARD, i)     # -> FAULTED
    q.put(LAMP, LAMP_ALL)                # refused: the alarm stays
    q.put(BUTTON, 0, 1)                  # CONFIRM -> READY
    q.put(BUTTON, 0, 0)
    q.put(FAULT_RESTORED, faults.CRASHED, 0)
    q.put(BUTTON, 0, 1)


def test_heap_locked_dispatch_of_lamp_console_and_fault_events():
    table = _ready_table()
    q = EventQueue(16)
    states = []
    _one_of_each(q, 0)                   # once unlocked: the sequence does what it says
    while q.get():
        table.dispatch(q.kind, q.a, q.b)
        states.append(table.state)
    assert states == [READY, LAMP_CHECK, LAMP_CHECK, READY, READY, FAULTED, FAULTED, READY, READY, FAULTED, READY]
    start = table.transitions
    heap_lock()
    try:
        for i in range(50):
            _one_of_each(q, i)
            while q.get():
                table.dispatch(q.kind, q.a, q.b)
            while table.outbox.get():
                pass
    finally:
        heap_unlock()
    assert table.state == READY and table.transitions == start + 50 * 6
    assert table.uptime_s == 51 * 400 // 1000 and table.outbox.overflows == 0
