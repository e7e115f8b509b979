# The table's state machine: boot lamp test, ready, fault; fed one event at a time.
#
# This is the game-independent core every per-game controller builds on. It
# never blocks and never allocates while dispatching: side effects are zone
# colours (preallocated tuples), small-int fields the display task renders
# later, and (code, a, b) entries in a fixed-size outbox the report task sends.
from firmware import faults
from firmware.compat import const
from firmware.drivers import pixels
from firmware.evidence import Evidence
from firmware.events import BUTTON, CARD, DICE, EventQueue, FAULT, NO_ROLL, TICK
from firmware.statemachine import STAY, StateMachine

STARTING = const(0)
READY = const(1)
FAULTED = const(2)

# Outbox codes (what the report task turns into host reports).
OUT_STATE = const(1)      # a: new state
OUT_BUTTON = const(2)     # a: button index, b: pressed
OUT_CARD = const(3)       # a: card, b: face up
OUT_DICE = const(4)       # a, b: faces
OUT_NO_ROLL = const(5)    # a: reason
OUT_FAULT = const(6)      # a: fault code, b: detail
OUT_ACK = const(7)        # a: fault code acknowledged by the dealer

LAMP_STEP_MS = const(60)


class Table(StateMachine):
    STATE_NAMES = ("starting", "ready", "fault")

    def __init__(self, lights, confirm_button=-1, outbox_size=64):
        self.lights = lights
        self.confirm_button = confirm_button
        self.outbox = EventQueue(outbox_size)
        self.evidence = Evidence()    # bytes behind reports, by handle (outbox entries are ints)
        self.lamp_zone = 0
        self.lamp_ms = 0
        self.uptime_ms = 0
        self.fault_code = 0
        self.fault_detail = 0
        self.last_kind = 0        # last input event, for the displays
        self.last_a = 0
        self.last_b = 0
        self.display_dirty = True
        StateMachine.__init__(self, STARTING)

    def _emit(self, code, a=0, b=0):
        # A full outbox is itself reported (overflows is read by the report task).
        self.outbox.put(code, a, b)

    def _note(self, kind, a, b):
        self.last_kind = kind
        self.last_a = a
        self.last_b = b
        self.display_dirty = True

    # -- state entries -------------------------------------------------------
    def _enter_starting(self):
        self.lamp_zone = 0
        self.lamp_ms = 0
        self.lights.set_all(pixels.OFF)
        self._emit(OUT_STATE, STARTING)

    def _enter_ready(self):
        self.lights.set_all(pixels.WHITE)
        self.display_dirty = True
        self._emit(OUT_STATE, READY)

    def _enter_faulted(self):
        self.lights.set_all(pixels.RED)
        self.display_dirty = True
        self._emit(OUT_STATE, FAULTED)
        self._emit(OUT_FAULT, self.fault_code, self.fault_detail)

    # -- handlers --------------------------------------------------------------
    def _common(self, kind, a, b):
        """Events every state handles the same way; returns a target or STAY."""
        if kind == TICK:
            self.uptime_ms += a
        elif kind == FAULT:
            self.fault_code = a
            self.fault_detail = b
            if self.state == FAULTED:      # already faulted: report the further fault
                self._emit(OUT_FAULT, a, b)
            return FAULTED
        elif kind == BUTTON:
            self._emit(OUT_BUTTON, a, b)
            self._note(kind, a, b)
        elif kind == CARD:
            self._emit(OUT_CARD, a, b)
            self._note(kind, a, b)
        elif kind == DICE:
            self._emit(OUT_DICE, a, b)
            self._note(kind, a, b)
        elif kind == NO_ROLL:
            self._emit(OUT_NO_ROLL, a)
            self._note(kind, a, b)
        return STAY

    def _on_starting(self, kind, a, b):
        target = self._common(kind, a, b)
        if target != STAY or kind != TICK:
            return target
        # Lamp test: light each zone in turn so a dead strip segment is seen at boot.
        self.lamp_ms += a
        if self.lamp_ms < LAMP_STEP_MS:
            return STAY
        self.lamp_ms = 0
        lights = self.lights
        if self.lamp_zone > 0:
            lights.set(self.lamp_zone - 1, pixels.OFF)
        if self.lamp_zone >= len(lights.names):
            return READY
        lights.set(self.lamp_zone, pixels.GOLD)
        self.lamp_zone += 1
        return STAY

    def _on_ready(self, kind, a, b):
        return self._common(kind, a, b)

    def _on_faulted(self, kind, a, b):
        target = self._common(kind, a, b)
        if kind == BUTTON and a == self.confirm_button and b == 1:
            # The dealer acknowledges the alarm with CONFIRM; the fault stays in the report log.
            self._emit(OUT_ACK, self.fault_code)
            self.fault_code = 0
            return READY
        return target

    HANDLERS = (_on_starting, _on_ready, _on_faulted)
    ENTRY = (_enter_starting, _enter_ready, _enter_faulted)

    # -- technician lamp check (console) ---------------------------------------
    def lamp(self, zone):
        """zone index, -1 for all, -2 to end the check and restore the state's lights."""
        if zone == -2:
            entry = self.ENTRY[self.state]
            entry(self)
        elif zone == -1:
            self.lights.set_all(pixels.WHITE)
        else:
            self.lights.set_all(pixels.OFF)
            self.lights.set(zone, pixels.GOLD)
