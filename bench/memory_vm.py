# Memory of the whole table on MicroPython: the heap KEPT after boot (controller, drivers, host
# link, console and whatever firmware.startup.boot builds: measured with the tree as it is), what one
# round ALLOCATES (with the collector off: an upper bound of the round's peak over what is kept), and
# the heap kept after every STEP_ROUNDS rounds up to STEPS x STEP_ROUNDS, whose slope must be 0.
# The heap kept after boot is split: CODE, what importing every module of MODULES keeps (imported
# before the boot; bench/whole_table.py lists them), and DATA, boot minus imports: what a board keeps
# with its code in flash (frozen or ROMFS, whose bytecode takes no heap), to which a board adds what
# those modules still keep there (bench/memory_flash_vm.py, which bench/whole_table.py runs after this
# script in the same VM). Run alone, with MODULES empty, CODE is only the three shared modules and
# DATA holds the rest of the code.
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
# import (the host-link frame, the device frame) are imported first and counted; the code tables a board
# never imports (firmware/events.py, firmware/faults.py) they do not import.
import gc
import sys

import micropython

GAME = "baccarat"
STEP_ROUNDS = 20        # rounds between two measurements (bench/whole_table.py: 1000)
ROUNDS_PER_CALL = 20    # rounds per VM run call: garbage made in a call is freed only after it
MODULES = ()            # every firmware module a booted table has imported after a few rounds
#                         (bench/whole_table.py writes them here, found by a run of its own)
RELEASED = ()           # the boot-only modules (firmware/startup.py, BOOT_ONLY) and a settings change's
#                         (firmware/parts.py, CHANGE_ON_DEMAND: the first pass reads a pending one back) and
#                         the dormant console's (CONSOLE_AWAKE: awake at boot and for the first prompt)
#                         that run found gone after boot: imported with MODULES, so that their interned
#                         names count as code, then
#                         released again; the boot imports them anew and releases them, as on a board
MEM = [0] * 22
PREV = [0] * 22
KEPT = []            # heap kept after each step of rounds
TABLE = SECOND = _name = None   # made now: __main__'s dict grows here, not in a measured call


def measure(slot):
    gc.collect()
    PREV[slot] = MEM[slot]
    MEM[slot] = gc.mem_alloc()
    # The interned strings' pools (qstrs), read after the heap: a pool is never freed, and when the last
    # is full the next string allocates one twice its size (~18 KB in one block here), in whichever
    # phase comes to it first; bench/whole_table.py shows the figures with and without their growth.
    print("qstr_slot %d %d" % (slot, MEM[slot]))
    micropython.qstr_info()


# --- next run call ---
measure(0)
# --- next run call ---
measure(0)
# --- next run call ---
measure(0)  # nothing imported yet
# --- next run call ---
import firmware.device_frame  # noqa: E402,F401  (the table's, imported by the bench's too: counted here)
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
for _name in MODULES + RELEASED:  # the table's CODE: every module it imports, before it boots
    __import__(_name)
if RELEASED:
    sys.modules["firmware.startup"].release(RELEASED)
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
for _slot in (0, 1, 2, 3, 5, 6):
    if MEM[_slot] != PREV[_slot]:
        print("ram_unsteady_slot_%d: %d" % (_slot, MEM[_slot] - PREV[_slot]))
print("ram_firmware_shared_by_fakes_bytes: %d" % (MEM[1] - MEM[0]))
print("ram_bench_fakes_bytes: %d" % (MEM[2] - MEM[1]))
print("ram_table_after_boot_bytes: %d" % ((MEM[1] - MEM[0]) + (MEM[3] - MEM[2])))
CODE = (MEM[1] - MEM[0]) + (MEM[6] - MEM[2])     # what importing the table's modules keeps
DATA = MEM[3] - MEM[6]                           # what boot keeps beyond its modules: the table's objects
print("modules_imported: %d" % len(MODULES))
print("modules_released_after_boot: %d" % len(RELEASED))
print("ram_code_bytes: %d" % CODE)
print("ram_data_after_boot_bytes: %d" % DATA)
print("ram_uart_rings_bytes: %d" % uart_rings(TABLE))
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
