# Minimal stand-ins for hardware objects, usable on MicroPython (no hostsim there).
from firmware.link import frame as link_frame


class FakeStrip:
    """A neopixel-like strip that counts writes."""

    def __init__(self, n):
        self.n = n
        self.pixels = [(0, 0, 0)] * n
        self.writes = 0

    def __setitem__(self, i, colour):
        self.pixels[i] = colour

    def __getitem__(self, i):
        return self.pixels[i]

    def __len__(self):
        return self.n

    def write(self):
        self.writes += 1


class FakeUART:
    """Bytes fed by the test are read by the firmware; writes are collected.

    A host-link frame written here is acknowledged at once (an ACK frame queued to be read), as
    the host would (acks False: a host that is away); reports() reads the reports back out of the
    frames written, each once, in order (a simple host: tools/host.py is the real one)."""

    def __init__(self):
        self.rx = bytearray()
        self.tx = bytearray()
        self.acks = True
        self._line = bytearray()

    def feed(self, data):
        self.rx.extend(data)

    def any(self):
        return len(self.rx)

    def readinto(self, buf, n=None):
        n = len(buf) if n is None else n
        n = min(n, len(self.rx))
        for i in range(n):
            buf[i] = self.rx[i]
        self.rx = self.rx[n:]
        return n

    def write(self, data):
        self.tx.extend(data)
        for ch in bytes(data):
            if ch != 10:
                self._line.append(ch)
                continue
            frame = link_frame.Frame()
            if self.acks and frame.decode(self._line) == link_frame.OK and frame.seq > 0:
                self.rx.extend(link_frame.encode(frame.boot, frame.seq, "ACK"))
            self._line = bytearray()
        return len(data)

    def lines(self):
        return [bytes(l).decode() for l in bytes(self.tx).split(b"\r\n") if l]

    def reports(self):
        """The JSON text of every report in the host-link frames written, each once, in order."""
        return link_reports(self.tx)


def link_reports(data, lost=False):
    """Host-link frames (bytes) -> the reports' JSON texts: each (boot, seq) once, PARTs joined. With lost,
    what a host hears of reports it did not get whole too, where it came (tools/host_client.py): a LOST
    frame's count of the reports the board refused while its store was full ("lost: N"), and PART pieces
    not followed in order by the rest, a report a power cut left unfinished ("part_lost: N", N pieces);
    without, such pieces are an AssertionError. Every line must be a good frame (a test's line has no noise)."""
    out = []
    seen = {}
    parts = []
    parts_next = None
    frame = link_frame.Frame()
    for line in bytes(data).split(b"\n"):
        if not line:
            continue
        status = frame.decode(line)
        if status != link_frame.OK:
            raise AssertionError("not a host-link frame (%s): %r" % (link_frame.STATUS_NAMES[status], line))
        key = (frame.boot, frame.seq)
        if frame.seq == 0 or key in seen:
            continue
        seen[key] = True
        if parts and key != parts_next:
            if not lost:
                raise AssertionError("a report's PART pieces cut off before %d.%d: %r" % (key + (parts,)))
            out.append("part_lost: %d" % len(parts))
            parts = []
        if frame.type_is(b"PART"):
            parts.append(frame.payload())
            parts_next = (frame.boot, frame.seq + 1)
        elif frame.type_is(b"REPORT"):
            parts.append(frame.payload())
            out.append(b"".join(parts).decode())
            parts = []
        elif lost and frame.type_is(b"LOST"):
            out.append("lost: %d" % frame.payload_uint())
    return out


class FakePin:
    def __init__(self, level=1):
        self.level = level

    def value(self, v=None):
        if v is None:
            return self.level
        self.level = v


class FakeMatrix:
    """A key matrix without diodes: `rows` open-drain row pins, `cols` column pins with pull-up.

    A held key joins its row and column wires; a wire reads low when any wire it is joined to
    (through held keys, over any number of hops: ghosts too) is a row pulled low. The rows count
    how often they were pulled low; each column read notes how many rows were low then (a scan
    reads a row alone; an "any key down?" probe reads them all at once).
    """

    def __init__(self, rows, cols):
        self.held = []                       # (row, col) of the keys held down
        self.overlaps = 0                    # scans that pulled a second row low before releasing one
        self.rows_low_at_reads = []          # rows low at each column read
        self.rows = [_MatrixRow(self) for _ in range(rows)]
        self.cols = [_MatrixCol(self, c) for c in range(cols)]

    def press(self, row, col):
        if (row, col) not in self.held:
            self.held.append((row, col))

    def release(self, row, col):
        if (row, col) in self.held:
            self.held.remove((row, col))

    def column_low(self, col):
        """Walk the wires joined to column `col` by held keys; low if one is a row pulled low."""
        seen_rows = []
        seen_cols = [col]
        frontier = [("c", col)]
        while frontier:
            kind, n = frontier.pop()
            for r, c in self.held:
                if kind == "c" and c == n and r not in seen_rows:
                    seen_rows.append(r)
                    frontier.append(("r", r))
                elif kind == "r" and r == n and c not in seen_cols:
                    seen_cols.append(c)
                    frontier.append(("c", c))
        for r in seen_rows:
            if self.rows[r].level == 0:
                return True
        return False


class _MatrixRow:
    def __init__(self, matrix):
        self.matrix = matrix
        self.level = 1          # open drain: 1 = released (drives nothing)
        self.pulls = 0

    def value(self, v=None):
        if v is None:
            return self.level
        if not v and self.level:
            self.pulls += 1
            for row in self.matrix.rows:
                if row is not self and row.level == 0:
                    self.matrix.overlaps += 1
        self.level = 1 if v else 0


class _MatrixCol:
    def __init__(self, matrix, index):
        self.matrix = matrix
        self.index = index

    def value(self, v=None):
        if v is not None:
            raise AssertionError("a keypad column is an input")
        self.matrix.rows_low_at_reads.append(sum(1 for row in self.matrix.rows if row.level == 0))
        return 0 if self.matrix.column_low(self.index) else 1


class FakeMachine:
    """Enough of `machine` for firmware.hardware.bring_up on either runtime."""

    PWRON_RESET, HARD_RESET, WDT_RESET, DEEPSLEEP_RESET, SOFT_RESET = 1, 2, 3, 4, 5    # rp2 numbering
    cause = 1                 # what reset_cause() answers

    def __init__(self):
        self.uarts = {}
        self.pins = {}
        self.fed = 0
        self.resets = 0
        self.irq_off = 0          # disable_irq() calls
        self.irq_on = 0           # enable_irq() calls
        self.grounded = ()        # pins wired to ground from outside (a fitted service jumper): read 0
        machine = self

        class Pin:
            IN = 0
            OUT = 1
            OPEN_DRAIN = 2
            PULL_UP = 1

            def __init__(self, pin_id, mode=-1, pull=-1, value=None):
                self.id = pin_id
                self.mode = mode
                self.pull = pull
                self.level = (0 if pin_id in machine.grounded else 1) if value is None else value
                machine.pins[pin_id] = self

            def value(self, v=None):
                if v is None:
                    return self.level
                self.level = v

        class UART(FakeUART):
            def __init__(self, uart_id, baudrate=9600, tx=None, rx=None, timeout=0, txbuf=0):
                FakeUART.__init__(self)
                machine.uarts[uart_id] = self

        class I2C:
            """Every address acknowledges but FakeLCD.missing's (the LCDs are FakeLCDs; an SSD1306 talks to
            this bus)."""

            def __init__(self, bus_id, scl=None, sda=None, freq=0):
                self.bus_id = bus_id
                self.writes = 0

            def writeto(self, addr, buf, stop=True):
                if addr in FakeLCD.missing:
                    raise OSError(19)
                self.writes += 1
                return len(buf)

            def writevto(self, addr, vector, stop=True):     # one transaction of several buffers
                if addr in FakeLCD.missing:
                    raise OSError(19)
                self.writes += 1

            def readfrom_into(self, addr, buf, stop=True):   # an SSD1306's status byte: the display on
                if addr in FakeLCD.missing:
                    raise OSError(19)
                for i in range(len(buf)):
                    buf[i] = 0

        class WDT:
            def __init__(self, timeout=0):
                self.timeout = timeout

            def feed(self):
                machine.fed += 1

        self.Pin = Pin
        self.UART = UART
        self.I2C = I2C
        self.WDT = WDT

    def reset_cause(self):
        return self.cause

    def disable_irq(self):
        self.irq_off += 1
        return 1

    def enable_irq(self, state=1):
        self.irq_on += 1

    def reset(self):
        self.resets += 1


class NeoStrip:
    """MicroPython's neopixel.NeoPixel as its driver fills it: 3 bytes a pixel, GRB order."""
    ORDER = (1, 0, 2, 3)

    def __init__(self, n, buf=None):
        self.n = n
        self.bpp = 3
        self.buf = bytearray(3 * n) if buf is None else buf
        self.writes = 0

    def __len__(self):
        return self.n

    def __setitem__(self, i, v):
        offset = i * 3
        for k in range(3):
            self.buf[offset + self.ORDER[k]] = v[k]

    def __getitem__(self, i):
        return tuple(self.buf[i * 3 + self.ORDER[k]] for k in range(3))

    def write(self):
        self.writes += 1


class FakeNeoPixelModule:
    def __init__(self):
        self.strips = []

    def NeoPixel(self, pin, n):
        strip = FakeStrip(n)
        self.strips.append(strip)
        return strip


class FakeLCD:
    """Records the lines shown; the addresses in FakeLCD.missing answer nothing (a FakeLCD's, and on the fake
    machine's I2C bus an SSD1306's)."""
    missing = ()

    def __init__(self, i2c, addr, cols, rows):
        if addr in FakeLCD.missing:
            raise OSError(19)
        self.addr = addr
        self.lines = []

    def show(self, lines):
        self.lines = list(lines)

    def init_display(self):
        """The controller set up again (firmware/display_loss.py): blank, or OSError while it is missing."""
        if self.addr in FakeLCD.missing:
            raise OSError(19)
        self.lines = []
        self.restarts = getattr(self, "restarts", 0) + 1
        self.powered_up = False

    def lost_setup(self):
        """firmware.main.probe_displays' question: OSError while it is missing; True once powered_up is set (a
        cable reseated between two writes) until it is set up again."""
        if self.addr in FakeLCD.missing:
            raise OSError(19)
        return getattr(self, "powered_up", False)


class FakeRP2:
    """Enough of MicroPython's `rp2` for firmware.drivers.pio_uart on either runtime.

    asm_pio runs a program body as MicroPython's does (the defining module's
    globals swapped for the instruction names) and records the instructions as
    tuples, e.g. ("set", "x", 7, "delay", 10), so tests compare programs by
    their source. State machines are in .machines by id (FakeStateMachine).
    """

    class PIO:
        IN_LOW, IN_HIGH, OUT_LOW, OUT_HIGH = 0, 1, 2, 3
        SHIFT_LEFT, SHIFT_RIGHT = 0, 1
        JOIN_NONE, JOIN_TX, JOIN_RX = 0, 1, 2

    def __init__(self):
        self.machines = {}
        self.assembled = 0
        rp2 = self

        class StateMachine(FakeStateMachine):
            def __init__(self, sm_id, prog, freq=-1, **pins):
                FakeStateMachine.__init__(self, sm_id, prog, freq, pins)
                rp2.machines[sm_id] = self

        self.StateMachine = StateMachine

    def asm_pio(self, **settings):
        rp2 = self

        def assemble(f):
            rp2.assembled += 1
            program = FakeProgram(f.__name__, settings)
            names = program.names()
            g = f.__globals__
            saved = g.copy()
            g.clear()
            g.update(names)
            try:
                f()
            finally:
                g.clear()
                g.update(saved)
            return program

        return assemble


class FakeProgram:
    """What asm_pio made of a program body: its settings and its instructions as tuples."""

    def __init__(self, name, settings):
        self.name = name
        self.settings = settings
        self.code = []

    def names(self):
        program = self

        def emit(*words):
            program.code.append(words)
            return _Instr(program)

        names = {"label": lambda name: program.code.append(("label", name)),
                 "rel": lambda index: ("rel", index)}
        for op in ("wait", "set", "in_", "jmp", "push", "pull", "irq", "out", "nop", "mov"):
            names[op] = (lambda op: lambda *args: emit(op, *args))(op)
        for operand in ("pin", "pins", "x", "y", "x_dec", "noblock", "block", "osr", "isr", "null"):
            names[operand] = operand
        return names


class _Instr:
    def __init__(self, program):
        self.program = program

    def _extend(self, *words):
        self.program.code[-1] = self.program.code[-1] + words
        return self

    def side(self, value):
        return self._extend("side", value)

    def __getitem__(self, delay):
        return self._extend("delay", delay)


class FakeStateMachine:
    """A PIO UART state machine seen from the CPU: FIFOs of 8 words (joined), an IRQ handler.

    The test is the state machine's other side: receive(byte) is the
    receiver pushing a byte (word byte << 24, dropped if the FIFO is full)
    and raising its IRQ flag; sent() takes what the transmitter has shifted
    out of its FIFO so far (shift_out(n) moves n words from FIFO to wire).
    """

    DEPTH = 8

    def __init__(self, sm_id, prog, freq, pins):
        self.id = sm_id
        self.prog = prog
        self.freq = freq
        self.pins = pins
        self.running = False
        self.handler = None
        self.hard = False
        self.fifo = []            # the byte of each word (the word is byte << 24)
        self.lost = 0             # pushed into a full FIFO
        self.out = []             # TX FIFO: the low byte of each word put
        self.wire = bytearray()

    def active(self, value=None):
        if value is not None:
            self.running = bool(value)
        return self.running

    def irq(self, handler=None, trigger=1, hard=False):
        self.handler = handler
        self.hard = hard

    def receive(self, byte, irq=True):
        if len(self.fifo) < self.DEPTH:
            self.fifo.append(byte)
        else:
            self.lost += 1
        if irq and self.handler is not None:
            self.handler(self)

    def rx_fifo(self):
        return len(self.fifo)

    def get(self, buf=None, shift=0):
        if not self.fifo:
            raise AssertionError("get() on an empty FIFO waits for ever")
        byte = self.fifo.pop(0)
        # word >> shift, without making the 32-bit word (a big int on MicroPython) when shift >= 24
        return byte >> (shift - 24) if shift >= 24 else byte << (24 - shift)

    def tx_fifo(self):
        return len(self.out)

    def put(self, value, shift=0):
        if len(self.out) >= self.DEPTH:
            raise AssertionError("put() on a full FIFO waits for the wire")
        self.out.append((value << shift) & 0xFF)

    def shift_out(self, n=DEPTH):
        for _ in range(min(n, len(self.out))):
            self.wire.append(self.out.pop(0))

    def sent(self):
        self.shift_out(len(self.out))
        data = bytes(self.wire)
        self.wire = bytearray()
        return data


class ReadsFailFS:
    """The board's flash where opening a file for reading fails (OSError 5, EIO): a file whose path has
    `files` in it ("": any), once `fail_from` such opens have succeeded, while `failing`. Writes still go.
    A test's fs for startup.boot (open, rename, remove, stat)."""

    def __init__(self, files="", fail_from=0, failing=True):
        self.files = files
        self.fail_from = fail_from
        self.failing = failing
        self.opens = 0                  # opens for reading of those files, failed or not

    def open(self, name, mode="r"):
        if self.failing and self.files in name and "r" in mode:
            self.opens += 1
            if self.opens > self.fail_from:
                raise OSError(5)
        return open(name, mode)

    def rename(self, old, new):
        import os
        os.rename(old, new)

    def remove(self, name):
        import os
        os.remove(name)

    def stat(self, name):
        import os
        return os.stat(name)
