# A Baccarat settings change committed while a shoe is in play runs from the next new shoe (art. 18;
# docs/console.md, "Changing the settings"), however that shoe comes: after the shoe was taken out, a
# new shoe put in over a closed one (art. 3(1)), or a shoe change between rounds (art. 3(2): the shoe's
# IN, or the dealer's long SHOE CHANGE).
from firmware.events import BUTTON, BUTTON_LONG, BUTTON_PRESSED, BUTTON_RELEASED
from firmware.table_codes import FAULTED, READY
from firmware.games.baccarat import codes
from tests.firmware.console_rig import boot_with_pin, login, reports, typed
from tests.firmware.device_helpers import Sender
from tests.firmware.scratch import ScratchDir
from tests.firmware.test_main import _run
from tests.firmware.test_settings_change import _reboot

_SHOE = Sender("S")


def _feed(ctx, machine, *frames):
    for frame in frames:
        machine.uarts[0].feed(_SHOE(*frame) + b"\n")
        _run(ctx, 3)


def _commit_decks_6(ctx, machine):
    login(ctx, machine)
    assert typed(ctx, machine, "set decks 6")[0].startswith("staged decks 8 -> 6")
    assert typed(ctx, machine, "commit DK-6")[0].endswith("applied at the next new shoe")
    _run(ctx, 3)
    assert ctx.table.settings.decks == 8


def _shoe_reports(machine):
    return [(r["event"], r.get("shoe", ""), r.get("decks", r.get("changes")))
            for r in reports(machine) if r["event"] in ("shoe", "settings_changed") and r.get("shoe") != "burned"
            and r.get("shoe") != "restarted"]


def _new_shoe_under_the_change(ctx, machine):
    assert ctx.config["rules"].decks == 6 and ctx.table.settings.decks == 6
    assert ctx.table.shoe.settings.decks == 6 and ctx.table.state == codes.BURNING
    assert _shoe_reports(machine)[-3:] == [("shoe", "removed", None),
                                           ("settings_changed", "", {"decks": [8, 6]}),
                                           ("shoe", "new", 6)]
    for card in ("2c", "3c", "4c", "5c", "6c", "7c"):            # art. 2(1): as many burned as decks, six
        _feed(ctx, machine, ("CARD", card, "D"))
    assert ctx.table.state == codes.BETTING


def _shoe_burned(ctx, machine):
    """A new shoe of the table's 8 decks in, its 8 cards burned (art. 2(1)): bets open."""
    _feed(ctx, machine, ("IN",))
    for card in ("2c", "3c", "4c", "5c", "6c", "7c", "8c", "9c"):
        _feed(ctx, machine, ("CARD", card, "D"))


def test_a_new_shoe_over_a_closed_one_runs_under_the_pending_change():
    with ScratchDir() as state:
        ctx, machine, _ = boot_with_pin(state, "baccarat")
        _shoe_burned(ctx, machine)
        _commit_decks_6(ctx, machine)
        _feed(ctx, machine, ("CARD", "9h", "D"), ("CARD", "5d", "D"), ("CUT",), ("CARD", "Kc", "D"),
              ("CARD", "2s", "D"))
        assert ctx.table.state == codes.SHOE_CLOSED               # art. 3(1): that round was the last
        _feed(ctx, machine, ("IN",))                              # the next shoe, without an OUT first
        _new_shoe_under_the_change(ctx, machine)


def test_a_shoe_changed_between_rounds_runs_under_the_pending_change():
    with ScratchDir() as state:
        ctx, machine, _ = boot_with_pin(state, "baccarat")
        _feed(ctx, machine, ("IN",), ("CARD", "2c", "D"))          # burning
        _commit_decks_6(ctx, machine)
        _feed(ctx, machine, ("IN",))                               # art. 3(2): the shoe changed
        _new_shoe_under_the_change(ctx, machine)


def test_the_dealers_shoe_change_runs_under_the_pending_change():
    with ScratchDir() as state:
        ctx, machine, _ = boot_with_pin(state, "baccarat")
        _shoe_burned(ctx, machine)
        assert ctx.table.state == codes.BETTING
        _commit_decks_6(ctx, machine)
        ctx.queue.put(BUTTON, ctx.table.shoe_button, BUTTON_LONG)  # the dealer's long SHOE CHANGE
        _run(ctx, 3)
        _new_shoe_under_the_change(ctx, machine)


def test_a_shoe_change_mid_round_is_no_boundary():
    with ScratchDir() as state:
        ctx, machine, _ = boot_with_pin(state, "baccarat")
        _shoe_burned(ctx, machine)
        _feed(ctx, machine, ("CARD", "9h", "D"))                 # a round's first card
        assert ctx.table.state == codes.DEALING
        _commit_decks_6(ctx, machine)
        _feed(ctx, machine, ("IN",))
        assert ctx.config["rules"].decks == 8 and ctx.table.settings.decks == 8
        assert [r for r in reports(machine) if r["event"] == "settings_changed"] == []


def _confirm(ctx):
    ctx.queue.put(BUTTON, ctx.table.confirm_button, BUTTON_PRESSED)
    ctx.queue.put(BUTTON, ctx.table.confirm_button, BUTTON_RELEASED)
    _run(ctx, 3)


def test_a_new_shoe_during_an_alarm_runs_under_the_pending_change_once_the_alarm_is_closed():
    # Regression: a shoe put in while an alarm was open (no boundary: nothing is snapshotted over an alarm)
    # started under the old settings, and the change waited a whole shoe more: 8 decks' composition
    # checked on a 6-deck shoe (art. 1), the change "applied at the next new shoe" not applied there.
    # The dealer's long SHOE CHANGE is the IN it stands for (until stop 70 it was dropped in an alarm).
    for alarm, dealer in ((("FAULT", "7"), False), (("UNREAD",), False), (("FAULT", "7"), True)):
        with ScratchDir() as state:
            ctx, machine, _ = boot_with_pin(state, "baccarat")
            _shoe_burned(ctx, machine)
            _commit_decks_6(ctx, machine)
            _feed(ctx, machine, alarm)                          # between rounds: the table is held
            assert ctx.table.state == FAULTED and ctx.table.resume_state == codes.BETTING
            if dealer:
                ctx.queue.put(BUTTON, ctx.table.shoe_button, BUTTON_LONG)
                _run(ctx, 3)
            else:
                _feed(ctx, machine, ("IN",))                    # art. 3(2): the shoe changed in the alarm
            assert ctx.table.state == FAULTED and ctx.table.resume_state == READY   # the old shoe is out...
            assert ctx.table.settings.decks == 8 and _shoe_reports(machine)[-1] == ("shoe", "removed", None)
            if alarm == ("UNREAD",):
                ctx.queue.put(BUTTON, ctx.table.void_button, BUTTON_PRESSED)  # discarded unseen: a long VOID
                ctx.queue.put(BUTTON, ctx.table.void_button, BUTTON_LONG)
                ctx.queue.put(BUTTON, ctx.table.void_button, BUTTON_RELEASED)
                _run(ctx, 3)
            else:
                _confirm(ctx)                                   # ...the new one waits for the alarm to close
            _new_shoe_under_the_change(ctx, machine)



def test_a_new_shoe_held_in_an_alarm_and_taken_out_again_is_not_started():
    with ScratchDir() as state:
        ctx, machine, _ = boot_with_pin(state, "baccarat")
        _shoe_burned(ctx, machine)
        _commit_decks_6(ctx, machine)
        _feed(ctx, machine, ("FAULT", "7"), ("IN",), ("OUT",))     # the dealer took the new shoe out again
        _confirm(ctx)
        assert ctx.table.state == READY and ctx.table.settings.decks == 6     # applied, no shoe in play
        assert _shoe_reports(machine)[-2:] == [("shoe", "removed", None), ("settings_changed", "", {"decks": [8, 6]})]



def _held_in_an_alarm(state):
    """A change pending, the shoe's sensor fault between rounds, a new shoe's IN: held for the change."""
    ctx, machine, _ = boot_with_pin(state, "baccarat")
    _shoe_burned(ctx, machine)
    _commit_decks_6(ctx, machine)
    _feed(ctx, machine, ("FAULT", "7"), ("IN",))
    assert ctx.console.change.held_shoe is not None
    assert typed(ctx, machine, "settings")[-2:] == ["  decks                8 -> 6",       # the technician asks why
                                                     "  a new shoe waits for it: it starts once the dealer has "
                                                     "closed the alarm"]
    return ctx, machine


def test_a_new_shoe_held_in_an_alarm_is_held_still_after_a_reset():
    # Regression: the held shoe's IN was kept in RAM only (the soak, Baccarat seed 3302, --clean --settings-changes
    # --write-cuts): after a power cut while the alarm held it, the recovered table applied the change at the
    # alarm's CONFIRM with no shoe in play, and the shoe the dealer had put in was lost (its next card an alarm).
    with ScratchDir() as state:
        _held_in_an_alarm(state)
        ctx, machine = _reboot(state)                           # the power cut: the alarm open, the shoe held
        assert ctx.table.state == FAULTED and ctx.table.resume_state == READY
        assert ctx.console.change.held_shoe is not None and ctx.table.settings.decks == 8
        _confirm(ctx)
        assert _shoe_reports(machine)[-2:] == [("settings_changed", "", {"decks": [8, 6]}), ("shoe", "new", 6)]
        assert ctx.table.state == codes.BURNING and ctx.table.shoe.settings.decks == 6
        ctx, machine = _reboot(state)                           # let in and journalled: not held a second time
        assert ctx.console.change.held_shoe is None and ctx.table.resume_state == codes.BURNING   # (reset_in_round)
        assert [r for r in _shoe_reports(machine) if r[1] == "new"] == []


def test_a_shoe_held_for_a_change_that_ran_before_the_reset_goes_to_the_table_after_it():
    # The change applied, its record removed, and the power gone before the held shoe was let in: the next
    # boot lets it in after its recovery (the table's alarm restored: it starts once the dealer closes it).
    import os
    from firmware.saved_state import path
    from firmware.settings_change import HELD_FILE, PENDING_FILE
    with ScratchDir() as state:
        _held_in_an_alarm(state)
        assert HELD_FILE in os.listdir(state)
        os.remove(path(state, PENDING_FILE))                     # as if the change ran and the cut came after
        ctx, machine = _reboot(state)
        assert ctx.console.change.pending is None and ctx.console.change.held_shoe is None
        assert ctx.table.state == FAULTED and ctx.table.resume_state == codes.BURNING     # the shoe taken in
        _confirm(ctx)
        assert ctx.table.state == codes.BURNING and _shoe_reports(machine)[-1] == ("shoe", "new", 8)

