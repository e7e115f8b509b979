# The core table's codes: its states, its outbox codes and how the dealer closed an alarm (OUT_ACK's b).
#
# The source of truth of these codes (firmware/table.py's state machine uses them): a board never imports
# this module (its public ints would stay in the heap as globals, issue 14); every firmware module that
# uses one keeps a private const() copy (tests/host/test_const_copies.py), while host tools, the simulator
# and tests import them from here. A game's own states and outbox codes are its codes.py's, from
# GAME_FIRST_STATE and OUT_GAME_FIRST on; the words of OUT_ACK's b are firmware.table's ACK_NAMES.

STARTING = const(0)
READY = const(1)
FAULTED = const(2)
LAMP_CHECK = const(3)     # technician lamp check (console), entered from READY only
GAME_FIRST_STATE = const(4)  # a game controller's own states are numbered from here

# Outbox codes (what the report task turns into host reports).
OUT_STATE = const(1)      # a: new state
OUT_BUTTON = const(2)     # a: button index, b: pressed
# 3, 4 and 5 were OUT_CARD, OUT_DICE and OUT_NO_ROLL, the plain reader lines' reports (removed).
OUT_FAULT = const(6)      # a: fault code, b: detail
OUT_ACK = const(7)        # a: fault code acknowledged by the dealer
OUT_LAMP = const(8)       # a: zone index, LAMP_ALL or LAMP_CHECK_END
OUT_CONSOLE_ERROR = const(9)  # a: console error code, b: evidence handle
OUT_FAULT_RESTORED = const(10)  # a: fault code, b: detail (raised before the last reset)
OUT_HOST = const(11)      # a: HOST request the table could not serve, b: evidence of the line
OUT_LINK_BACKLOG = const(12)  # a: 1 raised, 0 cleared; b: frames the host link holds
OUT_CONSOLE = const(13)   # a: console action (events.CON_ACT_*), b: its detail
OUT_NOT_TAKEN = const(14)  # a: the shoe's message (events.SHOE_*) the table's state does not take
OUT_GAME_FIRST = const(32)  # codes from here on are a game controller's own (Table.game_report)

# OUT_ACK's b: how the dealer closed the alarm.
ACK_CONFIRM = const(0)
ACK_RESCAN = const(1)     # the card the alarm was about was read again
ACK_VOID = const(2)       # the round was voided (art. 10)

LAMP_STEP_MS = const(60)
