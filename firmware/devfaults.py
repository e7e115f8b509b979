# Fault codes of the device lines (shoe, bet reader, later the dice reader), for FAULT events.
#
# Kept apart from firmware.faults until the two are merged: the codes start at
# 32 so they cannot collide with the codes firmware.faults hands out. A FAULT
# event from a device driver carries one of these (or faults.BAD_CARD /
# faults.LINE_TOO_LONG, which keep their meaning) in a, and in b the
# firmware.evidence handle of the line that showed it (0 when there is none).
from firmware import faults
from firmware.compat import const

FIRST = const(32)
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

NAMES = ("frame_syntax", "frame_crc", "frame_device", "frame_version", "frame_type", "frame_args",
         "frame_lost", "frame_conflict", "shoe_sensor", "bets_sensor", "bets_incomplete",
         "bets_bad_seat", "bets_bad_zone", "bets_bad_amount", "bets_dup_zone")

# firmware.device_frame status -> fault code (index: the status; OK -> 0).
_FROM_STATUS = (0, faults.LINE_TOO_LONG, FRAME_SYNTAX, FRAME_CRC, FRAME_DEVICE, FRAME_VERSION,
                FRAME_TYPE, FRAME_ARGS)


def from_status(status):
    """The fault a refused frame yields (0 for device_frame.OK)."""
    return _FROM_STATUS[status]


def name(code):
    if FIRST <= code < FIRST + len(NAMES):
        return NAMES[code - FIRST]
    return faults.name(code)
