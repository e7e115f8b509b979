# The simulated board's host side: pin levels, UART endpoints, I2C devices, pixel strips, watchdog, timers, PIO.
#
# install() puts hostsim's modules into sys.modules under the names firmware
# code and Adafruit's CircuitPython NeoPixel library import on a board
# (hostsim/sys_modules.py), and returns the Hardware object through which tests and
# the simulator press buttons, talk to serial ports, read the LEDs and LCDs,
# step the clock and notice a watchdog reset. Firmware-facing classes live in
# hostsim/machine.py and hold no state of their own: a Pin(5) made twice sees
# the same PinState, as on a microcontroller. The GPIOs' wires are hostsim/pins.py, the
# other peripherals' host side hostsim/peripherals.py, the resets (SimReset) hostsim/resets.py.
from firmware.board import MCUS
from hostsim import sys_modules
from hostsim.board_setup import (  # noqa: F401  (re-exported; install() calls configure_from_board from here)
    DEFAULT_MCU, board_mcu, board_section, configure_from_board,
)
from hostsim.clock import VirtualClock
from hostsim.peripherals import PixelStrip, TimerState, Timers, UartState, Watchdog  # noqa: F401  (re-exported)
from hostsim.pins import (  # noqa: F401  (re-exported: machine.Pin's constants)
    ALT, IN, IRQ_FALLING, IRQ_RISING, OPEN_DRAIN, OUT, PULL_DOWN, PULL_UP, Pins, PinState,
)
from hostsim.resets import (  # noqa: F401  (re-exported: machine.reset_cause()'s values)
    DEEPSLEEP_RESET, HARD_RESET, PWRON_RESET, RESET_NAMES, SOFT_RESET, WDT_RESET, SimReset,
)
from hostsim.serialport import make_port

# The simulated MCU has the GPIOs, UARTs, I2C buses and PIO blocks of the
# board's "mcu" (firmware/board.py's MCUS, one table for both): a Pico board
# gets UART 0 and 1 only, as the RP2040 has, and its PIO; the others have no
# PIO and no rp2 module. Without a board it is the "hostsim" MCU (DEFAULT_MCU,
# hostsim/board_setup.py: what a board description sets up).
USB = "usb"             # the id port_paths() gives a USB console

_current = None


def current():
    """The installed Hardware; firmware-facing modules find their state here."""
    if _current is None:
        raise RuntimeError("hostsim hardware is not installed: call hostsim.hardware.install() first")
    return _current


class Hardware:
    """Host side of the simulated board. See docs/hostsim.md."""

    def __init__(self, clock=None, ports="loopback", mcu=DEFAULT_MCU):
        self.clock = clock if clock is not None else VirtualClock()
        if ports not in ("loopback", "pty"):
            raise ValueError("ports must be 'loopback' or 'pty', got %r" % (ports,))
        if mcu not in MCUS:
            raise ValueError("unknown mcu %r (expected %s)" % (mcu, ", ".join(sorted(MCUS))))
        self.port_kind = ports
        self.mcu = mcu
        self.gpio_ids = MCUS[mcu]["gpio"]
        self.uart_ids = MCUS[mcu]["uart"]
        self.i2c_ids = MCUS[mcu]["i2c"]
        self.pio_ids = MCUS[mcu].get("pio", ())
        self.pio_sms = MCUS[mcu].get("pio_sms", 0)
        self.pins = Pins(self)  # GPIO number -> PinState (made on first use, also by hw.pins[n])
        self.uarts = {}         # UART id -> UartState (endpoint made on first use)
        self.usb = None         # UartState of a {"usb": true} console (install(board=...) makes it)
        self.kbd_intr = 3       # the REPL's interrupt byte (micropython.kbd_intr): Ctrl-C until the firmware sets it
        self.kbd_intr_calls = []
        self.pio_ports = {}     # "pio0.0" -> UartState of a board's PIO UART port (install(board=...) makes it)
        self.pio_blocks = {}    # PIO block id -> hostsim.pio.PioBlock (made on first use)
        self.state_machines = {}    # state machine id -> hostsim.pio.SmState (made on first use)
        self.i2c_devices = {}   # (bus, addr) -> device object
        self.i2c_buses = {}     # bus id -> {"scl", "sda", "freq"} as the firmware configured it
        self.strips = {}        # pin -> PixelStrip
        self.watchdog = Watchdog(self.clock)
        self.timers = Timers()  # active TimerState
        self.reset_cause = PWRON_RESET
        self.boots = 1
        self.freq_hz = 125000000
        self.irq_enabled = True
        self._deferred_irqs = []
        self._saved_modules = {}

    # pins
    def pin(self, pin_id):
        """PinState of GPIO pin_id; ValueError for a GPIO the MCU does not have."""
        if not isinstance(pin_id, int) or isinstance(pin_id, bool) or pin_id not in self.gpio_ids:
            raise ValueError("invalid pin %r (%s has GPIO %s)" % (pin_id, self.mcu, _ranges(self.gpio_ids)))
        state = self.pins.get(pin_id)
        if state is None:
            state = self.pins[pin_id] = PinState(self, pin_id)
        return state

    def _fire_irq(self, handler, pin):
        if self.irq_enabled:
            handler(pin)
        else:
            self._deferred_irqs.append((handler, pin))

    def _set_irq_enabled(self, on):
        self.irq_enabled = bool(on)
        while self.irq_enabled and self._deferred_irqs:
            handler, pin = self._deferred_irqs.pop(0)
            handler(pin)

    # serial
    def uart(self, uart_id):
        """UartState of UART uart_id, creating its pty/loopback endpoint on first use.

        ValueError for a UART the MCU does not have.
        """
        if not isinstance(uart_id, int) or isinstance(uart_id, bool) or uart_id not in self.uart_ids:
            raise ValueError("UART(%r) doesn't exist (%s has UART %s)" % (uart_id, self.mcu, _ranges(self.uart_ids)))
        state = self.uarts.get(uart_id)
        if state is None:
            state = self.uarts[uart_id] = UartState(uart_id, make_port(self.port_kind))
        return state

    def usb_console(self):
        """UartState of the USB console (made on first use): the board's REPL port, not a UART."""
        if self.usb is None:
            self.usb = UartState(USB, make_port(self.port_kind))
            self.usb.roles.append("console")
        return self.usb

    def _serial_states(self):
        states = [s for _, s in sorted(self.uarts.items())] + [s for _, s in sorted(self.pio_ports.items())]
        if self.usb is not None:
            states.append(self.usb)
        return states

    def port(self, role_or_id):
        """Endpoint of a UART by id, of a PIO port by id ("pio0.0"), or of any serial port by board role."""
        if isinstance(role_or_id, int):
            return self.uart(role_or_id).endpoint
        if role_or_id in self.pio_ports:
            return self.pio_ports[role_or_id].endpoint
        states = self._serial_states()
        for state in states:
            if role_or_id in state.roles:
                return state.endpoint
        raise KeyError("no serial port has the role %r (known: %s)" % (
            role_or_id, ", ".join(sorted(r for s in states for r in s.roles)) or "none"))

    def port_paths(self):
        """[(role, uart id or "pio0.0" or "usb", pty path or None)]: UARTs by id, PIO ports, the USB console."""
        return [(s.role, s.id, s.path) for s in self._serial_states()]

    # PIO (an RP2040 board only)
    def pio_block(self, block_id):
        """hostsim.pio.PioBlock of PIO block_id; ValueError("invalid PIO") for a block the MCU lacks."""
        if not isinstance(block_id, int) or isinstance(block_id, bool) or block_id not in self.pio_ids:
            raise ValueError("invalid PIO")
        block = self.pio_blocks.get(block_id)
        if block is None:
            from hostsim.pio import PioBlock
            block = self.pio_blocks[block_id] = PioBlock(block_id, self.pio_sms)
        return block

    def state_machine(self, sm_id):
        """hostsim.pio.SmState of state machine sm_id (block * 4 + index); ValueError for one the MCU lacks."""
        if not isinstance(sm_id, int) or isinstance(sm_id, bool) or not 0 <= sm_id < len(self.pio_ids) * self.pio_sms:
            raise ValueError("invalid StateMachine")
        state = self.state_machines.get(sm_id)
        if state is None:
            from hostsim.pio import SmState
            block = self.pio_block(self.pio_ids[sm_id // self.pio_sms])
            state = self.state_machines[sm_id] = SmState(self, sm_id, block)
        return state

    def pio_port(self, block_id, sm):
        """UartState of the board's PIO UART on state machines sm, sm + 1 of block_id (made on first use)."""
        uid = "pio%d.%d" % (block_id, sm)
        state = self.pio_ports.get(uid)
        if state is None:
            self.pio_block(block_id)
            state = self.pio_ports[uid] = UartState(uid, make_port(self.port_kind))
        return state

    def pio_wire(self, pin_id, signal):
        """The PIO port whose `signal` ("tx" or "rx") is wired to pin_id, or None (nothing attached)."""
        for state in self.pio_ports.values():
            if getattr(state, signal) == pin_id:
                return state
        return None

    def run_pio(self):
        """Let every running state machine work (move bytes between the wires and its FIFOs)."""
        for _, state in sorted(self.state_machines.items()):
            state.run()

    # I2C
    def check_i2c(self, bus_id):
        """ValueError for an I2C bus the MCU does not have."""
        if not isinstance(bus_id, int) or isinstance(bus_id, bool) or bus_id not in self.i2c_ids:
            raise ValueError("I2C(%r) doesn't exist (%s has I2C %s)" % (bus_id, self.mcu, _ranges(self.i2c_ids)))

    def attach_i2c(self, bus_id, addr, device):
        """Put a device on I2C bus bus_id at 7-bit addr. A device has i2c_write(bytes) and i2c_read(n) -> bytes."""
        self.check_i2c(bus_id)
        if not 0 <= addr < 128:
            raise ValueError("I2C address must be 0..127, got %r" % (addr,))
        self.i2c_devices[(bus_id, addr)] = device
        return device

    def detach_i2c(self, bus_id, addr):
        return self.i2c_devices.pop((bus_id, addr), None)

    def i2c_device(self, bus_id, addr):
        return self.i2c_devices.get((bus_id, addr))

    # pixels
    def strip(self, pin_id):
        """PixelStrip recorded on GPIO pin_id (made on first use)."""
        strip = self.strips.get(pin_id)
        if strip is None:
            strip = self.strips[pin_id] = PixelStrip(pin_id)
        return strip

    # time
    def run_timers(self):
        """Fire every machine.Timer due at the clock's current time (periodic ones catch up)."""
        return self.timers.fire_due(self.clock.now_ms())

    def advance(self, ms):
        """Advance the clock by ms, firing timers in due order at their own times (stepped clocks)."""
        target = self.clock.now_ms() + ms
        if not self.clock.realtime:
            while True:
                due = self.timers.next_due(target)
                if due is None:
                    break
                if due.due_ms > self.clock.now_ms():
                    self.clock.advance(due.due_ms - self.clock.now_ms())
                self.timers.fire(due)
        now = self.clock.now_ms()
        if target > now:
            self.clock.advance(target - now)
        self.run_timers()
        self.run_pio()
        return self.clock.now_ms()

    # resets
    def check_watchdog(self):
        """Raise SimReset(WDT_RESET) if the watchdog has expired (the simulator's loop calls this)."""
        if self.watchdog.expired():
            raise SimReset(WDT_RESET, "not fed for %d ms (timeout %d ms)" % (
                self.clock.now_ms() - self.watchdog.last_feed_ms, self.watchdog.timeout_ms))

    def reboot(self, cause=PWRON_RESET):
        """The MCU restarts: pins back to inputs, timers and watchdog stopped, UART buffers emptied.

        What is outside the MCU stays: endpoints (ptys keep their paths),
        attached I2C devices (an LCD keeps its text), recorded strips (LEDs
        keep their last colours), the clock.
        """
        self.reset_cause = cause
        self.boots += 1
        self.kbd_intr = 3           # MicroPython's default again: the firmware sets it at each boot
        for p in self.pins.values():
            p.reset()
        for u in self._serial_states():
            u.reset()
        self.i2c_buses.clear()
        for state in self.state_machines.values():
            state.reset()           # MicroPython stops them and frees the PIO memory at every reset
        for block in self.pio_blocks.values():
            block.remove()
        self.timers = Timers()
        self.watchdog.stop()
        self.irq_enabled = True
        self._deferred_irqs = []

    # modules
    def _register_modules(self):
        self._saved_modules = sys_modules.register(self.mcu)

    def _restore_modules(self):
        sys_modules.restore(self._saved_modules)
        self._saved_modules = {}

    def close(self):
        for u in self._serial_states():
            u.endpoint.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if _current is self:
            uninstall()
        else:
            self.close()
        return False

    def __repr__(self):
        return "<Hardware %s %s ports, %d ms, boots=%d>" % (self.mcu, self.port_kind, self.clock.now_ms(),
                                                            self.boots)


def _ranges(ids):
    """(0, 1, 2, 5, 6) -> "0-2, 5-6": the ids an MCU has, for error messages."""
    out = []
    start = prev = None
    for i in ids:
        if prev is not None and i == prev + 1:
            prev = i
            continue
        if start is not None:
            out.append("%d" % start if start == prev else "%d-%d" % (start, prev))
        start = prev = i
    if start is not None:
        out.append("%d" % start if start == prev else "%d-%d" % (start, prev))
    return ", ".join(out)


def install(clock=None, ports="loopback", board=None):
    """Install the simulated hardware; returns the Hardware (also a context manager that uninstalls).

    clock: a VirtualClock (default: a new stepped one at 0 ms); it is
      installed into firmware.compat so ticks_ms() follows it.
    ports: "loopback" (in-memory, for tests) or "pty" (pseudo-terminals).
    board: optional board description (dict from boards/*.json, or a
      firmware.board.Board): the simulated MCU becomes the board's "mcu"
      (its GPIOs, UARTs, I2C buses and PIO only; the rp2 module on an
      RP2040 only), its UARTs, PIO ports and USB console are opened now (so
      pty paths can be printed before the firmware boots) and labelled with
      their roles, and a simulated LCD or SSD1306 is attached at each display
      address.
    A previously installed Hardware is uninstalled first.
    """
    global _current
    if _current is not None:
        uninstall()
    hw = Hardware(clock=clock, ports=ports, mcu=board_mcu(board) if board is not None else DEFAULT_MCU)
    hw.clock.install()
    hw._register_modules()
    _current = hw
    if board is not None:
        configure_from_board(hw, board)
    return hw


def uninstall():
    """Remove the simulated modules from sys.modules, restore real time, close the ports."""
    global _current
    hw = _current
    if hw is None:
        return
    _current = None
    hw._restore_modules()
    hw.clock.uninstall()
    hw.close()
