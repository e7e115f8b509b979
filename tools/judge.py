"""Rules judge: the firmware's own engines answering JSON Lines.

    python -m tools.judge < requests.jsonl > responses.jsonl

One JSON object per input line, one per output line, in order. The "game"
field picks the engine. A bad line is answered {"error": "..."} and the judge
goes on with the next; it never prints a traceback.
"""
import json
import sys

from firmware.errors import GameError

# game -> (module, function). Each function takes the parsed request (dict)
# and returns the response dict; it raises GameError/ValueError for bad input.
HANDLERS = {
    "baccarat": ("tools.judge_baccarat", "judge_round"),
    "baccarat_roads": ("tools.judge_baccarat", "judge_roads"),
    "craps": ("tools.judge_craps", "judge"),
    "hand5": ("tools.judge_omaha", "judge_hand5"),
    "omaha_hand": ("tools.judge_omaha", "judge_omaha_hand"),
    "omaha_round": ("tools.judge_omaha", "judge_round"),
}


def _handler(game):
    module_name, func_name = HANDLERS[game]
    module = __import__(module_name, fromlist=[func_name])
    return getattr(module, func_name)


def answer(line):
    """One request line -> one response dict (never raises)."""
    try:
        request = json.loads(line)
    except ValueError as exc:
        return {"error": "not valid JSON: %s" % exc}
    if not isinstance(request, dict):
        return {"error": "a request must be a JSON object"}
    game = request.get("game")
    if game not in HANDLERS:
        return {"error": "unknown game %r: expected one of %s" % (game, ", ".join(sorted(HANDLERS)))}
    try:
        return _handler(game)(request)
    except (GameError, ValueError, TypeError, KeyError) as exc:
        message = exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
        if isinstance(exc, KeyError):
            message = "missing field %r" % (message,)
        return {"error": message}
    except Exception as exc:  # the judge must answer every line, even on an engine fault
        return {"error": "internal error (%s): %s" % (type(exc).__name__, exc)}


def main(stdin=None, stdout=None):
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    for line in stdin:
        if not line.strip():
            continue
        stdout.write(json.dumps(answer(line), separators=(", ", ": ")) + "\n")
        stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
