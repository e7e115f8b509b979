# A settings change's modules on demand (issue 14, heap kept): the table keeps the change's state
# (firmware/parts.py, ChangeState: console.change) and imports firmware/settings_change.py and settings_swap.py
# only when a settings command runs, at the first pass (a change committed before a reset read back) and while a
# change is pending (its boundary's check each pass); once none is pending they leave sys.modules and nothing
# the table keeps holds their objects (parts.CHANGE_ON_DEMAND). Before, the console held a SettingsChange from
# boot, and with it settings_change's module, functions and class for the whole run (~2 KB with the code in
# flash). The staged and pending change survive between commands and reboots as before (docs/console.md,
# "Changing the settings"; Baccarat art. 18, Craps art. 4, Omaha art. 16). Fakes only: runs on MicroPython too.
import sys

from firmware.parts import CHANGE_ON_DEMAND
from tests.firmware.console_rig import PIN, boot_with_pin, login, reports, typed
from tests.firmware.device_helpers import Sender
from tests.firmware.scratch import ScratchDir, exists
from tests.firmware.test_boot_release import _boot_only_objects, _none_kept
from tests.firmware.test_main import _press_confirm, _run
from tests.firmware.test_settings_change import _reboot


def _loaded():
    return [name for name in CHANGE_ON_DEMAND if name in sys.modules]


def _released(ctx, found):
    """None of the change's modules loaded, and nothing the table keeps holds one of their objects."""
    assert _loaded() == [], _loaded()
    _none_kept(ctx, found, CHANGE_ON_DEMAND)


def _fresh(state, game):
    """A table booted on `state` as a board boots it: the change's modules not imported before (this session
    imported them); what they were when the boot began, to check nothing kept holds one."""
    from firmware.parts import release
    found = _boot_only_objects(CHANGE_ON_DEMAND)
    release(CHANGE_ON_DEMAND)
    ctx, machine, _ = boot_with_pin(state, game)
    return ctx, machine, found


def test_a_booted_table_keeps_none_of_the_settings_change_modules():
    for game in ("baccarat", "craps", "omaha"):
        with ScratchDir() as state:
            ctx, machine, found = _fresh(state, game)
            _run(ctx, 20)
            _released(ctx, found)
            assert ctx.console.change.pending is None and ctx.console.change.staged == {}


def test_the_read_only_commands_import_none_of_them():
    # `status` says whether a change is pending from the state the table keeps; `help` and `settings` with
    # nothing staged need no more than the command's line.
    with ScratchDir() as state:
        ctx, machine, found = _fresh(state, "baccarat")
        assert typed(ctx, machine, "status")[0].startswith("table ")
        assert "firmware.settings_change" not in sys.modules
        assert typed(ctx, machine, "settings")[0].startswith("table ")
        _released(ctx, found)


def test_staged_values_survive_between_commands_each_command_released_after_it_twice():
    # Baccarat art. 18: the options are staged one command at a time; the state between them is the table's.
    with ScratchDir() as state:
        ctx, machine, found = _fresh(state, "baccarat")
        login(ctx, machine)
        for _ in range(2):
            assert typed(ctx, machine, "set commission B") == [
                "staged commission A -> B (commit REF to apply at the next new shoe)"]
            _released(ctx, found)
            assert ctx.console.change.staged == {"commission": "B"}
            assert typed(ctx, machine, "set decks 7")[0] == "staged decks 8 -> 7 (commit REF to apply at the next " \
                                                            "new shoe)"
            _released(ctx, found)
            shown = typed(ctx, machine, "settings")
            assert shown[-3:] == ["staged (commit REF to apply):", "  commission           A -> B",
                                  "  decks                8 -> 7"], shown
            _released(ctx, found)
            assert typed(ctx, machine, "discard") == ["staged values discarded"]
            _released(ctx, found)
            assert ctx.console.change.staged == {}


def _commit_at_a_shoe_in_play(ctx, machine, shoe, ref):
    machine.uarts[0].feed(shoe("IN") + b"\n")
    _run(ctx, 3)
    assert typed(ctx, machine, "set commission " + ("B" if ctx.config["rules"].commission == "A" else "A"))[0] \
        .startswith("staged commission")
    assert typed(ctx, machine, "commit " + ref)[0].startswith("committed (ref %s)" % ref)
    _run(ctx, 3)
    # pending: the boundary is checked each pass, with the module kept until the change has applied
    assert _loaded() == ["firmware.settings_change"], _loaded()
    assert typed(ctx, machine, "settings")[-2].startswith("pending (ref %s)" % ref)
    return _boot_only_objects(CHANGE_ON_DEMAND)        # what the boundary runs with (settings_swap imported now)


def test_a_committed_change_keeps_its_module_until_it_applies_then_releases_it_twice_in_a_row():
    with ScratchDir() as state:
        ctx, machine, found = _fresh(state, "baccarat")
        login(ctx, machine)
        shoe = Sender("S")
        for ref, commission in (("CAB-1", "B"), ("CAB-2", "A")):
            found = _commit_at_a_shoe_in_play(ctx, machine, shoe, ref)
            machine.uarts[0].feed(shoe("OUT") + b"\n")           # the boundary: the change runs
            _run(ctx, 3)
            assert ctx.config["rules"].commission == commission and ctx.console.change.pending is None
            _released(ctx, found)
            changed = [r for r in reports(machine) if r["event"] == "settings_changed"]
            assert changed[-1]["ref"] == ref and changed[-1]["changes"] == {"commission": [
                "A" if commission == "B" else "B", commission]}, changed
        assert len([r for r in reports(machine) if r["event"] == "settings_pending"]) == 2


def test_a_change_pending_at_a_reboot_is_read_back_kept_while_pending_and_released_once_applied():
    # Craps art. 4: committed during a point, the power cut; the next boot's first pass reads settings.pending
    # back and the change runs at the next shooter's come-out.
    with ScratchDir() as state:
        ctx, machine, found = _fresh(state, "craps")
        dice = Sender("D")
        machine.uarts[0].feed(dice("THROW", "3", "3") + b"\n")     # point 6: the shooter rolls on
        _run(ctx, 3)
        login(ctx, machine)
        typed(ctx, machine, "set field_12 3")
        assert typed(ctx, machine, "commit FLD-3")[0].startswith("committed (ref FLD-3)")
        from firmware.parts import release
        release(CHANGE_ON_DEMAND)                 # the power is cut: the next boot imports them anew
        ctx, machine = _reboot(state)
        assert ctx.console.change.pending is not None and ctx.console.change.ref == "FLD-3"
        assert _loaded() == ["firmware.settings_change"], _loaded()
        assert [r["event"] for r in reports(machine) if r["event"].startswith("settings_")] == ["settings_pending"]
        assert typed(ctx, machine, "login") == [] and typed(ctx, machine, PIN)[0].startswith("logged in")
        assert typed(ctx, machine, "set field_12 2")[0].startswith("error: a committed change (ref FLD-3) waits")
        assert typed(ctx, machine, "settings")[-2:] == ["pending (ref FLD-3), applied at the next new shooter:",
                                                        "  field_12             2 -> 3"]
        found = _boot_only_objects(CHANGE_ON_DEMAND)     # the reboot's: what the boundary runs with
        _press_confirm(ctx, machine)              # the dealer closes reset_in_round
        machine.uarts[0].feed(Sender("D")("THROW", "3", "4") + b"\n")   # seven-out: a new shooter
        _run(ctx, 3)
        assert ctx.config["rules"].field_12 == 3 and ctx.console.change.pending is None
        assert not exists(state + "/settings.pending")
        _released(ctx, found)


def test_a_shoe_held_for_a_change_leaves_none_of_them_once_the_table_has_it():
    # The held shoe's file is removed the pass after its IN is on the queue (firmware/settings_change.py,
    # _let_held_in): that pass imports settings_change again, and released it no more.
    from tests.firmware.test_settings_change_shoe import _confirm, _feed, _shoe_burned
    with ScratchDir() as state:
        ctx, machine, found = _fresh(state, "baccarat")
        _shoe_burned(ctx, machine)
        login(ctx, machine)
        typed(ctx, machine, "set decks 6")
        typed(ctx, machine, "commit DK-6")
        typed(ctx, machine, "logout")
        _feed(ctx, machine, ("FAULT", "7"), ("IN",))              # held for the change: an alarm open
        assert ctx.console.change.held_shoe is not None
        _confirm(ctx)
        _run(ctx, 3)
        assert ctx.table.shoe.settings.decks == 6 and ctx.console.change.letting_in == 0
        _released(ctx, found)
