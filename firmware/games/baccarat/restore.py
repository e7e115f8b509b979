# The Baccarat table's snapshot read back (restore): every field checked, and everything built, before the
# table changes; a snapshot that does not fit is refused whole (RestoreError). The fields are
# firmware/games/baccarat/snapshot.py's, which writes them at every boundary. Boot-only (parts.BOOT_ONLY): the
# snapshot module imports it when a recovery or a settings change restores a table; both release it.

from firmware import snapshot_restore as R
from firmware.errors import GameError
from firmware.games.baccarat import rules
from firmware.games.baccarat import shoe as shoe_mod
from firmware.games.baccarat.payouts import ZONES, find_slots, settle_seats
from firmware.games.baccarat.roads import Roads
from firmware.games.baccarat.settings import SETTING_NAMES
from firmware.games.baccarat.snapshot import GAME, STATES, tied_stakes
from firmware.drivers import pixels

# copies of firmware.games.baccarat.codes (tests/host/test_const_copies.py)
_BETTING = const(5)
_BURNING = const(4)
_DOUBLE_PULL_MS = const(150)
_SHOE_CLOSED = const(7)
_TIE_CHANGEABLE = const(2)
_TIE_NONE = const(0)
_TIE_STANDING = const(1)
# copies of firmware.games.baccarat.roads (tests/host/test_const_copies.py)
_MAX_ROUNDS = const(156)
# copies of firmware.table_codes (tests/host/test_const_copies.py)
_READY = const(1)

# The shoe's state at each boundary state (READY: a shoe removed or none at all).
_SHOE_STATES = {_READY: (shoe_mod.CLOSED,), _BURNING: (shoe_mod.BURNING,), _BETTING: (shoe_mod.READY,),
                _SHOE_CLOSED: (shoe_mod.CLOSED,)}
_BIG = 2 ** 31 - 1


def restore(t, data):
    R.check_fresh(t, t.shoe is not None)
    f = R.decode(data, GAME, t.settings, SETTING_NAMES)
    core = f.ints("core", 3, -_BIG, _BIG)
    f.int("seats", t.seats, t.seats)
    state = f.int("state", 0, _SHOE_CLOSED)
    if state not in STATES:
        f.fail("a state between rounds (ready, burning, betting, shoe_closed)", state)
    shoe = _shoe(f, t.settings, state)
    roads = _roads(f, shoe)
    record, rnd = _last(f, t.settings, shoe)
    flags = f.array("flags", 5, 6)
    bets_ready, burned_this_round, showing_result, prompt_void, has_bets, unread = \
        [f.flag("flags", v) for v in flags] + [False] * (6 - len(flags))
    since_card_ms = f.int("since_card_ms", 0, _DOUBLE_PULL_MS)
    width = len(ZONES)
    bets = f.ints("round_bets", t.seats * width if has_bets else 0, 0, _BIG)
    reading = f.array("reading", 2, 2, nullable=True)
    if (reading is None) != (t.reading is None):
        f.fail("null exactly when the table has no bet reader", reading)
    if reading is not None:
        reading_id = f.int("reading id", -1, _BIG, reading[0])
        amounts = f.ints("reading amounts", len(t.reading.amounts), -1, _BIG, reading[1])
    tie = f.array("tie_stakes", 0, 1 + 2 * t.seats) if f.more() else None
    f.end()
    f.name = "flags"
    if (showing_result or has_bets) and record is None:
        f.fail("no result shown and no bets without a last round", flags)
    if (has_bets or bets_ready or unread) and t.reading is None:
        f.fail("no bets without a bet reader", flags)
    nets = [0] * len(t.nets)          # (as the controller's: a list of ints, no long int made a read)
    if has_bets:
        settle_seats(t.settings, record, bets, nets)
    kept, stakes = _tie(f, t, tie, record, has_bets, bets)
    # Everything fits: the table takes it at once (nothing below can fail).
    t.shoe = shoe
    t.roads = roads
    t.record = record
    t.hand = t.last_hand = rnd
    t.bets_ready = bets_ready
    t.burned_this_round = burned_this_round
    t.showing_result = showing_result
    t.prompt_void = prompt_void
    t.has_bets = has_bets
    t.bets_unread = unread
    t.since_card_ms = since_card_ms
    for i in range(len(t.round_bets)):
        t.round_bets[i] = bets[i] if has_bets else 0
        t.nets[i] = nets[i]
    # The slots of its bets, where its nets are not 0 (controller._find_slots makes them 0 at the next round)
    t.n_bet_slots = find_slots(t.round_bets, t.seats, t.bet_slots, t.seat_slot_ends)
    t.slots_round = rnd
    t.tie_kept = kept
    for i in range(len(t.tie_stakes)):
        t.tie_stakes[i] = stakes[i] if kept != _TIE_NONE else 0
    if reading is not None:
        t.reading.reading_id = reading_id
        for i in range(len(amounts)):
            t.reading.amounts[i] = amounts[i]
    t.scoreboard_dirty = True
    R.restore_core(t, core, state)
    if state == _READY:
        t.lights.set_all(pixels.DIM)                    # as _enter_ready, without its report
    else:
        t._render_lights()


def _tie(f, t, tie, record, has_bets, bets):
    """The tie_stakes field -> (the table's tie_kept, its stakes). None (a snapshot before the field) or
    the last round's own (a live tie with bets, art. 11(2), (3)): nothing kept beside the last round."""
    f.name = "tie_stakes"
    carry = _TIE_NONE
    if has_bets and not record.void and not record.demo and record.result.winner == rules.TIE:
        carry = {"standing": _TIE_STANDING, "changeable": _TIE_CHANGEABLE}.get(t.settings.tie_option, _TIE_NONE)
    if carry != _TIE_NONE:
        own = tied_stakes(carry, t.seats, bets)
        if tie is not None and tie != own:
            f.fail("the last round's tied Player and Banker stakes %s" % own, tie)
        return _TIE_NONE, None
    if not tie:
        return _TIE_NONE, None
    if t.reading is None:
        f.fail("[] without a bet reader", tie)
    if len(tie) != 1 + 2 * t.seats:
        f.fail("[] or an option and %d stakes" % (2 * t.seats), tie)
    kept = f.int("tie_stakes option", _TIE_STANDING, _TIE_CHANGEABLE, tie[0])
    stakes = f.ints("tie_stakes", 2 * t.seats, 0, _BIG, tie[1:])
    if not any(stakes):
        f.fail("a stake kept", tie)
    return kept, stakes


def _shoe(f, settings, state):
    fields = f.array("shoe", 8, 8, nullable=True)
    if fields is None:
        if state != _READY:
            f.fail("a shoe in %s" % state, None)
        return None
    decks = settings.decks
    counts = f.hex_bytes("shoe counts", 52, fields[0])
    if len(counts) != 52:
        f.fail("52 counts", fields[0])
    for c in counts:
        if c > decks:
            f.fail("counts of at most %d (decks)" % decks, fields[0])
    shoe = shoe_mod.Shoe(settings)
    shoe.burned = f.int("shoe burned", 0, decks * 52, fields[1])
    shoe.rounds = f.int("shoe rounds", 0, decks * 52, fields[2])
    shoe.live_rounds = f.int("shoe live_rounds", 0, shoe.rounds, fields[3])
    shoe.demo_rounds = f.int("shoe demo_rounds", 0, settings.demo_rounds, fields[4])
    if shoe.live_rounds + shoe.demo_rounds != shoe.rounds:
        f.fail("rounds = live_rounds + demo_rounds", fields)
    shoe.last_round = f.int("shoe last_round", 0, shoe.rounds + 2, fields[5])
    shoe.state = f.int("shoe state", 0, shoe_mod.CLOSED, fields[6])
    if shoe.state not in _SHOE_STATES[state]:
        f.fail("a shoe state that goes with table state %d" % state, shoe.state)
    shoe.burn_left = f.int("shoe burn_left", -1, 12, fields[7])
    if shoe.state == shoe_mod.CLOSED:
        shoe.burn_left = 0      # the firmware before kept the count of a shoe taken out in its burn: none now
    if (shoe.state == shoe_mod.BURNING) != (shoe.burn_left != 0):
        f.fail("cards left to burn exactly while burning", fields)
    for i in range(52):
        shoe.counts[i] = counts[i]
    shoe.remaining = sum(counts)
    if not shoe.auto and shoe.burned > decks * 52 - shoe.remaining:
        f.fail("no more cards burned than are out of the shoe", fields)
    return shoe


def _roads(f, shoe):
    beads = f.text("beads", _MAX_ROUNDS)
    if len(beads) > (shoe.live_rounds if shoe is not None else 0):
        f.fail("no more beads than live rounds", beads)
    roads = Roads()
    try:
        for c in beads:
            code = int(c, 16)
            roads.add(code & 3, bool(code & 4), bool(code & 8))
    except (ValueError, GameError):
        f.fail("hex digits, each a road result (roads.encode)", beads)
    return roads


def _last(f, settings, shoe):
    """The last closed round, dealt again: (RoundRecord, rules.Round) or (None, None)."""
    fields = f.array("last", 6, 6, nullable=True)
    if fields is None:
        return None, None
    if shoe is None:
        f.fail("null without a shoe", fields)
    number = f.int("last number", 1, shoe.rounds, fields[0])
    demo = f.flag("last demo", fields[1])
    void = f.flag("last void", fields[2])
    last = f.flag("last last", fields[3])
    dealt = f.hex_bytes("last cards", 6, fields[5])
    face_up = f.int("last face_up", 0, len(dealt), fields[4])
    rnd = rules.Round(settings)
    try:
        for i in range(len(dealt)):
            rnd.deal(dealt[i], None, i < face_up)
    except GameError:
        f.fail("cards a round takes in dealing order (Baccarat arts. 7, 9)", fields[5])
    if rnd.complete == void:
        f.fail("a complete round, or an incomplete one voided (art. 10)", fields)
    result = None if void else rnd.result()
    return shoe_mod.RoundRecord(number, demo, void, result, last, rnd.face_up), rnd
