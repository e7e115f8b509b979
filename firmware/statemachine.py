# Run-to-completion state machine base (Quantum Leaps style active object core).
#
# States are small ints; each has a handler function in a tuple indexed by the
# state, so dispatching an event allocates nothing (no bound methods are made).
# A handler returns the next state, or STAY.

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
