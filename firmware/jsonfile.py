# Settings files (board.json, table.json) from flash: bytes -> parsed JSON, every failure a SettingsError.
#
# The file is read as bytes and decoded here, so a byte that is not UTF-8 is a
# clear refusal rather than a UnicodeError from read(). Nesting too deep for the
# parser (CPython: RecursionError, a RuntimeError; MicroPython: RuntimeError
# "maximum recursion depth exceeded") or too big for the heap is refused too.
import json

from firmware.errors import SettingsError


def read(path, missing):
    """The bytes of the file at path; SettingsError "<missing> <path> not found" if it cannot be read."""
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        raise SettingsError("%s %s not found" % (missing, path))
    except MemoryError:
        raise SettingsError("%s %s is too large to load" % (missing, path))


def parse(raw, where):
    """bytes (or str) -> the parsed JSON value; SettingsError "<where>: ..." if it is not one."""
    if not isinstance(raw, str):
        try:
            raw = raw.decode("utf-8")
        except UnicodeError:
            raise SettingsError("%s: not valid UTF-8 (save the file as UTF-8)" % where)
    try:
        return json.loads(raw)
    except ValueError as exc:
        raise SettingsError("%s: not valid JSON (%s)" % (where, exc))
    except RuntimeError:
        raise SettingsError("%s: not valid JSON (nested too deeply)" % where)
    except MemoryError:
        raise SettingsError("%s: too large to parse" % where)
