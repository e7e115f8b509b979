# The simulated RP2040 PIO, host side: instruction memory, state machines, and the UART programs they run.
#
# hostsim.rp2 (the firmware's `rp2`) assembles any program, but a state
# machine here runs only what it can model honestly: the PIO UART receiver and
# transmitter of firmware/drivers/pio_uart.py. They are recognised by their
# assembled words and settings, compared with hostsim's own copies below; any
# other program, or the same program changed, is refused with
# NotImplementedError rather than run wrongly. What the two programs do:
# - receiver (in_base = jmp_pin = the line): each byte from the serial
#   endpoint wired to that pin becomes an RX FIFO word byte << 24 (8 bits
#   shifted in from the left), then the SM raises its IRQ flag, which calls
#   the handler given to StateMachine.irq() (at once, or when IRQs are enabled
#   again; hard and soft alike, as hostsim's pin IRQs);
# - transmitter (out_base = sideset_base = the line): each TX FIFO word's low
#   byte goes to the endpoint wired to that pin.
# The endpoint wired to a pin is the one of the board's PIO port with that
# rx/tx pin (hw.pio_port(block, sm), made by install(board=...)); a line to
# nowhere receives nothing and its transmissions are counted in .unheard.
# A state machine clocked for another baud rate than the device's (more than
# 2 % off) hears and sends only garbage: those bytes are counted in .garbled
# and not delivered. Not simulated, as for hostsim's UARTs: bit timing. The
# TX FIFO empties at once, and received bytes wait on the endpoint while the
# RX FIFO is full (nothing is lost to overrun). Framing errors cannot happen
# on a byte-wise endpoint.
import errno

from hostsim import rp2

MAX_INSTRUCTIONS = 32       # instruction memory of one PIO block (RP2040 datasheet 3.2.3)
FIFO_WORDS = 4              # each direction; a program may join both into one of 8
CYCLES_PER_BIT = 8          # both UART programs
BAUD_TOLERANCE = 0.02
UART_RX, UART_TX = "uart_rx", "uart_tx"
PIN_OUT = 1                 # hostsim.hardware.OUT (not imported: hardware imports this module)
PIN_IN = 0


# ruff: noqa: F821 - names from rp2.asm_pio; the same programs as firmware/drivers/pio_uart.py's
def _uart_rx():
    label("start")
    wait(0, pin, 0)
    set(x, 7)                 [10]
    label("bitloop")
    in_(pins, 1)
    jmp(x_dec, "bitloop")     [6]
    jmp(pin, "good_stop")
    wait(1, pin, 0)
    jmp("start")
    label("good_stop")
    push(noblock)
    irq(rel(0))


def _uart_tx():
    pull()
    set(x, 7)  .side(0)       [7]
    label("bitloop")
    out(pins, 1)              [6]
    jmp(x_dec, "bitloop")
    nop()      .side(1)       [6]


_known = {}


def _signature(prog, shiftctrl):
    return (tuple(prog[rp2.PROG_DATA]), prog[rp2.PROG_EXECCTRL], shiftctrl, prog[rp2.PROG_OUT_PINS],
            prog[rp2.PROG_SET_PINS], prog[rp2.PROG_SIDESET_PINS])


def known_programs():
    """{signature: kind} of the programs the simulated state machines run."""
    if not _known:
        pio = rp2.PIO
        rx = rp2.asm_pio(in_shiftdir=pio.SHIFT_RIGHT, fifo_join=pio.JOIN_RX)(_uart_rx)
        tx = rp2.asm_pio(sideset_init=pio.OUT_HIGH, out_init=pio.OUT_HIGH, out_shiftdir=pio.SHIFT_RIGHT,
                         fifo_join=pio.JOIN_TX)(_uart_tx)
        _known[_signature(rx, rx[rp2.PROG_SHIFTCTRL])] = UART_RX
        _known[_signature(tx, tx[rp2.PROG_SHIFTCTRL])] = UART_TX
    return _known


class PioBlock:
    """One PIO block's instruction memory: which program object holds each of the 32 slots."""

    def __init__(self, block_id, sms):
        self.id = block_id
        self.sms = sms
        self.slots = [None] * MAX_INSTRUCTIONS

    def offset_of(self, prog):
        """Where prog is loaded in this block, or -1 (its stored offset is trusted only if prog is there)."""
        offset = prog[rp2.PROG_OFFSET_PIO0 + self.id]
        if isinstance(offset, int) and 0 <= offset < MAX_INSTRUCTIONS and self.slots[offset] is prog:
            return offset
        return -1

    def add(self, prog):
        """Load prog (again, as PIO.add_program does) where it fits, searching down from the top."""
        n = len(prog[rp2.PROG_DATA])
        for offset in range(MAX_INSTRUCTIONS - n, -1, -1):
            if all(slot is None for slot in self.slots[offset:offset + n]):
                self.slots[offset:offset + n] = [prog] * n
                prog[rp2.PROG_OFFSET_PIO0 + self.id] = offset
                return offset
        raise OSError(errno.ENOMEM, "ENOMEM: no room for %d instructions in PIO %d (%d free)"
                      % (n, self.id, self.slots.count(None)))

    def remove(self, prog=None):
        if prog is None:
            self.slots = [None] * MAX_INSTRUCTIONS
            return
        if self.offset_of(prog) < 0:
            raise ValueError("prog not in instruction memory")
        self.slots = [None if slot is prog else slot for slot in self.slots]
        prog[rp2.PROG_OFFSET_PIO0 + self.id] = -1


class SmState:
    """One state machine: its program kind, FIFOs, IRQ handler and the endpoint its pin is wired to."""

    def __init__(self, hw, sm_id, block):
        self.hw = hw
        self.id = sm_id
        self.block = block
        self.reset()

    def reset(self):
        self.kind = None
        self.active = False
        self.freq = 0
        self.pins = {}
        self.rx = []                # RX FIFO words (the SM pushed, the firmware gets)
        self._rx_credit = 1.0       # bytes the line can have delivered by now (paced at the baud rate)
        self._rx_last_ms = None
        self.tx = []                # TX FIFO words (the firmware put, the SM pulls)
        self.rx_depth = self.tx_depth = FIFO_WORDS
        self.handler = None
        self.handle = None          # the StateMachine object handed to the handler
        self.hard = False
        self.irq_trigger = 1
        self.irq_flag = False
        self.port = None            # the UartState of the PIO port wired to the program's pin
        self.garbled = 0
        self.unheard = 0
        self._pending = False
        self._in_handler = False
        self._running = False

    @property
    def baudrate(self):
        return self.freq / CYCLES_PER_BIT

    def configure(self, prog, freq, shiftctrl, pins):
        """StateMachine.init: check freq, recognise the program, load it, wire the pin (the SM stops)."""
        sysclk = self.hw.freq_hz
        if freq < 0:
            freq = sysclk
        elif freq == 0:
            freq = sysclk / 65536
        elif not 256 <= sysclk * 256 // freq < 65536 * 256:    # the clock divider, in 1/256
            raise ValueError("freq out of range")
        kind = known_programs().get(_signature(prog, shiftctrl))
        if kind is None:
            raise NotImplementedError("hostsim's PIO runs only the UART programs of firmware/drivers/pio_uart.py "
                                      "(hostsim/pio.py); StateMachine(%d) was given another program" % self.id)
        base, other = ("in_base", "jmp_pin") if kind == UART_RX else ("out_base", "sideset_base")
        if base not in pins or pins.get(other) != pins[base]:
            raise NotImplementedError("hostsim's PIO UART needs %s and %s on the line's pin, got %r"
                                      % (base, other, pins))
        if self.block.offset_of(prog) < 0:
            self.block.add(prog)
        irq = (self.handler, self.handle, self.hard, self.irq_trigger)
        self.reset()                    # the SM stops and its FIFOs empty; its IRQ handler stays
        self.handler, self.handle, self.hard, self.irq_trigger = irq
        self.kind, self.freq, self.pins = kind, freq, pins
        join = shiftctrl >> 30 & 3
        self.rx_depth = 2 * FIFO_WORDS if join == rp2.PIO.JOIN_RX else 0 if join == rp2.PIO.JOIN_TX else FIFO_WORDS
        self.tx_depth = 2 * FIFO_WORDS if join == rp2.PIO.JOIN_TX else 0 if join == rp2.PIO.JOIN_RX else FIFO_WORDS
        for key, field in (("out_base", rp2.PROG_OUT_PINS), ("sideset_base", rp2.PROG_SIDESET_PINS)):
            if key in pins and isinstance(prog[field], int):
                self._drive(pins[key], prog[field])
        self.port = self.hw.pio_wire(pins[base], "rx" if kind == UART_RX else "tx")

    def _drive(self, pin_id, init):
        """The PIO takes the pin: direction and level from the program's out_init/sideset_init."""
        st = self.hw.pin(pin_id)
        before = st.level
        st.mode = PIN_OUT if init >> 1 else PIN_IN
        st.out = init & 1
        st._firmware_wrote(before)

    def set_active(self, on):
        self.active = on
        self.run()

    def set_irq(self, handler, trigger, hard, handle):
        self.handler = handler
        self.irq_trigger = trigger
        self.hard = hard
        self.handle = handle

    def run(self):
        """Let the SM work: the receiver fills its FIFO from the line, the transmitter empties its FIFO."""
        if self._running or not self.active:
            return
        self._running = True            # a handler's rx_fifo()/get() inside run() must not run it again
        try:
            if self.kind == UART_RX:
                self._receive()
            elif self.kind == UART_TX:
                self._transmit()
        finally:
            self._running = False

    def _in_step(self):
        device = self.port.baudrate
        return abs(self.baudrate - device) <= BAUD_TOLERANCE * device

    def _receive(self):
        port = self.port
        if port is None:
            return
        # A byte takes 10 bit times on the wire: what the host fed at once still arrives at the
        # baud rate, so a burst longer than the FIFO and ring is taken as a real board takes it.
        now = self.hw.clock.now_ms()
        if self._rx_last_ms is not None:
            self._rx_credit += (now - self._rx_last_ms) * port.baudrate / 10000.0
        self._rx_last_ms = now
        while len(self.rx) < self.rx_depth and self._rx_credit >= 1.0:
            data = port.endpoint.fw_read(1)
            if not data:
                self._rx_credit = min(self._rx_credit, 1.0)   # an idle line saves up no burst
                return
            self._rx_credit -= 1.0
            port.rx_count += 1
            if not self._in_step():
                self.garbled += 1
                continue
            self.rx.append(data[0] << 24)
            self._raise_irq()

    def _transmit(self):
        if not self.tx:
            return
        data = bytes(word & 0xFF for word in self.tx)
        del self.tx[:]
        if self.port is None:
            self.unheard += len(data)
        elif not self._in_step():
            self.garbled += len(data)
        else:
            self.port.endpoint.fw_write(data)
            self.port.tx_count += len(data)

    def _raise_irq(self):
        self.irq_flag = True
        if self.handler is None or not self.irq_trigger or self._pending:
            return
        self._pending = True
        if not self._in_handler:        # an interrupt does not preempt its own handler: it runs again after
            self.hw._fire_irq(self._deliver, self.handle)

    def _deliver(self, handle):
        self._in_handler = True
        try:
            while self._pending and self.handler is not None:
                self._pending = False
                self.irq_flag = False   # MicroPython's PIO interrupt acknowledges the flag
                self.handler(handle)
        finally:
            self._in_handler = False

    def pop(self):
        """StateMachine.get(): a word from the RX FIFO; an empty one would wait for ever here."""
        self.run()
        if not self.rx:
            raise RuntimeError("StateMachine(%d).get() would wait for ever: its RX FIFO is empty and no time "
                               "passes inside a call in hostsim (check rx_fifo() first)" % self.id)
        return self.rx.pop(0)

    def push(self, word):
        """StateMachine.put() of one word; a full FIFO nothing empties would wait for ever here."""
        self.run()
        if len(self.tx) >= self.tx_depth:
            raise RuntimeError("StateMachine(%d).put() would wait for ever: its TX FIFO is full (%d words) and "
                               "the state machine is %s" % (self.id, self.tx_depth,
                                                            "running" if self.active else "stopped"))
        self.tx.append(word)
        self.run()

    def __repr__(self):
        return "<SmState %d %s%s>" % (self.id, self.kind or "-", " active" if self.active else "")
