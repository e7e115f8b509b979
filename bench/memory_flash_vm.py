# What a board keeps in its heap with the code in flash, beyond bench/memory_vm.py's DATA: run after it
# in the same VM (bench/whole_table.py appends this file to it: TABLE, MODULES, DATA, MEM and measure()
# are that script's), each part a VM run call of its own as there. Prints "key: value" lines:
# - the residual of the modules (frozen_residual_*): their objects, globals dicts, functions, classes,
#   and what their top levels build at import, COUNTED and their sizes MEASURED in this VM;
# - the bench's stand-ins that DATA counts though an RP2040 keeps them static (ram_bench_stand_ins_bytes).
# What the residual is, how it is counted and the copies that measure it: bench/frozen_residual.py;
# here each kind is made and measured in run calls of its own, and the stand-ins measured and all printed.
import sys  # noqa: E402

from bench import frozen_residual as fr  # noqa: E402

DEFAULTED = 0           # how many of their functions have default arguments (bench/code_census.py
#                         counts them on CPython: MicroPython's functions do not show them)
BUILT = ()              # (module, name, inner tuples built too) of the values their top levels build
#                         at import (not literal constants: bench/code_census.py reads them from the source)
DEFINED = 0             # how many globals their own top levels bind (not imports; bench/code_census.py
#                         reads them from the source): the one globals dict of the code made one module
# The residual's sizes, measured: the objects made here are kept till the end, each kind measured as
# the heap kept after it minus before, in calls of their own.
N_MADE = 200
fr.count(MODULES)
CLONES = [None] * len(fr.RES_DICTS)
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
ONE_DICT = None
CLASS_CLONES = [None] * len(fr.RES_DICTS)
_MOD_DICTS = {}
STAND_INS = STAND_IN_RINGS = None   # every global of the calls below made now: __main__'s dict grows here
_i = _n = 0


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
for _i in range(len(fr.RES_DICTS)):
    CLONES[_i] = fr.clone(fr.RES_DICTS[_i])
# --- next run call ---
measure(8)
# --- next run call ---
measure(8)
# --- next run call ---
measure(8)
# --- next run call ---
for _i in range(N_MADE):
    FUNS[_i] = fr.plain()
# --- next run call ---
measure(9)
# --- next run call ---
measure(9)
# --- next run call ---
measure(9)
# --- next run call ---
for _i in range(N_MADE):
    FUNS_DEF[_i] = fr.defaulted()
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
    CLASSES[_i] = fr.a_class()
# --- next run call ---
measure(12)
# --- next run call ---
measure(12)
# --- next run call ---
measure(12)
# --- next run call ---
for _i in range(N_MADE):
    CLASS_DICTS[_i] = fr.clone(CLASSES[_i].__dict__)
# --- next run call ---
measure(13)
# --- next run call ---
measure(13)
# --- next run call ---
measure(13)
# --- next run call ---
for _i in range(N_MADE):
    BASED[_i] = fr.a_based_class()
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
    MOD_DICTS[_i] = fr.clone(sys.modules[MOD_NAMES[_i]].__dict__)
# --- next run call ---
measure(16)
# --- next run call ---
measure(16)
# --- next run call ---
measure(16)
# --- next run call ---
for _i in range(len(BUILT)):
    BUILT_COPIES[_i] = fr.clone_value(sys.modules[BUILT[_i][0]].__dict__[BUILT[_i][1]], _SEEN_BUILT, BUILT[_i][2])
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
# The floor of the residual, whatever the modules: the code made ONE module (no module objects, no names
# imported from one module into another) would still keep one globals dict of the DEFINED names (small
# ints as keys here: the same table sizes, no key allocated), its classes' dicts, and the functions,
# classes and built values measured above.
for _n in MODULES:      # the module dicts, told apart from the classes' (not measured: slot 21)
    _MOD_DICTS[id(sys.modules[_n].__dict__)] = 1
# --- next run call ---
measure(21)
# --- next run call ---
measure(21)
# --- next run call ---
measure(21)
# --- next run call ---
ONE_DICT = {}
for _i in range(DEFINED):
    ONE_DICT[_i] = None
# --- next run call ---
measure(19)
# --- next run call ---
measure(19)
# --- next run call ---
measure(19)
# --- next run call ---
for _i in range(len(fr.RES_DICTS)):
    if id(fr.RES_DICTS[_i]) not in _MOD_DICTS:
        CLASS_CLONES[_i] = fr.clone(fr.RES_DICTS[_i])
# --- next run call ---
measure(20)
# --- next run call ---
measure(20)
# --- next run call ---
measure(20)
# --- next run call ---
for _slot in range(7, 22):
    if MEM[_slot] != PREV[_slot]:
        print("ram_unsteady_slot_%d: %d" % (_slot, MEM[_slot] - PREV[_slot]))
STAND_IN_BYTES = MEM[17] - MEM[18] - STAND_IN_RINGS
print("ram_bench_stand_ins_bytes: %d" % STAND_IN_BYTES)
print("ram_data_less_stand_ins_bytes: %d" % (DATA - STAND_IN_BYTES))
print("frozen_residual_counts: %d modules, %d dicts (%d slots), %d functions (%d with default arguments,"
      " %d in staticmethod or classmethod), %d classes (%d with a base)"
      % (fr.RES["modules"], fr.RES["dicts"], fr.RES["dict_slots"], fr.RES["functions"], DEFAULTED,
         fr.RES["wrappers"], fr.RES["classes"], fr.RES["based"]))
print("frozen_residual_estimate_bytes: %d" % fr.estimate())
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
      % (_DICTS, len(fr.RES_DICTS), _FUN, _FUN_DEF, _WRAP, _CLASS, _BASED, _MODULE))
_BUILT_BYTES = MEM[18] - MEM[16]
print("frozen_residual_built_at_import: %d values, %d bytes" % (len(BUILT), _BUILT_BYTES))
print("frozen_residual_measured_bytes: %d" % int(
    _DICTS + fr.RES["modules"] * _MODULE + (fr.RES["functions"] - DEFAULTED) * _FUN + DEFAULTED * _FUN_DEF
    + fr.RES["wrappers"] * _WRAP + (fr.RES["classes"] - fr.RES["based"]) * _CLASS + fr.RES["based"] * _BASED
    + _BUILT_BYTES + 0.5))
print("frozen_residual_one_module_floor_bytes: %d (one globals dict of %d names %d, %d class dicts %d, functions,"
      " classes, built at import)" % (int(
          (MEM[19] - MEM[21]) + (MEM[20] - MEM[19]) + (fr.RES["functions"] - DEFAULTED) * _FUN + DEFAULTED * _FUN_DEF
          + fr.RES["wrappers"] * _WRAP + (fr.RES["classes"] - fr.RES["based"]) * _CLASS + fr.RES["based"] * _BASED
          + _BUILT_BYTES + 0.5), DEFINED, MEM[19] - MEM[21], len(fr.RES_DICTS) - len(_MOD_DICTS), MEM[20] - MEM[19]))
