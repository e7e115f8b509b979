# The host side of a simulated table's equipment: the shoe, the dice reader, the bet reader, the dealer buttons,
# the displays' cables, raw port bytes.
#
# A TableIO turns what happens at the table ("the Ah left the shoe", "seat 3
# bet 100 on banker", "the dealer pressed CONFIRM") into what the board's
# wires carry: device frames from hostsim.devices' emulated shoe, dice reader
# and bet reader, fed to the board's `shoe` / `dice` / `bets` UART endpoints, and button pins
# pulled low and released. The firmware's own drivers decode it all.
#
# Nothing here blocks or steps time: a press is released by release_due() once
# its hold time has passed on the virtual clock, so the same object serves the
# stepped runs (hostsim.headless, tools.replay) and a host loop beside the
# firmware's asyncio tasks. Used by tools.replay; docs/protocol.md, "Replay input".
#
# Keypad keys (hostsim.keypad) are held the same way: press_key() joins the key's
# row and column wires and release_due() parts them. One key at a time: a run
# that keys a sequence ("bet", "3", "0", "enter") presses a key, steps the clock
# past its hold (each hold outlasts the keypad's 3-scan debounce), lets
# release_due() release it, steps KEY_GAP_MS more (the debounce of the release,
# so the same key again is a new press), then presses the next:
# hostsim.headless.Table.type_keys does exactly that.
import random

from hostsim.devices import BetReaderDevice, DiceReaderDevice, ShoeDevice, garble
from hostsim.keypad import SimKeypad

# How long a press holds the button down. The firmware's buttons are debounced
# over 3 polls of 10 ms (firmware/drivers/buttons.py), so a short press is
# seen whole; a long press outlasts any long-press threshold of the dealer's
# buttons (a second is the usual one).
SHORT_PRESS_MS = 100
LONG_PRESS_MS = 1500
# After a key's release, before the next key: the keypad re-arms a key after 3 scans of 10 ms
# (firmware/drivers/keypad.py) read it up.
KEY_GAP_MS = 50

SHOE_PORT = "shoe"
BETS_PORT = "bets"
DICE_PORT = "dice"
HOST_PORT = "host"


class TableIO:
    """The devices and buttons around one simulated board (a hostsim Hardware and its firmware.board.Board).

    Each emulated device says HELLO (counter 00, as when it powers up) just
    before its first message, so a device that is never used sends nothing.
    """

    def __init__(self, hw, board):
        self.hw = hw
        self.board = board
        self.shoe = ShoeDevice()
        self.bet_reader = BetReaderDevice()
        self.dice_reader = DiceReaderDevice()
        self._greeted = []       # the devices that have sent their HELLO
        self.last_sent = {}      # role -> the bytes of the last send() there (a message, maybe of many lines)
        self._held = {}          # pin -> virtual time (ms) of its release
        self.long_press = {}     # button index -> its last press was a long one (kept after the release: a cut
                                 # may undo it; hostsim.headless repeats the gesture whole)
        self.keypad = SimKeypad(hw, board.keypad) if board.keypad is not None else None
        self._keys_held = {}     # keypad legend -> virtual time (ms) of its release
        self._unplugged = {}     # display role -> its simulated device, off the I2C bus while its cable is out

    # -- what the board has --------------------------------------------------------
    def button_roles(self):
        """The dealer buttons of this board, by role, sorted."""
        return [role for role, _ in self.board.buttons]

    def key_legends(self):
        """The keys of this board's keypad, by legend, in key index order ([] without a keypad)."""
        return self.keypad.keys() if self.keypad is not None else []

    def key_index(self, legend):
        """The key index of `legend` (the KEY event's a); ValueError naming the board's keys if it has none."""
        if self.keypad is None:
            raise ValueError("board %s has no keypad (no key %r)" % (self.board.name, legend))
        return self.keypad.index(legend)

    def port_roles(self):
        """The serial ports of this board, by role, sorted."""
        return sorted(self.board.ports)

    # -- the card-reading shoe ------------------------------------------------------
    def shoe_new(self):
        """A freshly shuffled shoe is inserted: the shoe reports IN."""
        self._device_line(self.shoe, SHOE_PORT, self.shoe.inserted)

    def shoe_out(self):
        """The shoe is taken out (a shoe change, Baccarat art. 3(2)): OUT."""
        self._device_line(self.shoe, SHOE_PORT, self.shoe.removed)

    def shoe_on(self):
        """The shoe is on: it says HELLO (counter 00) unless it has already spoken this run."""
        if self.shoe not in self._greeted:
            self._greet(self.shoe, SHOE_PORT)

    def shoe_hello(self):
        """The shoe (re)starts: HELLO, its counter back at 00."""
        self._greet(self.shoe, SHOE_PORT)

    def card(self, code, face_up=False):
        """A card left the shoe: code in the wire's spelling (rank 23456789TJQKA, suit cdhs)."""
        self._device_line(self.shoe, SHOE_PORT, self.shoe.card, code, face_up)

    def garbled_card(self, code, face_up=False, rng=random):
        """A card left the shoe and its CARD frame was damaged on the line: one byte before the `*`
        changed to another printable one (hostsim.devices.garble), so the table refuses the frame for
        its checksum (frame_crc). The frame used up a counter value, as a sent frame does. Returns the
        line sent."""
        if SHOE_PORT not in self.board.ports:
            raise KeyError("board %s has no %s port" % (self.board.name, SHOE_PORT))
        if self.shoe not in self._greeted:
            self._greet(self.shoe, SHOE_PORT)
        line = self.shoe.card(code, face_up)
        index = rng.randrange(line.index(b"*"))
        value = rng.choice([v for v in range(0x20, 0x7F) if v not in (line[index], ord("*"))])
        damaged = garble(line, index, value)
        self.send(SHOE_PORT, damaged)
        return damaged

    def cut_card(self):
        self._device_line(self.shoe, SHOE_PORT, self.shoe.cut_card)

    def unreadable(self):
        """A card left the shoe and could not be read."""
        self._device_line(self.shoe, SHOE_PORT, self.shoe.unreadable)

    def shoe_fault(self, code):
        """The shoe's own sensor fault number."""
        self._device_line(self.shoe, SHOE_PORT, self.shoe.sensor_fault, code)

    # -- the bet reader ---------------------------------------------------------------
    def bets(self, reading):
        """One reading of the bet reader: {seat: {zone: amount or "down"}}, as OPEN, SEAT..., CLOSE
        frames ("down": a take-down, "zone=-")."""
        self._device_line(self.bet_reader, BETS_PORT, self.bet_reader.bets, reading)

    # -- the dice reader -------------------------------------------------------------------
    def throw(self, d1, d2, flags=(), cocked=()):
        """One throw as the dice reader saw it: faces 1..6 or None (unread), its flag words in the
        order given, cocked: the die indices (0, 1) resting cocked (Craps art. 3(1))."""
        self._device_line(self.dice_reader, DICE_PORT, self.dice_reader.throw, d1, d2, flags, cocked)

    # -- dealer buttons -----------------------------------------------------------------
    def press(self, role, long=False):
        """Push the button down now; it is released by release_due() after its hold time. Returns the hold (ms).

        KeyError for a role this board has no button for.
        """
        index = self.board.button_index(role)
        if index < 0:
            raise KeyError("board %s has no %r button" % (self.board.name, role))
        pin = self.board.buttons[index][1]
        hold = LONG_PRESS_MS if long else SHORT_PRESS_MS
        self.long_press[index] = bool(long)
        self.hw.pin(pin).press()            # may run a pin IRQ handler of the firmware
        self._held[pin] = self.hw.clock.now_ms() + hold
        return hold

    def release_due(self):
        """Release every button and keypad key whose hold time is over (call it before each firmware pass)."""
        now = self.hw.clock.now_ms()
        for pin, due in sorted(self._held.items()):
            if now >= due:
                del self._held[pin]
                self.hw.pin(pin).release()
        for legend, due in sorted(self._keys_held.items()):
            if now >= due:
                del self._keys_held[legend]
                self.keypad.release(legend)

    def release_all(self):
        """Let go of every button and key at once (the dealer's hands leave the table when it goes dark)."""
        for pin in sorted(self._held):
            self.hw.pin(pin).release()
        for legend in sorted(self._keys_held):
            self.keypad.release(legend)
        self._held.clear()
        self._keys_held.clear()

    def held_buttons(self):
        """The indexes of the dealer buttons held down now."""
        return [i for i in range(len(self.board.buttons)) if self.board.buttons[i][1] in self._held]

    def holding(self):
        """True while a button or a keypad key is held down."""
        return bool(self._held) or bool(self._keys_held)

    # -- the dealer keypad ------------------------------------------------------------------
    def press_key(self, legend, hold_ms=SHORT_PRESS_MS):
        """Push the keypad key `legend` down now; release_due() releases it after hold_ms. Returns hold_ms.

        ValueError naming the board's keys for a legend its keypad lacks (or when it has no keypad).
        """
        self.key_index(legend)              # the ValueError, before anything is held
        self.keypad.press(legend)
        self._keys_held[legend] = self.hw.clock.now_ms() + hold_ms
        return hold_ms

    # -- the displays' cables ------------------------------------------------------------------
    def display_roles(self):
        """The displays of this board (dealer, result, scoreboard as it has them), by role, sorted."""
        return sorted(role for role in self.board.displays if role != "i2c")

    def unplugged(self):
        """The displays whose cable is out now, by role, sorted."""
        return sorted(self._unplugged)

    def unplug(self, role):
        """The display's cable pulled: nothing answers at its I2C address any more (the firmware's next
        write to it raises OSError ENODEV, as machine.I2C does). ValueError naming the board's displays
        for one it lacks, or one unplugged already."""
        addr = self._display_addr(role)
        if role in self._unplugged:
            raise ValueError("the %s display is unplugged already" % role)
        self._unplugged[role] = self.hw.detach_i2c(self.board.displays["i2c"]["bus"], addr)

    def plug(self, role):
        """The display's cable back in: the same device answers at its address again, powered up as a reseat
        leaves it (its power comes on that cable: blank and not set up). The firmware asks each display every
        second whether it is there and still set up: one it had left out it sets up again at its next try
        (every 5 s), one that lost its setup unnoticed (unplugged and plugged between two writes) at its next probe
        (an LCD at its next write if that comes first); one
        missing at boot at its next try too. ValueError for one that is not unplugged."""
        addr = self._display_addr(role)
        if role not in self._unplugged:
            raise ValueError("the %s display is not unplugged" % role)
        device = self._unplugged.pop(role)
        device.power_up()
        self.hw.attach_i2c(self.board.displays["i2c"]["bus"], addr, device)

    def _display_addr(self, role):
        if role not in self.display_roles():
            raise ValueError("board %s has no %s display (it has %s)"
                             % (self.board.name, role, ", ".join(self.display_roles()) or "none"))
        return self.board.displays[role]["addr"]

    # -- bytes ------------------------------------------------------------------------------
    def send(self, role, data):
        """Bytes on the wire into the board's port `role`, as the device there sends them."""
        self.last_sent[role] = bytes(data)
        self.hw.port(role).feed(bytes(data))

    def waiting(self, role):
        """Bytes sent to port `role` that the firmware has not read yet (endpoint and UART buffer)."""
        endpoint = self.hw.port(role)
        pending = endpoint.pending() if hasattr(endpoint, "pending") else 0
        for state in list(self.hw.uarts.values()) + [self.hw.usb]:
            if state is not None and role in state.roles:
                return pending + len(state.rx_data)
        return pending

    def byte_ms(self, role):
        """The ms a byte takes to reach the firmware on port `role` when its line is paced at its baud rate
        (a PIO UART's, 10 bit times), else 0 (the simulated hardware UARTs deliver at once)."""
        for state in self.hw.pio_ports.values():
            if role in state.roles and state.baudrate:
                return 10000.0 / state.baudrate
        return 0

    def _greet(self, device, role):
        if device not in self._greeted:
            self._greeted.append(device)
        self.send(role, device.hello())

    def _device_line(self, device, role, message, *args):
        if role not in self.board.ports:
            raise KeyError("board %s has no %s port" % (self.board.name, role))
        if device not in self._greeted:
            self._greet(device, role)
        self.send(role, message(*args))
