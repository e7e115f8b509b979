# The table's event vocabulary: the kinds of event (kind, a, b) and what their a and b mean.
#
# The source of truth of these codes: a board never imports this module (its public ints would stay in
# the heap as globals, issue 14); every firmware module that uses one keeps a private const() copy
# (tests/host/test_const_copies.py), while host tools, the simulator and tests import them from here. The
# queue that carries the events is firmware.statemachine.EventQueue; the reports' names of the console's
# codes (CONSOLE_ERRORS, CONSOLE_ACTIONS) are firmware.report's.

# Event kinds. a/b meanings are given per kind.
TICK = const(1)          # a: ms since the previous tick
BUTTON = const(2)        # a: button index on the board, b: BUTTON_PRESSED / _RELEASED / _LONG
CARD = const(3)          # a: card 0..51 from the framed shoe (firmware.drivers.shoe), b: 1 if dealt face up
# 4 and 5 were DICE and NO_ROLL, the plain dice reader line's (removed): the framed dice reader posts THROW.
CONSOLE = const(6)       # a technician's console action for the host and the audit log (firmware/console):
                         # a: CON_ACT_* below, b: its detail (see CONSOLE_ACTIONS)
HOST = const(7)          # a: host command code (HOST_* below), b: argument
FAULT = const(8)         # a: fault code (see firmware.faults), b: detail
LAMP = const(9)          # a: zone index, LAMP_ALL or LAMP_CHECK_END (technician lamp check)
CONSOLE_ERROR = const(10)  # a: console error code (CONSOLE_ERRORS), b: evidence handle of the line
FAULT_RESTORED = const(11)  # a: fault code, b: detail: raised before the last reset, never acknowledged
# Device lines (docs/protocol.md, "Device lines"); CARD above is the framed shoe's too.
SHOE = const(12)         # a: shoe status (SHOE_* below), b: evidence handle (HELLO), SHOE_LET_IN or 0
BETS = const(13)         # a: reading id of the accepted bet reading, b: seats with chips
BETS_FAULT = const(14)   # a: fault code (firmware.faults) from the bet reader's line, b: evidence handle

# HOST's a: what the host asked for (a line on the report port).
HOST_UNKNOWN = const(0)      # a line the table does not understand, not framed (b: evidence handle)
HOST_ROADS = const(1)        # the roads of the shoe in play
HOST_HAND = const(2)         # Omaha: start a hand (the game parsed the JSON request and holds its fields)
HOST_BAD = const(3)          # a request refused (b: evidence handle; the reason, its tag: table.host_reason, _tag)
HOST_RECALL = const(4)       # a RECALL frame: the last b rounds (firmware/round_recall.py answers it)
HOST_OPEN_BETS = const(5)    # Craps: the bets open now (b: the frames the answer may take then, -1: unknown)
# The host's tag for a ROADS, HAND, RECALL or OPEN_BETS request (its frame's `#0.<tag>`, 0: none), given back in
# the answer so that a host tells it from an older one still on the link: b's bits from HOST_TAG_SHIFT up, below
# them the argument (the frames' room, the rounds; 0 for the others). Kept with the event in the table journal: a recovery's
# replay answers with it too. At most HOST_TAG_MAX: the packed b stays a small int on a 31-bit port.
HOST_TAG_SHIFT = const(16)
HOST_TAG_MAX = const(9999)
HOST_ARG_MASK = const(0xFFFF)

# BUTTON's b.
BUTTON_RELEASED = const(0)
BUTTON_PRESSED = const(1)
BUTTON_LONG = const(2)       # still held a long-press time after the press (reported once)

# LAMP's a when it is not a zone index.
LAMP_ALL = const(-1)         # light every zone
LAMP_CHECK_END = const(-2)   # end the check: the state's own lights come back

# Console error codes (CONSOLE_ERROR's a); firmware.report's CONSOLE_ERRORS[code] is the host report's name.
CON_UNREADABLE = const(1)       # not text, or control / non-ASCII characters
CON_LINE_TOO_LONG = const(2)    # longer than the console line buffer: dropped whole
CON_TOO_MANY_WORDS = const(3)
CON_UNKNOWN_COMMAND = const(4)
CON_USAGE = const(5)            # a known command with wrong arguments
CON_NO_ZONE = const(6)          # lamp: no such zone in the active layout
CON_REFUSED = const(7)          # the table's state refuses it (lamp check during a fault)
CON_LOGIN_REQUIRED = const(8)   # a command that changes state, typed without a technician login
CON_AUDIT_FAILED = const(9)     # the audit log could not be written: the action was refused

# CONSOLE's a (docs/console.md, "Audit"); firmware.report's CONSOLE_ACTIONS[code] is the report's and the audit
# log's word.
CON_ACT_LOGIN = const(1)          # b: 0
CON_ACT_LOGIN_FAILED = const(2)   # b: wrong PINs in a row so far
CON_ACT_LOCKOUT = const(3)        # b: seconds the console stays locked
CON_ACT_LOGOUT = const(4)         # b: 0
CON_ACT_IDLE_LOGOUT = const(5)    # b: 0
CON_ACT_PASSWD = const(6)         # b: 0 (the PIN itself is never reported nor kept)
CON_ACT_COMMAND = const(7)        # b: evidence handle of the command line that changes state
CON_ACT_LOCKED = const(8)         # a login tried while locked; b: seconds left


# SHOE statuses.
SHOE_HELLO = const(1)    # the shoe (re)started: cards it saw while off were never reported
SHOE_CUT = const(2)      # the cut card came out (Baccarat art. 3(1))
SHOE_IN = const(3)       # a shoe was inserted
SHOE_OUT = const(4)      # the shoe was removed (Baccarat art. 3(2): changed after a round)
SHOE_UNREAD = const(5)   # a card left the shoe unreadable: a dealer prompt (Baccarat art. 10)
SHOE_LET_IN = const(1)   # SHOE_IN's and SHOE_OUT's b: the table's own, no device's: a new shoe held for a settings
                         # change let in once it ran, the shoe in play taken out for it (firmware/settings_swap.py
                         # new_shoe_first); the shoe's driver sends 0


# The framed dice reader (docs/protocol.md, "Dice reader"). One throw is one THROW event, whatever
# the reader saw; firmware.throws turns its (a, b) back into the Craps engine's report
# (firmware.games.craps.dice.check_report), the same shape the host report shows.
THROW = const(15)              # a: die 1 * THROW_FACE_BASE + die 2 (a face 0: unread), b: THROW_* flags
DICE_READER_HELLO = const(16)  # the dice reader (re)started (a throw while it was off was never seen);
                               # a: DICE_HELLO_*, b: evidence handle of its HELLO line
DICE_HELLO_FIRST = const(0)    # its first frame since the board booted: its power-up, or the board's own reset
DICE_HELLO_AGAIN = const(1)    # it had spoken since the board booted: it restarted under the table's eyes
KEY = const(17)                # a dealer keypad key was pressed (debounced; releases are no events);
                               # a: key index (row * columns + column, Board.keypad_keys), b: 0
LINK_BACKLOG = const(18)       # the host link's store reached its alarm level (a: 1) or fell back (a: 0);
                               # b: frames held. A game opens no new round while it is up
                               # (docs/host-link.md, "When the host is away")
THROW_FACE_BASE = const(8)     # faces 0..6 fit 3 bits each: a = 0..54

# THROW's b: what the reader saw, one bit each (their words on the wire, in this order: firmware.throws).
THROW_OFF_TABLE = const(1)     # a die left the layout: no roll (Craps art. 3(2)(1))
THROW_SHORT = const(2)         # the dice did not pass the centre: no roll (art. 3(2)(2))...
THROW_WALL = const(4)          # ...unless a die hit a wall: with THROW_SHORT the throw counts
THROW_NOT_ROLLED = const(8)    # the dice did not roll: no roll (arts. 2(5), 3(3))
THROW_INVALID = const(16)      # flagged invalid for another reason: no roll (the report's "valid": false)
THROW_COCKED1 = const(32)      # die 1 rests cocked; its face is the one the reader settled on (art. 3(1))
THROW_COCKED2 = const(64)      # die 2 likewise
