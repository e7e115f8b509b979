# Regulated settings changed from the console: staged, committed with an approval reference, applied
# at the game's next safe boundary (docs/console.md, "Changing the settings"; Baccarat art. 18).
#
# `set KEY VALUE` stages a value, checked at once with the validators table.json goes through at boot
# (firmware/table_config.py). `commit REF` writes the staged change, with the regulator's approval
# reference, to settings.pending in the state dir (the board's flash): a change committed before a
# reset is still pending after it. While one is, each pass the console asks step(): once the table stands at its
# game's boundary (boundary() below: Baccarat no shoe in play -- a new shoe over one in play takes that
# one out first, settings_swap.new_shoe_first --, Craps a new shooter's come-out, Omaha
# between hands) the new settings are written to the table file, power-safely, and the controller is
# built anew with them (both in firmware/settings_swap.py), carrying what lasts across the boundary. The host
# hears settings_pending when a change is committed and settings_changed once it runs.
import json
import os

from firmware.errors import SettingsError
from firmware.host_port import settings_digest
from firmware.jsonfile import NUMBER_RULE, number
from firmware.saved_state import missing, path as state_path

# copies of firmware.events (tests/host/test_const_copies.py)
_SHOE = const(12)
_SHOE_IN = const(3)
_SHOE_LET_IN = const(1)
# copies of firmware.games.craps.codes (tests/host/test_const_copies.py)
_POINT = const(5)
# copies of firmware.table_codes (tests/host/test_const_copies.py)
_STARTING = const(0)
_READY = const(1)
_FAULTED = const(2)
_GAME_FIRST_STATE = const(4)

PENDING_FILE = "settings.pending"     # {"ref": REF, "settings": {...}, "changes": [[KEY, OLD, NEW], ...]}: committed
NEW_SUFFIX = ".new"                   # the table file or the pending change being written (renamed once complete)
# There from a new Baccarat shoe's arrival while a change is pending (settings_swap.new_shoe_first: held for an
# alarm, or taking the shoe in play out) until the table journal has its IN: the input on flash, as the table
# journal keeps every other, so a reset does not lose the shoe the dealer put in.
HELD_FILE = "settings.held"
# ChangeState.letting_in: a held shoe let go, its IN not yet on the queue; on the queue (its file goes next pass)
_LET_GO = const(1)
_QUEUED = const(2)
_REF_MAX = const(24)                   # an approval reference: one word, letters, digits and - _ . /
_REF_CHARS = "-_./"
_NUMBER_START = "+-.0123456789"        # a value typed starting so is meant as a number
# Settings the console never changes: the number of seats sizes the bet reader's and the stacks'
# arrays (a new table.json and a reset).
FIXED = ("seats",)
# Settings given with a decimal point (Omaha art. 16: the rake, 3 to 5 in tenths of a percent, 3.5): a
# decimal typed for them is a number, checked by the table file's validators; any other takes whole numbers.
DECIMAL = ("rake_percent",)
_SETTINGS_MODULES = {"baccarat": "firmware.games.baccarat.settings", "craps": "firmware.games.craps.settings",
                     "omaha": "firmware.games.omaha.settings"}


def setting_names(game):
    return __import__(_SETTINGS_MODULES[game], None, None, ["SETTING_NAMES"]).SETTING_NAMES


def show(value):
    """A setting's value as typed at the console: true/false, digits, words, lists comma-separated."""
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(show(v) for v in value) if value else "none"
    return "%s" % (value,)


def _word(key, text):
    """A number where text writes one (jsonfile.NUMBER_RULE, as table.json holds it), else the word; text
    that starts as a number and is none (08, +8, -0, 3.5) is refused, naming the rule."""
    value = number(text)
    if value is not None:
        return value
    if text[:1] in _NUMBER_START:
        raise SettingsError("setting %s: %r is no whole number: %s" % (key, text, NUMBER_RULE))
    return text


def parse_value(key, text, current):
    """What VALUE typed at the console means for a setting whose value is `current` (None: not in the file)."""
    if current is True or current is False or (current is None and text in ("true", "false")):
        if text not in ("true", "false"):
            raise SettingsError("setting %s takes true or false, got %r" % (key, text))
        return text == "true"
    if isinstance(current, list) or (current is None and "," in text):
        if text == "none":
            return []
        return [_word(key, item) for item in text.split(",")]
    if key in DECIMAL:
        value = number(text, True)                               # 5.0 is 5, as the table file has it
        if value is None:
            raise SettingsError("setting %s takes a number such as 5 or 3.5, got %r" % (key, text))
        return value
    if isinstance(current, int) or current is None:
        value = _word(key, text)
        if current is not None and not isinstance(value, int):
            raise SettingsError("setting %s takes a whole number, got %r" % (key, text))
        return value
    return text


def check_ref(ref):
    """None, or why REF is no approval reference."""
    if not 1 <= len(ref) <= _REF_MAX:
        return "an approval reference is 1 to %d characters" % _REF_MAX
    for ch in ref:
        if not (ch.isalpha() or ch.isdigit() or ch in _REF_CHARS):
            return "an approval reference is letters, digits and - _ . / only"
    return None


def boundary(table, game):
    """True where new settings may take effect: Baccarat art. 18 options at a new shoe (no shoe in
    play), Craps at a new shooter's come-out (no point, no valid roll of this shooter yet, art. 4, and no
    bet open that an option decides: CrapsTable.option_bet_open), Omaha between hands; never over an
    alarm (table.at_boundary() holds none)."""
    if not table.at_boundary():
        return False
    if game == "baccarat":
        from firmware.games.baccarat import shoe as shoe_mod
        return table.state == _READY and (table.shoe is None or table.shoe.state == shoe_mod.CLOSED)
    if game == "craps":
        return table.state != _POINT and table.shooter_rolls == 0 and not table.engine.option_bet_open()
    return True


# The change's state lives in the table's ChangeState (firmware/parts.py: console.change), which the table keeps
# between commands and passes; this module works on it and is imported only when needed (parts.CHANGE_ON_DEMAND):
# a settings command, the first pass (step: a change committed before the reset read back), and, while a change
# is pending, each pass's boundary check; released with the boot-only modules once none is pending.

# -- staging and committing (the console's commands) ----------------------------------------------------
def running(ctx):
    return ctx.config["settings"]


def effective(ctx):
    """The running settings: the file's values, and the defaults the table runs for the house limits it
    leaves out (Craps' maximum, max_open_bets): a change's old value, in the audit log and the reports."""
    out = dict(ctx.config["rules"].as_pairs())
    out.update(running(ctx))
    return out


def proposed(con):
    """The settings the staged values would give (the running ones, or the pending ones)."""
    change = con.change
    base = change.pending if change.pending is not None else running(con.ctx)
    out = dict(base)
    for key in change.staged:
        out[key] = change.staged[key]
    return out


def stage(con, key, text):
    """Check and stage one value; (key, old, new) or SettingsError (nothing staged then)."""
    ctx = con.ctx
    config = ctx.config
    game = config["game"]
    names = setting_names(game)
    if key not in names:
        raise SettingsError("no setting %r at %s %s table (settings: %s)"
                            % (key, "an" if game[0] in "aeiou" else "a", game, ", ".join(names)))
    if key in FIXED:
        raise SettingsError("setting %s is not changed at the console: it sizes the table (table.json, "
                            "then reset)" % key)
    values = proposed(con)
    value = parse_value(key, text, values.get(key))
    values[key] = value
    validate(config, values)
    old = effective(ctx).get(key)
    staged = con.change.staged
    if _differs(old, value):
        staged[key] = value
    elif key in staged:
        del staged[key]                          # back to the running value: nothing staged for it
    return key, old, value


def staged_changes(con):
    """[(key, running value, staged value)] for the staged values that differ from the running ones."""
    now = effective(con.ctx)
    values = proposed(con)
    return [(key, now.get(key), values[key]) for key in setting_names(con.ctx.config["game"])
            if key in values and _differs(now.get(key), values[key])]


def write_pending(con, ref):
    """Commit the staged values with REF: settings.pending on flash (OSError if it cannot be)."""
    ctx = con.ctx
    settings = proposed(con)
    changes = staged_changes(con)
    # Written whole and read back beside it, then renamed into place (no pending file is there: a commit
    # is refused while one is): a write cut short or failed leaves no settings.pending for the next boot
    # to find damaged and report dropped (settings_dropped) when nothing was committed.
    name = state_path(ctx.state_dir, PENDING_FILE)
    try:
        write_json(ctx, name + NEW_SUFFIX,
                   {"ref": ref, "settings": settings, "changes": [[key, old, new] for key, old, new in changes]})
        ctx.fs.rename(name + NEW_SUFFIX, name)
    except OSError:
        remove(ctx, name + NEW_SUFFIX)
        raise
    change = con.change
    change.pending = settings
    change.ref = ref
    change.changes = changes
    change.staged = {}
    change.announce = True
    change.refused = ""
    change.waiting = False
    return changes


def hold_shoe(ctx, held):
    """Hold a new shoe (True) until the change has applied, or forget it (None: taken out again, or the table
    has it); HELD_FILE says so on flash. Let go, it comes back as the table's own IN (_let_held_in)."""
    change = ctx.console.change
    change.held_shoe = held
    change.letting_in = 0
    name = state_path(ctx.state_dir, HELD_FILE)
    if held is None:
        remove(ctx, name)
        return
    try:
        write_json(ctx, name, "shoe_in")
    except OSError:
        remove(ctx, name)       # held in RAM only: a reset loses it, as any input the flash did not take


def _held_on_flash(ctx):
    name = state_path(ctx.state_dir, HELD_FILE)
    if missing(name, ctx.fs):
        return False
    if ctx.config["game"] != "baccarat":
        remove(ctx, name)           # (the board given another game's table file since: no shoe of its own)
        return False
    return True


def _let_held_in(ctx, change):
    """A held shoe let go (its change ran, or was refused), or found on flash at boot: its IN goes on the queue
    once the boot's recovery is done, and its file (HELD_FILE) stays until the table has it, the IN dispatched
    and in the table journal (the pass after it was queued). A power cut between the two leaves the file: the
    next boot finds the shoe in the table it recovered and lets in no second IN; a cut before the IN's record
    finds none, and lets it in. Each pass until then (step(): Console.poll calls it while letting_in)."""
    journal = ctx.journal
    table = ctx.table
    state = table.resume_state if table.state == _FAULTED else table.state    # (an alarm's: where it holds)
    if journal is not None and journal.pending or state == _STARTING:
        return                      # the lamp test and the recovery first: the recovery may bring the shoe back
    if change.letting_in == _QUEUED or change.pending is None and state >= _GAME_FIRST_STATE:
        # The table has it (the pass after it was queued), or had it before the reset: with no change left
        # pending, a shoe in play is that shoe (the change ran with none in play: its OUT came first).
        hold_shoe(ctx, None)
        return
    # On the queue: with the change still pending (a reset while it was held, or before its OUT was in the
    # journal), settings_swap.new_shoe_first takes it as it took it then (the shoe in play out, held again).
    ctx.queue.put(_SHOE, _SHOE_IN, _SHOE_LET_IN)    # (b: the table's own, no input a cut should give again)
    change.letting_in = _QUEUED


# -- every pass (while one is pending; the first pass) --------------------------------------------------
def step(console):
    """Announce a committed change; apply a pending one at the boundary. Called at the start of a pass,
    before its events are dispatched: every report of the last pass is out, so these follow them."""
    change = console.change
    if not change.loaded:
        change.loaded = True
        _load(console)
        from firmware.parts import release_boot_only
        release_boot_only(change.pending is not None)   # validate() imported table_config; this module too
    if change.letting_in:
        _let_held_in(console.ctx, change)
        if not change.letting_in and change.pending is None:
            from firmware.parts import release_boot_only
            release_boot_only(False)           # its file gone: this module leaves the heap again
    if change.pending is None:
        return
    if change.announce:
        change.announce = False
        _report(console, "settings_pending", {})
    ctx = console.ctx
    if not boundary(ctx.table, ctx.config["game"]):
        change.waiting = False
        return
    problem = ""
    if not change.waiting:
        problem = _apply(console)
        from firmware.parts import release_boot_only
        release_boot_only(change.pending is not None)   # settings_swap, settings_seal, table_config, this module
    if change.held_shoe is not None:   # applied or refused: the new shoe runs now, under the settings in force
        change.held_shoe = None
        change.letting_in = _LET_GO
        _let_held_in(ctx, change)      # on the queue; its file removed once the table journal has it
    if problem:
        change.refused = problem
        change.waiting = True
        _report(console, "settings_refused", {"error": problem})
        console.say(["settings change not applied at this boundary: %s" % problem])


def _report(con, event, fields):
    change = con.change
    ctx = con.ctx
    fields["settings"] = settings_digest(_file(ctx, change.pending))
    fields["ref"] = change.ref
    fields["changes"] = dict((key, [old, new]) for key, old, new in change.changes)
    ctx.reporter.emit(event, fields)


def _file(ctx, settings):
    config = ctx.config
    return {"table_id": config["table_id"], "game": config["game"], "settings": settings}


def _load(console):
    """A change committed before the reset is pending again (or already in the table file: done)."""
    ctx = console.ctx
    change = console.change
    if ctx.table_path:
        remove(ctx, ctx.table_path + NEW_SUFFIX)    # a write a reset cut short (the table file booted)
    name = state_path(ctx.state_dir, PENDING_FILE)
    remove(ctx, name + NEW_SUFFIX)                  # a commit a reset cut short: nothing was committed
    # A new shoe on flash (HELD_FILE): taken again after the recovery as it came (held again for a change still
    # pending, or let in: _let_held_in), whatever the record below says.
    change.letting_in = _LET_GO if _held_on_flash(ctx) else 0
    try:
        with _open(ctx, name, "rb") as f:
            data = json.loads(f.read().decode())
        ref = data["ref"]
        settings = data["settings"]
        if not isinstance(settings, dict) or check_ref(ref) is not None:
            raise ValueError("not a pending change")
        validate(ctx.config, settings)
    except OSError:
        return                                       # none (its record gone after it ran)
    except (ValueError, KeyError, TypeError, UnicodeError, SettingsError) as exc:
        problem = "pending settings change unreadable (%s): dropped" % exc
        console.problems.append(problem)
        remove(ctx, name)
        # The host may have had its settings_pending: it hears that the change is gone, not silence
        # (docs/protocol.md, settings_dropped); the table runs on under the settings it booted with.
        ctx.reporter.emit("settings_dropped", {"error": problem})
        return
    now = effective(ctx)
    changes = [(key, now.get(key), settings[key]) for key in setting_names(ctx.config["game"])
               if key in settings and _differs(now.get(key), settings[key])]
    if not changes:
        # The reset came after the table file was written, before the host had settings_changed on
        # flash: the change ran (its settings_applied entry is in the audit log), so it hears it now.
        change.pending, change.ref, change.changes = settings, ref, _recorded_changes(data)
        _report(console, "settings_changed", {})
        ctx.reporter.durable()
        change.pending, change.ref, change.changes = None, "", []
        remove(ctx, name)
        return
    change.pending = settings
    change.ref = ref
    change.changes = changes
    change.announce = True


def _apply(console):
    """At the boundary: the new controller, the table file, the audit entry, the swap. "" or why not."""
    from firmware.settings_swap import apply
    ctx = console.ctx
    change = console.change
    data = _file(ctx, change.pending)
    digest = settings_digest(data)
    problem = apply(ctx, console, data, digest, change.ref)
    if problem:
        return problem
    _report(console, "settings_changed", {})
    ctx.reporter.durable()
    # The record goes last: a power cut before this finds it with the table file already changed,
    # and the boot reports settings_changed then (_load), so the host hears of the change.
    remove(ctx, state_path(ctx.state_dir, PENDING_FILE))
    console.say(["settings changed (%s, ref %s)" % (digest, change.ref)])
    change.pending = None
    change.ref = ""
    change.changes = []
    change.refused = ""
    return ""


def _recorded_changes(data):
    """The [(key, old, new)] a pending record kept (a record written before it kept them: none)."""
    out = []
    changes = data.get("changes")
    if isinstance(changes, list):
        for change in changes:
            if isinstance(change, list) and len(change) == 3 and isinstance(change[0], str):
                out.append((change[0], change[1], change[2]))
    return out


def validate(config, settings):
    """The game's rules object for these settings, checked as table.json is at boot (SettingsError)."""
    data = {"table_id": config["table_id"], "game": config["game"], "settings": dict(settings)}
    from firmware import table_config     # boot-only (firmware/parts.py, BOOT_ONLY): imported when used
    return table_config.validate(data)["rules"]


def _differs(a, b):
    return json.dumps(a) != json.dumps(b)


def _open(ctx, name, mode):
    # The state dir's files through ctx.fs where it opens them (the simulator's flash, cut at any write).
    fs = ctx.fs
    if fs is not os and hasattr(fs, "open"):
        return fs.open(name, mode)
    return open(name, mode)


def write_json(ctx, name, value):
    """Write the file whole, then read it back: a torn write is found here, never renamed into place."""
    text = json.dumps(value).encode()
    with _open(ctx, name, "wb") as f:
        f.write(text)
    with _open(ctx, name, "rb") as f:
        if f.read() != text:
            raise OSError("%s read back differs" % name)


def remove(ctx, name):
    try:
        ctx.fs.remove(name)
    except OSError:
        pass
