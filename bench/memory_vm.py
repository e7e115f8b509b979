# Memory of the whole table on MicroPython: the heap KEPT after boot (controller, drivers, host
# link, console and whatever firmware.main.boot builds: measured with the tree as it is), what one
# round ALLOCATES (with the collector off: an upper bound of the round's peak over what is kept), and
# the heap kept after every STEP_ROUNDS rounds up to STEPS x STEP_ROUNDS, whose slope must be 0.
# The heap kept after boot is split: CODE, what importing every module of MODULES keeps (imported
# before the boot; bench/whole_table.py lists them), and DATA, boot minus imports: what a board keeps
# with its code in flash (frozen or ROMFS, whose bytecode takes no heap), to which a board adds what
# those modules still keep there (their objects, dicts, functions, classes: counted, and their sizes
# measured in this VM, below). Run alone, with MODULES empty, CODE is only the three shared modules
# and DATA holds the rest of the code.
# Prints "key: value" lines.
#
#   .venv/bin/python bench/whole_table.py --memory-only     (each game in a VM of its own)
#   .venv/bin/python -c "from bench import whole_table; whole_table.main(['--memory-only', '--game', 'craps'])"
#
# The driver replaces the GAME line below for each game. tools.mpvm --steps runs each part between
# "# --- next run call ---" lines as its own VM run call: in the WebAssembly port a gc.collect()
# frees nothing allocated during its own call, so memory KEPT is measured by collecting in later
# calls, three times after boot (the last two must agree, else ram_unsteady_* says so). Modules are
# imported from source here (a board loads .mpy: the same bytecode kept, no compile garbage).
# Not counted as the table's: the bench's fakes and drivers (tests/firmware/fakes.py,
# device_helpers.py, scratch.py, bench/vmtable.py, bench/table_vm.py); firmware modules they
# import (the host-link frame, the device frame, faults) are imported first and counted.
import gc
import sys

GAME = "baccarat"
STEP_ROUNDS = 20        # rounds between two measurements (bench/whole_table.py: 1000)
ROUNDS_PER_CALL = 20    # rounds per VM run call: garbage made in a call is freed only after it
MODULES = ()            # every firmware module a booted table has imported after a few rounds
#                         (bench/whole_table.py writes them here, found by a run of its own)
DEFAULTED = 0           # how many of their functions have default arguments (bench/whole_table.py
#                         counts them on CPython: MicroPython's functions do not show them)
BUILT = ()              # (module, name, inner tuples built too) of the values their top levels build
#                         at import (not literal constants: bench/whole_table.py reads them from the source)
MEM = [0] * 20
PREV = [0] * 20
KEPT = []            # heap kept after each step of rounds


def measure(slot):
    gc.collect()
    PREV[slot] = MEM[slot]
    MEM[slot] = gc.mem_alloc()


# --- next run call ---
measure(0)
# --- next run call ---
measure(0)
# --- next run call ---
measure(0)  # nothing imported yet
# --- next run call ---
import firmware.faults  # noqa: E402,F401  (the table's, imported by the fakes too: counted here)
import firmware.device_frame  # noqa: E402,F401
import firmware.link.frame  # noqa: E402,F401
# --- next run call ---
measure(1)
# --- next run call ---
measure(1)
# --- next run call ---
measure(1)
# --- next run call ---
import tests.firmware.fakes  # noqa: E402,F401  (the bench's: not counted)
import tests.firmware.device_helpers  # noqa: E402,F401
import tests.firmware.scratch  # noqa: E402,F401
from bench import vmtable  # noqa: E402
from bench import table_vm  # noqa: E402
# --- next run call ---
measure(2)
# --- next run call ---
measure(2)
# --- next run call ---
measure(2)
# --- next run call ---
for _name in MODULES:  # the table's CODE: every module it imports, before it boots
    __import__(_name)
# --- next run call ---
measure(6)
# --- next run call ---
measure(6)
# --- next run call ---
measure(6)
# --- next run call ---
TABLE = vmtable.Table(GAME)
# --- next run call ---
measure(3)
# --- next run call ---
measure(3)
# --- next run call ---
measure(3)  # the table booted and READY
# --- next run call ---
SEED = [1]
ALLOC = [0]
K = [0]          # rounds played


def one_round(k):
    if GAME == "baccarat":
        table_vm.baccarat_next(TABLE, k, timed=False)
    elif GAME == "craps":
        table_vm.craps_round(TABLE, timed=False)
    else:
        SEED[0] += 1
        table_vm.omaha_hand(TABLE, SEED[0], timed=False, keys=TABLE.keys_at_once)


def rounds(n):
    for _ in range(n):
        one_round(K[0])
        K[0] += 1


if GAME == "baccarat":
    table_vm.baccarat_shoe(TABLE)
rounds(3)
# --- next run call ---
PASS_MAX = [0]
_plain_pass = TABLE.one_pass


def _counted_pass(elapsed_ms=vmtable.PASS_MS, draw=True):
    before = gc.mem_alloc()
    _plain_pass(elapsed_ms, draw)
    used = gc.mem_alloc() - before
    if used > PASS_MAX[0]:
        PASS_MAX[0] = used


gc.collect()
gc.disable()
_before = gc.mem_alloc()
TABLE.one_pass = _counted_pass
one_round(K[0])
TABLE.one_pass = _plain_pass
K[0] += 1
ALLOC[0] = gc.mem_alloc() - _before      # everything the round asked for, none of it freed meanwhile
gc.enable()
# --- next run call ---
measure(4)
# --- next run call ---
measure(4)
KEPT.append(MEM[4])
# @rounds-begin (bench/whole_table.py writes STEPS x (STEP_ROUNDS / ROUNDS_PER_CALL) calls here)
# --- next run call ---
rounds(ROUNDS_PER_CALL)
# --- next run call ---
measure(4)
# --- next run call ---
measure(4)
KEPT.append(MEM[4])
# @rounds-end
# --- next run call ---
SECOND = vmtable.Table(GAME)     # a second table of the same game: its objects, no code imported
# --- next run call ---
measure(5)
# --- next run call ---
measure(5)
# --- next run call ---
measure(5)
# --- next run call ---
# What stays in the heap even when the code is frozen or in ROMFS (bytecode, qstrs and constants in
# flash): each module's object and globals dict, the function and class objects its top level makes
# (a class's dict too). COUNTED from the imported modules (each object once: a function imported
# into another module is one object; builtins, in ROM, are not counted), and their bytes MEASURED in
# this VM (a 32-bit port, as the RP2040: the same object sizes and 16-byte blocks) by the calls
# below: every one of those dicts cloned (the same keys inserted one by one into a new dict, as an
# import or a class body fills its dict: the same hash table sizes), and N functions, classes and
# modules made from code of their own. Values built at import (dicts, lists, tuples, instances) are
# not in this figure. The ESTIMATE this replaced, with the same counts, is printed beside it: a dict
# 16 bytes and 8 a slot (entries rounded up to a power of two), a function 16, a class 64, a module 16.
_RES = {"modules": 0, "dicts": 0, "dict_slots": 0, "functions": 0, "wrappers": 0, "classes": 0, "based": 0}
RES_DICTS = []      # every module's globals dict and every class's dict, once
_RES_IDS = {}


def _slots(n):
    k = 1
    while k < n:
        k *= 2
    return k


def _residual_dict(d, modules):
    if id(d) in _RES_IDS:
        return
    _RES_IDS[id(d)] = 1
    RES_DICTS.append(d)
    _RES["dicts"] += 1
    _RES["dict_slots"] += _slots(len(d))
    for v in d.values():
        if id(v) in _RES_IDS:
            continue
        kind = type(v).__name__
        if kind == "function":
            if hasattr(v, "__globals__"):           # bytecode; a builtin has none (and is in ROM)
                _RES_IDS[id(v)] = 1
                _RES["functions"] += 1
        elif kind in ("staticmethod", "classmethod"):
            _RES_IDS[id(v)] = 1
            _RES["wrappers"] += 1
            _RES["functions"] += 1                  # the function inside
        elif isinstance(v, type) and getattr(v, "__module__", None) in modules:
            _RES_IDS[id(v)] = 1
            _RES["classes"] += 1
            if v.__bases__ != (object,) and v.__bases__ != ():
                _RES["based"] += 1
            _residual_dict(v.__dict__, modules)


def residual_counts():
    modules = {}
    for name in MODULES:
        modules[name] = 1
    for name in MODULES:
        _RES["modules"] += 1
        _residual_dict(sys.modules[name].__dict__, modules)


def residual_estimate():
    return (16 * _RES["modules"] + 16 * _RES["dicts"] + 8 * _RES["dict_slots"] + 16 * _RES["functions"]
            + 64 * _RES["classes"])


# The residual's sizes, measured (see residual_counts below): the objects made here are kept till the
# end, each kind measured as the heap kept after it minus before, in calls of their own.
N_MADE = 200
residual_counts()
CLONES = [None] * len(RES_DICTS)
FUNS = [None] * N_MADE
FUNS_DEF = [None] * N_MADE
WRAPS = [None] * N_MADE
CLASSES = [None] * N_MADE
CLASS_DICTS = [None] * N_MADE
BASED = [None] * N_MADE
MOD_NAMES = ["_mz_%03d" % i for i in range(N_MADE)]
MOD_DICTS = [None] * N_MADE
BUILT_COPIES = [None] * len(BUILT)
_SEEN_BUILT = {}
import array  # noqa: E402


def _clone(src):
    d = {}
    for k in src:
        d[k] = src[k]
    return d


def _constant(v):
    if v is None or isinstance(v, (bool, int, float, str, bytes)):
        return True
    return type(v) is tuple and all(_constant(x) for x in v)


def _clone_value(v, seen, inner_built=True, top=True):
    # A copy of v made of new objects as v is (its containers and buffers): what building v at import
    # left in the heap. Shared, not copied: numbers, functions, classes, modules, and strings and bytes
    # (most are literals, in flash with the code; the few made at import are not counted), and the
    # instances of classes not of the firmware (the bench's stand-ins: the fake rp2 module); and inner
    # tuples of constants where the source writes them as literals (inner_built false).
    if id(v) in seen or v is None or isinstance(v, (bool, int, float, type, str, bytes)):
        return v
    if not top and not inner_built and _constant(v):
        return v
    kind = type(v).__name__
    if kind in ("function", "closure", "bound_method", "module", "staticmethod", "classmethod"):
        return v
    seen[id(v)] = 1
    if isinstance(v, bytearray):
        return bytearray(v)
    if kind == "memoryview":
        return memoryview(bytearray(0))
    if kind == "array":
        return array.array("b", bytes(v))      # its bytes, in an array of the same length in bytes
    if isinstance(v, tuple):            # a namedtuple too: the same object size
        return tuple([_clone_value(x, seen, inner_built, False) for x in v])
    if isinstance(v, list):
        return [_clone_value(x, seen, inner_built, False) for x in v]
    if isinstance(v, dict):
        d = {}
        for k in v:
            d[_clone_value(k, seen, inner_built, False)] = _clone_value(v[k], seen, inner_built, False)
        return d
    if isinstance(v, set):
        out = set()
        for x in v:
            out.add(_clone_value(x, seen, inner_built, False))
        return out
    module = getattr(type(v), "__module__", "")
    try:
        attrs = v.__dict__                # an instance: its object and its dict
    except AttributeError:
        return [v]                        # something else (a compiled regex...): one small object
    if not module.startswith("firmware"):
        return v
    return [v, _clone_value(attrs, seen, inner_built, False)]


def _plain():
    def f(a, b):
        return a
    return f


def _defaulted():
    def f(a, b=1, c=None):
        return a
    return f


def _a_class():
    class C:
        pass
    return C


class _Base:
    pass


def _a_based_class():
    class C(_Base):
        pass
    return C


class _Names:
    pass


import os  # noqa: E402
os.mkdir("/_mz")
for _n in MOD_NAMES:
    with open("/_mz/%s.py" % _n, "w") as _f:
        pass                                # an empty module: its object, globals dict, sys.modules slot
    getattr(_Names, _n, None)               # its name and file interned now (a board's are in ROM)
    getattr(_Names, "/_mz/%s.py" % _n, None)
sys.path.append("/_mz")
# --- next run call ---
measure(7)
# --- next run call ---
measure(7)
# --- next run call ---
measure(7)
# --- next run call ---
for _i in range(len(RES_DICTS)):
    CLONES[_i] = _clone(RES_DICTS[_i])
# --- next run call ---
measure(8)
# --- next run call ---
measure(8)
# --- next run call ---
measure(8)
# --- next run call ---
for _i in range(N_MADE):
    FUNS[_i] = _plain()
# --- next run call ---
measure(9)
# --- next run call ---
measure(9)
# --- next run call ---
measure(9)
# --- next run call ---
for _i in range(N_MADE):
    FUNS_DEF[_i] = _defaulted()
# --- next run call ---
measure(10)
# --- next run call ---
measure(10)
# --- next run call ---
measure(10)
# --- next run call ---
for _i in range(N_MADE):
    WRAPS[_i] = staticmethod(FUNS[_i])
# --- next run call ---
measure(11)
# --- next run call ---
measure(11)
# --- next run call ---
measure(11)
# --- next run call ---
for _i in range(N_MADE):
    CLASSES[_i] = _a_class()
# --- next run call ---
measure(12)
# --- next run call ---
measure(12)
# --- next run call ---
measure(12)
# --- next run call ---
for _i in range(N_MADE):
    CLASS_DICTS[_i] = _clone(CLASSES[_i].__dict__)
# --- next run call ---
measure(13)
# --- next run call ---
measure(13)
# --- next run call ---
measure(13)
# --- next run call ---
for _i in range(N_MADE):
    BASED[_i] = _a_based_class()
# --- next run call ---
measure(14)
# --- next run call ---
measure(14)
# --- next run call ---
measure(14)
# --- next run call ---
for _n in MOD_NAMES:
    __import__(_n)
# --- next run call ---
for _n in MOD_NAMES:
    sys.modules[_n].__dict__["__file__"] = None     # a board's file name is a qstr in ROM
# --- next run call ---
measure(15)
# --- next run call ---
measure(15)
# --- next run call ---
measure(15)
# --- next run call ---
for _i in range(N_MADE):
    MOD_DICTS[_i] = _clone(sys.modules[MOD_NAMES[_i]].__dict__)
# --- next run call ---
measure(16)
# --- next run call ---
measure(16)
# --- next run call ---
measure(16)
# --- next run call ---
for _i in range(len(BUILT)):
    BUILT_COPIES[_i] = _clone_value(sys.modules[BUILT[_i][0]].__dict__[BUILT[_i][1]], _SEEN_BUILT, BUILT[_i][2])
# --- next run call ---
measure(18)
# --- next run call ---
measure(18)
# --- next run call ---
measure(18)
# --- next run call ---
# The bench's stand-ins that the boot made, counted in DATA: the fake machine with its classes, its Pin,
# I2C and WDT objects, the UART objects, the bet reader's two state machines, the neopixel module and
# the USB console stand-ins. On an RP2040 those are static C objects (machine.Pin, UART, I2C, WDT and
# rp2.StateMachine return entries of fixed tables), so the same set is made again here and measured;
# the UARTs' rings are taken out (the rp2 port puts those on the heap) and the strip is not made (the
# board's neopixel.NeoPixel, Python code, keeps the same object and buffer).


def _heap(n):
    return 16 + (n + 15) // 16 * 16      # a bytearray: its object and its data, in 16-byte blocks


def stand_ins(t):
    m = vmtable.bench_machine()
    for pid in t.machine.pins:
        p = t.machine.pins[pid]
        m.Pin(pid, p.mode, p.pull, p.level)
    m.I2C(0)
    m.WDT(timeout=1000)
    rings = 0
    for uid in t.machine.uarts:
        u = m.UART(uid, txbuf=t.machine.uarts[uid].tx_size, rxbuf=t.machine.uarts[uid].rx_size)
        rings += _heap(len(u.rx)) + _heap(len(u.tx))
    rp2 = sys.modules["rp2"]
    sms = [rp2.StateMachine(sm_id, None, 0) for sm_id in (t.bets_sm.id, t.bets_sm.id + 1)]
    return [m, vmtable.NeoPixelModule(), vmtable.BenchUSB(), sms], rings


STAND_INS, STAND_IN_RINGS = stand_ins(TABLE)
# --- next run call ---
measure(17)
# --- next run call ---
measure(17)
# --- next run call ---
measure(17)
# --- next run call ---


def uart_rings(t):
    # The UARTs' receive and transmit rings: the sizes the rp2 port allocates on the GC heap for the
    # arguments firmware/hardware.py gives (bench/vmtable.py BenchUART), so a board keeps them too;
    # the USB console's buffers are static on a board (BenchUSB: none).
    n = t.usb.buffer_bytes()
    for u in t.machine.uarts.values():
        n += u.buffer_bytes()
    return n


def slope(ys):
    # Least squares, bytes per STEP_ROUNDS rounds.
    n = len(ys)
    if n < 2:
        return 0.0
    mx = (n - 1) / 2.0
    my = sum(ys) / float(n)
    num = sum((i - mx) * (ys[i] - my) for i in range(n))
    den = sum((i - mx) * (i - mx) for i in range(n))
    return num / den


# The booted table's biggest buffers, by owner (their lengths, found by walking the boot's context:
# bytearrays, bytes, str; lists, tuples and dicts at 4 and 8 bytes an item). Not their objects'
# overhead: what the data figure holds besides them is instances, their dicts, settings.
_SEEN = {}
_BUFFERS = {}
_LEAVES = (bytearray, bytes, str, int, float, memoryview, bool)


def _walk(obj, path, depth):
    if obj is None or id(obj) in _SEEN or depth > 6:
        return
    _SEEN[id(obj)] = 1
    if isinstance(obj, (bytearray, bytes, str)):
        _BUFFERS[path] = len(obj)
        return
    if isinstance(obj, _LEAVES) or type(obj).__name__ in ("module", "function", "bound_method", "closure", "type"):
        return
    if isinstance(obj, (list, tuple)):
        _BUFFERS[path] = 4 * len(obj)
        for i in range(min(len(obj), 300)):
            _walk(obj[i], "%s[%d]" % (path, i), depth + 1)
        return
    if isinstance(obj, dict):
        _BUFFERS[path] = 8 * len(obj)
        for k in obj:
            _walk(obj[k], "%s[%r]" % (path, k), depth + 1)
        return
    try:
        attrs = obj.__dict__
    except AttributeError:
        return
    for k in attrs:
        _walk(attrs[k], path + "." + k, depth + 1)


def biggest_buffers(ctx, n):
    _walk(ctx, "ctx", 0)
    found = sorted(_BUFFERS.items(), key=lambda kv: -kv[1])[:n]
    return ", ".join("%s %d" % kv for kv in found)


print("runtime: %s %s" % (sys.implementation.name, sys.platform))
print("game: %s" % GAME)
for _slot in (0, 1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18):
    if MEM[_slot] != PREV[_slot]:
        print("ram_unsteady_slot_%d: %d" % (_slot, MEM[_slot] - PREV[_slot]))
print("ram_firmware_shared_by_fakes_bytes: %d" % (MEM[1] - MEM[0]))
print("ram_bench_fakes_bytes: %d" % (MEM[2] - MEM[1]))
print("ram_table_after_boot_bytes: %d" % ((MEM[1] - MEM[0]) + (MEM[3] - MEM[2])))
CODE = (MEM[1] - MEM[0]) + (MEM[6] - MEM[2])     # what importing the table's modules keeps
DATA = MEM[3] - MEM[6]                           # what boot keeps beyond its modules: the table's objects
print("modules_imported: %d" % len(MODULES))
print("ram_code_bytes: %d" % CODE)
print("ram_data_after_boot_bytes: %d" % DATA)
print("ram_uart_rings_bytes: %d" % uart_rings(TABLE))
STAND_IN_BYTES = MEM[17] - MEM[18] - STAND_IN_RINGS
print("ram_bench_stand_ins_bytes: %d" % STAND_IN_BYTES)
print("ram_data_less_stand_ins_bytes: %d" % (DATA - STAND_IN_BYTES))
print("frozen_residual_counts: %d modules, %d dicts (%d slots), %d functions (%d with default arguments,"
      " %d in staticmethod or classmethod), %d classes (%d with a base)"
      % (_RES["modules"], _RES["dicts"], _RES["dict_slots"], _RES["functions"], DEFAULTED, _RES["wrappers"],
         _RES["classes"], _RES["based"]))
print("frozen_residual_estimate_bytes: %d" % residual_estimate())
_DICTS = MEM[8] - MEM[7]
_FUN = (MEM[9] - MEM[8]) / N_MADE
_FUN_DEF = (MEM[10] - MEM[9]) / N_MADE
_WRAP = (MEM[11] - MEM[10]) / N_MADE
_CLASS_DICT = (MEM[13] - MEM[12]) / N_MADE
_CLASS = (MEM[12] - MEM[11]) / N_MADE - _CLASS_DICT
_BASED = (MEM[14] - MEM[13]) / N_MADE - _CLASS_DICT
_MODULE = ((MEM[15] - MEM[14]) - (MEM[16] - MEM[15])) / N_MADE
print("frozen_residual_sizes_bytes: dicts %d (%d cloned); a function %.1f, with default arguments %.1f, a"
      " staticmethod %.1f; a class %.1f, with a base %.1f (its dict apart); a module %.1f (its dict apart)"
      % (_DICTS, len(RES_DICTS), _FUN, _FUN_DEF, _WRAP, _CLASS, _BASED, _MODULE))
_BUILT_BYTES = MEM[18] - MEM[16]
print("frozen_residual_built_at_import: %d values, %d bytes" % (len(BUILT), _BUILT_BYTES))
print("frozen_residual_measured_bytes: %d" % int(
    _DICTS + _RES["modules"] * _MODULE + (_RES["functions"] - DEFAULTED) * _FUN + DEFAULTED * _FUN_DEF
    + _RES["wrappers"] * _WRAP + (_RES["classes"] - _RES["based"]) * _CLASS + _RES["based"] * _BASED
    + _BUILT_BYTES + 0.5))
print("biggest_buffers_after_rounds: %s" % biggest_buffers(TABLE.ctx, 8))
print("round_alloc_bytes: %d" % ALLOC[0])
print("pass_alloc_max_bytes: %d" % PASS_MAX[0])
print("peak_bound_bytes: %d" % (KEPT[0] - MEM[2] + (MEM[1] - MEM[0]) + PASS_MAX[0]))
print("peak_bound_data_only_bytes: %d" % (KEPT[0] - MEM[6] + PASS_MAX[0]))
print("ram_second_table_bytes: %d" % (MEM[5] - KEPT[-1]))
print("rounds_played: %d" % K[0])
print("kept_after_rounds_bytes: %s" % " ".join("%d" % (k - MEM[2] + (MEM[1] - MEM[0])) for k in KEPT))
print("kept_data_only_after_rounds_bytes: %s" % " ".join("%d" % (k - MEM[6]) for k in KEPT))
print("kept_slope_bytes_per_%d_rounds: %.1f" % (STEP_ROUNDS, slope(KEPT[1:])))
print("kept_growth_bytes: %d" % (KEPT[-1] - KEPT[1]))
