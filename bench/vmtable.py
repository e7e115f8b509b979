# The whole table on fake hardware, for the VM benches (bench/table_vm.py, bench/memory_vm.py).
#
# A table is booted by firmware.startup.boot() from boards/pico.json and boards/tables/sim-<game>.json,
# exactly as on the board, on tests.firmware.fakes' machine (pins, I2C, watchdog, the PIO state
# machines of the bet reader) with three stand-ins made for timing:
# - BenchUART: a machine.UART whose receive and transmit buffers are those the rp2 port allocates on
#   the GC heap (the test FakeUART decodes every frame written, in Python, which a board's UART does
#   not do); the host's ACKs are given to the Sender between timed windows (ack()), as a host would
#   send them; BenchUSB: the USB console, whose buffers a board keeps outside the GC heap;
# - Strip: MicroPython's neopixel.NeoPixel as its driver is written (neopixel.py: a bytearray in
#   GRB order, filled by __setitem__); write() is the bitstream, not timed (wire time);
# - the displays are the firmware's own CharLCD and SSD1306 drivers on the fake I2C bus.
# A device speaks through its driver's wire format: shoe and dice frames on the reader UART, the bet
# reader's frames through the PIO UART's state machine (its IRQ handler, byte by byte). The dealer
# keypad's presses are queued as the keypad driver queues them (KEY events).
#
# The bench does not import tests.firmware rigs; it needs tests.firmware for its fakes (and the
# rp2/framebuf stand-ins tests/firmware/__init__.py installs), so run it with tests/ present
# (tools.mpvm copies it into the VM).
import tests.firmware  # noqa: F401  (installs the rp2 and framebuf stand-ins where missing)
import json
import sys

from firmware.link import frame as link_frame
from tests.firmware.device_helpers import Sender as DeviceSender
from tests.firmware.fakes import FakeMachine, link_reports
from tests.firmware.scratch import make_dir

BOARD = "boards/pico.json"
# MicroPython's rp2 port (ports/rp2/machine_uart.c) allocates a UART's receive and transmit rings on
# the GC heap when the UART is constructed: rxbuf + 1 and txbuf + 1 bytes (ringbuf_alloc; the ring
# keeps one byte free), DEFAULT_BUFFER_SIZE (256) each when not given, at least MIN_BUFFER_SIZE (32).
# firmware/hardware.py gives the host port txbuf=HOST_TXBUF, the reader port nothing: the bench
# allocates exactly those, so that the heap the memory bench measures holds the board's rings. The
# UART object itself is static on the board (machine_uart_obj[]); here it is a Python object.
RP2_UART_BUFFER = 256       # DEFAULT_BUFFER_SIZE
RP2_UART_MIN_BUFFER = 32    # MIN_BUFFER_SIZE
RP2_UART_MAX_BUFFER = 32766
_READER_UART = 0            # boards/pico.json: shoe and dice share UART 0
_HOST_UART = 1
_BETS_SM = 0                # boards/pico.json: the bet reader's PIO state machine
PASS_MS = 10                # firmware.main.POLL_MS: one input pass


def rp2_ring_bytes(requested):
    """What the rp2 port's UART holds for an rxbuf/txbuf argument (0 or less: not given)."""
    if requested <= 0:
        return RP2_UART_BUFFER
    if requested > RP2_UART_MAX_BUFFER:
        raise ValueError("rxbuf/txbuf too large")
    return requested if requested > RP2_UART_MIN_BUFFER else RP2_UART_MIN_BUFFER


class _Wire:
    """The far end of a UART's transmit wire: on a board the ring drains at the baud rate while the
    loop runs (115200 baud: ~115 bytes in a 10 ms pass), here only when the bench takes the bytes
    (take(), between timed windows); a write that finds the ring full first moves the ring's bytes
    here (a copy into a buffer allocated once, when bench/vmtable.py is imported: the bench's, not
    the table's heap). One for all the bench's UARTs: one table at a time writes more than its ring
    between two take()s, which _spill checks."""

    def __init__(self, size):
        self.buf = bytearray(size)
        self.n = 0
        self.owner = None


_WIRE = _Wire(4096)     # more than the Sender's window (8 frames of at most 200 bytes) unacknowledged


class BenchUART:
    """A UART with the rp2 port's receive and transmit buffers (rxbuf + 1, txbuf + 1 bytes, allocated
    once). Bytes written stay in the transmit buffer until take(); when it is full they go on to the
    wire's far end (_Wire), as a board's ring drains onto the wire meanwhile. feed() fills the receive
    buffer, at most rxbuf bytes between two reads, as a board's ring holds them."""

    def __init__(self, rxbuf=0, txbuf=0):
        self.rx_size = rp2_ring_bytes(rxbuf)
        self.tx_size = rp2_ring_bytes(txbuf)
        self.rx = bytearray(self.rx_size + 1)
        self._rx_view = memoryview(self.rx)
        self.head = 0
        self.tail = 0
        self.tx = bytearray(self.tx_size + 1)
        self.sent = 0               # bytes in tx
        self.total = 0              # bytes ever written

    def feed(self, data):
        if self.head == self.tail:
            self.head = self.tail = 0
        n = len(data)
        if self.tail + n > self.rx_size:
            raise RuntimeError("BenchUART: receive buffer full (%d bytes)" % self.rx_size)
        self.rx[self.tail:self.tail + n] = data
        self.tail += n

    def any(self):
        return self.tail - self.head

    def readinto(self, buf, n=None):
        n = len(buf) if n is None else n
        avail = self.tail - self.head
        if n > avail:
            n = avail
        head = self.head
        if n:
            # One slice copy, as the port's C readinto copies its ring: a Python loop here cost the VM
            # ~0.4 us a byte, counted in the pass though no board spends it in Python.
            buf[0:n] = self._rx_view[head:head + n]
        self.head = head + n
        return n

    def write(self, data):
        n = len(data)
        if self.sent + n > self.tx_size:
            self._spill()
            if n > self.tx_size:
                raise RuntimeError("BenchUART: a write of %d bytes, the transmit buffer holds %d" % (n, self.tx_size))
        self.tx[self.sent:self.sent + n] = data
        self.sent += n
        self.total += n
        return n

    def _spill(self):
        wire = _WIRE
        if wire.n and wire.owner is not self:
            raise RuntimeError("BenchUART: the wire holds another UART's bytes, not taken")
        if wire.n + self.sent > len(wire.buf):
            raise RuntimeError("BenchUART: %d bytes written since the last take()" % (wire.n + self.sent))
        wire.owner = self
        wire.buf[wire.n:wire.n + self.sent] = memoryview(self.tx)[:self.sent]
        wire.n += self.sent
        self.sent = 0

    def take(self):
        """The bytes written since the last take() (allocates: not for a timed window)."""
        out = bytes(self.tx[:self.sent])
        self.sent = 0
        wire = _WIRE
        if wire.n and wire.owner is self:
            out = bytes(wire.buf[:wire.n]) + out
            wire.n = 0
            wire.owner = None
        return out

    def txdone(self):
        """Everything written has left (the rp2 port's txdone()): here once the bench took the bytes."""
        return self.sent == 0

    def buffer_bytes(self):
        return len(self.rx) + len(self.tx)


class BenchUSB:
    """The USB console ({"usb": true}): on the board the REPL's CDC port, whose receive and transmit
    buffers are static (the port's stdin ring, TinyUSB's FIFOs), not on the GC heap; the bench
    types nothing on it and reads nothing back: what is written is counted, not kept."""

    def __init__(self):
        self.total = 0

    def any(self):
        return 0

    def readinto(self, buf, n=None):
        return 0

    def write(self, data):
        n = len(data)
        self.total += n
        return n

    def buffer_bytes(self):
        return 0


class Strip:
    """MicroPython's neopixel.NeoPixel as drivers/led/neopixel.py has it (3 bytes a pixel, GRB)."""
    ORDER = (1, 0, 2, 3)

    def __init__(self, pin, n, bpp=3):
        self.n = n
        self.bpp = bpp
        self.buf = bytearray(n * bpp)
        self.writes = 0

    def __len__(self):
        return self.n

    def __setitem__(self, i, v):
        offset = i * self.bpp
        for i in range(self.bpp):
            self.buf[offset + self.ORDER[i]] = v[i]

    def __getitem__(self, i):
        offset = i * self.bpp
        return tuple(self.buf[offset + self.ORDER[i]] for i in range(self.bpp))

    def write(self):
        self.writes += 1             # the bitstream: wire time, not computed here


class NeoPixelModule:
    def __init__(self):
        self.strips = []

    def NeoPixel(self, pin, n):
        strip = Strip(pin, n)
        self.strips.append(strip)
        return strip


def bench_machine():
    machine = FakeMachine()

    class UART(BenchUART):
        def __init__(self, uart_id, baudrate=9600, tx=None, rx=None, timeout=0, txbuf=0, rxbuf=0):
            BenchUART.__init__(self, rxbuf, txbuf)
            machine.uarts[uart_id] = self

    machine.UART = UART
    return machine


def _ack_line(data):
    """The host's ACK of the last frame in data (bytes written), without its LF; None: no frame."""
    frame = link_frame.Frame()
    last = None
    for line in data.split(b"\n"):
        if line and frame.decode(line) == link_frame.OK and frame.seq > 0:
            last = (frame.boot, frame.seq)
    return None if last is None else link_frame.encode(last[0], last[1], "ACK")[:-1]


# firmware.events.KEY (tests/host/test_bench.py checks it): not imported, as a board never imports that code
# table (its modules keep private copies), and bench/memory_vm.py counts every firmware module it finds
# imported after a boot as the table's.
KEY = 17


def board_keys():
    """The dealer keypad's legend per key index, as boards/pico.json has them (row by row, as the booted
    table's board.keypad_keys: read here without firmware.board, which a booted table has released)."""
    with open(BOARD) as f:
        keypad = json.loads(f.read())["keypad"]
    return [legend for row in keypad["keys"] for legend in row]


class Table:
    """One booted table: the Context, its machine, and the devices' senders."""

    def __init__(self, game, state_dir=None, table_path=None, fs=None):
        """state_dir: the flash of an earlier boot (a power cut: this boot recovers from its journals);
        table_path: the table file (default boards/tables/sim-GAME.json; a settings change writes it);
        fs: the state dir's open/remove/rename/stat (firmware.startup.boot's; default the runtime's own)."""
        from firmware import main, startup     # here: this module imports no table code itself, so that
                                               # bench/memory_vm.py counts all of it as the table's
        self.main = main
        self.game = game
        self.machine = bench_machine()
        self.np = NeoPixelModule()
        self.state_dir = make_dir() if state_dir is None else state_dir
        self.usb = BenchUSB()
        self.table_path = table_path or "boards/tables/sim-%s.json" % game
        self.ctx = startup.boot(self.machine, self.np, BOARD, self.table_path, self.state_dir, None, self.usb, fs)
        self.reader = self.machine.uarts[_READER_UART]
        self.host = self.machine.uarts[_HOST_UART]
        self.shoe = DeviceSender("S")
        self.dice = DeviceSender("D")
        self.bets_sender = DeviceSender("B")
        self.reading_id = 0
        self.log = None             # b"": ack() keeps what it saw here (debugging)
        self.strip = self.np.strips[0]
        self.bets_sm = sys.modules["rp2"].machines[_BETS_SM]   # this boot's (a later boot makes new ones)
        self.passes(80, 100)                       # the boot lamp test, then READY

    # -- the main loop's two passes ------------------------------------------------------
    def one_pass(self, elapsed_ms=PASS_MS, draw=True):
        self.main.poll_inputs(self.ctx, elapsed_ms)
        self.main.refresh_outputs(self.ctx, draw, elapsed_ms)

    def answer_pass(self, elapsed_ms=PASS_MS, draw=True):
        """one_pass() up to its host link's turn: inputs, dispatch, reports made, lights, displays."""
        self.main.poll_inputs(self.ctx, elapsed_ms)
        self.main.show_outputs(self.ctx, draw)

    def link_pass(self, elapsed_ms=PASS_MS):
        """The rest of one_pass(): the host link's turn (the reports on flash, out on the port)."""
        self.main.send_reports(self.ctx, elapsed_ms)

    def passes(self, n, elapsed_ms=PASS_MS):
        for _ in range(n):
            self.one_pass(elapsed_ms)
            self.ack()

    def finish(self):
        """After a timed window (not timed): the host acknowledges what was written, the rest of a
        long report's frames go out (the Sender's window is 8 frames); returns the reports written
        (dicts)."""
        out = self.host.take()
        for _ in range(10):
            if out:
                self.ctx.sender.receive(_ack_line(out))
            self.one_pass()
            more = self.host.take()
            if not more:
                break
            out += more
        return [json.loads(text) for text in link_reports(out)]

    def ack(self):
        """The host acknowledges every frame written so far (outside the timed windows); returns
        the bytes written."""
        data = self.host.take()
        if self.log is not None:
            self.log += data
        if data:
            line = _ack_line(data)
            if line is not None:
                self.ctx.sender.receive(line)
        return data

    # -- devices -------------------------------------------------------------------------
    def shoe_frame(self, kind, *words):
        self.reader.feed(self.shoe(kind, *words) + b"\n")

    def card_frame(self, code):
        self.shoe_frame("CARD", code, "D")

    def throw_frame(self, d1, d2):
        self.reader.feed(self.dice("THROW", str(d1), str(d2)) + b"\n")

    def bet_lines(self, seats):
        """seats: [(seat, [(zone, amount), ...]), ...] -> the reader's frames of one reading."""
        self.reading_id += 1
        s = self.bets_sender
        lines = [s("OPEN", str(self.reading_id))]
        for seat, bets in seats:
            lines.append(s("SEAT", str(seat), *["%s=%d" % (zone, amount) for zone, amount in bets]))
        lines.append(s("CLOSE", str(self.reading_id), str(len(seats))))
        return lines

    def bet_line(self, line):
        """One reader frame through the PIO state machine, byte by byte: its IRQ handler moves each
        into the driver's ring, as the bytes arrive (about 1 ms each at 9600 baud)."""
        sm = self.bets_sm
        for byte in line:
            sm.receive(byte)
        sm.receive(10)

    def bet_reading(self, seats):
        """A whole reading, a line and an input/output pass at a time (untimed)."""
        for line in self.bet_lines(seats):
            self.bet_line(line)
            self.one_pass()
            self.ack()
        self.passes(2)

    def keys(self, indices):
        for i in indices:
            self.ctx.queue.put(KEY, i, 0)
            self.one_pass()
            self.ack()

    def keys_at_once(self, indices):
        """Keys queued together, then one pass (the memory bench's quicker way through a hand)."""
        for i in indices:
            self.ctx.queue.put(KEY, i, 0)
        self.one_pass()
        self.ack()
