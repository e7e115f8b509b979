# The fixed-size event queue and the allocation-free dispatch path.
from firmware import events
from firmware.compat import IS_MICROPYTHON, heap_lock, heap_unlock
from firmware.drivers.pixels import ZoneLights
from firmware.events import BUTTON, CARD, EventQueue, TICK
from firmware.table import READY, Table
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
    heap_lock()
    try:
        for i in range(50):
            q.put(TICK, 10)
            q.put(BUTTON, 1, i & 1)
            q.put(CARD, i % 52, 0)
            while q.get():
                table.dispatch(q.kind, q.a, q.b)
            while table.outbox.get():
                pass
    finally:
        heap_unlock()
    assert table.state == READY
    assert table.last_kind == CARD and table.last_a == 49
