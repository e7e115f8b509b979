# The modules a table runs only at boot leave it after boot (firmware/startup.py, BOOT_ONLY): a running board
# keeps none of their objects, and every later path that needs one imports it again (issue 14: heap kept after
# boot; docs/performance.md, "Memory kept"). Fakes only: runs on MicroPython too.
import json
import sys

from firmware import main, startup
from tests.firmware.booted import boot_pico
from tests.firmware.console_rig import boot_with_pin, login, typed
from tests.firmware.fakes import FakeMachine, FakeNeoPixelModule
from tests.firmware.scratch import ScratchDir

_SCALARS = (str, bytes, bytearray, int, float, bool)


def _boot_only_objects():
    """The boot-only modules, imported now (boot finds these very objects): {id: (object, what)} of each
    module, its globals dict, and the functions and classes it defines (held here: no id reused)."""
    found = {}
    for name in startup.BOOT_ONLY:
        __import__(name)
        module = sys.modules[name]
        found[id(module)] = (module, name)
        found[id(module.__dict__)] = (module.__dict__, name + " globals")
        for key in module.__dict__:
            value = module.__dict__[key]
            if getattr(value, "__globals__", None) is module.__dict__ or \
                    isinstance(value, type) and getattr(value, "__module__", None) == name:
                found[id(value)] = (value, name + "." + key)
    return found


def _holders(found, roots):
    """Paths from roots (name -> object) to anything of found: a module, a function, a class, an instance of one."""
    held, seen = [], {}
    stack = [(roots[name], name) for name in roots]
    while stack:
        obj, path = stack.pop()
        if obj is None or isinstance(obj, _SCALARS) or id(obj) in seen:
            continue
        seen[id(obj)] = 1
        if id(obj) in found:
            held.append("%s: %s" % (path, found[id(obj)][1]))
            continue
        if id(type(obj)) in found:
            held.append("%s: an instance of %s" % (path, found[id(type(obj))][1]))
        if getattr(obj, "__globals__", None) is not None:
            if id(obj.__globals__) in found:
                held.append("%s: a function of %s" % (path, found[id(obj.__globals__)][1]))
            continue
        if isinstance(obj, dict):
            for key in obj:
                stack.append((obj[key], "%s[%r]" % (path, key)))
        elif isinstance(obj, (list, tuple)):
            for i in range(len(obj)):
                stack.append((obj[i], "%s[%d]" % (path, i)))
        elif type(obj).__name__ == "module" or isinstance(obj, type):
            stack.append((obj.__dict__, path))
        else:
            try:
                attrs = obj.__dict__
            except AttributeError:
                continue
            stack.append((attrs, path))
    return held


def _kept_after_boot(game):
    found = _boot_only_objects()
    with ScratchDir() as state:
        ctx = boot_pico(state, game)
        left = [name for name in startup.BOOT_ONLY if name in sys.modules]
        roots = {"ctx": ctx}
        for name in sys.modules:
            if name == "firmware" or name.startswith("firmware."):
                roots[name] = sys.modules[name]
        assert left == [], left
        assert _holders(found, roots) == []
        assert not hasattr(sys.modules["firmware"], "board") and not hasattr(sys.modules["firmware.link"],
                                                                                "boot_counter")


def test_a_booted_baccarat_table_keeps_none_of_the_boot_only_modules():
    _kept_after_boot("baccarat")


def test_a_booted_craps_table_keeps_none_of_the_boot_only_modules():
    _kept_after_boot("craps")


def test_a_booted_omaha_table_keeps_none_of_the_boot_only_modules():
    _kept_after_boot("omaha")


def test_the_technicians_commands_import_what_boot_released_again():
    # `selftest` reads the table file (firmware.table_config), `set` checks a value as the table file is
    # checked (table_config.validate), `verify` hashes the program (firmware.program): each after the release.
    with ScratchDir() as state:
        ctx, machine, _ = boot_with_pin(state)
        assert "firmware.table_config" not in sys.modules and "firmware.program" not in sys.modules
        lines = typed(ctx, machine, "selftest")
        assert lines[-1] == "selftest: ok", lines
        login(ctx, machine)
        assert typed(ctx, machine, "set decks 13") == [      # Baccarat art. 1: 6 to 12 decks
            "error: setting 'decks' = 13 not allowed: expected one of 6, 7, 8, 9, 10, 11, 12 (Baccarat art. 1)"]
        assert typed(ctx, machine, "set decks 6")[0].startswith("staged decks")
        assert typed(ctx, machine, "verify seed")[0].startswith("error: no deployed program to verify")


def test_a_refusal_after_a_boot_imports_its_path_again():
    # main.run's refusal path (firmware.boot_refusal, boot-only) after a table has booted and released it.
    with ScratchDir() as state:
        boot_pico(state, "baccarat")
        assert "firmware.boot_refusal" not in sys.modules
        with open("boards/tables/sim-baccarat.json") as f:
            table = json.loads(f.read())
        table["settings"]["decks"] = 13
        with open(state + "/t_bad_table.json", "w") as f:
            f.write(json.dumps(table))
        machine = FakeMachine()
        assert main.run("boards/pico.json", state + "/t_bad_table.json", state, machine, FakeNeoPixelModule()) == 1
        refusal = [json.loads(line) for line in machine.uarts[1].reports()][-1]
        assert refusal["event"] == "boot_refused" and "decks" in refusal["error"], refusal
