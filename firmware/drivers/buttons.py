# Dealer buttons: polled (not interrupt driven) and debounced, posting BUTTON events.
#
# Buttons are wired active low with the pin's pull-up. A press is reported once
# the level has been stable for `stable_polls` consecutive polls.
from firmware.events import BUTTON


class Buttons:
    def __init__(self, pins, stable_polls=3):
        """pins: list of machine.Pin objects (inputs with pull-up), index = button index."""
        self.pins = pins
        self.stable_polls = stable_polls
        n = len(pins)
        self.pressed = bytearray(n)     # debounced state
        self._count = bytearray(n)      # consecutive polls disagreeing with the state

    def poll(self, queue):
        """Read every pin once; post BUTTON events for debounced changes."""
        for i in range(len(self.pins)):
            level_pressed = 1 if self.pins[i].value() == 0 else 0
            if level_pressed == self.pressed[i]:
                self._count[i] = 0
                continue
            self._count[i] += 1
            if self._count[i] >= self.stable_polls:
                self._count[i] = 0
                self.pressed[i] = level_pressed
                queue.put(BUTTON, i, level_pressed)
