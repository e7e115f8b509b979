"""Every import in firmware/ must be a firmware module or a module real MicroPython ports have.

The scan reads every firmware/**/*.py with ast, so it sees imports in every
branch (try/except fallbacks, functions, `if IS_MICROPYTHON:` blocks) whether or
not CPython would ever execute them. The one exception is the CPython side of an
`if IS_MICROPYTHON:` test (firmware/compat.py's shims), which no board runs.
A CPython-only module (typing, dataclasses,
functools...) that slips into the firmware fails here with file:line:module,
long before a board throws ImportError at boot.
"""
import ast
import os
import shutil

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Modules MicroPython ports provide (the firmware rules in notes/common.md narrow
# which of them game code may use; this list is what exists on some real port).
# Dotted names (os.path, asyncio.core...) are not allowed unless listed.
MICROPYTHON_MODULES = frozenset((
    "builtins", "sys", "gc", "time", "math", "cmath", "random", "struct", "array",
    "json", "collections", "errno", "os", "io", "re", "micropython", "machine",
    "neopixel", "asyncio", "binascii", "hashlib", "select", "framebuf", "uctypes",
    "network", "bluetooth", "deflate", "vfs", "rp2", "esp32", "esp",
))


def _module_name(rel):
    """firmware/games/craps.py -> firmware.games.craps; a package's __init__ -> the package."""
    name = rel[:-3].replace("/", ".")
    return name[:-len(".__init__")] if name.endswith(".__init__") else name


def firmware_modules(root):
    """{dotted module name: relative path} of every firmware/**/*.py under root."""
    found = {}
    for folder, dirs, files in os.walk(os.path.join(root, "firmware")):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__" and not d.startswith("."))
        for name in sorted(files):
            if name.endswith(".py"):
                rel = os.path.relpath(os.path.join(folder, name), root).replace(os.sep, "/")
                found[_module_name(rel)] = rel
    return found


def _is_micropython_test(test):
    """True for `IS_MICROPYTHON` / `compat.IS_MICROPYTHON`, False for their `not`, else None."""
    negated = isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)
    if negated:
        test = test.operand
    name = test.id if isinstance(test, ast.Name) else test.attr if isinstance(test, ast.Attribute) else None
    if name != "IS_MICROPYTHON":
        return None
    return not negated


def _board_nodes(node):
    """Every node MicroPython may execute: the CPython-only side of `if IS_MICROPYTHON:` is left out."""
    yield node
    if isinstance(node, ast.If):
        on_micropython = _is_micropython_test(node.test)
        if on_micropython is not None:
            yield from _board_nodes(node.test)
            for child in (node.body if on_micropython else node.orelse):
                yield from _board_nodes(child)
            return
    for child in ast.iter_child_nodes(node):
        yield from _board_nodes(child)


def _imports(tree, module, is_package):
    """(line, imported module) for every import statement and __import__("x") call."""
    package = module if is_package else module.rpartition(".")[0]
    for node in _board_nodes(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: resolve against this module's package
                parts = package.split(".")
                keep = len(parts) - (node.level - 1)
                if keep < 1:  # above the top package: cannot be imported anywhere
                    target = "." * node.level + (node.module or "")
                else:
                    target = ".".join(parts[:keep] + ([node.module] if node.module else []))
                yield node.lineno, target
            else:
                yield node.lineno, node.module
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id == "__import__" and node.args
              and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            yield node.lineno, node.args[0].value


def scan_imports(root):
    """Problems as "file:line: module: why", by file and line; an empty list means all is well."""
    modules = firmware_modules(root)
    problems = []
    for module, rel in sorted(modules.items()):
        with open(os.path.join(root, rel), encoding="utf-8") as f:
            source = f.read()
        try:
            tree = ast.parse(source, rel)
        except SyntaxError as exc:
            problems.append((rel, exc.lineno or 0, "%s:%s: does not parse: %s" % (rel, exc.lineno, exc.msg)))
            continue
        for line, name in _imports(tree, module, rel.endswith("__init__.py")):
            if name == "firmware" or name.startswith("firmware."):
                if name not in modules:
                    problems.append((rel, line, "%s:%d: %s: no such firmware module" % (rel, line, name)))
            elif name not in MICROPYTHON_MODULES:
                problems.append((rel, line, "%s:%d: %s: not a module MicroPython provides" % (rel, line, name)))
    return [text for _, _, text in sorted(problems)]


def scan_file(root, rel):
    """The problems scan_imports finds in one file (the injected one, in the tests below)."""
    return [p for p in scan_imports(root) if p.startswith(rel + ":")]


def test_firmware_imports_only_micropython_modules():
    problems = scan_imports(REPO)
    assert not problems, "firmware imports MicroPython lacks:\n" + "\n".join(problems)


def test_the_scan_sees_every_firmware_file():
    modules = firmware_modules(REPO)
    for name in ("firmware", "firmware.cards", "firmware.compat", "firmware.errors", "firmware.games"):
        assert name in modules, name


def _copy_firmware(tmp_path):
    shutil.copytree(os.path.join(REPO, "firmware"), str(tmp_path / "firmware"),
                    ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path / "firmware"


def test_cpython_only_module_is_caught_with_file_and_line(tmp_path):
    fw = _copy_firmware(tmp_path)
    cards = fw / "cards.py"
    lines = cards.read_text().splitlines()
    lines.insert(1, "import dataclasses")
    cards.write_text("\n".join(lines) + "\n")
    assert scan_file(str(tmp_path), "firmware/cards.py") == [
        "firmware/cards.py:2: dataclasses: not a module MicroPython provides"]


def test_hidden_imports_are_caught_too(tmp_path):
    """try/except fallbacks, imports inside functions, from-imports, dotted names, __import__."""
    fw = _copy_firmware(tmp_path)
    (fw / "games" / "sneaky.py").write_text(
        "# test module\n"
        "try:\n"
        "    from typing import List\n"
        "except ImportError:\n"
        "    List = list\n"
        "\n"
        "def f():\n"
        "    import functools\n"
        "    import os.path\n"
        "    from . import nothere\n"
        "    from .. import cards\n"
        "    from ..compat import const\n"
        "    return __import__('itertools')\n"
    )
    assert scan_file(str(tmp_path), "firmware/games/sneaky.py") == [
        "firmware/games/sneaky.py:3: typing: not a module MicroPython provides",
        "firmware/games/sneaky.py:8: functools: not a module MicroPython provides",
        "firmware/games/sneaky.py:9: os.path: not a module MicroPython provides",
        "firmware/games/sneaky.py:13: itertools: not a module MicroPython provides",
    ]


def test_cpython_side_of_is_micropython_is_skipped(tmp_path):
    """compat.py's CPython shims may import traceback; the MicroPython side may not."""
    fw = _copy_firmware(tmp_path)
    (fw / "shim.py").write_text(
        "# test module\n"
        "from firmware.compat import IS_MICROPYTHON\n"
        "if IS_MICROPYTHON:\n"
        "    import typing\n"
        "else:\n"
        "    import traceback\n"
        "if not IS_MICROPYTHON:\n"
        "    import inspect\n"
        "else:\n"
        "    import abc\n")
    assert scan_file(str(tmp_path), "firmware/shim.py") == [
        "firmware/shim.py:4: typing: not a module MicroPython provides",
        "firmware/shim.py:10: abc: not a module MicroPython provides",
    ]


def test_missing_firmware_module_is_caught(tmp_path):
    fw = _copy_firmware(tmp_path)
    (fw / "games" / "typo.py").write_text("# test module\nfrom firmware.game import cards\n")
    assert scan_file(str(tmp_path), "firmware/games/typo.py") == [
        "firmware/games/typo.py:2: firmware.game: no such firmware module"]


def test_micropython_only_imports_are_allowed(tmp_path):
    """compat.py's `from micropython import const` (MicroPython branch) is fine, so are port modules."""
    fw = _copy_firmware(tmp_path)
    (fw / "portstuff.py").write_text(
        "# test module\nimport machine\nimport neopixel\nfrom micropython import const\nimport rp2\n")
    assert scan_file(str(tmp_path), "firmware/portstuff.py") == []


# -- const() -------------------------------------------------------------------------------------------
# MicroPython's parser compiles `NAME = const(expr)` in by itself, so no firmware module imports const:
# each import was a `const` slot in that module's globals dict on the board (~0.3-0.5 KB a table:
# docs/performance-log.md). That holds only while every const() is such an assignment, at a module's or a
# class's top level, of an expression MicroPython folds; anywhere else const() would be a call, a
# NameError on the board. CPython gets const among its builtins (firmware/compat.py).

def _const_misuses(tree):
    """(line, why) of each const() that MicroPython would not compile in, and each import of const."""
    found = []
    top = {}                                       # the const() calls that are a top level's assignment
    bodies = [tree.body] + [n.body for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]
    for body in bodies:
        for stmt in body:
            if (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
                    and isinstance(stmt.targets[0], ast.Name) and isinstance(stmt.value, ast.Call)
                    and isinstance(stmt.value.func, ast.Name) and stmt.value.func.id == "const"):
                top[id(stmt.value)] = 1
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "const" \
                and id(node) not in top:
            found.append((node.lineno, "const() outside a top-level NAME = const(...)"))
        elif isinstance(node, ast.ImportFrom) and any(a.name == "const" for a in node.names):
            found.append((node.lineno, "imports const"))
    return sorted(found)


def test_no_firmware_module_needs_const_at_run_time():
    bad = []
    for rel in sorted(firmware_modules(REPO).values()):
        if rel == os.path.join("firmware", "compat.py"):
            continue                               # defines it for CPython, imports MicroPython's
        with open(os.path.join(REPO, rel)) as f:
            tree = ast.parse(f.read(), rel)
        bad += ["%s:%d: %s" % (rel, line, why) for line, why in _const_misuses(tree)]
    assert bad == [], "\n".join(bad)


def test_a_const_misuse_is_caught():
    tree = ast.parse("from firmware.compat import const\n_A = const(1)\n\n"
                     "class C:\n    _B = const(2)\n\n    def f(self):\n        return const(3)\n"
                     "X = [const(4)]\n")
    assert _const_misuses(tree) == [(1, "imports const"), (8, "const() outside a top-level NAME = const(...)"),
                                    (9, "const() outside a top-level NAME = const(...)")]
