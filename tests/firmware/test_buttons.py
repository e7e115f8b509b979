# Dealer buttons: debounced presses, and a long press reported once while the button is held.
from firmware.drivers.buttons import Buttons
from firmware.events import BUTTON, BUTTON_LONG, BUTTON_PRESSED, BUTTON_RELEASED, EventQueue
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
