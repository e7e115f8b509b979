# The Craps table's snapshot read back (restore): every field checked, and everything built, before the
# table changes; a snapshot that does not fit is refused whole (RestoreError). The fields are
# firmware/games/craps/snapshot.py's, which writes them at every boundary. Boot-only (parts.BOOT_ONLY): the
# snapshot module imports it when a recovery or a settings change restores a table; both release it.
from firmware import snapshot_restore as R
from firmware.games.craps import bets as B
from firmware.games.craps.placement import Bet
from firmware.games.craps.settings import SETTING_NAMES
from firmware.games.craps.snapshot import GAME, STATES
from firmware.games.craps.zones import KIND_NUMBER, ZONES
from firmware.drivers import pixels

# copies of firmware.games.craps.codes (tests/host/test_const_copies.py)
_BIG_NUMBER = const(19)
_COME = const(4)
_COME_ODDS = const(6)
_DONT_COME = const(5)
_DONT_COME_ODDS = const(7)
_HARD = const(18)
_LAST_THROWS = const(6)
_POINT = const(5)
# copies of firmware.table_codes (tests/host/test_const_copies.py)
_READY = const(1)

_BET_FIELDS = 8
_RESULTS = ("win", "lose", "push")
_BIG = 2 ** 31 - 1
# The longest no-roll reason the engine keeps (firmware/games/craps/dice.py: "the dice did not pass the
# centre (art. 3(2)(2))" and "throw flagged invalid by the reader (art. 3(2))" are 47 characters).
_NO_ROLL_TEXT = const(64)
# The kinds whose reader zone names their number (zones.KIND_NUMBER): a come bet's come point once it
# travelled, odds' point, the hard way or big number; the others' zone takes 0 (Pass with its point).
_ZONE_NUMBERED = (_COME, _DONT_COME, _COME_ODDS, _DONT_COME_ODDS, _HARD, _BIG_NUMBER)


def restore(t, data):
    e = t.engine
    R.check_fresh(t, e.rolls or e.no_rolls or e.bets or e.shooter_changes)
    f = R.decode(data, GAME, e.settings, SETTING_NAMES)
    core = f.ints("core", 3, -_BIG, _BIG)
    f.int("seats", t.seats, t.seats)
    f.int("zones", len(ZONES), len(ZONES))              # another firmware's vocabulary: its slots mean others
    state = f.int("state", 0, _POINT)
    if state not in STATES:
        f.fail("a state between throws (ready, come_out, point)", state)
    engine = _engine(f, state)
    bets, zones = _bets(f, e.settings, engine[1])
    slots = t.seats * len(ZONES)
    placed = _pairs(f, "placed", 2, slots, (slots - 1, _BIG))
    for k in range(2, len(placed), 2):
        if placed[k] <= placed[k - 2]:
            f.fail("placed slots ascending, each once", placed[k])
    downs = f.array("downs", 0, slots)
    for i in downs:
        f.int("downs", 0, slots - 1, i)
    refusals = _pairs(f, "refusals", 4, slots + e.settings.max_open_bets, (t.seats - 1, len(ZONES) - 1, _BIG, 1))
    decided = f.array("decided", 0, e.settings.max_open_bets)
    for pair in decided:
        f.array("decided", 2, 2, pair)
        f.text("decided zone", 20, pair[0])
        if pair[1] not in _RESULTS:
            f.fail("win, lose or push", pair[1])
    throw = f.array("throw", 6, 6)
    throw_a = f.int("throw a", 0, 54, throw[0])
    throw_b = f.int("throw b", 0, 127, throw[1])
    flags = [f.flag("throw", v) for v in throw[2:]]
    totals = f.array("totals", 0, _LAST_THROWS)
    for v in totals:
        f.int("totals", 2, 12, v)
    shooter = f.ints("shooter", 2, 0, _BIG)
    unread = f.flag("bets_unread") if f.more() else False
    f.end()
    if shooter[0] < 1:
        f.fail("shooter number from 1", shooter)
    # Everything fits: the table takes it at once (nothing below can fail).
    (e.point, e.next_id, e.rolls, e.no_rolls, e.shooter_changes, e.last_dice, e.last_no_roll,
     e.shooter_changed, e.seven_out) = engine
    e.bets = bets
    t.bet_zone = zones
    t.placed_slots = [placed[k] for k in range(0, len(placed), 2)]
    t.placed = [placed[k + 1] for k in range(0, len(placed), 2)]
    t.down_slots = list(downs)
    t.refusals = [(refusals[k], refusals[k + 1], refusals[k + 2], "", refusals[k + 3] == 1)
                  for k in range(0, len(refusals), 4)]
    t.downs = []
    t.nets = {}
    t.decided = [(pair[0], pair[1]) for pair in decided]
    t.throw_a = throw_a
    t.throw_b = throw_b
    t.thrown, t.no_roll, t.puck_moved, t.new_shooter = flags
    t.bets_unread = unread
    for i in range(len(totals)):
        t.last_totals[i] = totals[i]
    t.total_count = len(totals)
    t.shooter, t.shooter_rolls = shooter
    R.restore_core(t, core, state)
    if state == _READY:
        t.lights.set_all(pixels.WHITE)                  # as the core's _enter_ready, without its report
    else:
        t._render_lights()


def _engine(f, state):
    fields = f.array("engine", 9, 9)
    point = f.int("engine point", 0, 10, fields[0])
    if point and point not in B.POINTS or (point != 0) != (state == _POINT):
        f.fail("the point (4, 5, 6, 8, 9, 10) exactly in state point", fields)
    counts = [f.int("engine counts", 0, _BIG, v) for v in fields[1:5]]
    if counts[0] < 1:
        f.fail("next bet id from 1", fields)
    dice = f.array("engine last_dice", 2, 2, fields[5], nullable=True)
    if dice is not None:
        dice = (f.int("engine last_dice", 1, 6, dice[0]), f.int("engine last_dice", 1, 6, dice[1]))
    no_roll = fields[6]
    if no_roll is not None:
        f.text("engine last_no_roll", _NO_ROLL_TEXT, no_roll)
    return [point] + counts + [dice, no_roll, f.flag("engine shooter_changed", fields[7]),
                               f.flag("engine seven_out", fields[8])]


def _bets(f, settings, next_id):
    """The open bets, rebuilt with their odds linked to the bets they stand behind; and bet_zone."""
    flat = f.array("bets", 0, settings.max_open_bets * _BET_FIELDS)
    if len(flat) % _BET_FIELDS:
        f.fail("%d numbers a bet" % _BET_FIELDS, len(flat))
    bets = []
    zones = {}
    by_id = {}
    for k in range(0, len(flat), _BET_FIELDS):
        bet_id, seat, kind, amount, number, parent, in_action, zone = [
            f.int("bets", -1, _BIG, v) for v in flat[k:k + _BET_FIELDS]]
        if (bet_id < 1 or bet_id >= next_id or bet_id in by_id or seat < 0 or seat >= settings.seats
                or kind >= len(B.KIND_NAMES) or kind < 0 or amount < 1 or number > 12 or number < 0
                or in_action > 1 or in_action < 0 or zone >= len(ZONES)):
            f.fail("a bet: new id < next id, seat, kind, amount > 0, number, in action 0/1, zone",
                   flat[k:k + _BET_FIELDS])
        backed = None
        if B.is_odds(kind):
            backed = by_id.get(parent)
            if backed is None or backed.seat != seat or backed.kind != B.odds_parent_kind(kind):
                f.fail("odds behind an open line bet of the same seat, placed before them", flat[k:k + _BET_FIELDS])
        elif parent:
            f.fail("no bet behind a bet that is not odds", flat[k:k + _BET_FIELDS])
        bet = Bet(bet_id, seat, kind, amount, number, backed)
        if in_action == 1:
            bet.in_action = True                 # (else the class's False: no seventh attribute stored)
        by_id[bet_id] = bet
        bets.append(bet)
        if zone >= 0:
            if KIND_NUMBER[zone] != (kind, number if kind in _ZONE_NUMBERED else 0):
                f.fail("a bet's reader zone of its kind and number", flat[k:k + _BET_FIELDS])
            zones[bet_id] = zone
    return bets, zones


def _pairs(f, name, width, longest, highs):
    """A flat array of records of width whole numbers, each 0..highs[i]."""
    flat = f.array(name, 0, longest * width)
    if len(flat) % width:
        f.fail("%d numbers a record" % width, len(flat))
    for k in range(len(flat)):
        f.int(name, 0, highs[k % width], flat[k])
    return flat
