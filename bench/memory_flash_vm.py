# What a board keeps in its heap with the code in flash, beyond bench/memory_vm.py's DATA: run after it
# in the same VM (bench/whole_table.py appends this file to it: TABLE, MODULES, DATA, MEM and measure()
# are that script's), each part a VM run call of its own as there. Prints "key: value" lines:
# - the residual of the modules (frozen_residual_*): their objects, globals dicts, functions, classes,
#   and what their top levels build at import, COUNTED and their sizes MEASURED in this VM;
# - the bench's stand-ins that DATA counts though an RP2040 keeps them static (ram_bench_stand_ins_bytes).
import sys  # noqa: E402

DEFAULTED = 0           # how many of their functions have default arguments (bench/whole_table.py
#                         counts them on CPython: MicroPython's functions do not show them)
BUILT = ()              # (module, name, inner tuples built too) of the values their top levels build
#                         at import (not literal constants: bench/whole_table.py reads them from the source)
# What stays in the heap even when the code is frozen or in ROMFS (bytecode, qstrs and constants in
# flash): each module's object and globals dict, the function and class objects its top level makes
# (a class's dict too). COUNTED from the imported modules (each object once: a function imported
# into another module is one object; builtins, in ROM, are not counted), and their bytes MEASURED in
# this VM (a 32-bit port, as the RP2040: the same object sizes and 16-byte blocks) by the calls
# below: every one of those dicts cloned (the same keys inserted one by one into a new dict, as an
# import or a class body fills its dict: the same hash table sizes), and N functions, classes and
# modules made from code of their own; and what their top levels build at import (BUILT: dicts, lists,
# calls, comprehensions, tuples of names), each copied into new objects. The ESTIMATE this replaced,
# with the same counts, is printed beside it: a dict 16 bytes and 8 a slot (entries rounded up to a
# power of two), a function 16, a class 64, a module 16, nothing built at import.
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
STAND_INS = STAND_IN_RINGS = None   # every global of the calls below made now: __main__'s dict grows here
_i = _n = 0
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


# The bench's stand-ins that the boot made, counted in DATA: the fake machine with its classes, its Pin,
# I2C and WDT objects, the UART objects, the bet reader's two state machines, the neopixel module and
# the USB console stand-ins. On an RP2040 those are static C objects (machine.Pin, UART, I2C, WDT and
# rp2.StateMachine return entries of fixed tables), so the same set is made again here and measured;
# the UARTs' rings are taken out (the rp2 port puts those on the heap) and the strip is not made (the
# board's neopixel.NeoPixel, Python code, keeps the same object and buffer). Defined here, before the
# measurements: defined in the measured call (up to commit 681ad59), their function objects, bytecode
# and names (interned into a pool block that the heap's layout makes come or not) were counted as
# stand-ins, 3,712 bytes where the set is 3,152, and moved by 16-128 bytes when other code changed.


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
STAND_INS, STAND_IN_RINGS = stand_ins(TABLE)     # the stand-ins (stand_ins() above), nothing else made
# --- next run call ---
measure(17)
# --- next run call ---
measure(17)
# --- next run call ---
measure(17)
# --- next run call ---
for _slot in range(7, 19):
    if MEM[_slot] != PREV[_slot]:
        print("ram_unsteady_slot_%d: %d" % (_slot, MEM[_slot] - PREV[_slot]))
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
