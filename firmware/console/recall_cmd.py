# The console's `recall N` (issue 13): the last N rounds of the table's game, one line each.
#
# Read-only (no login): it reads the game's recall on flash (firmware/recall_answer.py, imported for
# it and released with the line, unless a host's RECALL is being answered) and changes nothing. N is
# 1..100 (10 without it); anything else is a usage error.
from firmware.jsonfile import number

# copies of firmware.events (tests/host/test_const_copies.py)
_CON_USAGE = const(5)
# copies of firmware.recall_answer (tests/host/test_const_copies.py)
_ASK_MAX = const(100)

SHOWN = 10                 # `recall` without N
USAGE = "usage: recall [N] (N 1..%d, default %d)" % (_ASK_MAX, SHOWN)


def command(con, args):
    n = number(args[0]) if len(args) == 1 else SHOWN          # (None: no number, jsonfile.NUMBER_RULE)
    if len(args) > 1 or n is None or not 0 < n <= _ASK_MAX:
        return con.error(_CON_USAGE, USAGE)
    recall = getattr(con.ctx, "recall", None)
    if recall is None:
        return ["recall: not kept at this table"]
    from firmware.recall_answer import lines
    try:
        return lines(recall, n)
    finally:
        if recall.answer_of < 0:
            from firmware.parts import RECALL_ON_DEMAND, release
            release(RECALL_ON_DEMAND)
