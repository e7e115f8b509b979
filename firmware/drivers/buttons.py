# Dealer buttons: polled (not interrupt driven) and debounced, posting BUTTON events.
#
# Buttons are wired active low with the pin's pull-up. A press is reported once
# the level has been stable for `stable_polls` consecutive polls; a button still
# held `long_polls` polls after its press is reported once more as a long press
# (BUTTON_LONG), so a procedure can ask for a deliberate hold (e.g. void a round)
# while a short press stays a short press. The release is reported as usual.
from array import array

# copies of firmware.events (tests/host/test_const_copies.py)
_BUTTON = const(2)
_BUTTON_LONG = const(2)
_BUTTON_PRESSED = const(1)
_BUTTON_RELEASED = const(0)



class Buttons:
    def __init__(self, pins, stable_polls=3, long_polls=100):
        """pins: list of machine.Pin objects (inputs with pull-up), index = button index.
        long_polls: polls a press must last to be a long press (100 x 10 ms = 1 s)."""
        self.pins = pins
        self.stable_polls = stable_polls
        self.long_polls = long_polls
        n = len(pins)
        self.pressed = bytearray(n)     # debounced state
        self._count = bytearray(n)      # consecutive polls disagreeing with the state
        self._held = array("H", [0] * n)  # polls since the debounced press (stops at long_polls)
        # Every button up as debounced and none counting (the usual case): a poll reads each pin and
        # has nothing to do unless one reads down (the loop below costs ~1.5 times as much a poll).
        self._quiet = True

    def poll(self, queue):
        """Read every pin once; post BUTTON events for debounced changes and long presses."""
        if self._quiet:
            i = 0
            for pin in self.pins:
                if not pin.value():                 # down: its count starts (as the loop below would)
                    self._quiet = False
                    self._disagree(i, 1, queue)
                i += 1
            return
        pressed = self.pressed
        count = self._count
        quiet = True
        i = 0
        for pin in self.pins:
            level_pressed = 0 if pin.value() else 1
            if level_pressed == pressed[i]:         # as debounced (the usual case: nothing to post)
                if count[i]:
                    count[i] = 0
                if level_pressed:
                    quiet = False
                    if self._held[i] < self.long_polls:
                        self._held[i] += 1
                        if self._held[i] == self.long_polls:
                            queue.put(_BUTTON, i, _BUTTON_LONG)
            else:
                quiet = False
                self._disagree(i, level_pressed, queue)
            i += 1
        self._quiet = quiet

    def _disagree(self, i, level_pressed, queue):
        """Button i read the other way than debounced: one poll more; a change after stable_polls."""
        count = self._count
        count[i] += 1
        if count[i] >= self.stable_polls:
            count[i] = 0
            self.pressed[i] = level_pressed
            self._held[i] = 0
            queue.put(_BUTTON, i, _BUTTON_PRESSED if level_pressed else _BUTTON_RELEASED)
