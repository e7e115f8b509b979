# A power cut while a new Baccarat shoe waits for a pending settings change, or takes the shoe in play out for
# it (docs/console.md, "Changing the settings"): the shoe the dealer put in is on flash (settings.held) before
# anything acts on it and until the table journal has its IN, so no cut loses it and none lets it in twice.
# Fakes only: runs on MicroPython too.
from firmware.events import BUTTON, BUTTON_LONG, BUTTON_PRESSED, BUTTON_RELEASED
from firmware.table_codes import FAULTED, READY
from firmware.games.baccarat import codes
from tests.firmware.console_rig import boot_with_pin
from tests.firmware.scratch import ScratchDir
from tests.firmware.test_main import _run
from tests.firmware.test_settings_change import _reboot
from tests.firmware.test_settings_change_shoe import (_commit_decks_6, _confirm, _feed, _held_in_an_alarm,
                                                      _shoe_burned, _shoe_reports)


class _Cut(Exception):
    """The power goes at this point (the next boot finds the flash as it was left)."""


def _release_held_shoe(ctx, stop):
    """The dealer's CONFIRM closes the alarm holding the shoe: the change applies, the held shoe is let go. One
    pass at a time until stop(ctx) (True: the power goes there, nothing more written); False if it never did."""
    from firmware import main
    ctx.queue.put(BUTTON, ctx.table.confirm_button, BUTTON_PRESSED)
    ctx.queue.put(BUTTON, ctx.table.confirm_button, BUTTON_RELEASED)
    for _ in range(5):
        try:
            main.poll_inputs(ctx, 100)
        except _Cut:
            return True
        if stop(ctx):
            return True
        main.refresh_outputs(ctx, True)
    return False


def test_a_cut_before_the_released_shoe_is_in_the_journal_lets_it_in_at_the_next_boot():
    # Regression: the held shoe's file was removed when it was let go, before its IN's journal record: a power cut
    # between the two lost the shoe the dealer had put in (the next card an alarm, the shoe to be put in again).
    import os
    from firmware.events import SHOE, SHOE_IN
    from firmware.settings_change import HELD_FILE
    with ScratchDir() as state:
        ctx, machine = _held_in_an_alarm(state)
        journal = ctx.journal
        real = journal._append

        def append(table, kind, a, b):
            if kind == SHOE and a == SHOE_IN:
                raise _Cut()                                   # the cut at the IN's record: not written
            return real(table, kind, a, b)
        journal._append = append
        assert _release_held_shoe(ctx, lambda ctx: False)
        assert HELD_FILE in os.listdir(state)
        ctx, machine = _reboot(state)
        assert ctx.table.state == codes.BURNING and ctx.table.shoe.settings.decks == 6
        assert _shoe_reports(machine)[-1] == ("shoe", "new", 6) and HELD_FILE not in os.listdir(state)


def test_a_cut_after_the_released_shoe_is_in_the_journal_lets_in_no_second_one():
    # The IN journalled, the power gone before the held shoe's file was removed: the next boot finds the shoe in
    # the table it recovered, and drops the file (a second IN would start the shoe again, reported twice).
    import os
    from firmware.settings_change import HELD_FILE
    with ScratchDir() as state:
        ctx, machine = _held_in_an_alarm(state)
        assert _release_held_shoe(ctx, lambda ctx: ctx.table.state == codes.BURNING)
        assert HELD_FILE in os.listdir(state)                  # the window: in the journal, the file still there
        assert ("shoe", "new", 6) not in _shoe_reports(machine)             # its report not yet out
        ctx, machine = _reboot(state)
        assert ctx.table.resume_state == codes.BURNING and ctx.table.shoe.settings.decks == 6   # (reset_in_round)
        _confirm(ctx)
        _feed(ctx, machine, ("CARD", "2c", "D"))               # the same shoe burns on
        assert ctx.table.state == codes.BURNING and ctx.table.shoe.burned == 1
        # Its report made again from the journal, once; no second shoe (removed, then new again).
        assert [r for r in _shoe_reports(machine) if r[0] == "shoe"] == [("shoe", "new", 6)]
        assert HELD_FILE not in os.listdir(state)


def _cut_at_the_record_of(ctx, kind, a):
    """The power goes at the table journal's record of the event (kind, a): not written."""
    journal = ctx.journal
    real = journal._append

    def append(table, k, ka, kb):
        if k == kind and ka == a:
            raise _Cut()
        return real(table, k, ka, kb)
    journal._append = append


def test_a_cut_while_a_new_shoe_takes_the_one_in_play_out_loses_neither_the_shoe_nor_the_change():
    # Regression: a new shoe between rounds with a change pending (the shoe's IN, or the dealer's long SHOE
    # CHANGE) took the shoe in play out and ran the change before its own record: a power cut on the way lost
    # it (the next boot with no shoe in play, its first card card_out_of_order). Now it is on flash first.
    import os
    from firmware import main
    from firmware.events import SHOE, SHOE_OUT
    from firmware.settings_change import HELD_FILE
    for new_shoe in ("IN", "SHOE CHANGE"):
        with ScratchDir() as state:
            ctx, machine, _ = boot_with_pin(state, "baccarat")
            _shoe_burned(ctx, machine)
            _commit_decks_6(ctx, machine)
            _cut_at_the_record_of(ctx, SHOE, SHOE_OUT)
            try:
                if new_shoe == "IN":
                    _feed(ctx, machine, ("IN",))
                else:
                    ctx.queue.put(BUTTON, ctx.table.shoe_button, BUTTON_LONG)
                    main.poll_inputs(ctx, 100)
                raise AssertionError("no cut")
            except _Cut:
                pass
            assert HELD_FILE in os.listdir(state), new_shoe
            ctx, machine = _reboot(state)
            _run(ctx, 3)
            assert ctx.table.state == codes.BURNING and ctx.table.shoe.settings.decks == 6, new_shoe
            assert _shoe_reports(machine)[-3:] == [("shoe", "removed", None), ("settings_changed", "", {"decks": [8, 6]}),
                                                   ("shoe", "new", 6)], new_shoe
            assert HELD_FILE not in os.listdir(state)


def test_a_cut_while_a_shoe_held_in_an_alarm_takes_the_one_in_play_out_holds_it_still():
    # The same in an alarm (_held_in_an_alarm's): the held IN on flash before the shoe in play goes out; a cut at
    # that OUT's record left the next boot with the old shoe in play and the change waiting for a boundary that
    # never came. Now the boot takes the IN again as it came: the old shoe out, the new one held.
    from firmware.events import SHOE, SHOE_OUT
    with ScratchDir() as state:
        ctx, machine, _ = boot_with_pin(state, "baccarat")
        _shoe_burned(ctx, machine)
        _commit_decks_6(ctx, machine)
        _feed(ctx, machine, ("FAULT", "7"))
        _cut_at_the_record_of(ctx, SHOE, SHOE_OUT)
        try:
            _feed(ctx, machine, ("IN",))
            raise AssertionError("no cut")
        except _Cut:
            pass
        ctx, machine = _reboot(state)
        _run(ctx, 3)
        assert ctx.table.state == FAULTED and ctx.table.resume_state == READY
        assert ctx.console.change.held_shoe is not None
        _confirm(ctx)
        assert _shoe_reports(machine)[-2:] == [("settings_changed", "", {"decks": [8, 6]}), ("shoe", "new", 6)]
        assert ctx.table.state == codes.BURNING and ctx.table.shoe.settings.decks == 6
