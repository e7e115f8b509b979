# MicroPython's `rp2` module, simulated: the PIO assembler (asm_pio), PIO and StateMachine.
#
# hostsim.hardware.install() registers it as sys.modules["rp2"] only when the
# board's mcu is "rp2040": on any other chip `import rp2` fails, as it does on
# the chip. The assembler is complete: it emits the instruction words and the
# EXECCTRL/SHIFTCTRL settings MicroPython's rp2.asm_pio emits (RP2040 datasheet
# 3.4 encodings), as the same 8-field program list. Running a program is not
# general: the state machines run the PIO UART programs of
# firmware/drivers/pio_uart.py, recognised by their assembled words
# (hostsim/pio.py), and refuse any other program. State lives in the Hardware
# (hw.state_machine(id)), so two StateMachine(0) objects are one machine.
import builtins
import types
from array import array

from hostsim import hardware as _hw

# The program list asm_pio returns (MicroPython's layout).
PROG_DATA, PROG_OFFSET_PIO0, PROG_OFFSET_PIO1, PROG_EXECCTRL, PROG_SHIFTCTRL = 0, 1, 2, 3, 4
PROG_OUT_PINS, PROG_SET_PINS, PROG_SIDESET_PINS = 5, 6, 7


class PIOASMError(Exception):
    pass


class PIO:
    """PIO(block): one of the chip's PIO blocks; constants as MicroPython's."""

    IN_LOW, IN_HIGH, OUT_LOW, OUT_HIGH = 0, 1, 2, 3
    SHIFT_LEFT, SHIFT_RIGHT = 0, 1
    JOIN_NONE, JOIN_TX, JOIN_RX = 0, 1, 2
    IRQ_SM0, IRQ_SM1, IRQ_SM2, IRQ_SM3 = 0x100, 0x200, 0x400, 0x800

    def __init__(self, id):
        self._block = _hw.current().pio_block(id)

    def add_program(self, prog):
        self._block.add(prog)

    def remove_program(self, prog=None):
        self._block.remove(prog)

    def state_machine(self, id, prog=None, *args, **kwargs):
        if not isinstance(id, int) or not 0 <= id < self._block.sms:
            raise ValueError("invalid StateMachine")
        return StateMachine(self._block.id * self._block.sms + id, prog, *args, **kwargs)

    def __repr__(self):
        return "PIO(%d)" % self._block.id


class StateMachine:
    """StateMachine(id, [prog, freq, in_base=, out_base=, set_base=, jmp_pin=, sideset_base=, ...])."""

    def __init__(self, id, prog=None, *args, **kwargs):
        self._state = _hw.current().state_machine(id)
        if prog is not None or args or kwargs:
            self.init(prog, *args, **kwargs)

    def init(self, prog, freq=-1, *, in_base=None, out_base=None, set_base=None, jmp_pin=None, sideset_base=None,
             in_shiftdir=None, out_shiftdir=None, push_thresh=None, pull_thresh=None):
        if not isinstance(prog, list) or len(prog) != 8:
            raise TypeError("a PIO program is the list rp2.asm_pio returns")
        shiftctrl = prog[PROG_SHIFTCTRL]
        for value, lsb, bits in ((in_shiftdir, 18, 1), (out_shiftdir, 19, 1), (push_thresh, 20, 5),
                                 (pull_thresh, 25, 5)):
            if value is not None:
                mask = ((1 << bits) - 1) << lsb
                shiftctrl = (shiftctrl & ~mask) | ((value << lsb) & mask)
        pins = {"in_base": in_base, "out_base": out_base, "set_base": set_base, "jmp_pin": jmp_pin,
                "sideset_base": sideset_base}
        self._state.configure(prog, freq, shiftctrl, {k: _pin(v) for k, v in pins.items() if v is not None})

    def active(self, value=None):
        if value is not None:
            self._state.set_active(bool(value))
        return self._state.active

    def rx_fifo(self):
        self._state.run()
        return len(self._state.rx)

    def tx_fifo(self):
        self._state.run()
        return len(self._state.tx)

    def get(self, buf=None, shift=0):
        """A word from the RX FIFO >> shift (or buf filled with words); what would wait for ever raises."""
        st = self._state
        if buf is None:
            return st.pop() >> shift
        view = memoryview(buf).cast("B") if not isinstance(buf, array) else buf
        mask = (1 << (8 * view.itemsize)) - 1
        for i in range(len(view)):
            view[i] = (st.pop() >> shift) & mask
        return buf

    def put(self, value, shift=0):
        """Words into the TX FIFO (value: an int, a bytearray or an array of B/H/I), each << shift."""
        if isinstance(value, int):
            words = (value & 0xFFFFFFFF,)
        else:
            words = tuple(memoryview(value).cast("B")) if not isinstance(value, array) else tuple(value)
        for word in words:
            self._state.push((word << shift) & 0xFFFFFFFF)

    def irq(self, handler=None, trigger=1, hard=False):
        self._state.set_irq(handler, trigger, hard, self)
        return _SmIRQ(self._state)

    def __repr__(self):
        return "StateMachine(%d)" % self._state.id


class _SmIRQ:
    def __init__(self, state):
        self._state = state

    def flags(self):
        return 1 if self._state.irq_flag else 0

    def trigger(self, trigger=None):
        if trigger is not None:
            self._state.irq_trigger = trigger
        return self._state.irq_trigger


def _pin(pin):
    from hostsim.machine import _pin_id

    return _hw.current().pin(_pin_id(pin)).id


# -- the assembler ----------------------------------------------------------------------------------

# Operand names a program body uses (MicroPython's values: some are translated by the instruction).
_NAMES = {
    "gpio": 0, "pins": 0, "x": 1, "y": 2, "null": 3, "pindirs": 4, "pc": 5, "status": 5, "isr": 6, "osr": 7,
    "exec": 8,                                   # mov: 4, out: 7
    "invert": lambda src: src | 0x08, "reverse": lambda src: src | 0x10,
    "not_x": 1, "x_dec": 2, "not_y": 3, "y_dec": 4, "x_not_y": 5, "pin": 6, "not_osre": 7,
    "noblock": 0x01, "block": 0x21, "iffull": 0x40, "ifempty": 0x40, "clear": 0x40,
    "rel": lambda index: index | 0x10,
}
_DIRECTIVES = ("wrap_target", "wrap", "label")
_INSTRUCTIONS = ("word", "nop", "jmp", "wait", "in_", "out", "push", "pull", "mov", "irq", "set")


class _Emitter:
    """Two passes over a program body: the first finds labels and side-set use, the second emits."""

    def __init__(self, out_init=None, set_init=None, sideset_init=None, side_pindir=False,
                 in_shiftdir=PIO.SHIFT_LEFT, out_shiftdir=PIO.SHIFT_LEFT, autopush=False, autopull=False,
                 push_thresh=32, pull_thresh=32, fifo_join=PIO.JOIN_NONE):
        shiftctrl = (fifo_join << 30 | (pull_thresh & 0x1F) << 25 | (push_thresh & 0x1F) << 20
                     | out_shiftdir << 19 | in_shiftdir << 18 | int(autopull) << 17 | int(autopush) << 16)
        self.prog = [array("H"), -1, -1, int(side_pindir) << 29, shiftctrl, out_init, set_init, sideset_init]
        self.labels = {}
        self.wrap_used = False
        if sideset_init is None:
            self.sideset_count = 0
        elif isinstance(sideset_init, int):
            self.sideset_count = 1
        else:
            self.sideset_count = len(sideset_init)
        self.sideset_opt = False
        self.delay_max = 31
        self.pass_ = 0
        self.num_instr = 0
        self.num_sideset = 0

    def start_pass(self, pass_):
        if pass_ == 1:
            if not self.wrap_used and self.num_instr:
                self.wrap()
            if self.sideset_count:
                self.sideset_opt = self.num_sideset != self.num_instr    # not every instruction side-sets
                if self.sideset_opt:
                    self.prog[PROG_EXECCTRL] |= 1 << 30
                    self.sideset_count += 1
                self.delay_max = 31 >> self.sideset_count
        self.pass_ = pass_
        self.num_instr = 0
        self.num_sideset = 0

    # `instr [n]` and `instr .side(v)` act on the instruction just emitted
    def __getitem__(self, delay):
        if self.pass_ > 0:
            if not 0 <= delay <= self.delay_max:
                raise PIOASMError("delay too large")
            self.prog[PROG_DATA][-1] |= delay << 8
        return self

    def side(self, value):
        self.num_sideset += 1
        if self.pass_ > 0:
            if self.sideset_count == 0:
                raise PIOASMError("no sideset")
            if value >= 1 << (self.sideset_count - self.sideset_opt):
                raise PIOASMError("sideset too large")
            self.prog[PROG_DATA][-1] |= self.sideset_opt << 12 | value << (13 - self.sideset_count)
        return self

    def wrap_target(self):
        self.prog[PROG_EXECCTRL] |= self.num_instr << 7

    def wrap(self):
        if not self.num_instr:
            raise PIOASMError("wrap before any instruction")
        self.prog[PROG_EXECCTRL] |= (self.num_instr - 1) << 12
        self.wrap_used = True

    def label(self, name):
        if self.pass_ == 0:
            if name in self.labels:
                raise PIOASMError("duplicate label {}".format(name))
            self.labels[name] = self.num_instr

    def word(self, instr, label=None):
        self.num_instr += 1
        if self.pass_ > 0:
            target = 0
            if label is not None:
                if label not in self.labels:
                    raise PIOASMError("unknown label {}".format(label))
                target = self.labels[label]
            self.prog[PROG_DATA].append(instr | target)
        return self

    def nop(self):
        return self.word(0xA042)                 # mov y, y

    def jmp(self, cond, label=None):
        if label is None:
            cond, label = 0, cond                # always
        return self.word(cond << 5, label)

    def wait(self, polarity, src, index):
        src = 1 if src == 6 else (0 if src == 0 else 2)     # gpio, pin, or (the irq function) irq
        return self.word(0x2000 | polarity << 7 | src << 5 | index)

    def in_(self, src, count):
        if not 0 < count <= 32:
            raise PIOASMError("invalid bit count {}".format(count))
        return self.word(0x4000 | src << 5 | count & 0x1F)

    def out(self, dest, count):
        if not 0 < count <= 32:
            raise PIOASMError("invalid bit count {}".format(count))
        return self.word(0x6000 | (7 if dest == 8 else dest) << 5 | count & 0x1F)

    def push(self, value=0, value2=0):
        value |= value2
        if not value & 1:
            value |= 0x20                        # block unless noblock
        return self.word(0x8000 | value & 0x60)

    def pull(self, value=0, value2=0):
        value |= value2
        if not value & 1:
            value |= 0x20
        return self.word(0x8080 | value & 0x60)

    def mov(self, dest, src):
        return self.word(0xA000 | (4 if dest == 8 else dest) << 5 | src)

    def irq(self, mod, index=None):
        if index is None:
            mod, index = 0, mod
        return self.word(0xC000 | mod & 0x60 | index)

    def set(self, dest, data):
        return self.word(0xE000 | dest << 5 | data)


def asm_pio(**kwargs):
    """Decorator: the function's body, run with the PIO instruction names, becomes a program list.

    MicroPython swaps the defining module's globals for these names while the
    body runs; here the body runs as a copy of the function with its own
    globals, which is the same for the body and leaves the module alone.
    """
    emit = _Emitter(**kwargs)

    def assemble(f):
        names = dict(_NAMES)
        names["__builtins__"] = builtins
        for name in _DIRECTIVES + _INSTRUCTIONS:
            names[name] = getattr(emit, name)
        body = types.FunctionType(f.__code__, names, f.__name__, f.__defaults__, f.__closure__)
        emit.start_pass(0)
        body()
        emit.start_pass(1)
        body()
        return emit.prog

    return assemble

