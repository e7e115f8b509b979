# CircuitPython's `microcontroller` module, the little of it Adafruit's neopixel.py needs (microcontroller.Pin).
#
# Adafruit's library annotates `pin: microcontroller.Pin`; without this module
# the annotation itself raises NameError when the library is imported.


class Pin:
    """A GPIO of the simulated MCU, identified by its number (same numbers as machine.Pin)."""

    def __init__(self, pin_id):
        self.id = pin_id

    def __eq__(self, other):
        return isinstance(other, Pin) and other.id == self.id

    def __hash__(self):
        return hash(("microcontroller.Pin", self.id))

    def __repr__(self):
        return "board.D%d" % self.id


class _PinNamespace:
    pass


pin = _PinNamespace()
for _n in range(64):
    setattr(pin, "GPIO%d" % _n, Pin(_n))
del _n
