# machine.Pin and its irq(), simulated: a handle onto the GPIO's PinState (hostsim/pins.py) in the
# installed Hardware, so a Pin(5) made twice sees the same wire. Pin IRQs run at once in the caller of
# set_input()/press() (as a soft IRQ would, at the next safe point). hostsim/machine.py exports it.
from hostsim import hardware as _hw

_UNSET = object()      # "no argument given" (None is a value: pull=None)


def _pin_id(pin):
    """Pin object, int or name ("GP5", "D5", "GPIO5") -> GPIO number; ValueError otherwise."""
    if isinstance(pin, Pin):
        return pin._state.id
    if isinstance(pin, bool):
        raise ValueError("invalid pin %r" % (pin,))
    if isinstance(pin, int):
        return pin
    if isinstance(pin, str):
        for prefix in ("GPIO", "GP", "D"):
            if pin.startswith(prefix) and pin[len(prefix):].isdigit():
                return int(pin[len(prefix):])
        raise ValueError("unknown named pin \"%s\"" % pin)
    raise ValueError("invalid pin %r" % (pin,))


class Pin:
    IN = _hw.IN
    OUT = _hw.OUT
    OPEN_DRAIN = _hw.OPEN_DRAIN
    ALT = _hw.ALT
    PULL_UP = _hw.PULL_UP
    PULL_DOWN = _hw.PULL_DOWN
    IRQ_FALLING = _hw.IRQ_FALLING
    IRQ_RISING = _hw.IRQ_RISING

    def __init__(self, id, mode=-1, pull=-1, value=None, **kwargs):
        self._state = _hw.current().pin(_pin_id(id))
        self.init(mode, pull, value)

    def init(self, mode=-1, pull=-1, value=None, **kwargs):
        st = self._state
        before = st.level
        if value is not None:
            st.out = 1 if value else 0
        if mode is not None and mode != -1:
            if mode not in (Pin.IN, Pin.OUT, Pin.OPEN_DRAIN, Pin.ALT):
                raise ValueError("invalid pin mode %r" % (mode,))
            st.mode = mode
        if pull != -1:
            if pull not in (None, Pin.PULL_UP, Pin.PULL_DOWN):
                raise ValueError("invalid pull %r" % (pull,))
            st.pull = pull
        st._firmware_wrote(before)

    def value(self, x=_UNSET):
        st = self._state
        if x is _UNSET:
            return st.out if st.mode == Pin.OUT else st.level
        before = st.level
        st.out = 1 if x else 0
        st._firmware_wrote(before)
        return None

    __call__ = value

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)

    high = on
    low = off

    def toggle(self):
        self.value(0 if self._state.out else 1)

    def mode(self, mode=_UNSET):
        if mode is _UNSET:
            return self._state.mode
        self.init(mode)

    def pull(self, pull=_UNSET):
        if pull is _UNSET:
            return self._state.pull
        self.init(-1, pull)

    def irq(self, handler=_UNSET, trigger=IRQ_FALLING | IRQ_RISING, priority=1, wake=None, hard=False):
        st = self._state
        if handler is not _UNSET:
            st.handler = handler
            st.trigger = trigger if handler is not None else 0
            st.handle = self
        return _PinIRQ(st)

    def __eq__(self, other):
        return isinstance(other, Pin) and other._state is self._state

    def __hash__(self):
        return hash(("Pin", self._state.id))

    def __repr__(self):
        st = self._state
        return "Pin(GPIO%d, mode=%s%s)" % (st.id, ("IN", "OUT", "OPEN_DRAIN", "ALT")[st.mode],
                                           {None: "", 1: ", pull=PULL_UP", 2: ", pull=PULL_DOWN"}[st.pull])


class _PinIRQ:
    def __init__(self, state):
        self._state = state

    def trigger(self, trigger=None):
        if trigger is not None:
            self._state.trigger = trigger
        return self._state.trigger

    def flags(self):
        return self._state.trigger
