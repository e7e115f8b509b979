# A snapshot read back (firmware/snapshot.py says the format and writes it at every boundary): checked
# field by field, the game refusing it whole (RestoreError) before it changes anything. Boot-only
# (parts.BOOT_ONLY), with each game's restore module (firmware/games/GAME/restore.py): a recovery at the
# end of the lamp test and a settings change applied import them, and release them when done.
import json

from firmware.errors import RestoreError
from firmware.snapshot import settings_values

# copies of firmware.snapshot (tests/host/test_const_copies.py)
_FORMAT = const(1)
# copies of firmware.table_codes (tests/host/test_const_copies.py)
_READY = const(1)
_STARTING = const(0)

_TAKE = object()          # a Fields method's value not given: the next field is taken


def decode(data, game, settings, names):
    """bytes -> Fields after the game's name, the format and the settings, all checked."""
    if not isinstance(data, (bytes, bytearray)):
        raise RestoreError("a %s snapshot is bytes, got %s" % (game, type(data).__name__))
    try:
        fields = json.loads(bytes(data).decode())
    except (ValueError, UnicodeError) as exc:
        raise RestoreError("%s snapshot refused: not JSON text (%s)" % (game, exc))
    if not isinstance(fields, list) or len(fields) < 3:
        raise RestoreError("%s snapshot refused: expected a JSON array of fields" % game)
    if fields[0] != game:
        raise RestoreError("snapshot refused: it is of %r, this table plays %s" % (fields[0], game))
    if fields[1] != _FORMAT:
        raise RestoreError("%s snapshot refused: format %r, this firmware reads %d" % (game, fields[1], _FORMAT))
    stored = fields[2]
    current = settings_values(settings, names)
    if not isinstance(stored, list) or len(stored) != len(current):
        raise RestoreError("%s snapshot refused: its settings are not %d values" % (game, len(current)))
    for i in range(len(names)):
        if json.dumps(stored[i]) != json.dumps(current[i]):
            raise RestoreError("%s snapshot refused: taken at a table with %s = %s, this table has %s"
                               % (game, names[i], json.dumps(stored[i]), json.dumps(current[i])))
    return Fields(game, fields, 3)


def check_fresh(table, started):
    """A snapshot goes into a controller just built (booting, or ready after its lamp test)."""
    if started or table.fault_code or (table.state != _STARTING and table.state != _READY):
        raise RestoreError("restore() takes a freshly constructed controller: this one is in %s%s"
                           % (table.state_name(), " with a game started" if started else ""))


def restore_core(table, core, state):
    """Commit the core's share and the state (no entry action, no report); the displays redraw."""
    table.last_kind, table.last_a, table.last_b = core
    table.state = state
    table.display_dirty = True


class Fields:
    """The snapshot's fields in order, each checked as it is taken; RestoreError names what failed."""

    def __init__(self, game, fields, start):
        self.game = game
        self.fields = fields
        self.i = start
        self.name = ""

    def fail(self, expected, value=None):
        raise RestoreError("%s snapshot refused: field %s must be %s, got %s"
                           % (self.game, self.name, expected, json.dumps(value)))

    def take(self, name):
        self.name = name
        if self.i >= len(self.fields):
            self.fail("present (the snapshot ends early)")
        value = self.fields[self.i]
        self.i += 1
        return value

    def _get(self, name, value):
        if value is _TAKE:
            return self.take(name)
        self.name = name
        return value

    def more(self):
        """True if a field is left (a field added at the end is absent in an older firmware's snapshot)."""
        return self.i < len(self.fields)

    def end(self):
        if self.i != len(self.fields):
            self.name = "count"
            self.fail("%d fields" % self.i, len(self.fields))

    def int(self, name, low, high, value=_TAKE):
        value = self._get(name, value)
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            self.fail("a whole number %d..%d" % (low, high), value)
        return value

    def flag(self, name, value=_TAKE):
        value = self._get(name, value)
        if value is not True and value is not False:
            self.fail("true or false", value)
        return value

    def text(self, name, longest, value=_TAKE):
        value = self._get(name, value)
        if not isinstance(value, str) or len(value) > longest:
            self.fail("text of at most %d characters" % longest, value)
        return value

    def array(self, name, shortest, longest, value=_TAKE, nullable=False):
        """A JSON array (None when nullable and null)."""
        value = self._get(name, value)
        if value is None and nullable:
            return None
        if not isinstance(value, list) or not shortest <= len(value) <= longest:
            self.fail("an array of %d..%d items" % (shortest, longest), value)
        return value

    def ints(self, name, count, low, high, value=_TAKE):
        """An array of exactly count whole numbers low..high."""
        value = self.array(name, count, count, value)
        for v in value:
            self.int(name, low, high, v)
        return value

    def hex_bytes(self, name, longest, value=_TAKE):
        """Bytes written as hex digits (cards, counts)."""
        value = self.text(name, 2 * longest, value)
        try:
            return bytes.fromhex(value)
        except ValueError:
            self.fail("hex digits, two per byte", value)
