# A committed settings change applied at its boundary (firmware/settings_change.py): the table file
# rewritten, the table controller built anew with the new settings.
#
# A controller takes its settings when it is built, and a snapshot restores only into a table with the
# settings it was taken under (firmware/snapshot.py): so the change builds a new controller with the
# new settings and restores into it the snapshot of the running one, its settings field rewritten and,
# per game, without what the new settings would read differently:
#   Baccarat (no shoe in play): the removed shoe, its roads and its last round go (a new shoe starts
#     them afresh); the bet reading waiting for the next round stays, and so do the stakes a tie left
#     for the next live round (tie_stakes, under the art. 11 option they were left under).
#   Craps (a new shooter's come-out, no bet open that an option decides): everything stays, the bets
#     standing too: their stakes and odds were taken under the old limits, and no option decides a
#     standing bet (the boundary waits while a Field bet, paid per field_12, or a hard way, big number or
#     come odds, decided on a come-out per off_on_come_out, is open); the new options govern every bet
#     placed and every roll from now on.
#   Omaha (between hands): stacks, seats in, the button, the hand count and a keyed entry stay; the
#     last hand (its result would be worked out again under the new rake) is no longer shown.
# The restore checks every field against the new settings: a refusal leaves the running table as it
# was. The table core's clock, evidence ring (the readers' queued events name its handles), outbox and
# link state move across whole.
import json

from firmware import snapshot as S
from firmware.recovery import carried_refusals

# copies of firmware.events (tests/host/test_const_copies.py)
_SHOE = const(12)
_SHOE_OUT = const(4)
_SHOE_LET_IN = const(1)
# copies of firmware.table_codes (tests/host/test_const_copies.py)
_FAULTED = const(2)
_READY = const(1)

# Snapshot field indexes (firmware/games/*/snapshot.py list them in order).
_SETTINGS = 2
_BACCARAT_SHOE, _BACCARAT_BEADS, _BACCARAT_LAST, _BACCARAT_FLAGS, _BACCARAT_BETS = 6, 7, 8, 9, 11
_OMAHA_SHOWN, _OMAHA_LAST = 9, 12


def apply(ctx, console, data, digest, ref):
    """A committed change at its boundary (firmware/settings_change.py): the new controller under data's
    settings, the table file rewritten power-safely (sealed), the audit entry, the swap. "" or why not
    (the running table and its file stay as they were then)."""
    from firmware import settings_seal      # boot-only (firmware/parts.py, BOOT_ONLY): imported when used
    from firmware.errors import RestoreError, SettingsError
    from firmware.settings_change import NEW_SUFFIX, remove, validate, write_json
    settings = data["settings"]
    try:
        rules = validate(ctx.config, settings)
        table, shown = build(ctx, rules)
    except (SettingsError, RestoreError) as exc:
        return "%s" % exc
    table_file = ctx.table_path
    try:
        if table_file:
            write_json(ctx, table_file + NEW_SUFFIX, data)
    except OSError as exc:
        keep(ctx, shown)
        return "table file not written (%s)" % exc
    if console.log_settings("settings_applied", "%s ref %s" % (digest, ref)):
        keep(ctx, shown)
        remove(ctx, table_file + NEW_SUFFIX)
        return "audit log not written"
    journal = ctx.journal
    if journal is not None and not journal.pending and ctx.table.at_boundary():
        # The journal's base is the running table at this boundary, no event after it: a power cut
        # once the new table file is in place finds that snapshot and carries it across as here
        # (firmware/recovery.py, carry_restore), never a log of events under the old settings.
        journal.checkpoint(ctx.table, carried_refusals(ctx.sender))
    try:
        if table_file:
            # The seal takes the new file as well while it replaces the old one: a power cut at any
            # point leaves a table file the next boot accepts (firmware/settings_seal.py).
            settings_seal.add(ctx.state_dir, ctx.fs, settings_seal.read_file(table_file + NEW_SUFFIX))
            _replace(ctx, table_file + NEW_SUFFIX, table_file)
    except OSError as exc:
        keep(ctx, shown)
        return "table file not replaced (%s)" % exc
    if table_file:
        try:
            settings_seal.write(ctx.state_dir, ctx.fs, settings_seal.read_file(table_file))
        except OSError:
            pass                    # the seal takes both files still; the next boot keeps the one in place
    swap(ctx, table, rules, settings)
    if journal is not None and not journal.pending and ctx.table.at_boundary():
        # The table journal's snapshot was taken under the old settings: the new table's state is the
        # journal's base from here on.
        journal.checkpoint(ctx.table, carried_refusals(ctx.sender))
    return ""


def build(ctx, rules):
    """(the new controller at the running one's boundary under `rules`, the lights as they were shown).

    RestoreError if the running state does not fit the new settings (the lights are put back then)."""
    from firmware.settings_change import setting_names
    old = ctx.table
    game = ctx.config["game"]
    fields = json.loads(old.snapshot().decode())
    fields[_SETTINGS] = S.settings_values(rules, setting_names(game))
    _carry(game, fields)
    shown = list(old.lights.colours)
    try:
        table = _controller(ctx, old, rules)
        table.restore(S.encode(fields))
    except Exception:
        keep(ctx, shown)
        raise
    return table, shown


def carry_restore(ctx, data):
    """At boot, a journal snapshot taken under other settings than the table file's (a power cut during a
    change, after the new table file was in place): restored as the change restores it (build(), _carry),
    when it was taken at the change's boundary with no event after it. True if ctx.table has it now."""
    from firmware.settings_change import FIXED, boundary, setting_names, validate
    from firmware.errors import RestoreError, SettingsError
    table = ctx.table
    game = ctx.config["game"]
    names = setting_names(game)
    try:
        fields = json.loads(bytes(data).decode())
        stored = fields[_SETTINGS]
        if len(stored) != len(names):
            return False
        before = dict((names[i], stored[i]) for i in range(len(names)))
        for name in FIXED:
            if name in before and json.dumps(before[name]) != json.dumps(getattr(ctx.config["rules"], name, None)):
                return False                     # the table's size changed: nothing carries
        rules = validate(ctx.config, before)
    except (ValueError, UnicodeError, TypeError, KeyError, IndexError, SettingsError):
        return False
    shown = list(table.lights.colours)
    try:
        old = _controller(ctx, table, rules)     # the table as it stood under the settings it was taken at
        old.restore(data)
        at = boundary(old, game)
    except RestoreError:
        return False
    finally:
        keep(ctx, shown)
    if not at:
        return False
    fields[_SETTINGS] = S.settings_values(ctx.config["rules"], names)
    _carry(game, fields)
    try:
        table.restore(S.encode(fields))
    except RestoreError:
        return False
    return True


def new_shoe_first(ctx, kind, a, b, dispatch):
    """A new Baccarat shoe (the shoe's IN, the dealer's long SHOE CHANGE) while a change is pending and the
    shoe in play is between rounds or closed (art. 3(2): a shoe change after any round): the shoe in play
    goes out first (its OUT, through `dispatch`), so the change applies at that boundary and the new shoe
    runs under it, as "applied at the next new shoe" says. With an alarm open (no boundary: nothing is
    snapshotted over an alarm) the new shoe's IN is held until the dealer has closed the alarm and the
    change has applied (SettingsChange.step puts it on the queue then); an OUT meanwhile drops it.
    The new shoe is held (on flash: settings_change.hold_shoe) before anything acts on it, the shoe in play's
    OUT and the change among them, and comes back through the queue as an IN once the change has run: a
    power cut on the way loses no shoe the dealer put in (the next boot takes it again,
    settings_change._let_held_in). True: not dispatched now. False: dispatch the event."""
    table = ctx.table
    change = ctx.console.change
    if ctx.config["game"] != "baccarat" or table.shoe is None and table.state != _FAULTED:
        return False                              # no shoe in play (READY): the change applied already
    if kind == _SHOE and a == _SHOE_OUT:
        if change.held_shoe is not None and b != _SHOE_LET_IN:
            from firmware.settings_change import hold_shoe
            hold_shoe(ctx, None)                  # the held shoe was taken out again (by the dealer)
        return False
    new = table.is_new_shoe(kind, a, b)              # (the dealer's SHOE CHANGE: the IN it stands for)
    if table.state == _FAULTED:
        if not new or table.closed_code or table.in_round():
            return False
        from firmware.settings_change import hold_shoe
        hold_shoe(ctx, True)                      # on flash too: a reset while the alarm holds it keeps it
        if table.resume_state != _READY:
            dispatch(ctx, _SHOE, _SHOE_OUT, _SHOE_LET_IN)   # the shoe in play goes out (where the alarm holds it)
        return True
    if table.state == _READY:
        return False
    if not new or not table.at_boundary():
        return False
    # The new shoe on flash first (the dealer's SHOE CHANGE as the IN it stands for: its long press makes no
    # report of its own), the shoe in play out, the change run (step), which lets the new shoe go: on the
    # queue, started by this pass under the new settings.
    from firmware.settings_change import hold_shoe, step
    hold_shoe(ctx, True)
    dispatch(ctx, _SHOE, _SHOE_OUT, _SHOE_LET_IN)
    step(ctx.console.wake())                      # (awake anyway while a change is pending: parts.ConsoleState)
    return True


def _controller(ctx, old, rules):
    board = ctx.board
    buttons = dict((role, board.button_index(role)) for role, _ in board.buttons)
    if ctx.config["game"] == "omaha":
        return type(old)(old.lights, buttons, rules, board.keypad_keys)
    return type(old)(old.lights, buttons, rules, old.reading, old.seats)


def _carry(game, fields):
    if game == "baccarat":
        flags = fields[_BACCARAT_FLAGS]
        fields[_BACCARAT_SHOE] = None
        fields[_BACCARAT_BEADS] = ""
        fields[_BACCARAT_LAST] = None
        fields[_BACCARAT_FLAGS] = [flags[0], False, False, False, False]
        fields[_BACCARAT_BETS] = []
    elif game == "omaha":
        fields[_OMAHA_SHOWN] = [False, "", False, ""]
        fields[_OMAHA_LAST] = None


def keep(ctx, shown):
    """The running controller stays: its lights as they were before a new one was built beside it."""
    lights = ctx.table.lights
    for i in range(len(shown)):
        lights.set(i, shown[i])


def swap(ctx, table, rules, settings):
    """The new controller takes over: the core's share moves across, and everything that reads the
    table reads this one from the next event on."""
    old = ctx.table
    table.uptime_s = old.uptime_s
    table.uptime_part_ms = old.uptime_part_ms
    table.evidence = old.evidence
    table.outbox = old.outbox            # empty at a boundary between passes; its counts go on
    table.link_backlog = old.link_backlog
    # A host request refused this pass (read before the console's step ran the change): its HOST event is
    # dispatched to this table, whose report takes the reason from it (it said "" before).
    table.set_host_reason(old.host_reason, old.host_reason_tag)
    table.display_dirty = True
    if hasattr(table, "scoreboard_dirty"):
        table.scoreboard_dirty = True
    if hasattr(old, "deal_pressed_at"):
        # Craps: the shooter for whom NEW SHOOTER is held (no snapshot field: a button is let go at a power
        # cut). The change runs at the seven-out a held press came through; without it the long press
        # then stopped the new shooter, who had not thrown (art. 4(1)).
        table.deal_pressed_at = old.deal_pressed_at
    ctx.table = table
    ctx.game.table = table
    if ctx.game.host_request is not None:
        ctx.game.host_request = table.host_request
    ctx.config["settings"] = settings
    ctx.config["rules"] = rules


def _replace(ctx, new, name):
    """Rename new over name: one step where rename replaces (littlefs, POSIX); else remove, then rename
    (a cut between the two leaves only the new file: table_config.read finishes the rename at boot)."""
    fs = ctx.fs
    try:
        fs.rename(new, name)
        return
    except OSError:
        pass
    fs.remove(name)
    fs.rename(new, name)
