# The Craps controller's states and outbox codes: shared by the controller, its alarms, lights,
# screens and reports.
from firmware.compat import const

COME_OUT = const(4)       # puck OFF: the next valid throw is a come-out roll (art. 5(2)(1))
POINT = const(5)          # puck ON: a point is set

# Outbox codes of this controller, from table.OUT_GAME_FIRST (32) on (firmware.report asks
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

# A reading's refusals reported one by one (bet_refused, two link frames each); the rest are counted in one
# bets_refused_more report: hundreds in one pass (a reader misreading every stack) outran the host link's
# store (64 frames), refused there, with the reports after them, as LOST.
REFUSALS_ITEMIZED = const(8)
# Its take-downs alike (bet_taken_down, a frame or two each), the rest with their stakes in one
# bets_taken_down_more report: 14 seats taking down 6 bets each outran the store (21 of 84 LOST).
TAKE_DOWNS_ITEMIZED = const(8)

# OUT_SHOOTER's b: why the dice passed on (art. 4).
SHOOTER_SEVEN_OUT = const(0)
SHOOTER_COME_OUT_CRAPS = const(1)
SHOOTER_STOPPED = const(2)
SHOOTER_WHY = ("seven_out", "come_out_craps", "stopped")

LAST_THROWS = const(6)      # throws the result display shows
