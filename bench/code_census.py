"""What the table's modules hold, read from their source and their objects on CPython, for the memory
bench (bench/whole_table.py writes these counts into bench/memory_flash_vm.py, which measures them in
the VM): functions with default arguments, the names each module's own top level binds, and the values
a top level builds at import.
"""
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def defaulted_functions(modules):
    """How many of the functions the modules define (top level and classes' methods, each once) have
    default arguments, counted on CPython (MicroPython's function objects do not show them): such a
    function object is larger (bench/memory_vm.py measures both sizes)."""
    import importlib
    import types
    if "tests.firmware" not in sys.modules:
        import tests.firmware  # noqa: F401  (the rp2 and framebuf stand-ins the drivers import)
    names = set(modules)
    seen, found = set(), [0]

    def walk(d):
        for v in list(d.values()):
            if isinstance(v, (staticmethod, classmethod)):
                v = v.__func__
            if id(v) in seen:
                continue
            if isinstance(v, types.FunctionType):
                seen.add(id(v))
                if v.__defaults__ or v.__kwdefaults__:
                    found[0] += 1
            elif isinstance(v, type) and v.__module__ in names:
                seen.add(id(v))
                walk(v.__dict__)
    for name in modules:
        walk(importlib.import_module(name).__dict__)
    return found[0]


def defined_names(modules):
    """How many globals the modules' own top levels bind (def, class, assignments, loop targets, less
    what they del; not imports, not a private `_NAME = const(...)`, which takes no slot): what one
    globals dict would hold if the code were one module (bench/memory_flash_vm.py measures it)."""
    import ast

    def bound(body, names):
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For)):
                if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and \
                        getattr(node.value.func, "id", "") == "const" and \
                        all(isinstance(t, ast.Name) and t.id.startswith("_") for t in node.targets):
                    continue
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for t in targets:
                    for n in ast.walk(t):
                        if isinstance(n, ast.Name):
                            names.add(n.id)
                if isinstance(node, ast.For):
                    bound(node.body, names)
            elif isinstance(node, ast.Delete):
                for t in node.targets:
                    if isinstance(t, ast.Name):
                        names.discard(t.id)
            elif isinstance(node, ast.If):
                bound(node.body, names)
                bound(node.orelse, names)
            elif isinstance(node, ast.Try):
                bound(node.body, names)
                for h in node.handlers:
                    bound(h.body, names)
    total = 0
    for name in modules:
        path = os.path.join(REPO, *name.split("."))
        path = path + ".py" if os.path.exists(path + ".py") else os.path.join(path, "__init__.py")
        names = set()
        bound(ast.parse(open(path).read()).body, names)
        total += len(names)
    return total


def _literal(node, consts=()):
    """A constant a compiler folds (a number, a string, bytes, None, a tuple of those): frozen or in ROMFS
    it stays in flash. consts: the module's names bound by const() before it, which MicroPython's parser
    replaces by their values, so a tuple of them folds too (the VM shows it: such a tuple returned twice
    by a function is one object)."""
    import ast
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.Name):
        return node.id in consts
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.Invert)):
        return _literal(node.operand, consts)
    return isinstance(node, ast.Tuple) and all(_literal(e, consts) for e in node.elts)


def _nested_built(value, consts=()):
    """Whether a value's expression builds tuples below its top (a call, a comprehension, a tuple of
    names other than consts): else its inner tuples are literals, constants in flash."""
    import ast
    for node in ast.walk(value):
        if node is value:
            continue
        if isinstance(node, (ast.Call, ast.ListComp, ast.GeneratorExp, ast.DictComp, ast.SetComp)):
            return True
        if isinstance(node, ast.Tuple) and not _literal(node, consts):
            return True
    return False


def built_at_import(modules):
    """[(module, name, inner tuples built too)] of the module-level values the modules build when
    imported (a comprehension, a call, a list or dict display...), read from their source: those stay
    in the heap with the code in flash, where a literal constant (a number, a string, a tuple of those
    or of the module's const() names) does not; a name bound to another object (an alias, an import), a function, a class or a const()
    is not one."""
    import ast
    out = []
    for name in modules:
        path = os.path.join(REPO, *name.split("."))
        path = path + ".py" if os.path.exists(path + ".py") else os.path.join(path, "__init__.py")
        values = {}
        consts = set()
        for node in ast.parse(open(path).read()).body:
            if isinstance(node, ast.Assign) and all(isinstance(t, ast.Name) for t in node.targets):
                v = node.value
                const = isinstance(v, ast.Call) and getattr(v.func, "id", "") == "const"
                made = not (const or _literal(v, consts) or isinstance(v, (ast.Name, ast.Attribute, ast.Lambda)))
                for target in node.targets:
                    values[target.id] = (made, made and _nested_built(v, consts))
                    if const:
                        consts.add(target.id)
        out.extend((name, key, values[key][1]) for key in sorted(values) if values[key][0])
    return out
