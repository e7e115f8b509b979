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
_RANKS = b"23456789TJQKA"
_SUITS = b"cdhs"
_UP = const(85)     # "U"
_DOWN = const(68)   # "D"


# byte -> rank / suit index, for the codes firmware.cards spells (a lookup, not a walk along _RANKS)
_RANK_OF = dict((_RANKS[i], i) for i in range(len(_RANKS)))
_SUIT_OF = dict((_SUITS[i], i) for i in range(len(_SUITS)))


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
        rank = _RANK_OF.get(line[at], -1)
        suit = _SUIT_OF.get(line[at + 1], -1)
        if rank < 0 or suit < 0:
            return -1
        return rank * 4 + suit
