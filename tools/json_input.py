"""JSON a person wrote for a host tool, read as strictly as the board reads its own files.

Python's json keeps the last of two equal keys without a word ({"dice": [1, 2], "dice": [3, 4]} is a
throw of 3 and 4) and takes NaN and Infinity, which are not JSON. The board refuses a key given twice
in its settings and host requests (firmware/jsonfile.py); tools.judge requests, tools.replay lines
and the floor's tables.json are refused the same way, with the key's path.
"""
import json

from firmware.jsonfile import duplicate_key


class Refused(ValueError):
    """Text Python's parser takes that is not one unambiguous JSON value."""


def loads(text, **hooks):
    """json.loads(text, **hooks); Refused for a key given twice in one object or NaN / Infinity. Other
    malformed text raises json's ValueError (or RecursionError, nested too deeply), as json.loads does."""
    value = json.loads(text, parse_constant=_no_constant, **hooks)
    twice = duplicate_key(text)
    if twice is not None:
        raise Refused("%s: key given twice in one object (remove one)" % twice)
    return value


def _no_constant(name):
    raise Refused("%s is not a JSON number" % name)
