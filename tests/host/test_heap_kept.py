"""What a table keeps in its heap for the whole run with its code in flash (frozen or ROMFS): a module's
literal constants stay in flash, what its top level BUILDS at import stays in the heap. These modules
used to build tables they can write out or make only when needed (docs/performance-log.md, "Memory kept";
bench/code_census.py built_at_import finds them)."""
import ast
import os

from bench import code_census

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_card_names_rank_bits_and_the_program_checks_buffer_are_not_built_at_import():
    built = [b[:2] for b in code_census.built_at_import(["firmware.cards", "firmware.program",
                                                          "firmware.games.omaha.poker_eval"])]
    assert ("firmware.games.omaha.poker_eval", "RANK_BIT") not in built
    assert ("firmware.cards", "_NAMES") not in built        # 52 strings and a tuple: ~2 KB
    assert ("firmware.program", "_buf") not in built        # 512 bytes used at boot and by `verify`
    assert ("firmware.program", "_view") not in built


def test_mcu_tables_call_nothing_at_import():
    tree = ast.parse(open(os.path.join(REPO, "firmware", "board_checks.py")).read())
    mcus = [node.value for node in tree.body if isinstance(node, ast.Assign)
            and [getattr(t, "id", None) for t in node.targets] == ["MCUS"]]
    assert len(mcus) == 1
    calls = [node for node in ast.walk(mcus[0]) if isinstance(node, ast.Call)]
    assert calls == [], [ast.dump(c.func) for c in calls]          # tuple(range(...)): built, in the heap


def _public_consts_used_only_at_home(path):
    """Top-level NAME = const(...) of the module at path that no other Python file of the repo names."""
    import re
    import subprocess
    tree = ast.parse(open(os.path.join(REPO, path)).read())
    names = [node.targets[0].id for node in tree.body
             if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
             and not node.targets[0].id.startswith("_") and isinstance(node.value, ast.Call)
             and getattr(node.value.func, "id", "") == "const"]
    files = subprocess.check_output(["git", "ls-files", "*.py"], cwd=REPO).decode().split()
    texts = [open(os.path.join(REPO, f)).read() for f in files if f != path]
    return [n for n in names if not any(re.search(r"\b%s\b" % n, t) for t in texts)]


def test_constants_only_their_module_uses_are_underscore_consts():
    # MicroPython's compiler folds a `_NAME = const(...)` into the code (no globals-dict entry, in RAM
    # even with the code in flash); a public one stays a global for other modules to import.
    for path in ("firmware/console/checks.py", "firmware/console/pins.py", "firmware/settings_change.py",
                 "firmware/saved_state.py", "firmware/drivers/pio_uart.py", "firmware/games/omaha/settings.py"):
        assert _public_consts_used_only_at_home(path) == [], path
