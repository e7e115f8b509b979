# What stays in the heap even when the code is frozen or in ROMFS (bytecode, qstrs and constants in
# flash): each module's object and globals dict, the function and class objects its top level makes
# (a class's dict too), and what its top level builds at import. For bench/memory_flash_vm.py, which
# runs in the MicroPython VM (bench/whole_table.py copies bench/ in): this module COUNTS those objects
# and makes the copies whose heap that script MEASURES, each kind in VM run calls of its own.
#
# Counted from the imported modules (each object once: a function imported into another module is
# one object; builtins, in ROM, are not counted). Measured by copies: every module's and class's dict
# cloned (the same keys inserted one by one into a new dict, as an import or a class body fills its
# dict: the same hash table sizes); N functions, classes and modules made from code of their own; and
# what the top levels build at import (dicts, lists, calls, comprehensions, tuples of names other than
# the module's own const() names, which fold as numbers do: bench/code_census.py), each
# copied into new objects. The ESTIMATE these measurements replaced, with the same counts: a dict 16
# bytes and 8 a slot (entries rounded up to a power of two), a function 16, a class 64, a module 16,
# nothing built at import.
import array
import sys

RES = {"modules": 0, "dicts": 0, "dict_slots": 0, "functions": 0, "wrappers": 0, "classes": 0, "based": 0}
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
    RES["dicts"] += 1
    RES["dict_slots"] += _slots(len(d))
    for v in d.values():
        if id(v) in _RES_IDS:
            continue
        kind = type(v).__name__
        if kind == "function":
            if hasattr(v, "__globals__"):           # bytecode; a builtin has none (and is in ROM)
                _RES_IDS[id(v)] = 1
                RES["functions"] += 1
        elif kind in ("staticmethod", "classmethod"):
            _RES_IDS[id(v)] = 1
            RES["wrappers"] += 1
            RES["functions"] += 1                   # the function inside
        elif isinstance(v, type) and getattr(v, "__module__", None) in modules:
            _RES_IDS[id(v)] = 1
            RES["classes"] += 1
            if v.__bases__ != (object,) and v.__bases__ != ():
                RES["based"] += 1
            _residual_dict(v.__dict__, modules)


def count(names):
    """RES and RES_DICTS for the modules named (imported, in sys.modules)."""
    modules = {}
    for name in names:
        modules[name] = 1
    for name in names:
        RES["modules"] += 1
        _residual_dict(sys.modules[name].__dict__, modules)


def estimate():
    return (16 * RES["modules"] + 16 * RES["dicts"] + 8 * RES["dict_slots"] + 16 * RES["functions"]
            + 64 * RES["classes"])


# -- the copies measured --------------------------------------------------------------------------

def clone(src):
    d = {}
    for k in src:
        d[k] = src[k]
    return d


def _constant(v):
    if v is None or isinstance(v, (bool, int, float, str, bytes)):
        return True
    return type(v) is tuple and all(_constant(x) for x in v)


def clone_value(v, seen, inner_built=True, top=True):
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
        return tuple([clone_value(x, seen, inner_built, False) for x in v])
    if isinstance(v, list):
        return [clone_value(x, seen, inner_built, False) for x in v]
    if isinstance(v, dict):
        d = {}
        for k in v:
            d[clone_value(k, seen, inner_built, False)] = clone_value(v[k], seen, inner_built, False)
        return d
    if isinstance(v, set):
        out = set()
        for x in v:
            out.add(clone_value(x, seen, inner_built, False))
        return out
    module = getattr(type(v), "__module__", "")
    try:
        attrs = v.__dict__                # an instance: its object and its dict
    except AttributeError:
        return [v]                        # something else (a compiled regex...): one small object
    if not module.startswith("firmware"):
        return v
    return [v, clone_value(attrs, seen, inner_built, False)]


def plain():
    def f(a, b):
        return a
    return f


def defaulted():
    def f(a, b=1, c=None):
        return a
    return f


def a_class():
    class C:
        pass
    return C


class _Base:
    pass


def a_based_class():
    class C(_Base):
        pass
    return C
