# Fault codes carried by FAULT events and host reports.
#
# A FAULT event is (FAULT, code, b). For the codes in _EVIDENCE, b is a handle
# into the table's evidence store (firmware.evidence): the bytes the reader
# sent, which the host report shows escaped. For the others, b is a count or
# a code (QUEUE_FULL: events refused), reported as "detail".
from firmware.compat import const

BAD_CARD = const(1)        # shoe sent something that is not a card code
BAD_DICE = const(2)        # dice reader sent faces outside 1..6, an unknown no-roll reason or garbage
LINE_TOO_LONG = const(3)   # a serial line overran its buffer and was dropped
QUEUE_FULL = const(4)      # the event queue was full: an event was refused
DISPLAY_MISSING = const(5) # a display did not answer on the I2C bus
CRASHED = const(6)         # the previous run ended in an unhandled exception
PARTIAL_LINE = const(7)    # a reader line stopped before its end and went quiet: dropped
UNEXPECTED_INPUT = const(8) # input on the reader port this game does not use (reported once)
FAULT_RECORD_BAD = const(9)      # the saved unacknowledged fault was unreadable (torn write?) at boot
FAULT_RECORD_UNSAVED = const(10) # a fault or its acknowledgement could not be saved for the next boot

NAMES = ("none", "bad_card", "bad_dice", "line_too_long", "queue_full", "display_missing", "crashed",
         "partial_line", "unexpected_input", "fault_record_bad", "fault_record_unsaved")

_EVIDENCE = (BAD_CARD, BAD_DICE, LINE_TOO_LONG, PARTIAL_LINE, UNEXPECTED_INPUT)


def name(code):
    return NAMES[code] if 0 <= code < len(NAMES) else "fault_%d" % code


def has_evidence(code):
    """True when a FAULT event's b for this code is an evidence handle (not a count)."""
    return code in _EVIDENCE
