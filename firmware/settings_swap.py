# The table controller built anew with changed settings, at a boundary (firmware/settings_change.py).
#
# A controller takes its settings when it is built, and a snapshot restores only into a table with the
# settings it was taken under (firmware/snapshot.py): so the change builds a new controller with the
# new settings and restores into it the snapshot of the running one, its settings field rewritten and,
# per game, without what the new settings would read differently:
#   Baccarat (no shoe in play): the removed shoe, its roads and its last round go (a new shoe starts
#     them afresh); the bet reading waiting for the next round stays.
#   Craps (a new shooter's come-out, no Field bet open): everything stays, the bets standing too: their
#     stakes and odds were taken under the old limits, and no standing bet's payout is an option (the
#     boundary waits while a Field bet, paid per field_12, is open); the new options govern every bet
#     placed and every roll from now on.
#   Omaha (between hands): stacks, seats in, the button, the hand count and a keyed entry stay; the
#     last hand (its result would be worked out again under the new rake) is no longer shown.
# The restore checks every field against the new settings: a refusal leaves the running table as it
# was. The table core's clock, evidence ring (the readers' queued events name its handles), outbox and
# link state move across whole.
import json

from firmware import snapshot as S

# Snapshot field indexes (firmware/games/*/snapshot.py list them in order).
_SETTINGS = 2
_BACCARAT_SHOE, _BACCARAT_BEADS, _BACCARAT_LAST, _BACCARAT_FLAGS, _BACCARAT_BETS = 6, 7, 8, 9, 11
_OMAHA_SHOWN, _OMAHA_LAST = 9, 12


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
    board = ctx.board
    buttons = dict((role, board.button_index(role)) for role, _ in board.buttons)
    try:
        if game == "omaha":
            table = type(old)(old.lights, buttons, rules, board.keypad_keys)
        else:
            table = type(old)(old.lights, buttons, rules, old.reading, old.seats)
        table.restore(S.encode(fields))
    except Exception:
        keep(ctx, shown)
        raise
    return table, shown


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
    table.display_dirty = True
    if hasattr(table, "scoreboard_dirty"):
        table.scoreboard_dirty = True
    ctx.table = table
    ctx.game.table = table
    if ctx.game.host_request is not None:
        ctx.game.host_request = table.host_request
    ctx.config["settings"] = settings
    ctx.config["rules"] = rules
