"""Rules judge: the firmware's own engines answering JSON Lines.

    python -m tools.judge < requests.jsonl > responses.jsonl

Every input line gets exactly one output line, in order, and the judge goes on
with the next line whatever the last one held. The "game" field picks the engine.

- A bad request (not UTF-8, blank, not JSON, nested too deeply, a key given twice in one
  object, NaN or Infinity, not an object,
  unknown game, missing, unknown or wrong field, an input the rules refuse) is answered
  {"error": "..."}: the handlers raise GameError for these.
- Any other exception from an engine is a fault of the judge or the engine, not
  of the request: {"error": "internal error: TypeName: message"}.
Lines end with "\\n" ("\\r\\n" works too). It never prints a traceback.
"""
import argparse
import json
import sys

from firmware.errors import GameError
from tools import json_input
from tools.pipe import stdout_gone

# game -> (module, function). Each function takes the parsed request (dict)
# and returns the response dict; it raises GameError for a bad request.
HANDLERS = {
    "baccarat": ("tools.judge_baccarat", "judge_round"),
    "baccarat_roads": ("tools.judge_baccarat", "judge_roads"),
    "craps": ("tools.judge_craps", "judge"),
    "hand5": ("tools.judge_omaha", "judge_hand5"),
    "omaha_hand": ("tools.judge_omaha", "judge_omaha_hand"),
    "omaha_round": ("tools.judge_omaha", "judge_round"),
}
INTERNAL_ERROR = "internal error: "


class Fields(dict):
    """A request object: a missing field is a bad request (GameError), not an engine KeyError."""

    def __missing__(self, key):
        raise GameError("missing field %r" % (key,))


def _handler(game):
    module_name, func_name = HANDLERS[game]
    module = __import__(module_name, fromlist=[func_name])
    return getattr(module, func_name)


def _internal(exc):
    return {"error": "%s%s: %s" % (INTERNAL_ERROR, type(exc).__name__, exc)}


def parse(raw):
    """One input line (bytes or str) -> the request dict; GameError if it is not one."""
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeError as exc:
            raise GameError("not valid UTF-8 (%s)" % exc.reason)
    if not raw.strip():
        raise GameError("empty line: expected a JSON object")
    try:
        request = json_input.loads(raw, object_hook=Fields)
    except json_input.Refused as exc:                 # a key twice (json keeps the last), NaN, Infinity
        raise GameError(str(exc))
    except RecursionError:
        raise GameError("not valid JSON: nested too deeply")
    except ValueError as exc:
        raise GameError("not valid JSON: %s" % exc)
    if not isinstance(request, dict):
        raise GameError("a request must be a JSON object")
    return request


def answer(line):
    """One request line (bytes or str) -> one response dict (never raises)."""
    try:
        request = parse(line)
        game = request.get("game")
        if not isinstance(game, str) or game not in HANDLERS:
            raise GameError("unknown game %s: expected one of %s" % (_short(game), ", ".join(sorted(HANDLERS))))
        return _handler(game)(request)
    except GameError as exc:
        return {"error": str(exc)}
    except Exception as exc:  # the judge must answer every line, even on an engine fault
        return _internal(exc)


def _short(value):
    """repr() of a request value for a message, bounded (it may be huge or nested very deeply)."""
    try:
        text = repr(value)
    except RecursionError:
        text = "<nested too deeply>"
    return text if len(text) <= 60 else text[:57] + "..."


def encode(response):
    """The output line of one response; an unencodable response becomes an internal error."""
    try:
        return json.dumps(response, separators=(", ", ": "))
    except Exception as exc:
        return json.dumps(_internal(exc), separators=(", ", ": "))


def parse_args(argv):
    """The judge takes no option: --help says how to use it, anything else is a usage error (exit 2)
    rather than ignored while the judge waits on a terminal's stdin."""
    ap = argparse.ArgumentParser(
        prog="python -m tools.judge",
        description="Rules judge: one JSON request a line on stdin (the \"game\" field picks the engine: "
                    "%s), one JSON answer a line on stdout, in order; a bad line is answered "
                    "{\"error\": ...}." % ", ".join(sorted(HANDLERS)),
        epilog="Example: echo '{\"game\": \"hand5\", \"cards\": [\"Ah\", \"Kh\", \"Qh\", \"Jh\", "
               "\"Th\"]}' | python -m tools.judge (docs/baccarat.md, docs/craps.md, docs/omaha.md)")
    return ap.parse_args(argv)


def main(stdin=None, stdout=None, argv=None):
    """stdin: a binary stream (default sys.stdin.buffer), so a line that is not UTF-8 is answered too;
    argv: the command line's arguments (none is taken but --help)."""
    parse_args(argv or [])
    stdin = stdin if stdin is not None else sys.stdin.buffer
    stdout = stdout if stdout is not None else sys.stdout
    try:
        for line in stdin:
            stdout.write(encode(answer(line)) + "\n")
            stdout.flush()
    except BrokenPipeError:             # the reader of stdout went away (| head): nobody is left to tell
        stdout_gone(stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main(argv=sys.argv[1:]))
