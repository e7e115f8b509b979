# The Omaha table controller's states, outbox codes, card destinations and keypad commands: the source of
# truth of these codes. A board never imports this module (its public ints would stay in the heap as
# globals, issue 14): the modules that use a code keep a private const() copy
# (tests/host/test_const_copies.py); host tools and tests import them from here. Their words are
# reports.DESTINATIONS and entry.KEY_WORDS.

DEALING = const(4)        # a hand waits for a card from the shoe (hole, burn or board)
BETTING = const(5)        # a hand waits for a keyed action

# Outbox codes of this controller, from table_codes.OUT_GAME_FIRST (32) on (firmware.report asks
# game_report() for their reports). Literals: const() takes no names from other modules.
OUT_HAND_START = const(32)  # a: hand number
OUT_DEALT = const(33)       # a: card, b: destination + 4 * (seat of a hole card, or street of a board card) + FACE_UP
OUT_ACTION = const(34)      # a: index in hand.history; the controller keeps stack, pot and all-in of it
OUT_REFUSED = const(35)     # a keypad entry not applied (the controller keeps seat, act, amount, reason, display)
OUT_RESULT = const(36)      # a: hand number (the controller keeps the HandResult)
OUT_SEAT = const(37)        # a: seat whose stack or in/out changed
OUT_BUTTON_SET = const(38)  # a: the next hand's button, keyed by the dealer
OUT_HOST_REFUSED = const(39)  # a host request refused by the table's state (the controller keeps the reason)
OUT_SHOE_HELLO = const(40)  # the shoe (re)started with no hand in doubt; b: evidence of its HELLO line

# Where a card went (OUT_DEALT's b % 4; reports.DESTINATIONS).
TO_HOLE = const(0)
TO_BURN = const(1)
TO_BOARD = const(2)
TO_DISCARD = const(3)
FACE_UP = const(128)      # OUT_DEALT's b: + FACE_UP for a card that came out of the shoe face up

NO_CARD = const(-1)       # an alarm's card when none is known
NO_SEAT = const(0)        # seats are 1..seats

# Keypad commands and keys (entry.py turns a key's legend into one of these once, at boot).
K_NEW = const(10)         # 0..9 are the digit keys
K_BUTTON = const(11)
K_SEAT = const(12)
K_STACK = const(13)
K_FOLD = const(14)
K_CHECK = const(15)
K_CALL = const(16)
K_BET = const(17)
K_RAISE = const(18)
K_ALLIN = const(19)
K_CLEAR = const(20)
K_ENTER = const(21)
K_NONE = const(255)       # no key there, or a legend this table does not know
# The legends of keys K_NEW .. K_ENTER: entry.KEY_WORDS.
