# The Baccarat controller's states and outbox codes, and what a card can go to: the source of truth of
# these codes. A board never imports this module (its public ints would stay in the heap as globals,
# issue 14): the controller, its alarm handling, lights, screens and reports keep private const() copies
# (tests/host/test_const_copies.py); host tools and tests import them from here. Their words in reports
# are reports.py's (SHOE_NEWS, DESTINATIONS); the nets array's type is payouts.NETS_TYPE.

BURNING = const(4)        # art. 2(1): burning the start of a new shoe
BETTING = const(5)        # between rounds: bets open, the next card starts a round
DEALING = const(6)        # a round in progress
SHOE_CLOSED = const(7)    # art. 3(1): the last round was played; a new shoe is needed

# Outbox codes of this controller, from table_codes.OUT_GAME_FIRST (32) on (firmware.report asks
# game_report() for their reports). Literals: const() takes no names from other modules.
OUT_SHOE = const(32)      # a: SHOE_NEWS index, b: its number (decks, cards, round)
OUT_DEALT = const(33)     # a: card, b: destination * 2 + face up
OUT_ROUND = const(34)     # a: round number, b: 1 demo
OUT_RESULT = const(35)    # a: round number (the controller keeps the rest)
OUT_BETS = const(36)      # a: reading id, b: 1 taken for the next round / 0 refused
OUT_ROADS = const(37)     # the roads of the shoe (a host request)
OUT_BETS_FAULT = const(38)  # a: fault code, b: evidence (the reading was refused)

# OUT_SHOE's a: what happened to the shoe (reports.SHOE_NEWS, the report's "shoe").
NEWS_NEW = const(0)
NEWS_BURNED = const(1)
NEWS_CUT = const(2)
NEWS_CLOSED = const(3)
NEWS_REMOVED = const(4)
NEWS_RESTARTED = const(5)
NEWS_ROADS_FULL = const(6)

# Where a card went (OUT_DEALT's b // 2, reports.DESTINATIONS): the hands are rules.PLAYER / rules.BANKER.
TO_BURN = const(2)
TO_DISCARD = const(3)

# What a live tie leaves for the next live round (art. 11, the tie_option it was played under): the
# controller's tie_kept and tied_round_carry(), a snapshot's tie_stakes.
TIE_NONE = const(0)           # returned (11(1)), or no live tie with bets
TIE_STANDING = const(1)       # 11(2): they play again unchanged
TIE_CHANGEABLE = const(2)     # 11(3): they play again unless a reading changed them

DOUBLE_PULL_MS = const(150)   # two cards closer than this came out together (no dealer draws that fast)
NO_CARD = const(-1)         # a fault's card when none is known
