# Craps's rounds for recall (issue 12; firmware/round_recall.py keeps them, docs/journal.md "Recall").
#
# A Craps "round" here is one throw the table took (OUT_THROW, and OUT_THROW_HELD: a throw while an
# alarm held the table, never decided): every throw is there, a no roll too, each as its own round,
# so a round is small and of bounded size whatever the shooter does (a point cycle has no length
# limit, art. 5). Numbered from the last kept throw, so the count runs on across reboots:
#   {"round": 78, "shooter": 3, "dice": [6, 1], "result": "seven_out", "point": null, "nets": {"1": -30}}
# result: "natural" (7 or 11 on the come-out), "craps" (2, 3, 12), "point_set" (art. 5(2)(1)),
# "point_made", "seven_out", "roll" (a point roll deciding neither), "no_roll" ("no_roll": the
# art. 3 reason, or "alarm" for a held throw): the live reports' words; point: the point after it (null: puck off);
# shooter: the shooter who threw it; nets by seat (the bets it decided, the seat's zones summed).
from firmware import throws
from firmware.games.craps.reports import no_roll_word

# copies of firmware.games.craps.codes (tests/host/test_const_copies.py)
_OUT_THROW = const(32)
_OUT_THROW_HELD = const(38)

# At most this long as JSON (near the 641 that firmware.link.recall's journal takes at 100 rounds): 20 seats of
# 12-digit nets fit (tests/firmware/test_round_recall.py); a longer one (up to 32 seats) is kept cut
# to ALWAYS (firmware/round_recall.py), the host's `throw` report has it all.
ROUND_MAX = const(640)
ALWAYS = ("round", "shooter", "dice", "result", "point", "no_roll")
ROUND_CODES = (_OUT_THROW, _OUT_THROW_HELD)        # the reports that end a round (round_of makes it)
_NATURALS = (7, 11)
# The words firmware before x10 wrote with hyphens, as rounds kept on flash may still hold them: read()
# serves them in the words above.
_OLD_WORDS = {"point-set": "point_set", "point-made": "point_made", "seven-out": "seven_out", "no-roll": "no_roll"}


def round_of(table, code, a, b, previous, fields=None):
    """The round a report ends (a throw), or None."""
    if code not in ROUND_CODES:
        return None
    number = previous["round"] + 1 if previous is not None and isinstance(previous.get("round"), int) else 1
    engine = table.engine
    dice = throws.report(a, b)["dice"]          # an unread face (a held throw) is None
    entry = {"round": number, "shooter": table.shooter, "dice": dice}
    if code == _OUT_THROW_HELD or table.no_roll:
        entry["result"] = "no_roll"
        entry["no_roll"] = "alarm" if code == _OUT_THROW_HELD else no_roll_word(b)
        entry["point"] = engine.point or None
        return entry
    if engine.shooter_changed:
        entry["shooter"] = table.shooter - 1        # the dice passed on with this throw (art. 4)
    entry["result"] = _result(table, dice[0] + dice[1])
    entry["point"] = engine.point or None
    if table.nets:
        entry["nets"] = seat_nets(table.nets)
    return entry


def _result(table, total):
    engine = table.engine
    if table.puck_moved:
        if engine.point:
            return "point_set"
        return "seven_out" if engine.seven_out else "point_made"
    if engine.point:
        return "roll"
    return "natural" if total in _NATURALS else "craps"


def read(entry):
    """A round read back from flash (a dict), in today's words: one kept by older firmware says
    "seven-out", "no-roll"... (firmware/round_recall.py calls it for every round it serves)."""
    result = entry.get("result")
    if result in _OLD_WORDS:
        entry["result"] = _OLD_WORDS[result]
    return entry


def seat_nets(nets):
    """{seat: net}: the controller's {seat: {zone: net}} summed by seat."""
    out = {}
    for seat in nets:
        out[seat] = sum(nets[seat].values())       # (no generator: 10 seats, 18 -> 10 us in the VM)
    return out


def _face(face):
    # A die the reader could not see (a no roll, art. 3(2)(1)) is null in the round: "?" on the console,
    # never Python's "None".
    return "?" if face is None else face


def line(entry):
    text = "throw %s shooter %s" % (entry.get("round"), entry.get("shooter"))
    dice = entry.get("dice")
    if dice:
        text += " %s-%s" % (_face(dice[0]), _face(dice[1]))
    text += " " + str(entry.get("result"))
    if entry.get("no_roll"):
        text += " (%s)" % entry["no_roll"]
    if entry.get("point"):
        text += " point %d" % entry["point"]
    if "cut" in entry:
        return text + " (detail over %d bytes: see the host's reports)" % ROUND_MAX
    nets = entry.get("nets")
    if nets:
        text += "  " + " ".join("%s:%+d" % (seat, nets[seat]) for seat in sorted(nets, key=int))
    return text
