# A UART made of two PIO state machines (RP2040), with the calls SerialLine uses: any, readinto, write.
#
# An RP2040 has two hardware UARTs: with the shoe (or dice reader) on one and
# the host on the other, the bet reader gets a PIO UART. The programs are the
# standard ones of MicroPython's examples/rp2/pio_uart_rx.py and pio_uart_tx.py
# (8 state-machine cycles per bit, so the SMs run at 8 x baudrate), with two
# changes to the receiver:
# - after each byte it raises its IRQ flag (`irq(rel(0))`, the flag that
#   StateMachine.irq() of that SM listens to), and a hard IRQ handler moves the
#   byte into a ring buffer made once. A PIO FIFO holds 8 bytes (joined), about
#   8 ms at 9600 baud: less than one pass of the main loop, and far less than
#   an OLED redraw (about 25 ms of I2C). Polling alone would lose bytes.
# - a bad stop bit (framing error, break, unplugged cable) drops that byte and
#   waits for the line to idle. The example's `irq(block, 4)` would stall the
#   receiver until something clears flag 4, and flags 4-7 reach no CPU
#   interrupt (RP2040 datasheet 3.7, IRQ register), so nothing ever would.
# A full FIFO or ring loses bytes, counted in .overruns; the device link's
# CRC and counters then report the damaged frame. The transmitter is fed
# from a small ring too: write() never waits for the wire.
#
# rp2 and machine are passed in (bring-up's, or fakes in tests). asm_pio
# runs the program functions below with the PIO assembler's names as their
# globals (on MicroPython it swaps this module's globals for the duration),
# so the IRQ handler uses only attributes of self, never a module global
# (a `_NAME = const()` is no global on MicroPython: the compiler folds it in).

SMS_PER_PIO = const(4)        # state machines in one PIO block (RP2040 datasheet 3.1)
CYCLES_PER_BIT = const(8)     # both programs spend 8 state-machine cycles on each bit
_FIFO_DEPTH = const(8)         # each program joins its SM's two 4-word FIFOs into one
_BYTE_SHIFT = const(24)       # shifted in from the left, 8 bits end in the word's top byte
_RX_RING = const(256)         # bytes held for SerialLine between passes (one slot stays free)
_TX_RING = const(128)


# ruff: noqa: F821 - the names of these two functions' bodies come from rp2.asm_pio
def _uart_rx():
    label("start")
    wait(0, pin, 0)               # the start bit
    set(x, 7)                 [10]    # to the middle of the first data bit
    label("bitloop")
    in_(pins, 1)
    jmp(x_dec, "bitloop")     [6]
    jmp(pin, "good_stop")
    wait(1, pin, 0)               # no stop bit: drop the byte, wait for the idle line
    jmp("start")
    label("good_stop")
    push(noblock)                 # a full FIFO loses this byte, not the receiver's step with the line
    irq(rel(0))


def _uart_tx():
    pull()
    set(x, 7)  .side(0)       [7]    # the start bit
    label("bitloop")
    out(pins, 1)              [6]
    jmp(x_dec, "bitloop")
    nop()      .side(1)       [6]    # the stop bit


_programs = [None, None, None]    # [rp2, rx, tx]: PIO reuses a loaded program's instruction memory


def programs(rp2):
    """The assembled (receiver, transmitter) programs, made once per rp2 module."""
    if _programs[0] is not rp2:
        pio = rp2.PIO
        _programs[1] = rp2.asm_pio(in_shiftdir=pio.SHIFT_RIGHT, fifo_join=pio.JOIN_RX)(_uart_rx)
        _programs[2] = rp2.asm_pio(sideset_init=pio.OUT_HIGH, out_init=pio.OUT_HIGH, out_shiftdir=pio.SHIFT_RIGHT,
                                   fifo_join=pio.JOIN_TX)(_uart_tx)
        _programs[0] = rp2
    return _programs[1], _programs[2]


class PioUart:
    """PioUart(rp2, machine, block, sm, tx, rx, baudrate): RX on state machine sm of PIO block, TX on sm + 1."""

    def __init__(self, rp2, machine, block, sm, tx, rx, baudrate):
        rx_program, tx_program = programs(rp2)
        first = block * SMS_PER_PIO + sm
        freq = CYCLES_PER_BIT * baudrate
        self._machine = machine
        self._in = bytearray(_RX_RING)
        self._in_head = 0         # written only by _take (IRQ handler, or any() with IRQs off)
        self._in_tail = 0         # written only by readinto
        self._out = bytearray(_TX_RING)
        self._out_head = 0
        self._out_tail = 0
        self.overruns = 0         # received bytes lost: the ring was full
        self.tx_dropped = 0       # bytes to send lost: the ring was full
        line = machine.Pin(rx, machine.Pin.IN, machine.Pin.PULL_UP)    # idle high with nothing plugged in
        self._rx = rp2.StateMachine(first, rx_program, freq=freq, in_base=line, jmp_pin=line)
        pin = machine.Pin(tx)
        self._tx = rp2.StateMachine(first + 1, tx_program, freq=freq, sideset_base=pin, out_base=pin)
        self._rx.irq(self._on_rx, hard=True)
        self._rx.active(1)
        self._tx.active(1)

    def _on_rx(self, sm):
        # Hard IRQ: no allocation, no module globals (see the top of the file).
        self._take()

    def _take(self):
        """FIFO -> ring; a byte with no room in the ring is counted and lost."""
        sm = self._rx
        ring = self._in
        size = len(ring)
        head = self._in_head
        while sm.rx_fifo():
            byte = sm.get(None, _BYTE_SHIFT)     # shifted by rp2 itself: a small int, no allocation
            nxt = head + 1
            if nxt == size:
                nxt = 0
            if nxt == self._in_tail:
                self.overruns += 1
            else:
                ring[head] = byte
                head = nxt
        self._in_head = head

    def _waiting(self):
        n = self._in_head - self._in_tail
        return n + len(self._in) if n < 0 else n

    def any(self):
        """Bytes ready to read; also moves queued output on to the transmitter."""
        if self._out_head != self._out_tail:
            self._send()
        n = self._waiting()
        if n == 0:
            state = self._machine.disable_irq()    # the handler is the ring's other writer
            self._take()
            self._machine.enable_irq(state)
            n = self._waiting()
        return n

    def readinto(self, buf, n=None):
        """Up to n (default len(buf)) bytes into buf; their count, or None when none are waiting."""
        want = len(buf) if n is None or n > len(buf) else n
        ring = self._in
        size = len(ring)
        tail = self._in_tail
        head = self._in_head
        got = 0
        while got < want and tail != head:
            stop = head if head > tail else size         # the run up to the head or the ring's end
            if stop - tail > want - got:
                stop = tail + want - got
            for i in range(tail, stop):                  # (a counted loop: no test of the ring's end a byte)
                buf[got] = ring[i]
                got += 1
            tail = stop if stop < size else 0
        self._in_tail = tail
        return got if got else None

    def _send(self):
        """Ring -> TX FIFO while the FIFO has room (put() would wait for the wire when it is full)."""
        sm = self._tx
        ring = self._out
        size = len(ring)
        tail = self._out_tail
        while tail != self._out_head and sm.tx_fifo() < _FIFO_DEPTH:
            sm.put(ring[tail])
            tail += 1
            if tail == size:
                tail = 0
        self._out_tail = tail

    def write(self, data):
        """Queue data for sending (the FIFO takes what it has room for at once); returns how many bytes were
        taken: the rest did not fit the queue and is counted in .tx_dropped."""
        ring = self._out
        size = len(ring)
        n = len(data)
        taken = 0
        while taken < n:
            head = self._out_head
            nxt = head + 1
            if nxt == size:
                nxt = 0
            if nxt == self._out_tail:
                self._send()                      # make room: into the FIFO with what it can take
                if nxt == self._out_tail:
                    break
            ring[head] = data[taken]
            self._out_head = nxt
            taken += 1
        self.tx_dropped += n - taken
        self._send()
        return taken

    def tx_pending(self):
        """Bytes queued in the ring, not yet handed to the transmitter."""
        n = self._out_head - self._out_tail
        return n + len(self._out) if n < 0 else n
