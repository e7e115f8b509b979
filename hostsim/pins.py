# The simulated MCU's GPIOs as the outside world sees them: what the firmware drives, what the host
# drives in, pulls, wires joined by closed switches (a held keypad key) and the edge IRQs that follow.
# hostsim/hardware.py's Hardware owns one Pins map; the firmware's machine.Pin (hostsim/machine.py)
# reads and writes the PinState of its GPIO.

# machine.Pin constants (rp2 values).
IN, OUT, OPEN_DRAIN, ALT = 0, 1, 2, 3
PULL_UP, PULL_DOWN = 1, 2
IRQ_FALLING, IRQ_RISING = 4, 8


class PinState:
    """One GPIO as the outside world sees it: what the firmware drives and what the host drives in."""

    def __init__(self, hw, pin_id):
        self.hw = hw
        self.id = pin_id
        self.mode = IN
        self.pull = None
        self.out = 0            # level the firmware last wrote
        self.external = None    # level the host drives in (None = not driven)
        self.handler = None     # irq handler, called with the firmware's Pin object
        self.trigger = 0
        self.handle = None      # the Pin object the irq was set up on
        self.irq_count = 0
        self.links = []         # the pins whose wires a closed switch joins to this one (a held keypad key)
        self._seen = 0          # a joined pin's level when its net last settled (for its edge IRQs)

    @property
    def level(self):
        """The level on the wire (what Pin.value() reads): on wires joined by closed switches, a pin
        pulling low wins over one driving high, which wins over a pull-up (no contention modelled)."""
        if self.mode == OUT:
            return self.out
        drive = self._drive()
        if self.links:
            drives = [pin._drive() for pin in self.net()]
            if 0 in drives:
                return 0
            drive = 1 if 1 in drives else None
            pulled_up = [pin for pin in self.net() if pin.pull == PULL_UP]
        else:
            pulled_up = self.pull == PULL_UP
        if drive is not None:
            return drive
        return 1 if pulled_up else 0

    def _drive(self):
        """What this pin itself forces onto its wire, or None (it leaves the wire to the others or a pull)."""
        if self.mode == OUT:
            return self.out
        if self.mode == OPEN_DRAIN and self.out == 0:
            return 0
        return self.external

    def net(self):
        """This pin and every pin joined to it through closed switches, over any number of hops."""
        found = [self]
        for pin in found:
            for other in pin.links:
                if other not in found:
                    found.append(other)
        return found

    def join(self, other):
        """Close a switch between this pin's wire and other's (a keypad key pressed); fires edge IRQs."""
        self._switch(other, True)

    def part(self, other):
        """Open the switch between the two wires again (the key released)."""
        self._switch(other, False)

    def _switch(self, other, closed):
        pins = self.net() + [pin for pin in other.net() if pin not in self.net()]
        for pin in pins:
            pin._seen = pin.level
        if closed and other not in self.links:
            self.links.append(other)
            other.links.append(self)
        elif not closed and other in self.links:
            self.links.remove(other)
            other.links.remove(self)
        self._settle(pins)

    def _settle(self, pins):
        for pin in pins:
            after = pin.level
            pin._edge(pin._seen, after)
            pin._seen = after

    def set_input(self, level):
        """Drive the pin from outside (None lets it float to its pull); fires edge IRQs."""
        before = self.level
        self.external = None if level is None else (1 if level else 0)
        self._changed(before)

    def press(self):
        """Active-low button down (the board wires buttons to ground, pull-up on the pin)."""
        self.set_input(0)

    def release(self):
        """Active-low button up."""
        self.set_input(1)

    def _firmware_wrote(self, before):
        self._changed(before)

    def _changed(self, before):
        if not self.links:
            self._edge(before, self.level)
            return
        self._seen = before         # the others' _seen are from their net's last change
        self._settle(self.net())

    def _edge(self, before, after):
        if self.handler is None or before == after:
            return
        edge = IRQ_RISING if after else IRQ_FALLING
        if self.trigger & edge:
            self.irq_count += 1
            self.hw._fire_irq(self.handler, self.handle)

    def reset(self):
        self.mode = IN
        self.pull = None
        self.out = 0
        self.handler = None
        self.trigger = 0
        self.handle = None

    def __repr__(self):
        return "<PinState GP%d mode=%d level=%d>" % (self.id, self.mode, self.level)


class Pins(dict):
    """GPIO number -> PinState; every GPIO of the simulated MCU exists, so a lookup makes it."""

    def __init__(self, hw):
        dict.__init__(self)
        self._hw = hw

    def __missing__(self, pin_id):
        return self._hw.pin(pin_id)
