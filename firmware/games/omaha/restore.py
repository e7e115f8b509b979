# The Omaha table's snapshot read back (restore): every field checked, and everything built, before the
# table changes; a snapshot that does not fit is refused whole (RestoreError). The fields are
# firmware/games/omaha/snapshot.py's, which writes them at every boundary. Boot-only (parts.BOOT_ONLY): the
# snapshot module imports it when a recovery or a settings change restores a table; both release it.
from firmware import snapshot_restore as R
from firmware.errors import GameError, RestoreError
from firmware.games.omaha import rules
from firmware.games.omaha.settings import SETTING_NAMES
from firmware.games.omaha.snapshot import GAME

# copies of firmware.games.omaha.codes (tests/host/test_const_copies.py)
_K_NONE = const(255)
_NO_SEAT = const(0)
# copies of firmware.games.omaha.entry (tests/host/test_const_copies.py)
_MAX_DIGITS = const(9)
_NO_NUMBER = const(-1)
# copies of firmware.games.omaha.settings (tests/host/test_const_copies.py)
_MAX_PLAYERS = const(11)
# copies of firmware.table_codes (tests/host/test_const_copies.py)
_READY = const(1)

_BIG = 2 ** 31 - 1
_TEXT = 120                       # void reasons and display answers are short words


def restore(t, data):
    R.check_fresh(t, t.hand is not None or t.hand_no or any(t.stacks) or t.next_button_seat)
    f = R.decode(data, GAME, t.settings, SETTING_NAMES)
    seats = t.seats
    core = f.ints("core", 3, -_BIG, _BIG)
    f.int("state", _READY, _READY)
    hand_no = f.int("hand_no", 0, _BIG)
    stacks = f.ints("stacks", seats, 0, _BIG)
    seat_in = f.text("seat_in", seats)
    if len(seat_in) != seats or seat_in.strip("01"):
        f.fail("a digit 0 or 1 for each of %d seats" % seats, seat_in)
    buttons = f.ints("buttons", 2, _NO_SEAT, seats)
    shown = f.array("shown", 4, 4)
    showing_result = f.flag("shown", shown[0])
    void_reason = f.text("shown void_reason", _TEXT, shown[1])
    prompt_void = f.flag("shown prompt_void", shown[2])
    answer = f.text("shown answer", _TEXT, shown[3])
    entry = _entry(f)
    host = _host(f, seats)
    hand = _last(f, t.settings, hand_no)
    f.end()
    if showing_result and hand is None:
        f.name = "shown"
        f.fail("no result shown without a last hand", shown)
    # Everything fits: the table takes it at once (nothing below can fail).
    t.hand_no = hand_no
    for s in range(1, seats + 1):
        t.stacks[s] = stacks[s - 1]
        t.seat_in[s] = 1 if seat_in[s - 1] == "1" else 0
    t.button, t.next_button_seat = buttons
    t.showing_result = showing_result
    t.void_reason = void_reason
    t.prompt_void = prompt_void
    t.answer = answer
    e = t.entry
    e.seat, e.command, e.amount, e._digits, e.keyed = entry
    t.host_button = host[0]
    t.host_has_stacks = host[1] is not None
    for s in range(1, seats + 1):
        t.host_stacks[s] = host[1][s - 1] if host[1] is not None else 0
    t.hand = hand
    t.result = hand.result() if hand is not None else None
    R.restore_core(t, core, _READY)
    t._render_lights()                          # as _enter_ready, without its report


def _entry(f):
    fields = f.array("entry", 5, 5)
    seat = f.int("entry seat", _NO_NUMBER, 10 ** _MAX_DIGITS - 1, fields[0])
    command = f.int("entry command", 10, _K_NONE, fields[1])
    amount = f.int("entry amount", _NO_NUMBER, 10 ** _MAX_DIGITS - 1, fields[2])
    digits = f.int("entry digits", 0, _MAX_DIGITS, fields[3])
    return [seat, command, amount, digits, f.flag("entry keyed", fields[4])]


def _host(f, seats):
    fields = f.array("host", 2, 2, nullable=True)
    if fields is None:
        return [_NO_SEAT, None]
    button = f.int("host button", _NO_SEAT, seats, fields[0])
    stacks = None
    if fields[1] is not None:
        stacks = f.ints("host stacks", seats, 0, _BIG, fields[1])
    return [button, stacks]


def _last(f, settings, hand_no):
    """The last hand, dealt and bet again in the order the hand asks for its cards and actions."""
    fields = f.array("last", 7, 7, nullable=True)
    if fields is None:
        return None
    if hand_no < 1:
        f.fail("null before the first hand", fields)
    button = f.int("last button", 1, settings.seats, fields[0])
    starts = f.array("last starts", 4, 2 * _MAX_PLAYERS, fields[1])
    for v in starts:
        f.int("last starts", 0, _BIG, v)
    stacks = [(starts[k], starts[k + 1]) for k in range(0, len(starts) - 1, 2)]
    hole = [f.hex_bytes("last hole", 4, h) for h in f.array("last hole", len(stacks), len(stacks), fields[2])]
    burns = f.hex_bytes("last burns", 3, fields[3])
    board = f.hex_bytes("last board", 5, fields[4])
    history = f.array("last history", 0, _BIG, fields[5])
    void = f.flag("last void", fields[6])
    f.name = "last"
    try:
        hand = rules.OmahaHand(settings, button, stacks)
        _play(f, hand, hole, burns, board, history)
        if void:
            hand.misdeal()
    except RestoreError:
        raise
    except GameError as exc:
        f.fail("a hand the rules play again (%s)" % exc, fields)
    if hand.expected()[0] != (rules.EXPECT_VOID if void else rules.EXPECT_DONE):
        f.fail("a hand that is over", fields)
    return hand


def _play(f, hand, hole, burns, board, history):
    taken = [0] * len(hole)
    burned = dealt = acted = 0
    while True:
        kind, seat = hand.expected()
        if kind == rules.EXPECT_HOLE:
            i = hand.index_of(seat)
            if taken[i] >= len(hole[i]):
                break
            hand.deal(hole[i][taken[i]])
            taken[i] += 1
        elif kind == rules.EXPECT_BURN and burned < len(burns):
            hand.deal(burns[burned])
            burned += 1
        elif kind == rules.EXPECT_BOARD and dealt < len(board):
            hand.deal(board[dealt])
            dealt += 1
        elif kind == rules.EXPECT_ACTION and acted < len(history):
            _act(f, hand, history[acted])
            acted += 1
        else:
            break
    if sum(taken) != sum(len(h) for h in hole) or burned != len(burns) or dealt != len(board) \
            or acted != len(history):
        f.fail("cards and actions the hand takes, all of them", None)


def _act(f, hand, entry):
    if not isinstance(entry, list) or len(entry) != 4 or entry[2] not in rules.ACTIONS:
        f.fail("[street, seat, action, bet-to]", entry)
    street, seat, action, bet_to = entry
    amount = bet_to if action == rules.BET or action == rules.RAISE else None
    hand.act(seat, action, amount)
    if list(hand.history[-1]) != entry:
        f.fail("the action as the hand took it", entry)
