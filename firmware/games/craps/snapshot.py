# The Craps table's snapshot between throws (docs/journal.md, "What the table keeps").
#
# Boundaries: READY, COME_OUT and POINT, with no alarm open: every event there is taken whole, so
# any moment between two throws is one. The fields after the common head (firmware/snapshot.py):
#   core      [last_kind, last_a, last_b]: the last input the displays show
#   seats     the bet reader's seats (0: no reader)
#   zones     the bet zones a seat (len(zones.ZONES)): slots and reader zones are numbered by them
#   state     the table state (1 READY, 4 COME_OUT, 5 POINT)
#   engine    [point, next_id, rolls, no_rolls, shooter_changes, last_dice ([d1, d2] or null),
#             last_no_roll (the reason or null), shooter_changed, seven_out]
#   bets      the open bets in placement order, 8 numbers each: bet id, seat, kind, amount, number,
#             the id of the bet its odds stand behind (0: none), in action (0/1), reader zone (-1: none;
#             else the bet's own: a come bet on 6 is "come_6", art. 5(2)(5))
#   placed    [slot, bet id, ...]: the pending reading's bets (slot = seat * zones + zone)
#   downs     the slots taken down since the last throw
#   refusals  [seat, zone, amount, take-down (0/1), ...] of the last reading (lit red until the next
#             roll; the reasons were spent in their reports and come back empty)
#   decided   [[layout zone, "win"/"lose"/"push"], ...] of the last roll (its lights)
#   throw     [THROW's a, THROW's b, thrown, no_roll, puck_moved, new_shooter]
#   totals    the last valid throws' totals, newest first
#   shooter   [shooter number, its valid rolls]
#   bets_unread  true after a reading refused whole until a reading is accepted or the dice roll (the
#             dealer's BETS NOT READ). Absent in a snapshot of the firmware before it: false.
# The last reading's amounts, take-downs already reported and nets are spent once reported and are not
# kept. Every value is checked, and the bets built, before the table changes: refused whole (restore.py).
from firmware import snapshot as S
from firmware.games.craps.settings import SETTING_NAMES
from firmware.games.craps.zones import ZONES
from firmware.errors import RestoreError

# copies of firmware.games.craps.codes (tests/host/test_const_copies.py)
_COME_OUT = const(4)
_POINT = const(5)
# copies of firmware.table_codes (tests/host/test_const_copies.py)
_READY = const(1)

GAME = "craps"
STATES = (_READY, _COME_OUT, _POINT)     # the boundaries (restore.py reads them too)


def at_boundary(t):
    return t.state in STATES and S.outside_fault(t)


def snapshot(t):
    if not at_boundary(t):
        raise RestoreError("no Craps snapshot in %s: only between throws, with no alarm open" % t.state_name())
    e = t.engine
    bets = []
    for b in e.bets:
        bets += [b.bet_id, b.seat, b.kind, b.amount, b.number, b.parent.bet_id if b.parent is not None else 0,
                 1 if b.in_action else 0, t.bet_zone.get(b.bet_id, -1)]
    placed = []
    for k in range(len(t.placed_slots)):                 # ascending by slot, as the controller keeps them
        placed += [t.placed_slots[k], t.placed[k]]
    downs = sorted(t.down_slots)
    refusals = []
    for r in t.refusals:
        refusals += [r[0], r[1], r[2], 1 if r[4] else 0]
    return S.encode([GAME, S.FORMAT, S.settings_values(e.settings, SETTING_NAMES), S.core_fields(t), t.seats,
                     len(ZONES), t.state,
                     [e.point, e.next_id, e.rolls, e.no_rolls, e.shooter_changes,
                      list(e.last_dice) if e.last_dice is not None else None, e.last_no_roll, e.shooter_changed,
                      e.seven_out],
                     bets, placed, downs, refusals, [[zone, result] for zone, result in t.decided],
                     [t.throw_a, t.throw_b, t.thrown, t.no_roll, t.puck_moved, t.new_shooter],
                     [t.last_totals[i] for i in range(t.total_count)], [t.shooter, t.shooter_rolls],
                     t.bets_unread])


def restore(t, data):
    """Put a freshly constructed controller into the state snapshot() gave (else RestoreError): the
    reading is firmware/games/craps/restore.py's, boot-only (parts.BOOT_ONLY)."""
    from firmware.games.craps.restore import restore as read_back
    read_back(t, data)
