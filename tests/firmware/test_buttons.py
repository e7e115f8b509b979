# Dealer buttons: debounced presses, and a long press reported once while the button is held.
from firmware.drivers.buttons import Buttons
from firmware.events import BUTTON, BUTTON_LONG, BUTTON_PRESSED, BUTTON_RELEASED
from firmware.statemachine import EventQueue
from tests.firmware.fakes import FakePin


def _events(queue):
    out = []
    while queue.get():
        out.append((queue.kind, queue.a, queue.b))
    return out


def _polls(buttons, queue, n):
    for _ in range(n):
        buttons.poll(queue)


def test_a_bounce_shorter_than_the_debounce_is_not_a_press():
    pin = FakePin(1)
    buttons, queue = Buttons([pin], stable_polls=3, long_polls=10), EventQueue(8)
    pin.level = 0
    _polls(buttons, queue, 2)
    pin.level = 1
    _polls(buttons, queue, 5)
    assert _events(queue) == []


def test_short_press_is_pressed_then_released_and_never_long():
    pin = FakePin(1)
    buttons, queue = Buttons([FakePin(1), pin], stable_polls=3, long_polls=10), EventQueue(8)
    pin.level = 0
    _polls(buttons, queue, 3 + 9)        # debounced, then held one poll short of a long press
    pin.level = 1
    _polls(buttons, queue, 3)
    assert _events(queue) == [(BUTTON, 1, BUTTON_PRESSED), (BUTTON, 1, BUTTON_RELEASED)]


def test_long_press_is_reported_once_while_held():
    pin = FakePin(1)
    buttons, queue = Buttons([pin], stable_polls=3, long_polls=10), EventQueue(8)
    pin.level = 0
    _polls(buttons, queue, 3 + 10)
    assert _events(queue) == [(BUTTON, 0, BUTTON_PRESSED), (BUTTON, 0, BUTTON_LONG)]
    _polls(buttons, queue, 50)           # held on: no repeat
    pin.level = 1
    _polls(buttons, queue, 3)
    assert _events(queue) == [(BUTTON, 0, BUTTON_RELEASED)]
    pin.level = 0                        # a new press starts a new count
    _polls(buttons, queue, 3 + 10)
    assert _events(queue) == [(BUTTON, 0, BUTTON_PRESSED), (BUTTON, 0, BUTTON_LONG)]


def _model_events(levels_by_poll, n, stable_polls, long_polls):
    """The debounce as the loop a pin does it (the driver before its quiet path): events of each poll."""
    pressed = [0] * n
    count = [0] * n
    held = [0] * n
    out = []
    for levels in levels_by_poll:
        for i in range(n):
            level_pressed = 0 if levels[i] else 1
            if level_pressed == pressed[i]:
                count[i] = 0
                if level_pressed and held[i] < long_polls:
                    held[i] += 1
                    if held[i] == long_polls:
                        out.append((BUTTON, i, BUTTON_LONG))
                continue
            count[i] += 1
            if count[i] >= stable_polls:
                count[i] = 0
                pressed[i] = level_pressed
                held[i] = 0
                out.append((BUTTON, i, BUTTON_PRESSED if level_pressed else BUTTON_RELEASED))
    return out


def test_presses_bounces_and_holds_post_what_the_pin_by_pin_debounce_posts():
    # The quiet path (every button up and settled: the pins read, nothing else) and the full loop
    # post the same events as the debounce of each pin every poll, for bounces, presses, long presses.
    state = [7]

    def rnd(n):
        state[0] = (state[0] * 1103515245 + 12345) & 0x7FFFFFFF
        return (state[0] >> 8) % n

    for trial in range(40):
        n = 1 + rnd(4)
        stable, long_polls = 1 + rnd(3), 2 + rnd(6)
        pins = [FakePin(1) for _ in range(n)]
        buttons, queue = Buttons(pins, stable_polls=stable, long_polls=long_polls), EventQueue(64)
        levels_by_poll = []
        got = []
        for _poll in range(60):
            for pin in pins:
                if rnd(6) == 0:
                    pin.level = 1 - pin.level
            levels_by_poll.append([pin.level for pin in pins])
            buttons.poll(queue)
            got.extend(_events(queue))
        assert got == _model_events(levels_by_poll, n, stable, long_polls), trial


class _CountedState:
    def __init__(self, n):
        self.data = bytearray(n)
        self.reads = 0

    def __len__(self):
        return len(self.data)

    def __getitem__(self, i):
        self.reads += 1
        return self.data[i]

    def __setitem__(self, i, value):
        self.data[i] = value


def test_a_poll_with_every_button_up_and_settled_reads_the_pins_only():
    # The usual poll: every pin read once, no debounce state read (the quiet path); a press wakes the
    # full loop, and once the button is released and settled the polls are quiet again.
    pins = [FakePin(1) for _ in range(4)]
    buttons, queue = Buttons(pins, stable_polls=3, long_polls=10), EventQueue(8)
    state = buttons.pressed = _CountedState(4)
    count = buttons._count = _CountedState(4)
    _polls(buttons, queue, 5)
    assert state.reads == 0 and count.reads == 0 and _events(queue) == []
    pins[2].level = 0
    _polls(buttons, queue, 3)
    pins[2].level = 1
    _polls(buttons, queue, 3)
    assert _events(queue) == [(BUTTON, 2, BUTTON_PRESSED), (BUTTON, 2, BUTTON_RELEASED)]
    assert state.reads > 0
    state.reads = count.reads = 0
    _polls(buttons, queue, 2)                # one full poll finds every button settled...
    state.reads = count.reads = 0
    _polls(buttons, queue, 5)                # ...then quiet polls again
    assert state.reads == 0 and count.reads == 0
