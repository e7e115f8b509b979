# CircuitPython's `digitalio` module (DigitalInOut, Direction, Pull, DriveMode) over hostsim's pin states.
#
# A DigitalInOut and a machine.Pin on the same GPIO number share one PinState,
# so a level driven from the host is seen by both APIs.
from hostsim import hardware as _hw


class _Named:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return self.name


class Direction:
    INPUT = _Named("digitalio.Direction.INPUT")
    OUTPUT = _Named("digitalio.Direction.OUTPUT")


class Pull:
    UP = _Named("digitalio.Pull.UP")
    DOWN = _Named("digitalio.Pull.DOWN")


class DriveMode:
    PUSH_PULL = _Named("digitalio.DriveMode.PUSH_PULL")
    OPEN_DRAIN = _Named("digitalio.DriveMode.OPEN_DRAIN")


class DigitalInOut:
    def __init__(self, pin):
        self.pin = pin
        self._state = _hw.current().pin(pin.id)
        self._state.mode = _hw.IN
        self._state.pull = None
        self._drive = DriveMode.PUSH_PULL
        self._deinited = False

    def _check(self):
        if self._deinited:
            raise ValueError("Object has been deinitialized and can no longer be used. Create a new object.")

    def deinit(self):
        self._state.mode = _hw.IN
        self._state.pull = None
        self._deinited = True

    def deinited(self):
        return self._deinited

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.deinit()

    def switch_to_output(self, value=False, drive_mode=DriveMode.PUSH_PULL):
        self._check()
        before = self._state.level
        self._drive = drive_mode
        self._state.out = 1 if value else 0
        self._state.mode = _hw.OPEN_DRAIN if drive_mode is DriveMode.OPEN_DRAIN else _hw.OUT
        self._state._firmware_wrote(before)

    def switch_to_input(self, pull=None):
        self._check()
        self._state.mode = _hw.IN
        self.pull = pull

    @property
    def direction(self):
        self._check()
        return Direction.INPUT if self._state.mode == _hw.IN else Direction.OUTPUT

    @direction.setter
    def direction(self, value):
        if value is Direction.OUTPUT:
            self.switch_to_output()
        elif value is Direction.INPUT:
            self.switch_to_input()
        else:
            raise ValueError("Invalid direction %r" % (value,))

    @property
    def value(self):
        self._check()
        return bool(self._state.level)

    @value.setter
    def value(self, val):
        self._check()
        if self._state.mode == _hw.IN:
            raise AttributeError("Cannot set value when direction is input.")
        before = self._state.level
        self._state.out = 1 if val else 0
        self._state._firmware_wrote(before)

    @property
    def pull(self):
        self._check()
        return {_hw.PULL_UP: Pull.UP, _hw.PULL_DOWN: Pull.DOWN}.get(self._state.pull)

    @pull.setter
    def pull(self, value):
        self._check()
        if self._state.mode != _hw.IN:
            raise AttributeError("Pull not used when direction is output.")
        if value is None:
            self._state.pull = None
        elif value is Pull.UP:
            self._state.pull = _hw.PULL_UP
        elif value is Pull.DOWN:
            self._state.pull = _hw.PULL_DOWN
        else:
            raise ValueError("Invalid pull %r" % (value,))

    @property
    def drive_mode(self):
        return self._drive
