# What a table's code still takes of the heap when its .mpy files are imported from ROMFS, beyond what it
# takes when frozen into the firmware: an ESTIMATE from the .mpy files themselves, not a measurement (the
# VM the benches run has no ROMFS). bench/whole_table.py's "as a board keeps it" figure counts the
# modules' objects, dicts, functions and classes (what a frozen module too makes in the heap); a module
# loaded from ROMFS (py/persistentcode.c, MicroPython 1.25+) executes its bytecode and reads its str and
# bytes constants in place, but the loader still makes in RAM, where frozen code has them in flash:
#   - each function's (and class body's, module's) raw code record: mp_raw_code_t, 16 bytes on the rp2
#     port (one GC block), and each parent's array of its children (4 bytes a child);
#   - each module's qstr table (2 bytes a qstr) and constant table (4 bytes an object);
#   - each str/bytes constant's object (a 16-byte header pointing into flash) unless the string is an
#     interned qstr already; each tuple constant (8 + 4 bytes an item, its items too), each float and
#     each int too big for a small int (16 bytes);
#   - a qstr pool entry for each name the firmware's own pool lacks (its text stays in flash): ~6 bytes
#     (pointer, hash, length), pools doubling as they fill; counted here as an upper bound, every name
#     not among mpy-cross's static qstrs (MicroPython's firmware already holds many: "append", "write"...);
#   - a native module's machine code (tools/build.py NATIVE_EMIT, and the viper modules of NATIVE_ONLY a board
#     imports beside the VM's list: NATIVE_PARTNERS): the loader copies it into RAM (MP_PLAT_ALLOC_EXEC), from
#     ROMFS too, where bytecode stays in place.
# Sizes are rounded up to the GC's 16-byte blocks. The modules: those a booted table of each game holds
# (bench/whole_table.py table_modules), as tools.build makes them for boards/pico.json.
#
#   .venv/bin/python bench/romfs_ram.py [--game baccarat|craps|omaha] [--measure]
# --measure: the cross-check, one VM run a game importing the same .mpy files from its filesystem (bytecode
# and strings copied into RAM), measured, less what ROMFS leaves in flash (counted from the files); the
# NATIVE_EMIT modules as bytecode there (the VM runs no native code).
import argparse
import os
import shutil
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO)

from tools.mpy_cross_tool import NATIVE_ONLY  # noqa: E402

RAW_CODE = 16            # sizeof(mp_raw_code_t) on rp2 (no PERSISTENT_CODE_SAVE; inline asm's 4 bytes)
QSTR_ENTRY = 6           # a pool entry: the text's pointer, its hash and length bytes (estimate)
_STR, _BYTES, _INT, _FLOAT, _COMPLEX, _TUPLE = 5, 6, 7, 8, 9, 10      # MP_PERSISTENT_OBJ_*
_BYTECODE, _NATIVE_PY = 0, 1                                          # a raw code's kind (MP_CODE_* - 2)
SMALL_INT_BITS = 31      # rp2: small ints of 31 bits; an int past them is a heap object


def block(n):
    return (n + 15) // 16 * 16 if n else 0


_IMPORT_STEPS = """import gc
gc.collect()
# --- next run call ---
gc.collect()
BEFORE = gc.mem_alloc()
# --- next run call ---
for _name in %r:
    __import__(_name)
# --- next run call ---
gc.collect()
# --- next run call ---
gc.collect()
print("kept_by_imports: %%d" %% (gc.mem_alloc() - BEFORE))
"""


def measured(build_dir, modules):
    """The cross-check: the heap the VM keeps importing those .mpy files from its filesystem (measured),
    less what ROMFS would leave in flash: the bytecode, the str/bytes constants' data and the qstrs' text
    (counted from the files, GC blocks). (kept, in place, kept - in place)."""
    from tools import mpvm
    with tempfile.TemporaryDirectory() as tmp:
        build_dir = _bytecode_copy(build_dir, tmp)
        path = os.path.join(tmp, "import_mpy.py")
        with open(path, "w") as f:
            f.write(_IMPORT_STEPS % (list(modules),))
        status, out = mpvm.run(["--steps", path], copies=(os.path.join(build_dir, "firmware") + "=firmware",),
                               timeout=600)
        kept = [int(line.split()[-1]) for line in out.splitlines() if line.startswith("kept_by_imports: ")]
        if status != 0 or not kept:
            raise SystemExit("the VM run importing the .mpy files failed:\n" + out)
        in_place = 0
        texts = set()
        for name in modules:
            mpy = _read(build_dir, name)
            in_place += mpy.in_place
            for text in mpy.qstrs:
                if text not in texts:
                    texts.add(text)
                    in_place += len(text) + 1
    return kept[0], in_place, kept[0] - in_place


def _bytecode_copy(build_dir, tmp):
    """A copy of build_dir's firmware/ with the NATIVE_EMIT modules compiled as bytecode (for the VM)."""
    from tools.build import MARCH, NATIVE_EMIT, compile_file, find_mpy_cross
    dest = os.path.join(tmp, "bytecode")
    shutil.copytree(os.path.join(build_dir, "firmware"), os.path.join(dest, "firmware"))
    tool = find_mpy_cross()
    for rel in NATIVE_EMIT:
        error = compile_file(tool, REPO, rel, os.path.join(dest, rel[:-3] + ".mpy"), MARCH["rp2040"])
        if error:
            raise SystemExit(error)
    return dest


class Mpy:
    """One .mpy file read as py/persistentcode.c's loader reads it (bytecode only: the firmware's .mpy)."""

    def __init__(self, data):
        self.data = data
        self.at = 4
        if data[:1] != b"M":
            raise ValueError("not a .mpy file")
        self.qstrs = []            # the module's non-static qstrs (their text)
        self.in_place = 0          # bytecode and str/bytes data a file import copies into RAM, ROMFS not
        self.ram = {"raw codes": 0, "children arrays": 0, "qstr table": 0, "constant table": 0,
                    "constant objects": 0, "native code": 0}
        self.functions = 0
        n_qstr = self.uint()
        n_obj = self.uint()
        self.ram["qstr table"] = block(2 * n_qstr)
        self.ram["constant table"] = block(4 * n_obj)
        for _ in range(n_qstr):
            self.qstr()
        self._names = set(self.qstrs)  # the module's names, once: a text constant equal to one is that qstr
        for _ in range(n_obj):
            self.ram["constant objects"] += self.obj()
        self.raw_code()

    def uint(self):
        n = 0
        while True:
            b = self.data[self.at]
            self.at += 1
            n = (n << 7) | (b & 0x7F)
            if not b & 0x80:
                return n

    def qstr(self):
        n = self.uint()
        if n & 1:
            return                   # one of the static qstrs every MicroPython has
        n >>= 1
        self.qstrs.append(bytes(self.data[self.at:self.at + n]))
        self.at += n + 1

    def obj(self):
        kind = self.data[self.at]
        self.at += 1
        if kind <= 4:                # the fun table, None, False, True, Ellipsis: no object made
            return 0
        n = self.uint()
        if kind == _TUPLE:
            return block(8 + 4 * n) + sum(self.obj() for _ in range(n))
        text = bytes(self.data[self.at:self.at + n])
        self.at += n
        if kind in (_STR, _BYTES):
            self.at += 1             # the terminator
            if n == 0 and kind == _BYTES:
                return 0
            if kind == _STR and text in self._names:
                return 0             # qstr_find_strn finds it: the qstr, no object
            self.in_place += block(n + 1)
            return 16
        if kind == _INT:
            value = int(text)
            return 0 if -(1 << (SMALL_INT_BITS - 1)) <= value < (1 << (SMALL_INT_BITS - 1)) else 16
        return 16                    # a float or a complex

    def raw_code(self):
        kind_len = self.uint()
        kind, size = kind_len & 3, kind_len >> 3
        if kind == _BYTECODE:
            self.in_place += block(size)             # the bytecode: in place in ROMFS
        elif kind == _NATIVE_PY:
            self.ram["native code"] += block(size)   # machine code: copied into RAM
        else:
            raise ViperCode("viper or asm code in a firmware .mpy: not parsed here")
        self.at += size
        if kind == _NATIVE_PY:
            self.uint()                              # its prelude's offset in the machine code
        self.ram["raw codes"] += RAW_CODE
        self.functions += 1
        if kind_len & 4:
            children = self.uint()                   # a native function's array: one more, its prelude
            self.ram["children arrays"] += block(4 * (children + (kind == _NATIVE_PY)))
            for _ in range(children):
                self.raw_code()


class ViperCode(ValueError):
    """An .mpy holding viper (or asm) code, which Mpy does not parse (its relocations, rodata and bss)."""


def _path(build_dir, name):
    path = os.path.join(build_dir, *name.split(".")) + ".mpy"
    if not os.path.exists(path):
        path = os.path.join(build_dir, *name.split("."), "__init__.mpy")
    return path


def _read(build_dir, name):
    with open(_path(build_dir, name), "rb") as f:
        return Mpy(f.read())


def _module(rel):
    return rel[:-3].replace("/", ".")


# The modules of native code only (tools/mpy_cross_tool.py NATIVE_ONLY) a board imports beside a module the VM
# lists (the VM, which runs no native code, never imports them): each plain module's viper partner, named
# after it (firmware/link/crc32.py imports crc32_viper, games/omaha/hand_value.py hand_value_viper).
NATIVE_PARTNERS = tuple((_module(rel).replace("_viper", ""), _module(rel)) for rel in NATIVE_ONLY)


def with_native_partners(modules):
    """modules (a table's, as listed on the VM) and the viper modules a board imports beside them."""
    return list(modules) + [partner for plain, partner in NATIVE_PARTNERS if plain in modules and partner not in modules]


def estimate(build_dir, modules):
    totals = {}
    names = set()
    functions = 0
    for name in modules:
        try:
            mpy = _read(build_dir, name)
        except ViperCode:
            # A viper module (NATIVE_PARTNERS): its whole file counted, machine code and all, as the loader's
            # RAM (an upper bound: its bytecode and qstr text would stay in ROMFS; ~2 KB each).
            key = "viper modules (whole .mpy)"
            totals[key] = totals.get(key, 0) + block(os.path.getsize(_path(build_dir, name)))
            continue
        for key, n in mpy.ram.items():
            totals[key] = totals.get(key, 0) + n
        names.update(mpy.qstrs)
        functions += mpy.functions
    totals["qstr pool entries (upper bound)"] = QSTR_ENTRY * len(names)
    return totals, functions, len(names)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", choices=("baccarat", "craps", "omaha"), action="append")
    parser.add_argument("--measure", action="store_true",
                        help="also the cross-check: import the .mpy files in the VM and measure the heap kept")
    args = parser.parse_args(argv)
    from bench import whole_table
    from tools import build
    with tempfile.TemporaryDirectory() as tmp:
        build.main(["--board", "pico", "--out", tmp])
        root = os.path.join(tmp, "pico")
        for game in args.game or ("baccarat", "craps", "omaha"):
            modules = whole_table.table_modules(game)
            totals, functions, names = estimate(root, with_native_partners(modules))
            print("%s: %d modules, %d raw codes, %d names not static; the heap ROMFS adds (estimate): %d bytes"
                  % (game, len(modules), functions, names, sum(totals.values())))
            for key, n in totals.items():
                print("  %-32s %6d" % (key, n))
            if args.measure:
                kept, in_place, left = measured(root, modules)
                print("  cross-check: importing the .mpy files from the VM's filesystem keeps %d bytes (measured);"
                      " less the bytecode, str/bytes data and qstr text ROMFS leaves in flash (%d, counted): %d bytes"
                      " the code keeps under ROMFS, against the frozen code's modules' objects of"
                      " bench/whole_table.py --memory (NATIVE_EMIT's modules imported as bytecode: the VM runs no"
                      " native code)" % (kept, in_place, left))


if __name__ == "__main__":
    main()
