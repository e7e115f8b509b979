# Run-to-completion state machine base (Quantum Leaps style active object core), and the fixed-size
# event queue that feeds it.
#
# States are small ints; each has a handler function in a tuple indexed by the
# state, so dispatching an event allocates nothing (no bound methods are made).
# A handler returns the next state, or STAY.
#
# An event is (kind, a, b) (its vocabulary: firmware/events.py): three small ints held in preallocated
# arrays, so a driver can post from a scheduled callback and the table can dispatch with the heap locked.
# A full queue never drops silently: put() returns False and the overflow count is kept for the host report.
from array import array

STAY = -1


class StateMachine:
    # Subclasses set these: names for reports/displays, and per-state handlers
    # handler(self, kind, a, b) -> next state or STAY; entry(self) or None.
    STATE_NAMES = ()
    HANDLERS = ()
    ENTRY = ()

    def __init__(self, initial):
        if len(self.HANDLERS) != len(self.STATE_NAMES) or len(self.ENTRY) != len(self.STATE_NAMES):
            raise ValueError("state tables of %s are inconsistent" % type(self).__name__)
        self.state = initial
        self.transitions = 0
        entry = self.ENTRY[initial]
        if entry is not None:
            entry(self)

    def dispatch(self, kind, a, b):
        """Process one event to completion, taking at most one transition."""
        target = self.HANDLERS[self.state](self, kind, a, b)
        if target != STAY and target != self.state:
            self.state = target
            self.transitions += 1
            entry = self.ENTRY[target]
            if entry is not None:
                entry(self)

    def state_name(self):
        return self.STATE_NAMES[self.state]


class EventQueue:
    def __init__(self, size=32):
        if size < 2:
            raise ValueError("event queue needs at least 2 slots")
        self.size = size
        self._kind = bytearray(size)
        self._a = array("i", [0] * size)
        self._b = array("i", [0] * size)
        self._head = 0   # next slot to read
        self._count = 0
        self.overflows = 0
        # The event being dispatched, copied out by get() (no tuple allocated).
        self.kind = 0
        self.a = 0
        self.b = 0

    def __len__(self):
        return self._count

    def put(self, kind, a=0, b=0):
        """Queue an event; False (and overflows += 1) when the queue is full."""
        # (each field read once into a local: put and get run several times a pass, every game's)
        count = self._count
        size = self.size
        if count == size:
            self.overflows += 1
            return False
        slot = self._head + count
        if slot >= size:
            slot -= size
        self._kind[slot] = kind
        self._a[slot] = a
        self._b[slot] = b
        self._count = count + 1
        return True

    def get(self):
        """Take the oldest event into .kind/.a/.b; returns False when empty."""
        count = self._count
        if count == 0:
            return False
        slot = self._head
        self.kind = self._kind[slot]
        self.a = self._a[slot]
        self.b = self._b[slot]
        slot += 1
        self._head = slot if slot < self.size else 0
        self._count = count - 1
        return True
