# The console's `recall N` (issue 13): the last N rounds of the table's game, one line each.
#
# Read-only (no login): it reads the game's recall on flash (firmware/round_recall.py) and
# changes nothing. N is 1..100 (10 without it); anything else is a usage error.
from firmware.events import CON_USAGE
from firmware.jsonfile import number
from firmware.round_recall import ASK_MAX

SHOWN = 10                 # `recall` without N
USAGE = "usage: recall [N] (N 1..%d, default %d)" % (ASK_MAX, SHOWN)


def command(con, args):
    n = number(args[0]) if len(args) == 1 else SHOWN          # (None: no number, jsonfile.NUMBER_RULE)
    if len(args) > 1 or n is None or not 0 < n <= ASK_MAX:
        return con.error(CON_USAGE, USAGE)
    recall = getattr(con.ctx, "recall", None)
    if recall is None:
        return ["recall: not kept at this table"]
    return recall.lines(n)
