# The Omaha table's snapshot between hands (docs/journal.md, "What the table keeps").
#
# Boundary: READY with no hand running, no alarm open and no card held. The fields after the common
# head (firmware/snapshot.py), in order:
#   core      [last_kind, last_a, last_b]: the last input the displays show
#   state     1 (READY)
#   hand_no   hands started since the table opened
#   stacks    every seat's chips, seats 1..settings.seats
#   seat_in   one digit a seat: 1 dealt in when it has chips, 0 sitting out
#   buttons   [button (the last hand's), next_button_seat (keyed for the next hand, or kept after a void one)]: 0 none
#   shown     [showing_result, void_reason, prompt_void, answer (the display's answer to the last entry)]
#   entry     the keypad entry being keyed: [seat, command, amount, digits, keyed]
#   host      null, or the parsed host request waiting for its HOST event: [button, stacks or null]
#   last      null, or the last hand, dealt and bet again through rules.OmahaHand for its result and the
#             result lights: [button, [seat, start stack, ...] in dealing order, hole cards (hex, one
#             string a player), burns (hex), board (hex), [[street, seat, action, bet-to], ...], void]
# Every value is checked, and the last hand played again, before the table changes: refused whole
# (restore.py, boot-only).
from firmware import snapshot as S
from firmware.errors import RestoreError
from firmware.games.omaha import rules
from firmware.games.omaha.settings import SETTING_NAMES

# copies of firmware.games.omaha.codes (tests/host/test_const_copies.py)
_NO_CARD = const(-1)
_NO_SEAT = const(0)
# copies of firmware.table_codes (tests/host/test_const_copies.py)
_READY = const(1)

GAME = "omaha"


def at_boundary(t):
    return (t.state == _READY and S.outside_fault(t) and t.held_card == _NO_CARD
            and (t.hand is None or not t.hand_runs()))


def snapshot(t):
    if not at_boundary(t):
        raise RestoreError("no Omaha snapshot in %s: only between hands, with no alarm open" % t.state_name())
    e = t.entry
    host = None
    if t.host_button != _NO_SEAT or t.host_has_stacks:
        host = [t.host_button, list(t.host_stacks[1:]) if t.host_has_stacks else None]
    return S.encode([GAME, S.FORMAT, S.settings_values(t.settings, SETTING_NAMES), S.core_fields(t), t.state,
                     t.hand_no, list(t.stacks[1:]), "".join("%d" % v for v in t.seat_in[1:]),
                     [t.button, t.next_button_seat], [t.showing_result, t.void_reason, t.prompt_void, t.answer],
                     [e.seat, e.command, e.amount, e._digits, e.keyed], host, _last_fields(t.hand)])


def _last_fields(hand):
    if hand is None:
        return None
    starts = []
    for i in range(hand.n):
        starts += [hand.seats[i], hand.start[i]]
    return [hand.button, starts, [bytes(h).hex() for h in hand.hole], bytes(hand.burns).hex(),
            bytes(hand.board).hex(), [list(h) for h in hand.history], hand.phase == rules.EXPECT_VOID]


def restore(t, data):
    """Put a freshly constructed controller into the state snapshot() gave (else RestoreError): the
    reading is firmware/games/omaha/restore.py's, boot-only (parts.BOOT_ONLY)."""
    from firmware.games.omaha.restore import restore as read_back
    read_back(t, data)
