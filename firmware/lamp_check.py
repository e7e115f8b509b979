# The technician's lamp check: a state of the table core (firmware.table.Table, LAMP_CHECK), apart.
#
# The console asks for it (LAMP events: a zone, every zone, the end; firmware/console/checks.py) from
# READY only, never over a fault's red alarm; each zone lit is reported to the host. Play at the table
# ends it. Table takes this mixin's entry and handler into its state tables.
from firmware.drivers import pixels

# copies of firmware.events (tests/host/test_const_copies.py)
_BUTTON = const(2)
_CARD = const(3)
_CONSOLE = const(6)
_CONSOLE_ERROR = const(10)
_CON_NO_ZONE = const(6)
_FAULT = const(8)
_FAULT_RESTORED = const(11)
_HOST = const(7)
_LAMP = const(9)
_LAMP_ALL = const(-1)
_LAMP_CHECK_END = const(-2)
_LINK_BACKLOG = const(18)
_TICK = const(1)
# copies of firmware.statemachine (tests/host/test_const_copies.py)
_STAY = const(-1)
# copies of firmware.table_codes (tests/host/test_const_copies.py)
_LAMP_CHECK = const(3)
_OUT_CONSOLE_ERROR = const(9)
_OUT_LAMP = const(8)
_OUT_STATE = const(1)
_READY = const(1)

# The events the core's states take themselves; any other is a game's input (a shoe, a reading, a throw,
# a key, a reader's restart or fault), which ends a lamp check (_on_lamp_check).
_CORE_KINDS = (_TICK, _BUTTON, _CARD, _CONSOLE, _HOST, _FAULT, _LAMP, _CONSOLE_ERROR, _FAULT_RESTORED, _LINK_BACKLOG)


class LampCheck:
    def accepts_lamp_check(self):
        """True when a lamp check may start or go on (never over a fault's red alarm)."""
        return self.state == _READY or self.state == _LAMP_CHECK

    def _enter_lamp_check(self):
        self.display_dirty = True
        self._emit(_OUT_STATE, _LAMP_CHECK)
        self._lamp(self.lamp_request)

    def _on_lamp_check(self, kind, a, b):
        if kind not in _CORE_KINDS:
            # Play (a shoe put in, a bet reading, a throw, a key): the table is in use, so the check ends
            # and the game takes the input as it would have at READY, never dropped unseen.
            self._emit(_OUT_LAMP, _LAMP_CHECK_END)
            self.state = _READY                          # the game's READY handler runs in its own state
            then = self.HANDLERS[_READY](self, kind, a, b)
            self.state = _LAMP_CHECK                     # dispatch takes the transition and its entry
            return _READY if then == _STAY else then
        if kind != _LAMP:
            return self._common(kind, a, b)
        if not self._lamp_valid(a):
            return _STAY
        if a == _LAMP_CHECK_END:
            self._emit(_OUT_LAMP, a)
            return _READY         # a real transition: READY's lights and state report come back
        self._lamp(a)
        return _STAY

    def _lamp_valid(self, a):
        if _LAMP_CHECK_END <= a < len(self.lights.names):
            return True
        self._emit(_OUT_CONSOLE_ERROR, _CON_NO_ZONE)
        return False

    def _lamp(self, a):
        """Light zone a, or every zone (LAMP_ALL); reported to the host."""
        if a == _LAMP_ALL:
            self.lights.set_all(pixels.WHITE)
        else:
            self.lights.set_all(pixels.OFF)
            self.lights.set(a, pixels.GOLD)
        self._emit(_OUT_LAMP, a)
