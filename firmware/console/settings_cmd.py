# set, commit, discard: the technician changes the table's regulated settings (docs/console.md,
# "Changing the settings"; Baccarat art. 18: an option changes only with the regulator's approval).
#
# `set KEY VALUE` stages one value, checked at once as table.json is at boot; `commit REF` writes the
# staged change with the approval reference REF: an audit entry per setting (old -> new, REF), then the
# pending change on flash, applied by firmware/settings_change.py at the game's next safe boundary.
# All three need a technician login (the shell checks before they run).
from firmware.errors import SettingsError
from firmware.settings_change import check_ref, show, stage, staged_changes, write_pending

# copies of firmware.events (tests/host/test_const_copies.py)
_CON_REFUSED = const(7)
_CON_USAGE = const(5)


def set_(con, args):
    if len(args) != 2:
        return _usage(con, "set")
    change = con.change
    if change.pending is not None:
        return con.error(_CON_REFUSED, "a committed change (ref %s) waits for the next %s: set refused until it "
                                      "is applied" % (change.ref, boundary_word(con)))
    try:
        key, old, new = stage(con, args[0], args[1])
    except SettingsError as exc:
        text = "%s" % exc
        if text.startswith("table settings: "):
            text = text[len("table settings: "):]
        return con.error(_CON_REFUSED, text)
    if show(old) == show(new):
        return ["%s is %s already: nothing staged for it" % (key, show(new))]
    return ["staged %s %s -> %s (commit REF to apply at the next %s)" % (key, show(old), show(new),
                                                                         boundary_word(con))]


def commit(con, args):
    if len(args) != 1:
        return _usage(con, "commit")
    change = con.change
    why = check_ref(args[0])
    if why is not None:
        return con.error(_CON_USAGE, "usage: commit REF (%s)" % why)
    changes = staged_changes(con)
    if change.pending is not None or not changes:
        change.discard()
        return con.error(_CON_REFUSED, "nothing staged to commit (set KEY VALUE first)")
    failed = con.record()
    if failed:
        return failed
    for key, old, new in changes:
        failed = con.log_settings("settings", "%s %s -> %s ref %s" % (key, show(old), show(new), args[0]))
        if failed:
            return failed
    try:
        write_pending(con, args[0])
    except OSError as exc:
        return con.error(_CON_REFUSED, "pending change not written (%s): nothing committed" % exc)
    return ["committed (ref %s): %s; applied at the next %s" % (
        args[0], ", ".join("%s %s" % (key, show(new)) for key, _, new in changes), boundary_word(con))]


def discard(con, args):
    if args:
        return _usage(con, "discard")
    if not con.change.discard():
        return ["nothing staged"]
    return ["staged values discarded"]


def _usage(con, name):
    from firmware.console.commands import TABLE
    return con.usage_error(TABLE[name])


def boundary_word(con):
    game = con.ctx.config["game"]
    return "new shoe" if game == "baccarat" else "new shooter" if game == "craps" else "hand"


def lines(con):
    """The `settings` command's lines about changes: pending (committed) and staged."""
    change = con.change
    out = []
    if change.pending is not None:
        out.append("pending (ref %s), applied at the next %s:" % (change.ref, boundary_word(con)))
        for key, old, new in change.changes:
            out.append("  %-20s %s -> %s" % (key, show(old), show(new)))
        if change.refused:
            out.append("  not applied at the last boundary: %s" % change.refused)
        if change.held_shoe is not None:
            out.append("  a new shoe waits for it: it starts once the dealer has closed the alarm")
    staged = staged_changes(con) if change.pending is None else []
    if staged:
        out.append("staged (commit REF to apply):")
        for key, old, new in staged:
            out.append("  %-20s %s -> %s" % (key, show(old), show(new)))
    return out
