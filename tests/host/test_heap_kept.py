"""What a table keeps in its heap for the whole run with its code in flash (frozen or ROMFS): a module's
literal constants stay in flash, what its top level BUILDS at import stays in the heap. These modules
used to build tables they can write out or make only when needed (docs/performance.md, "Memory kept";
bench/whole_table.py built_at_import finds them)."""
import ast
import os

from bench import whole_table

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_card_names_and_the_program_checks_buffer_are_not_built_at_import():
    built = whole_table.built_at_import(["firmware.cards", "firmware.program"])
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
