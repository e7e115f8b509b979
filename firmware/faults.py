# Fault codes carried by FAULT events and host reports: the source of truth of these codes.
#
# A FAULT event is (FAULT, code, b). For some codes b is a handle into the table's evidence store
# (firmware.evidence): the bytes the reader sent, which the host report shows escaped; for the others, b
# is a card, a count or a code (QUEUE_FULL: events refused), reported as "card" or "detail". Which is
# which, each code's name and an alarm's severity are firmware/fault_kinds.py's, the module a running
# table imports: a board never imports this one (its public ints would stay in the heap as globals,
# issue 14). Every firmware module that raises or tests a code keeps a private const() copy
# (tests/host/test_const_copies.py); host tools, the simulator and tests import the codes from here.

BAD_CARD = const(1)        # a shoe frame's CARD with something that is not a card code
# 2 was BAD_DICE, the plain dice reader line's (removed; the framed reader's are DICE_* below). Its
# number stays reserved, never reused: host systems and a fault record saved before an update know it
# (fault_kinds.NAMES still names it "bad_dice").
LINE_TOO_LONG = const(3)   # a serial line overran its buffer and was dropped
QUEUE_FULL = const(4)      # the event queue was full: an event was refused
DISPLAY_MISSING = const(5) # a display did not answer on the I2C bus
CRASHED = const(6)         # the previous run ended in an unhandled exception
PARTIAL_LINE = const(7)    # a reader line stopped before its end and went quiet: dropped
UNEXPECTED_INPUT = const(8) # input on the reader port this game does not use (reported once)
FAULT_RECORD_BAD = const(9)      # the saved unacknowledged fault was unreadable (torn write?) at boot
FAULT_RECORD_UNSAVED = const(10) # a fault or its acknowledgement could not be saved for the next boot
# Game alarms raised by a table controller (b: the card concerned, or -1 when none is known);
# CARD_OUT_OF_ORDER also by the table core, for a card no state of the game took.
CARD_IMPOSSIBLE = const(11)  # a card the shoe cannot hold (composition, Baccarat art. 1): a foreign card
CARD_UNREADABLE = const(12)  # a card left the shoe unreadable: rescan it or void (art. 10); never guessed
DOUBLE_PULL = const(13)      # two cards out at once: the second is held for the dealer (art. 10)
CARD_OUT_OF_ORDER = const(14)  # a card when none may be drawn (no shoe in play, shoe finished, lamp check)
SHOE_REMOVED = const(15)     # the shoe was taken out during a round
CARD_MISSING = const(16)     # Omaha: an action keyed while the hand still waits for a card (art. 9)
# The host link's store is 75 % full (the host is away): reported (frames_held); a game then opens no
# new round: a card, throw or hand that would begin one is held as this alarm (b: the card, or -1).
LINK_BACKLOG = const(17)
BOOT_COUNTER_BAD = const(18) # the boot counter on flash failed its checks: it jumped ahead (host link)
# A deployed file missing or differing from manifest.json at boot (firmware.program): the table is
# held closed (Table.hold_closed) until a reset with the right program; no acknowledgement opens it.
PROGRAM_MISMATCH = const(19)
# The table journal on flash failed its checks at boot (flipped bits), or its snapshot did not fit
# this table: never used; the table started afresh and holds until CONFIRM (firmware/recovery.py).
JOURNAL_BAD = const(20)
# The board was reset or lost its power while cards were being drawn (Baccarat dealing or burning, an
# Omaha hand dealing): a card may have left the shoe while it was off. Recovery raises it as a reader
# fault: CONFIRM (the dealer vouches no card left), the card read again, or VOID (Baccarat art. 10,
# Omaha art. 9).
RESET_IN_ROUND = const(21)
# table.json does not match its seal at boot (firmware/settings_seal.py): changed outside a deploy or a
# settings change (a flipped bit): the table is held closed like PROGRAM_MISMATCH until a reset with a
# sealed file (tools.deploy --table, or the right file back).
SETTINGS_BAD = const(22)
# Never a fault report: the BETS_FAULT code of a bet reading the table refused whole because its journal
# has no room to keep it (three quarters full with no boundary to snapshot at, an alarm open, or full):
# b is the reading's id, not evidence. The room left is kept for what cannot be refused (a card, a throw,
# the dealer's buttons: firmware/recovery.py, TableJournal.refuses_readings).
JOURNAL_NEARLY_FULL = const(23)

# Device lines (framed shoe, bet reader, dice reader; docs/protocol.md "Device lines"). A FAULT
# from a device driver carries one of these (or BAD_CARD / LINE_TOO_LONG) and, in b, the evidence
# handle of the line that showed it (0 when there is none).
DEVICE_FIRST = const(32)
FRAME_SYNTAX = const(32)    # a line that is not a device frame
FRAME_CRC = const(33)       # a frame whose checksum does not match: refused unread
FRAME_DEVICE = const(34)    # a good frame from another kind of device (crossed cable)
FRAME_VERSION = const(35)   # a good frame in a protocol version the driver does not speak
FRAME_TYPE = const(36)      # a message type the device does not have
FRAME_ARGS = const(37)      # a message with the wrong words for its type
FRAME_LOST = const(38)      # the counter jumped: frames were lost (the driver keeps how many)
FRAME_CONFLICT = const(39)  # the last counter again with different bytes
SHOE_SENSOR = const(40)     # the shoe reported a sensor fault (FAULT <code>)
BETS_SENSOR = const(41)     # the bet reader reported a sensor fault
BETS_INCOMPLETE = const(42) # a bet reading out of order, cut short or miscounted: refused whole
BETS_BAD_SEAT = const(43)   # a seat number outside 1..seats: the reading is refused
BETS_BAD_ZONE = const(44)   # a zone outside the game's vocabulary: the reading is refused
BETS_BAD_AMOUNT = const(45) # an amount that is not a whole number 1..MAX_AMOUNT: refused
BETS_DUP_ZONE = const(46)   # the same zone twice for one seat: the reading is refused
DICE_BAD_FACE = const(47)   # a dice reader face not 1..6 (Craps art. 1(2)), 1c..6c or "-": never a throw
DICE_UNREAD = const(48)     # a die the reader could not see, in a throw that would count: never a throw
DICE_BAD_FLAG = const(49)   # a throw flag unknown, repeated or out of order: never a throw
DICE_SENSOR = const(50)     # the dice reader reported a sensor fault (FAULT <code>)
BETS_TAKE_DOWN = const(51)  # a take-down (zone=-) at a table that takes none: the reading is refused
SHOE_RESTARTED = const(52)  # the shoe said HELLO during a round: a card may have left it unreported
DICE_RESTARTED = const(53)  # the dice reader said HELLO at a Craps table in play: a throw may have gone unseen
# The bet reader said HELLO outside a reading (BETS_FAULT's a, b: evidence of the line): no fault, never
# held; reported as `bet_reader` `restarted` with its bytes, as the shoe's and the dice reader's are
# (inside a reading, its HELLO refuses the reading: BETS_INCOMPLETE).
BETS_RESTARTED = const(54)
