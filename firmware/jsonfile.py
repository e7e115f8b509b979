# Settings files (board.json, table.json) from flash: bytes -> parsed JSON, every failure a SettingsError.
#
# The file is read as bytes and decoded here, so a byte that is not UTF-8 is a
# clear refusal rather than a UnicodeError from read(). Nesting too deep for the
# parser (CPython: RecursionError, a RuntimeError; MicroPython: RuntimeError
# "maximum recursion depth exceeded") or too big for the heap is refused too.
# A key twice in one object is refused: the parser keeps the last one silently,
# so {"method": 1, ..., "method": 2} would run Method 2 under a file whose first
# line a technician reads says Method 1.
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


def parse(raw, where, unique=True):
    """bytes (or str) -> the parsed JSON value; SettingsError "<where>: ..." if it is not one, or (unique)
    if a key is twice in one object."""
    if not isinstance(raw, str):
        try:
            raw = raw.decode("utf-8")
        except UnicodeError:
            raise SettingsError("%s: not valid UTF-8 (save the file as UTF-8)" % where)
    if raw.startswith("\ufeff"):      # Notepad's "UTF-8": each parser refused it in words of its own
        raise SettingsError("%s: starts with a byte order mark (save the file as UTF-8 without BOM)" % where)
    try:
        value = json.loads(raw)
    except ValueError as exc:
        raise SettingsError("%s: not valid JSON (%s)" % (where, exc))
    except RuntimeError:
        raise SettingsError("%s: not valid JSON (nested too deeply)" % where)
    except MemoryError:
        raise SettingsError("%s: too large to parse" % where)
    if unique:
        twice = duplicate_key(raw)
        if twice is not None:
            raise SettingsError("%s: %s: key given twice in one object (remove one)" % (where, twice))
    bad = bad_number(raw)
    if bad is not None:
        raise SettingsError("%s: number %s: %s" % (where, bad, NUMBER_RULE))
    return value


# One spelling of a number, in a settings file and at the console (docs/console.md, "Numbers"): decimal
# digits, 0 or without a leading zero (08 is no number: JSON refuses it, and a reader may take it for
# octal), no "+", a "-" only before a number that is not 0; a fraction, where one is taken, as
# digits.digits. MicroPython's JSON parser takes 08, 007, 3. and -08 that CPython's (tools.deploy's
# check) refuses: the board refuses them too, so a file means the same to both.
NUMBER_RULE = "a number is digits without a leading zero or a + sign (8, not 08 or +8; 0, not -0)"


def numeral(text, fraction=False):
    """True when `text` is a number written as NUMBER_RULE says (with fraction: also digits.digits)."""
    negative = text[:1] == "-"
    digits = text[1:] if negative else text
    whole, point, part = digits.partition(".")
    if not _digits(whole) or (whole[0] == "0" and len(whole) > 1):
        return False
    if point and not (fraction and _digits(part)):
        return False
    if negative:                                      # never before 0 (-0, -0.0)
        for c in digits:
            if "1" <= c <= "9":
                return True
        return False
    return True


def number(text, fraction=False):
    """The int (with fraction, the float of digits.digits; 5.0 is 5) `text` writes, or None when it
    is no number by NUMBER_RULE."""
    if not numeral(text, fraction):
        return None
    if "." in text:
        value = float(text)
        return int(value) if value == int(value) else value
    return int(text)


def _digits(text):
    if not text:
        return False
    for c in text:
        if not "0" <= c <= "9":
            return False
    return True


def bad_number(text):
    """The first number in `text` (JSON: json.loads took it) that NUMBER_RULE refuses (a fraction and
    JSON's exponent allowed), else None."""
    parts = text.split('"')      # outside a string, inside, outside, ... (as duplicate_key)
    i = 0
    n = len(parts)
    while i < n:
        bad = _bad_in(parts[i])
        if bad is not None:
            return bad
        i += 1
        if i < n:                # a string: skip its parts up to one not ending in an odd run of '\\'
            while i < n and _escapes_quote(parts[i]):    # (i < n: text cut inside a string, not JSON:
                i += 1                                   # a host request is scanned before it is parsed)
            i += 1
    return None


def _bad_in(chunk):
    i = 0
    n = len(chunk)
    while i < n:
        c = chunk[i]
        if c == "-" or "0" <= c <= "9":
            j = i + 1
            while j < n and chunk[j] in "0123456789.eE+-":
                j += 1
            token = chunk[i:j]
            mantissa, e, exponent = token.replace("E", "e").partition("e")
            if exponent[:1] in ("+", "-"):
                exponent = exponent[1:]
            if not numeral(mantissa, True) or (e and not _digits(exponent)):
                return token
            i = j
        else:
            i += 1
    return None


def duplicate_key(text):
    """The first key of `text` (valid JSON: json.loads took it) that is twice in one object, as a path
    ("settings.method", "zones.baccarat.tie", "keypad.keys[2]"), else None. Keys compare decoded
    ("\\u0074ie" is "tie")."""
    seen = []        # per open container: the keys of an object so far, or None for an array
    names = []       # per open container: the key (object) or index (array) being read in it: the path
    parts = text.split('"')      # outside a string, inside, outside, ... (an escaped quote rejoined below)
    key = None                   # the last string read: an object key when a ':' follows
    i = 0
    n = len(parts)
    while i < n:
        for c in parts[i]:       # outside any string: the structure (a loop over a str: fast on MicroPython)
            if c == ":":
                name = json.loads('"%s"' % key) if "\\" in key else key
                keys = seen[-1]
                if name in keys:
                    return _path(names[:-1] + [name])
                keys.append(name)
                names[-1] = name
            elif c == "{":
                seen.append([])
                names.append(None)
            elif c == "[":
                seen.append(None)
                names.append(0)
            elif c == "}" or c == "]":
                seen.pop()
                names.pop()
            elif c == "," and seen[-1] is None:
                names[-1] += 1
        i += 1
        if i < n:                # a string: its parts up to one not ending in an odd run of '\\'
            key = parts[i]
            while _escapes_quote(key):
                i += 1
                key += '"' + parts[i]
            i += 1
    return None


def _escapes_quote(part):
    run = 0
    k = len(part) - 1
    while k >= 0 and part[k] == "\\":
        run += 1
        k -= 1
    return run % 2 == 1


def _path(names):
    out = ""
    for name in names:
        if isinstance(name, int):
            out += "[%d]" % name
        else:
            out += ("." if out else "") + (name or '""')      # an empty key still shows
    return out
