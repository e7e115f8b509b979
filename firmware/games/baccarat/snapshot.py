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
# Every value is checked, and everything built, before the table changes: a snapshot is refused whole
# (restore.py, boot-only).
from firmware import snapshot as S
from firmware.errors import RestoreError
from firmware.games.baccarat import rules
from firmware.games.baccarat.payouts import ZONES
from firmware.games.baccarat.settings import SETTING_NAMES

# copies of firmware.games.baccarat.codes (tests/host/test_const_copies.py)
_BETTING = const(5)
_BURNING = const(4)
_NO_CARD = const(-1)
_SHOE_CLOSED = const(7)
_TIE_NONE = const(0)
# copies of firmware.table_codes (tests/host/test_const_copies.py)
_READY = const(1)

GAME = "baccarat"
STATES = (_READY, _BURNING, _BETTING, _SHOE_CLOSED)     # the boundaries (restore.py reads them too)


def at_boundary(t):
    if t.state not in STATES or not S.outside_fault(t) or t.held_card != _NO_CARD:
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
    return tied_stakes(t.tied_round_carry(), t.seats, t.round_bets)


def tied_stakes(carry, seats, bets):
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


def restore(t, data):
    """Put a freshly constructed controller into the state snapshot() gave (else RestoreError): the
    reading is firmware/games/baccarat/restore.py's, boot-only (parts.BOOT_ONLY)."""
    from firmware.games.baccarat.restore import restore as read_back
    read_back(t, data)
