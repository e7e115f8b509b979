# A power cut during a settings change (Craps: max_odds at the next shooter's come-out): the next boot resumes
# the table under the settings the table file has, and the host hears settings_changed once. Fakes only: runs
# on MicroPython too.
from firmware.host_port import settings_digest
from tests.firmware.console_rig import boot_with_pin, login, reports, typed
from tests.firmware.scratch import ScratchDir, exists
from tests.firmware.test_main import _run
from tests.firmware.test_settings_change import _audit, _file, _point_4_and_max_odds_2, _reboot


class _Cut(Exception):
    """The power goes at this point of the change (the next boot finds the flash as it was left)."""


def _cut_at(module, name, when=None):
    """Make module.name raise _Cut (when(args) says so, else always); returns the undo."""
    real = getattr(module, name)

    def cut(*args):
        if when is None or when(args):
            raise _Cut()
        return real(*args)
    setattr(module, name, cut)
    return lambda: setattr(module, name, real)


def _cut_at_the_swap():
    """The cut (for _cut_during_the_change) at settings_swap.swap of the module the change applies with:
    imported for the change and released when it is done (firmware/parts.py, release_boot_only), so the one
    imported at its boundary."""
    def cut():
        change = _change_module()
        real = change._apply

        def apply(console):
            from firmware import settings_swap
            undo = _cut_at(settings_swap, "swap")
            try:
                return real(console)
            finally:
                undo()
        change._apply = apply
        return lambda: setattr(change, "_apply", real)
    return cut


def _change_module():
    """firmware.settings_change as the table has it while a change is pending: imported for `set` and `commit`,
    kept until the change has applied (firmware/parts.py, CHANGE_ON_DEMAND), released after."""
    import sys
    return sys.modules["firmware.settings_change"]


def _seven_out_under_a_pending_change(state, pending=None):
    """Craps: point 4, a change committed (max_odds 2,2,2), then the seven-out: the next shooter's
    come-out is the boundary where it runs. pending(): called while the change is pending, before the seven-out."""
    ctx, machine, dice, _ = _point_4_and_max_odds_2(state, "ODDS-2")
    _run(ctx, 3)
    assert ctx.table.shooter == 1 and ctx.config["rules"].max_odds == (3, 4, 5)
    if pending is not None:
        pending()
    machine.uarts[0].feed(dice("THROW", "3", "4") + b"\n")    # seven-out: the dice pass on (art. 4)
    _run(ctx, 3)


def _cut_during_the_change(state, cut):
    """_seven_out_under_a_pending_change with the power cut cut() sets up once the change is pending (it returns
    its undo)."""
    undo = []
    try:
        _seven_out_under_a_pending_change(state, lambda: undo.append(cut()))
        assert False, "the change did not reach its boundary"
    except _Cut:
        pass
    finally:
        for u in undo:
            u()


def _after_the_cut(state):
    ctx, machine = _reboot(state)
    got = reports(machine)
    # No journal_bad (nothing lost); the one alarm is the dice in play at the reset (reset_in_round:
    # firmware/recovery.py), which the dealer closes.
    assert [r["fault"] for r in got if r["event"] == "fault"] == ["reset_in_round"], got
    assert [r["resumed"] for r in got if r["event"] == "recovered"] == [True], got
    assert ctx.config["rules"].max_odds == (2, 2, 2) and _file(state)["settings"]["max_odds"] == [2, 2, 2]
    assert ctx.table.shooter == 2 and not ctx.table.engine.point               # the journal's table, carried
    # The host hears that the change ran, once, with what changed; nothing is pending any more.
    changed = [r for r in got if r["event"] == "settings_changed"]
    assert changed == [{"event": "settings_changed", "settings": settings_digest(_file(state)), "ref": "ODDS-2",
                        "changes": {"max_odds": [[3, 4, 5], [2, 2, 2]]}}], got
    assert not exists(state + "/settings.pending")
    assert _audit(state)[-1].startswith("settings_applied ")
    return ctx, machine


def test_a_power_cut_once_the_new_table_file_is_in_place_resumes_the_table_under_it():
    # Before: the journal still held the old settings' snapshot and events, refused against the new table
    # file (journal_bad: the shooter and the bets standing lost), and the host never heard settings_changed.
    with ScratchDir() as state:
        _cut_during_the_change(state, _cut_at_the_swap())   # the table file renamed, the swap not made
        assert _file(state)["settings"]["max_odds"] == [2, 2, 2]
        _after_the_cut(state)


def test_the_table_a_cut_change_carried_across_survives_the_next_power_cut():
    # Found by the soak (craps --settings-changes --write-cuts, seeds 316 and 329): the boot after the cut
    # carried the old settings' snapshot across, but the journal kept it as its base, and the events after it
    # were journalled behind it; the next power cut found a snapshot that no longer fit the table file and no
    # change record to carry it (journal_bad, resumed false: the point and every bet standing lost). The
    # carried table is the journal's base now, as after a change that ran whole.
    from tests.firmware.device_helpers import Sender
    from tests.firmware.test_main import _press_confirm
    with ScratchDir() as state:
        _cut_during_the_change(state, _cut_at_the_swap())
        ctx, machine = _after_the_cut(state)
        _press_confirm(ctx, machine)          # the dealer vouches no throw came while the board was off
        machine.uarts[0].feed(Sender("D")("THROW", "5", "5") + b"\n")    # the new shooter's point: 10
        _run(ctx, 3)
        assert ctx.table.engine.point == 10
        ctx, machine = _reboot(state)                                      # the power goes again
        got = reports(machine)
        assert [r["resumed"] for r in got if r["event"] == "recovered"] == [True], got
        assert [r["fault"] for r in got if r["event"] == "fault"] == ["reset_in_round"], got
        assert ctx.table.engine.point == 10 and ctx.table.shooter == 2
        assert ctx.config["rules"].max_odds == (2, 2, 2)
        assert not [r for r in got if r["event"].startswith("settings_")], got


def test_a_power_cut_before_settings_changed_is_on_flash_reports_it_at_the_boot():
    with ScratchDir() as state:
        _cut_during_the_change(state, lambda: _cut_at(_change_module(), "_report",
                                                      lambda args: args[1] == "settings_changed"))
        _after_the_cut(state)


def test_a_pending_change_found_damaged_at_boot_is_dropped_and_the_host_told():
    # The host had settings_pending; the file on flash is damaged when the table boots again: the change
    # cannot run, so it is dropped (selftest says so) and the host hears settings_dropped, not silence.
    with ScratchDir() as state:
        ctx, machine, _, answer = _point_4_and_max_odds_2(state, "ODDS-9")
        _run(ctx, 3)
        assert [r["event"] for r in reports(machine) if r["event"].startswith("settings_")] == ["settings_pending"]
        with open(state + "/settings.pending", "w") as f:
            f.write('{"ref": 5}')
        ctx, machine = _reboot(state)
        got = [r for r in reports(machine) if r["event"].startswith("settings_")]
        assert [r["event"] for r in got] == ["settings_dropped"], got
        assert got[0]["error"].startswith("pending settings change unreadable (") and got[0]["error"].endswith(
            "): dropped"), got
        assert not exists(state + "/settings.pending") and _file(state)["settings"]["max_odds"] != [2, 2, 2]


def test_a_commit_whose_write_fails_leaves_nothing_for_the_next_boot_to_report():
    # The flash takes half of the pending change and fails: the technician reads "nothing committed", and
    # the next boot must not find a damaged settings.pending and tell the host of a change dropped (it was
    # written in place: half a file was left). Now it is written beside it and renamed once read back.
    with ScratchDir() as state:
        ctx, machine, _ = boot_with_pin(state, "craps")
        login(ctx, machine)
        typed(ctx, machine, "set max_odds 2,2,2")
        real_fs = ctx.fs

        class _HalfWritten:
            def __init__(self, f):
                self.f = f

            def __enter__(self):
                return self

            def __exit__(self, *exc):
                self.f.close()

            def write(self, data):
                self.f.write(data[:len(data) // 2])
                raise OSError(28)           # ENOSPC

        class _Flash:
            """The state dir's files, a write of the pending change failing half way."""

            def open(self, name, mode="r"):
                f = open(name, mode)
                return _HalfWritten(f) if "settings.pending" in name and "w" in mode else f

            def __getattr__(self, name):
                return getattr(real_fs, name)
        ctx.fs = _Flash()
        try:
            answer = typed(ctx, machine, "commit ODDS-7")
        finally:
            ctx.fs = real_fs
        assert answer == ["error: pending change not written (28): nothing committed"], answer
        ctx, machine = _reboot(state)
        assert [r["event"] for r in reports(machine) if r["event"].startswith("settings_")] == []
        assert not exists(state + "/settings.pending") and not exists(state + "/settings.pending.new")
