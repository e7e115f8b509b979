# Fault codes carried by FAULT events and host reports.
from firmware.compat import const

BAD_CARD = const(1)        # shoe sent something that is not a card code
BAD_DICE = const(2)        # dice reader sent faces outside 1..6 or garbage
LINE_TOO_LONG = const(3)   # a serial line overran its buffer and was dropped
QUEUE_FULL = const(4)      # the event queue was full: an event was refused
DISPLAY_MISSING = const(5) # a display did not answer on the I2C bus
CRASHED = const(6)         # the previous run ended in an unhandled exception
FAULT_RECORD_BAD = const(7)      # the saved unacknowledged fault was unreadable (torn write?) at boot
FAULT_RECORD_UNSAVED = const(8)  # a fault or its acknowledgement could not be saved for the next boot

NAMES = ("none", "bad_card", "bad_dice", "line_too_long", "queue_full", "display_missing", "crashed",
         "fault_record_bad", "fault_record_unsaved")


def name(code):
    return NAMES[code] if 0 <= code < len(NAMES) else "fault_%d" % code
