# Snapshots of a table controller at a boundary: the format every game shares (docs/journal.md,
# "What the table keeps").
#
# A snapshot is compact JSON (bytes, UTF-8): one array of positional fields, first the game's name
# and FORMAT, then the table's settings as values (a snapshot restores only into a table with the
# same settings). An array, not an object: no key order to differ between the runtimes, and the
# bytes are the same on both. Each game's snapshot module says what the other fields are. Reading
# one back (firmware/snapshot_restore.py, boot-only) goes through Fields, which names the field and
# what it expected when a value does not fit: the game then refuses the snapshot whole (RestoreError)
# before it changes anything.
import json


# copies of firmware.table_codes (tests/host/test_const_copies.py)
_FAULTED = const(2)

FORMAT = 1


def encode(fields):
    return json.dumps(fields, separators=(",", ":")).encode()


def settings_values(settings, names):
    """The settings as JSON values in names' order (a tuple becomes a list, as it comes back)."""
    return json.loads(json.dumps([getattr(settings, name) for name in names]))


def outside_fault(table):
    """No snapshot while an alarm is open (the core keeps the unacknowledged fault: saved_state.py)."""
    return table.state != _FAULTED and not table.fault_code


def core_fields(table):
    """The table core's share: the last input the displays show."""
    return [table.last_kind, table.last_a, table.last_b]
