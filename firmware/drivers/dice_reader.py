# The Craps dice reader (camera or sensor module) on its UART: device frames (docs/protocol.md,
# "Dice reader") -> table events.
#
#   HELLO <firmware>             the reader (re)started    -> DICE_READER_HELLO, b = evidence of the line,
#                                a = DICE_HELLO_AGAIN when it had spoken since boot, else DICE_HELLO_FIRST
#   THROW <d1> <d2> [<flag>...]  one throw, as seen        -> THROW a = faces, b = flags (firmware.throws)
#   FAULT <code>                 the reader's sensor fault -> FAULT faults.DICE_SENSOR, b = evidence
#
# A face is 1..6; the same followed by "c" for a die resting cocked, read as the face the reader
# settled on (Craps art. 3(1)); or "-" for a die the reader could not see, which only a no roll
# may have. The flags are firmware.throws.FLAG_WORDS, each at most once and in that order, so a
# throw has one spelling. The driver reports what the reader saw and the engine decides roll or no
# roll (dice.check_report on throws.report(a, b)); the driver only refuses what a reader
# cannot have seen from two true dice: a face outside 1..6 (art. 1(2)), an unread die in a throw
# that would count, an unknown, repeated or misplaced flag. Each is a FAULT with the line as
# evidence, never a throw, and nothing is guessed. A lost frame (FAULT FRAME_LOST) may have been a
# throw: the controller decides what the round does about it.
from firmware.drivers.device_link import DeviceLink
from firmware.throws import COCKED_BITS, FLAG_BITS, FLAG_WORDS, no_roll, pack

# copies of firmware.device_frame (tests/host/test_const_copies.py)
_MAX_ARGS = const(8)
# copies of firmware.events (tests/host/test_const_copies.py)
_DICE_HELLO_AGAIN = const(1)
_DICE_HELLO_FIRST = const(0)
_DICE_READER_HELLO = const(16)
_THROW = const(15)
# copies of firmware.faults (tests/host/test_const_copies.py)
_DICE_BAD_FACE = const(47)
_DICE_BAD_FLAG = const(49)
_DICE_SENSOR = const(50)
_DICE_UNREAD = const(48)
_FRAME_ARGS = const(37)
# copies of firmware.throws (tests/host/test_const_copies.py)
_MAX_FACE = const(6)
_UNREAD = const(0)

DEVICE = b"D"
VERSION = const(1)
MAX_SENSOR_CODE = const(65535)

# Message types: (name, fewest words, most words); index 0 is HELLO for every device. THROW takes
# up to MAX_ARGS words so that a flag too many is refused for what it is (DICE_BAD_FLAG).
TYPES = (
    (b"HELLO", 1, 1),
    (b"THROW", 2, _MAX_ARGS),
    (b"FAULT", 1, 1),
)
_MSG_HELLO = const(0)
_MSG_THROW = const(1)
_MSG_FAULT = const(2)

_FIRST_FLAG = const(2)     # THROW's words: d1, d2, then the flags
_DIGIT_0 = const(48)
_COCKED_MARK = const(99)   # "c" after a face
_UNREAD_MARK = const(45)   # "-"
_BAD = const(-1)
_COCKED = const(8)         # _face()'s result: face | _COCKED for a cocked die (faces fit 3 bits)


class DiceReader(DeviceLink):
    def __init__(self, source, queue, evidence):
        DeviceLink.__init__(self, source, queue, evidence, DEVICE, VERSION, TYPES)
        self.throws = 0          # THROW messages turned into THROW events

    def _message(self, frame):
        kind = frame.type
        if kind == _MSG_THROW:
            self._throw(frame)
        elif kind == _MSG_FAULT:
            if frame.arg_uint(0, MAX_SENSOR_CODE) < 0:
                self.fault(_FRAME_ARGS)
            else:
                self.fault(_DICE_SENSOR)
        else:
            # frames_ok counts this HELLO: more, and the reader had spoken since the board booted.
            again = _DICE_HELLO_AGAIN if self.frames_ok > 1 else _DICE_HELLO_FIRST
            self.queue.put(_DICE_READER_HELLO, again, self.keep_line())

    def _throw(self, frame):
        d1 = _face(frame, 0)
        d2 = _face(frame, 1)
        if d1 == _BAD or d2 == _BAD:
            self.fault(_DICE_BAD_FACE)
            return
        flags = 0
        if d1 & _COCKED:
            flags |= COCKED_BITS[0]
        if d2 & _COCKED:
            flags |= COCKED_BITS[1]
        d1 &= _COCKED - 1
        d2 &= _COCKED - 1
        last = _BAD
        for i in range(_FIRST_FLAG, frame.nargs):
            k = _flag(frame, i)
            if k <= last:                   # unknown (-1), or not after the previous flag
                self.fault(_DICE_BAD_FLAG)
                return
            last = k
            flags |= FLAG_BITS[k]
        if (d1 == _UNREAD or d2 == _UNREAD) and not no_roll(flags):
            self.fault(_DICE_UNREAD)        # a throw that counts needs both faces read
            return
        self.throws += 1
        self.queue.put(_THROW, pack(d1, d2), flags)


def _face(frame, i):
    """Word i as a face: 1..6, UNREAD for "-", | _COCKED when followed by "c"; _BAD otherwise."""
    n = frame.arg_len(i)
    ch = frame.arg_byte(i)
    if n == 1 and ch == _UNREAD_MARK:
        return _UNREAD
    value = ch - _DIGIT_0
    if value < 1 or value > _MAX_FACE:
        return _BAD
    if n == 1:
        return value
    if n == 2 and frame.arg_byte(i, 1) == _COCKED_MARK:
        return value | _COCKED
    return _BAD


def _flag(frame, i):
    """Index of word i in FLAG_WORDS, or -1."""
    for k in range(len(FLAG_WORDS)):
        if frame.arg_is(i, FLAG_WORDS[k]):
            return k
    return _BAD
