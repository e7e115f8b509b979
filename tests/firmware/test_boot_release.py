# The modules a table runs only at boot leave it after boot (firmware/startup.py, BOOT_ONLY): a running board
# keeps none of their objects, and every later path that needs one imports it again (issue 14: heap kept after
# boot; docs/performance-log.md, "Memory kept"). Fakes only: runs on MicroPython too.
import json
import os
import sys

from firmware import main, startup
from tests.firmware.booted import boot_pico, boot_unrun, lamp_test
from tests.firmware.console_rig import PIN, boot_with_pin, login, reports, typed
from tests.firmware.device_helpers import Sender
from tests.firmware.fakes import FakeLCD, FakeMachine, FakeNeoPixelModule, FakeUART
from tests.firmware.scratch import ScratchDir
from tests.firmware.test_main import _press_confirm, _run

_SCALARS = (str, bytes, bytearray, int, float, bool)


def _boot_only_objects(names=startup.BOOT_ONLY):
    """The boot-only modules, imported now (boot, or the path run next, finds these very objects): {id:
    (object, what)} of each module, its globals dict, and the functions and classes it defines (held here:
    no id reused)."""
    found = {}
    for name in names:
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
        elif type(obj).__name__ == "module":
            # The firmware's own modules are roots already; another (json's sys, say) leads to every module
            # loaded, a test's too, which may hold a boot-only module it imported at its top.
            if obj.__name__ == "firmware" or obj.__name__.startswith("firmware."):
                stack.append((obj.__dict__, path))
        elif isinstance(obj, type):
            stack.append((obj.__dict__, path))
        else:
            try:
                attrs = obj.__dict__
            except AttributeError:
                continue
            stack.append((attrs, path))
    return held


def _none_kept(ctx, found, names=startup.BOOT_ONLY):
    """None of names in sys.modules or its package, and nothing ctx or a loaded firmware module holds is of found."""
    left = [name for name in names if name in sys.modules]
    assert left == [], left
    roots = {"ctx": ctx}
    for name in sys.modules:
        if name == "firmware" or name.startswith("firmware."):
            roots[name] = sys.modules[name]
    assert _holders(found, roots) == []
    for name in names:
        dot = name.rfind(".")
        assert not hasattr(sys.modules[name[:dot]], name[dot + 1:]), name


def _kept_after_boot(game):
    found = _boot_only_objects()
    with ScratchDir() as state:
        ctx = boot_pico(state, game)
        _none_kept(ctx, found)


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


def test_a_refusal_after_a_boot_imports_its_path_again_and_releases_it():
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
        assert [name for name in startup.BOOT_ONLY if name in sys.modules] == []


# The code tables (firmware/events.py, firmware/faults.py, firmware/table_codes.py, a game's codes.py) are the
# source of truth of the codes the firmware's modules keep as private const() copies: a board never imports
# them. Before, a table kept each with all its public ints in its globals dict for a few runtime parts (the
# event queue, the fault names and kinds, the games' words), ~2.5 KB of heap with the code in flash (issue
# 14). A table booted, through its lamp test and first passes, with a bad reader line's fault reported and
# shown, as on a board.
def _imports_no_code_table(game):
    from firmware.parts import release
    from tests.firmware.test_main import _boot
    tables = ("firmware.events", "firmware.faults", "firmware.games.%s.codes" % game, "firmware.table_codes")
    release(tables)                          # what this test session imported at its top
    with ScratchDir() as state:
        ctx, machine, _ = _boot(state, game)
        _run(ctx, 60)
        machine.uarts[0].feed(b"not a device frame\n")
        _run(ctx, 5)
        faults = [r["fault"] for r in map(json.loads, machine.uarts[1].reports()) if r["event"] == "fault"]
        assert ctx.table.fault_code != 0 and faults[-1:] == ["frame_syntax"], faults
        assert [name for name in tables if name in sys.modules] == [], game


def test_a_booted_baccarat_table_imports_no_code_table():
    _imports_no_code_table("baccarat")


def test_a_booted_craps_table_imports_no_code_table():
    _imports_no_code_table("craps")


def test_a_booted_omaha_table_imports_no_code_table():
    _imports_no_code_table("omaha")


# Issue 14: the boot's own code left the kept modules for boot-only ones (firmware/parts.py, BOOT_ONLY): the
# boot's steps and the Context's making (startup -> boot_steps), the firmware's version, what survives a reset
# read back (saved_state, fault_record -> saved_state_read; fault_record's keep_fault is saved_state's now, the
# module gone), the table journal's read-back and recovery (recovery -> recovery_replay, with report's
# QuietSender), a snapshot read back (snapshot -> snapshot_restore, games/GAME/snapshot -> games/GAME/restore).
# Before, a running table kept them all (their functions, classes, globals: ~1.6 KB of heap with the code in
# flash, bench/whole_table.py --memory-only).
_NEWLY_RELEASED = ("firmware.boot_steps", "firmware.version", "firmware.saved_state_read", "firmware.recovery_replay",
                   "firmware.snapshot_restore", "firmware.games.baccarat.restore", "firmware.games.craps.restore",
                   "firmware.games.omaha.restore")
# What the kept modules no longer hold: each now in a module of _NEWLY_RELEASED.
_GONE_FROM_KEPT = (("firmware.startup", ("_boot", "_report_found", "_close_repl", "_check_program", "_OTHER_READER",
                                         "Console", "TableJournal", "Reporter", "RoundRecall")),
                   ("firmware.recovery", ("link_store", "JournalStore")),
                   ("firmware.saved_state", ("take_crash_record", "load_fault")),
                   ("firmware.report", ("QuietSender",)),
                   ("firmware.snapshot", ("decode", "check_fresh", "restore_core", "Fields")))
_GONE_FROM_JOURNAL = ("recover", "_replay", "_tick", "_load", "refuse_recovery", "link_problem", "torn")


def _boot_code_released(game):
    from firmware import recovery
    assert [name for name in _NEWLY_RELEASED if name not in startup.BOOT_ONLY] == []
    found = _boot_only_objects()
    with ScratchDir() as state:
        ctx = boot_pico(state, game)
        assert ctx.table.state_name() == "ready"
        _none_kept(ctx, found)
        assert [name for name in _NEWLY_RELEASED + ("firmware.fault_record",) if name in sys.modules] == []
        for name, gone in _GONE_FROM_KEPT:
            module = sys.modules[name]
            assert [key for key in gone if hasattr(module, key)] == [], name
        assert [key for key in _GONE_FROM_JOURNAL if hasattr(recovery.TableJournal, key)] == []
        assert "__init__" not in startup.Context.__dict__       # the Context is built by boot_steps.make_context
        snapshot = sys.modules["firmware.games.%s.snapshot" % game]
        assert [key for key in snapshot.__dict__ if key.startswith("_") and callable(snapshot.__dict__[key])
                and key not in ("_tie_fields", "_shoe_fields", "_beads", "_last_fields")] == [], game


def test_a_booted_baccarat_table_keeps_none_of_the_boot_steps_recovery_or_restore():
    _boot_code_released("baccarat")


def test_a_booted_craps_table_keeps_none_of_the_boot_steps_recovery_or_restore():
    _boot_code_released("craps")


def test_a_booted_omaha_table_keeps_none_of_the_boot_steps_recovery_or_restore():
    _boot_code_released("omaha")


def _recovered_releases_them(game):
    # The journal's snapshot at READY (the table's first boundary); the next boot recovers it at the end of
    # its lamp test: firmware.recovery_replay and the restore side imported again, and released after.
    with ScratchDir() as state:
        boot_pico(state, game)
        ctx, machine = boot_unrun(state, game)
        assert ctx.journal.pending
        found = _boot_only_objects()              # imported now: the recovery finds these very objects
        assert [name for name in _NEWLY_RELEASED if name not in startup.BOOT_ONLY] == []
        lamp_test(ctx)
        assert [(r["resumed"], r["state"]) for r in reports(machine) if r["event"] == "recovered"] == \
            [(True, "ready")], game
        assert ctx.table.state_name() == "ready" and not ctx.journal.pending
        _none_kept(ctx, found)
        assert [name for name in _NEWLY_RELEASED if name in sys.modules] == []


def test_a_baccarat_recovery_leaves_the_replay_and_the_restore_released():
    _recovered_releases_them("baccarat")


def test_a_craps_recovery_leaves_the_replay_and_the_restore_released():
    _recovered_releases_them("craps")


def test_an_omaha_recovery_leaves_the_replay_and_the_restore_released():
    _recovered_releases_them("omaha")


# After boot, every path that imports a boot-only module again releases it when it is done (firmware/parts.py,
# release_boot_only), and a settings change's own module once no change is pending: before, each such path left
# ~2-4 KB in the heap until the next reset (issue 14).
_CHANGE = startup.BOOT_ONLY + ("firmware.settings_swap", "firmware.settings_change")


def test_selftest_verify_and_set_leave_the_boot_only_modules_released():
    from tests.firmware.test_program import _deploy
    with ScratchDir() as state:
        ctx, machine, _ = boot_with_pin(state)
        found = _boot_only_objects()                  # imported now: the commands find these very objects
        assert typed(ctx, machine, "selftest")[-1] == "selftest: ok"
        _none_kept(ctx, found)
        deployed = state + "/deployed"
        os.mkdir(deployed)
        _deploy(deployed)
        ctx.program_dir = deployed
        found = _boot_only_objects()
        assert typed(ctx, machine, "verify seed")[0].startswith("verify ")
        _none_kept(ctx, found)
        login(ctx, machine)
        found = _boot_only_objects()
        assert typed(ctx, machine, "set decks 13")[0].startswith("error: setting 'decks' = 13 not allowed")
        _none_kept(ctx, found)
        found = _boot_only_objects()
        assert typed(ctx, machine, "set decks 6")[0].startswith("staged decks")
        _none_kept(ctx, found)


def test_a_settings_change_applied_at_the_next_shoe_leaves_them_and_its_own_module_released():
    # Baccarat art. 18: the change runs at the next new shoe (firmware/settings_swap.py, imported for it).
    with ScratchDir() as state:
        ctx, machine, _ = boot_with_pin(state)
        shoe = Sender("S")
        machine.uarts[0].feed(shoe("IN") + b"\n")
        _run(ctx, 3)
        login(ctx, machine)
        typed(ctx, machine, "set commission B")
        assert typed(ctx, machine, "commit CAB-1")[0].startswith("committed (ref CAB-1)")
        found = _boot_only_objects(_CHANGE)
        machine.uarts[0].feed(shoe("OUT") + b"\n")     # the boundary: the change runs
        _run(ctx, 3)
        assert ctx.config["rules"].commission == "B" and ctx.console.change.pending is None
        _none_kept(ctx, found, _CHANGE)


def test_a_change_pending_after_a_reset_leaves_them_released():
    # The first pass reads settings.pending back (settings_change.validate: table_config); while it is
    # pending, a button's event imports firmware.settings_swap (main._dispatch), which holds no boot-only module.
    with ScratchDir() as state:
        ctx, machine, _ = boot_with_pin(state, "craps")
        machine.uarts[0].feed(Sender("D")("THROW", "3", "3") + b"\n")    # point 6: the shooter rolls on
        _run(ctx, 3)
        login(ctx, machine)
        typed(ctx, machine, "set field_12 3")
        typed(ctx, machine, "commit FLD-3")
        machine = FakeMachine()
        machine.usb = FakeUART()
        ctx = startup.boot(machine, FakeNeoPixelModule(), "boards/pico.json", state + "/t_table.json", state,
                           FakeLCD, machine.usb)
        found = _boot_only_objects()
        _run(ctx)
        assert ctx.console.change.pending is not None
        _none_kept(ctx, found)
        _press_confirm(ctx, machine)          # the dealer closes reset_in_round: a BUTTON event
        assert "firmware.settings_swap" in sys.modules and ctx.console.change.pending is not None
        _none_kept(ctx, found)


def test_a_recovery_that_carries_a_settings_change_leaves_them_released():
    # A power cut once the new table file is in place: the next boot's recovery carries the journal's
    # snapshot across (firmware/recovery.py -> settings_swap.carry_restore -> settings_change.validate).
    from tests.firmware.test_settings_change import _reboot
    from tests.firmware.test_settings_change_cut import _cut_at_the_swap, _cut_during_the_change
    with ScratchDir() as state:
        _cut_during_the_change(state, _cut_at_the_swap())
        found = _boot_only_objects(_CHANGE)
        ctx, machine = _reboot(state)
        assert [r["resumed"] for r in reports(machine) if r["event"] == "recovered"] == [True]
        assert ctx.config["rules"].max_odds == (2, 2, 2) and ctx.table.shooter == 2
        _none_kept(ctx, found, _CHANGE)


# The console's command modules: imported when a command runs, released when its line is done (firmware/parts.py,
# CONSOLE_ON_DEMAND); before, a table kept the command table and every command's module from boot on (~3 KB of
# heap with the code in flash; issue 14). The lines each command is typed with, in an order that reaches them all.
_TYPED = ("help", "help lamp", "status", "log", "audit", "audit 3", "recall", "recall 2", "settings", "sensors",
          "time", "selftest", "board", "zones", "crash", "version", "verify seed", "login", PIN,
          "lamp all", "lamp off", "set decks 7", "settings", "discard", "set decks 7", "commit CAB-1", "settings",
          "passwd", "135790", "135790", "logout", "login", "135790", "reboot")


def _booted_without_the_command_modules(state, game):
    from firmware.console.pins import provision
    from firmware.parts import CONSOLE_ON_DEMAND, release
    from tests.firmware.test_main import _boot
    provision(state, PIN)                 # (tools.pin's path: the board's run never provisions)
    release(CONSOLE_ON_DEMAND)            # what this test session imported at its top
    ctx, machine, _ = _boot(state, game)
    _run(ctx)
    return ctx, machine


def test_nothing_a_booted_table_keeps_holds_the_consoles_command_modules():
    # Imported before the boot, as a test session has them: the boot and its first passes find these very
    # objects if they use them; once released, nothing the table keeps holds one.
    from firmware.console.pins import provision
    from firmware.parts import CONSOLE_ON_DEMAND, release
    from tests.firmware.test_main import _boot
    with ScratchDir() as state:
        provision(state, PIN)
        found = _boot_only_objects(CONSOLE_ON_DEMAND)
        ctx, machine, _ = _boot(state, "craps")
        _run(ctx, 20)
        release(CONSOLE_ON_DEMAND)
        _none_kept(ctx, found, CONSOLE_ON_DEMAND)


def test_a_booted_table_keeps_none_of_the_consoles_command_modules():
    from firmware.parts import CONSOLE_ON_DEMAND
    for game in ("baccarat", "craps", "omaha"):
        with ScratchDir() as state:
            ctx, machine = _booted_without_the_command_modules(state, game)
            assert [name for name in CONSOLE_ON_DEMAND if name in sys.modules] == [], game
            _run(ctx, 20)
            assert [name for name in CONSOLE_ON_DEMAND if name in sys.modules] == [], game
            # nor the shell's dispatch, the editor, the login and the audit: the console is dormant (CONSOLE_AWAKE)
            for name in ("shell", "editor", "auth", "audit"):
                assert "firmware.console." + name not in sys.modules, name


def test_every_command_leaves_the_command_modules_released_and_still_answers():
    from firmware.console.commands import ORDER
    from firmware.parts import CONSOLE_ON_DEMAND
    from tests.firmware.test_program import _deploy
    with ScratchDir() as state:
        ctx, machine = _booted_without_the_command_modules(state, "baccarat")
        deployed = state + "/deployed"
        os.mkdir(deployed)
        _deploy(deployed)
        ctx.program_dir = deployed
        run = []
        for line in _TYPED:
            found = _boot_only_objects(CONSOLE_ON_DEMAND)     # imported now: the command finds these very objects
            reply = typed(ctx, machine, line)
            assert not [r for r in reply if r.startswith("error")], (line, reply)
            answer = ctx.console.answer       # a prompt (login's, passwd's): its answer holds access until typed
            ctx.console.wake().answer = None
            _none_kept(ctx, found, CONSOLE_ON_DEMAND)
            ctx.console.wake().answer = answer
            assert answer is None or answer.__name__ in ("_pin_typed", "_new_pin", "_pin_again"), (line, answer)
            run.append(line.split()[0])
        assert reply == ["rebooting once the reports are out"] and machine.resets == 1, reply
        assert sorted(name for name in ORDER if name not in run) == ["display", "lights"], run
        assert typed(ctx, machine, "help")[0] == "commands (* needs a technician login):"     # and again


def test_a_lights_or_display_test_holds_checks_while_it_runs_and_releases_it_after():
    from firmware.parts import CONSOLE_ON_DEMAND
    with ScratchDir() as state:
        ctx, machine = _booted_without_the_command_modules(state, "baccarat")
        login(ctx, machine)
        for line, passes in (("lights test", 10), ("display test", 3)):
            found = _boot_only_objects(CONSOLE_ON_DEMAND)
            reply = typed(ctx, machine, line)
            assert reply[0].startswith(("lights test: ", "dealer: test pattern")), reply
            assert "firmware.console.checks" in sys.modules           # stepping the test, pass by pass
            assert typed(ctx, machine, "status")[0].startswith("table ")   # another command meanwhile
            while ctx.console.walk >= 0 or ctx.console.holds_displays():
                _run(ctx, passes)
            _run(ctx)
            _none_kept(ctx, found, CONSOLE_ON_DEMAND)


# Issue 14, what a running table kept but never ran: code of its boot and of its refusal, and alternatives
# its board never takes, each moved out of the modules a table keeps (to a boot-only module, or to one a
# board never imports). The modules a booted table must not have at all:
_NEVER_KEPT = ("firmware.link.ram_store",)       # the store in RAM: the refusal's sender's, the tests' (a board's
                                                 # store is on flash, firmware/link/journal_store.py)
# And what the kept modules no longer hold (module, names), each now in a boot-only module: a journal's files
# read back (firmware/link/journal_read.py), the SSD1306 modules a board file may declare (firmware/board.py), a
# line's timeout for its baudrate (firmware/hardware.py), the reset's cause (firmware/saved_state_read.py), the
# bytes behind a journalled event put back (firmware/recovery_replay.py, the recovery's):
_LEFT_KEPT = (("firmware.link.store", ("RamStore",)),
              ("firmware.link.record", ("survey",)),
              ("firmware.drivers.ssd1306_geometry", ("module_problem", "MODULES")),
              ("firmware.drivers.serial_line", ("line_timeout_ms",)),
              ("firmware.host_port", ("reset_cause_name", "_RESET_CAUSES")),
              ("firmware.event_bytes", ("put_behind", "_put_ints")),
              # the core table's codes, in a code table now (firmware/table_codes.py; FAULTED stays: the console's)
              ("firmware.table", ("STARTING", "READY", "LAMP_CHECK", "GAME_FIRST_STATE", "OUT_STATE", "OUT_BUTTON",
                                  "OUT_FAULT", "OUT_ACK", "OUT_LAMP", "OUT_CONSOLE_ERROR", "OUT_FAULT_RESTORED",
                                  "OUT_HOST", "OUT_LINK_BACKLOG", "OUT_CONSOLE", "OUT_GAME_FIRST", "ACK_CONFIRM",
                                  "ACK_RESCAN", "ACK_VOID", "LAMP_STEP_MS")))
_CRAPS_BET_CODES = ("PASS", "DONT_PASS", "PASS_ODDS", "DONT_PASS_ODDS", "COME", "DONT_COME", "COME_ODDS",
                    "DONT_COME_ODDS", "ANY_CRAPS", "ANY_SEVEN", "ELEVEN", "ACE_DEUCE", "ACES", "BOXCARS", "HORN",
                    "FIELD", "BIG", "SMALL", "HARD", "BIG_NUMBER", "STAND", "WIN", "LOSE", "PUSH", "MOVE",
                    "ZONE_COLUMNS")
# And what their classes no longer hold (module, class, names): the journal's read-back (journal_read), the
# board's bring-up leftovers (hardware.keep_layout, boot_steps.forget_bring_up), recall's boot report
# (boot_steps.report_recall).
_LEFT_IN_CLASSES = (("firmware.link.journal", "Journal", ("_load", "_size", "_note")),
                    ("firmware.parts", "Board", ("keep_layout", "forget_bring_up")),
                    ("firmware.round_recall", "RoundRecall", ("report_boot",)))


# firmware/game_setup.py's BLANK_OLED_RELEASED (a boot-only module: not imported here to read it)
_BLANK_OLED_RELEASED = ("firmware.drivers.ssd1306", "firmware.drivers.ssd1306_geometry")


def _leftovers_released(game):
    from firmware.parts import release
    release(_NEVER_KEPT)                 # what this test session imported at its top
    with ScratchDir() as state:
        ctx = boot_pico(state, game)
        _run(ctx, 5)
        assert [name for name in _NEVER_KEPT if name in sys.modules] == [], game
        for name, gone in _LEFT_KEPT:
            if game != "baccarat" and name in _BLANK_OLED_RELEASED:
                assert name not in sys.modules, (game, name)     # the OLED is a Panel's: its driver released
                continue
            module = sys.modules[name]
            assert [key for key in gone if hasattr(module, key)] == [], name
        for name, cls, gone in _LEFT_IN_CLASSES:
            held = getattr(sys.modules[name], cls)
            assert [key for key in gone if key in held.__dict__] == [], (name, cls)
        assert "firmware.link.journal_read" in startup.BOOT_ONLY
        if game == "craps":               # the bets' kinds and settlements: in the code table games/craps/codes.py
            bets = sys.modules["firmware.games.craps.bets"]
            assert [key for key in _CRAPS_BET_CODES if hasattr(bets, key)] == []
        # The CRC: binascii's pair is defined only where it runs, not on a board, which runs its native code
        # (firmware/link/crc32_viper.py; tests/host/test_crc32_viper.py shows crc32.py there).
        crc32 = sys.modules["firmware.link.crc32"]
        assert (crc32.binascii_into is None) == crc32.NATIVE == (not hasattr(crc32, "binascii_hex_into")), game


def test_a_booted_baccarat_table_keeps_none_of_its_boot_leftovers():
    _leftovers_released("baccarat")


def test_a_booted_craps_table_keeps_none_of_its_boot_leftovers():
    _leftovers_released("craps")


def test_a_booted_omaha_table_keeps_none_of_its_boot_leftovers():
    _leftovers_released("omaha")
