# The Craps controller's states and outbox codes, and the bets' kinds and settlements: the source of truth
# of these codes. A board never imports this module (its public ints would stay in the heap as globals,
# issue 14): the modules that use a code keep a private const() copy (tests/host/test_const_copies.py);
# host tools and tests import them from here. Their words in reports are reports.py's (SHOOTER_WHY) and
# bets.py's (KIND_NAMES, RESULT_NAMES).

COME_OUT = const(4)       # puck OFF: the next valid throw is a come-out roll (art. 5(2)(1))
POINT = const(5)          # puck ON: a point is set

# Outbox codes of this controller, from table_codes.OUT_GAME_FIRST (32) on (firmware.report asks
# game_report() for their reports). Literals: const() takes no names from other modules.
OUT_THROW = const(32)       # a: THROW's a (faces), b: THROW's b (flags); the controller keeps the rest
OUT_BETS = const(33)        # a: reading id, b: bets refused in it (each an OUT_BET_REFUSED after it)
OUT_BET_REFUSED = const(34)  # a: first index into the controller's refusals of the last reading, b: how many
OUT_SHOOTER = const(35)     # a: shooters so far (the new shooter's number), b: SHOOTER_WHY index
OUT_BETS_FAULT = const(36)  # a: fault code, b: evidence (the reading was refused whole)
OUT_PUCK = const(37)        # a: the point (0: puck OFF)
OUT_THROW_HELD = const(38)  # a, b: as OUT_THROW: a throw while the table was held (never decided)
OUT_READER = const(39)      # the dice reader (re)started; b: evidence of its HELLO line
OUT_BET_DOWN = const(40)    # a: first index into the controller's downs (the last reading's), b: how many
OUT_BET_REFUSED_MORE = const(41)  # a: reading id, b: its refusals past the itemized ones (the last b: one report)
OUT_BET_DOWN_MORE = const(42)     # a: reading id, b: its take-downs past the itemized ones (the last b: one report)
OUT_BETS_NO_ROOM = const(43)      # a: reading id, b: its bets and take-downs: refused whole, no room for their reports
OUT_OPEN_BETS = const(44)         # the host's open_bets request; b: the frames its answer may take (-1: unknown)

# What one bet reading reports goes into the host link's store in the one pass: past its room the
# reports are refused there (LOST), past 62 frames one is unsendable
# (docs/host-link.md, "When the host is away"). So a reading's reports are bounded, in frames of
# 128-byte pieces (firmware.startup HOST_PIECE), by the room the store has when the reading comes
# (table.link_room: firmware.main gives it before each reading, the table journal keeps it with the
# reading), less 3 frames kept for the next reading (readings.py), and
# at most READING_FRAMES: the store's 64 (HOST_STORE_FRAMES) less the sender's window of 8 frames (tests
# check these against startup). A host that keeps up leaves the whole of it; one that has not yet
# acknowledged the last reading (two near-worst readings within a second) leaves less, and the reading
# places fewer bets (the rest refused, readings.ROOM_REASON), or none: refused whole (OUT_BETS_NO_ROOM).
READING_FRAMES = const(56)
# The money a reading moves is reported whole: the bets report's placed table and the take-downs (the first
# ones one by one, the rest in one bets_taken_down_more). Worst cases (a 10-digit seq, a 12-character
# table id, 32 seats, the reading id 10 digits): the bets report's head and tail 115 bytes, the
# take-downs summary's 130, each 10 bytes a seat in either (`"32": {}, `, 640 in all); an entry
# `"dont_come_odds_10": 999999999, ` 32 bytes, a taken-down row (stakes of one spot added up, at most
# max_open_bets 4096 of 9 digits: 13 digits) 36. 115 + 130 + 640 = 885 bytes: 7 frames; with a frame for
# the `state` report of a first reading, 2 for rounding the two reports up to whole frames and 4 for
# bets_refused_more (433 bytes: 32 seats), 14 frames and 36 bytes an entry: (56 - 14) * 128 / 36 = 149
# entries. A reading places and takes down at most READING_BETS_MOST bets (one take-down may bring down
# 2 rows, a line bet and its odds: 145 entries at most); past it a take-down or a bet the rules would take
# is refused (the bet stays in play, the chips never play). A busy full table's reading (14 seats, ~50
# bets; even 10 a seat) is within it. In less room (R frames) the most is (R - 14) * 128 // 36 - 1.
READING_BETS_MOST = const(144)
# What the rest of the room holds, reported one by one: the first take-downs (bet_taken_down: 139 bytes at
# most, 2 frames) and refusals (bet_refused: with the longest reason, a bet put on a come point, 315
# bytes, 3 frames), at most this many of each; fewer when the reading's money leaves less room
# (readings.Readings._itemized). The rest: bets_taken_down_more, bets_refused_more.
REFUSALS_ITEMIZED = const(8)
TAKE_DOWNS_ITEMIZED = const(8)

# OUT_SHOOTER's b: why the dice passed on (art. 4; reports.SHOOTER_WHY).
SHOOTER_SEVEN_OUT = const(0)
SHOOTER_COME_OUT_CRAPS = const(1)
SHOOTER_STOPPED = const(2)

LAST_THROWS = const(6)      # throws the result display shows

# The bets (firmware/games/craps/bets.py, which keeps copies of these): their kinds, small ints, the
# indexes of bets.KIND_NAMES (art. 5).
PASS = const(0)
DONT_PASS = const(1)
PASS_ODDS = const(2)
DONT_PASS_ODDS = const(3)
COME = const(4)
DONT_COME = const(5)
COME_ODDS = const(6)
DONT_COME_ODDS = const(7)
ANY_CRAPS = const(8)
ANY_SEVEN = const(9)
ELEVEN = const(10)
ACE_DEUCE = const(11)
ACES = const(12)
BOXCARS = const(13)
HORN = const(14)
FIELD = const(15)
BIG = const(16)
SMALL = const(17)
HARD = const(18)
BIG_NUMBER = const(19)

# A bet's settlement on a roll (bets.settle_line, settle_prop; the words: bets.RESULT_NAMES).
STAND = const(0)  # the bet stays on the layout
WIN = const(1)
LOSE = const(2)
PUSH = const(3)   # stake returned (Don't Pass / Don't Come bar 12, art. 5(2)(3))
MOVE = const(4)   # line bet gets its point (art. 5(2)(1), 5(2)(5))

# bets.ZONE_TABLE's columns: a bet's number 0..10 (ZONE_TABLE[kind * ZONE_COLUMNS + number]).
ZONE_COLUMNS = const(11)
