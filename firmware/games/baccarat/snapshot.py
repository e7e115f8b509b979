# The Baccarat table's snapshot between rounds (docs/journal.md, "What the table keeps").
#
# Boundaries: READY (no shoe in play), BURNING, BETTING and SHOE_CLOSED, with no alarm open and no
# card held. The fields after the common head (firmware/snapshot.py), in order:
#   core      [last_kind, last_a, last_b]: the last input the displays show
#   seats     the bet reader's seats (0: no reader)
#   state     the table state (1 READY, 4 BURNING, 5 BETTING, 7 SHOE_CLOSED)
#   shoe      null, or [counts (52 bytes as hex: copies of each card left), burned, rounds, live_rounds,
#             demo_rounds, last_round, shoe state, burn_left]
#   beads     the roads' bead plate, one hex digit a live result (roads.encode); the roads are rebuilt
#   last      null, or the last closed round: [number, demo, void, last, face-up cards, its cards in
#             dealing order as hex]; its result and record are dealt again through rules.Round
#   flags     [bets_ready, burned_this_round, showing_result, prompt_void, has_bets, bets_unread]
#             (bets_unread: a reading refused since the last taken, the dealer's BETS NOT READ; a snapshot
#             of the firmware before it has the first five: false)
#   since_card_ms  ms since the last card, counted up to codes.DOUBLE_PULL_MS
#   round_bets  the last round's bets, seats x zones ([] when it had none); its nets are settled again
#   reading   null (no reader), or [reading_id, amounts]: the reading the next round takes
#   tie_stakes  [] or [option (codes.TIE_STANDING / TIE_CHANGEABLE), then each seat's Player and Banker
#             stake]: what a live tie left for the next live round (art. 11), in this shoe or the next.
#             Absent in a snapshot of the firmware before it: the last round and its bets say it.
# Every value is checked, and everything built, before the table changes: a snapshot is refused whole.
from array import array

from firmware import snapshot as S
from firmware.errors import GameError, RestoreError
from firmware.games.baccarat import rules
from firmware.games.baccarat import shoe as shoe_mod
from firmware.games.baccarat.payouts import NETS_TYPE, ZONES, settle_seats
from firmware.games.baccarat.roads import Roads
from firmware.games.baccarat.settings import SETTING_NAMES
from firmware.drivers import pixels

# copies of firmware.games.baccarat.codes (tests/host/test_const_copies.py)
_BETTING = const(5)
_BURNING = const(4)
_DOUBLE_PULL_MS = const(150)
_NO_CARD = const(-1)
_SHOE_CLOSED = const(7)
_TIE_CHANGEABLE = const(2)
_TIE_NONE = const(0)
_TIE_STANDING = const(1)
# copies of firmware.games.baccarat.roads (tests/host/test_const_copies.py)
_MAX_ROUNDS = const(156)
# copies of firmware.table (tests/host/test_const_copies.py)
_READY = const(1)

GAME = "baccarat"
_STATES = (_READY, _BURNING, _BETTING, _SHOE_CLOSED)
# The shoe's state at each boundary state (READY: a shoe removed or none at all).
_SHOE_STATES = {_READY: (shoe_mod.CLOSED,), _BURNING: (shoe_mod.BURNING,), _BETTING: (shoe_mod.READY,),
                _SHOE_CLOSED: (shoe_mod.CLOSED,)}
_BIG = 2 ** 31 - 1


def at_boundary(t):
    if t.state not in _STATES or not S.outside_fault(t) or t.held_card != _NO_CARD:
        return False
    return t.shoe is None or (t.shoe.round is None and t.shoe.pending is None)


def snapshot(t):
    if not at_boundary(t):
        raise RestoreError("no Baccarat snapshot in %s: only between rounds, with no alarm open" % t.state_name())
    return S.encode([GAME, S.FORMAT, S.settings_values(t.settings, SETTING_NAMES), S.core_fields(t), t.seats,
                     t.state, _shoe_fields(t.shoe), _beads(t.roads), _last_fields(t),
                     [t.bets_ready, t.burned_this_round, t.showing_result, t.prompt_void, t.has_bets,
                      t.bets_unread],
                     t.since_card_ms, list(t.round_bets) if t.has_bets else [],
                     None if t.reading is None else [t.reading.reading_id, list(t.reading.amounts)],
                     _tie_fields(t)])


def _tie_fields(t):
    """The stakes a live tie left for the next live round (art. 11): kept (a new shoe since), or still
    the last round's."""
    if t.tie_kept != _TIE_NONE:
        return [t.tie_kept] + list(t.tie_stakes)
    return _tied_stakes(t.tied_round_carry(), t.seats, t.round_bets)


def _tied_stakes(carry, seats, bets):
    """[carry, each seat's Player and Banker stake of the tied round's bets], or [] (none to carry)."""
    out = [carry]
    width = len(ZONES)
    for seat in range(seats):
        out += [bets[seat * width + rules.PLAYER], bets[seat * width + rules.BANKER]]
    return out if carry != _TIE_NONE and any(out[1:]) else []


def _shoe_fields(shoe):
    if shoe is None:
        return None
    return [bytes(shoe.counts).hex(), shoe.burned, shoe.rounds, shoe.live_rounds, shoe.demo_rounds,
            shoe.last_round, shoe.state, shoe.burn_left]


def _beads(roads):
    return "".join("%x" % roads.beads[i] for i in range(roads.bead_count()))


def _last_fields(t):
    record = t.record
    if record is None:
        return None
    rnd = t.last_hand
    dealt = bytearray()
    taken = [0, 0]
    for hand in rnd.order:                                   # the cards in dealing order
        dealt.append((rnd.player if hand == rules.PLAYER else rnd.banker)[taken[hand]])
        taken[hand] += 1
    return [record.number, record.demo, record.void, record.last, record.face_up, bytes(dealt).hex()]


# -- restore -------------------------------------------------------------------------------------------
def restore(t, data):
    S.check_fresh(t, t.shoe is not None)
    f = S.decode(data, GAME, t.settings, SETTING_NAMES)
    core = f.ints("core", 3, -_BIG, _BIG)
    f.int("seats", t.seats, t.seats)
    state = f.int("state", 0, _SHOE_CLOSED)
    if state not in _STATES:
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
    nets = array(NETS_TYPE, [0] * len(t.nets))
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
    t.tie_kept = kept
    for i in range(len(t.tie_stakes)):
        t.tie_stakes[i] = stakes[i] if kept != _TIE_NONE else 0
    if reading is not None:
        t.reading.reading_id = reading_id
        for i in range(len(amounts)):
            t.reading.amounts[i] = amounts[i]
    t.scoreboard_dirty = True
    S.restore_core(t, core, state)
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
        own = _tied_stakes(carry, t.seats, bets)
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
