# The card-reading shoe on its UART: device frames (docs/protocol.md, "Shoe") -> table events.
#
#   HELLO <firmware>   the shoe (re)started         -> SHOE SHOE_HELLO, b = evidence of the line
#   CARD <code> U|D    a card left the shoe         -> CARD card, 1 face up / 0 face down
#   CUT                the cut card came out        -> SHOE SHOE_CUT
#   IN / OUT           shoe inserted / removed      -> SHOE SHOE_IN / SHOE_OUT
#   UNREAD             a card left, unreadable      -> SHOE SHOE_UNREAD
#   FAULT <code>       the shoe's sensor fault      -> FAULT faults.SHOE_SENSOR, b = evidence
#
# The driver reports; the table controller decides. A face-up card is still a
# card (Baccarat art. 4). An unreadable card is never replaced by a guess: it
# is SHOE_UNREAD, a dealer prompt under Baccarat art. 10 (correct the dealing
# error at once, or the round is void). A lost frame (FAULT FRAME_LOST) may
# have been a card: the controller treats the round the same way.
from firmware.drivers.device_link import DeviceLink

# copies of firmware.events (tests/host/test_const_copies.py)
_CARD = const(3)
_SHOE = const(12)
_SHOE_CUT = const(2)
_SHOE_HELLO = const(1)
_SHOE_IN = const(3)
_SHOE_OUT = const(4)
_SHOE_UNREAD = const(5)
# copies of firmware.faults (tests/host/test_const_copies.py)
_BAD_CARD = const(1)
_FRAME_ARGS = const(37)
_SHOE_SENSOR = const(40)

DEVICE = b"S"
VERSION = const(1)
MAX_SENSOR_CODE = const(65535)

# Message types: (name, fewest words, most words); index 0 is HELLO for every device.
TYPES = (
    (b"HELLO", 1, 1),
    (b"CARD", 2, 2),
    (b"CUT", 0, 0),
    (b"IN", 0, 0),
    (b"OUT", 0, 0),
    (b"UNREAD", 0, 0),
    (b"FAULT", 1, 1),
)
_MSG_HELLO = const(0)
_MSG_CARD = const(1)
_MSG_FAULT = const(6)
# SHOE status per message type (0: not a status message).
_STATUS = (_SHOE_HELLO, 0, _SHOE_CUT, _SHOE_IN, _SHOE_OUT, _SHOE_UNREAD, 0)

# Card code on the wire: exactly firmware.cards' canonical spelling, rank then suit.
_UP = const(85)     # "U"
_DOWN = const(68)   # "D"

# byte - "2" -> rank index (firmware.cards.RANKS: "2".."9" at 0..7, "A" at 15, "J" 24, "K" 25, "Q" 31,
# "T" 34), byte - "c" -> suit index ("c" 0, "d" 1, "h" 5, "s" 16), 0xFF: no such rank or suit. Literals
# (test_kept_literals builds them from firmware.cards and compares): constants in flash when frozen or
# in ROMFS; the two dicts they replace, made at import, kept 208 bytes of the heap in the VM (issue 14).
_RANK_AT = (b"\x00\x01\x02\x03\x04\x05\x06\x07\xff\xff\xff\xff\xff\xff\xff\x0c"
             b"\xff\xff\xff\xff\xff\xff\xff\xff\x09\x0b\xff\xff\xff\xff\xff\x0a\xff\xff\x08")
_SUIT_AT = b"\x00\x01\xff\xff\xff\x02\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x03"
_RANK_FIRST = const(50)    # "2"
_RANK_SPAN = const(35)     # "2".."T"
_SUIT_FIRST = const(99)    # "c"
_SUIT_SPAN = const(17)     # "c".."s"


class Shoe(DeviceLink):
    def __init__(self, source, queue, evidence):
        DeviceLink.__init__(self, source, queue, evidence, DEVICE, VERSION, TYPES)
        self.cards = 0           # CARD messages turned into CARD events

    def _message(self, frame):
        kind = frame.type
        if kind == _MSG_CARD:
            card = self._card(frame)
            if card < 0:
                self.fault(_BAD_CARD)
                return
            self.cards += 1
            self.queue.put(_CARD, card, 1 if frame.line[frame.starts[1]] == _UP else 0)  # arg_byte(1)
        elif kind == _MSG_FAULT:
            if frame.arg_uint(0, MAX_SENSOR_CODE) < 0:
                self.fault(_FRAME_ARGS)
            else:
                self.fault(_SHOE_SENSOR)
        elif kind == _MSG_HELLO:
            self.queue.put(_SHOE, _SHOE_HELLO, self.keep_line())
        else:
            self.queue.put(_SHOE, _STATUS[kind], 0)

    def _card(self, frame):
        """Card int from CARD's words, or -1 (a code firmware.cards does not spell, or no U/D)."""
        # (arg_len() and arg_byte() read inline: three method calls a card fewer)
        starts = frame.starts
        ends = frame.ends
        at = starts[0]
        if ends[0] - at != 2 or ends[1] - starts[1] != 1:
            return -1
        line = frame.line
        face = line[starts[1]]
        if face != _UP and face != _DOWN:
            return -1
        r = line[at] - _RANK_FIRST
        s = line[at + 1] - _SUIT_FIRST
        if not (0 <= r < _RANK_SPAN and 0 <= s < _SUIT_SPAN):
            return -1
        rank = _RANK_AT[r]
        suit = _SUIT_AT[s]
        if rank > 12 or suit > 3:
            return -1
        return rank * 4 + suit
