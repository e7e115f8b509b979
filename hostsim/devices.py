"""Emulated framed devices: the card-reading shoe, the bet reader and the dice reader, as they talk on their UARTs.

Each emulator turns semantic inputs ("the Ah left the shoe face down") into
device frames (docs/protocol.md, "Device lines") with its own message counter.
The frames are built here independently of firmware/device_frame.py: the text
with format strings, the checksum with binascii.crc_hqx (CRC-16/CCITT-FALSE
with init 0xFFFF), so tests check the firmware's decoder against a second
implementation. Only the wire limits (MAX_LINE, MAX_ARGS) are shared.

Inputs are not validated beyond what the wire needs: tests and the simulator
use the emulators to send wrong cards, unknown zones, bad amounts and impossible
dice too.
The fault helpers (garble, drop, repeat, truncate) damage frames the way a
line does. Used by tests, tools.replay and the simulator.
"""
import binascii
import random

from firmware.device_frame import MAX_ARGS, MAX_LINE

_TRAILER = len("*0000")
DOWN = "down"    # a bet reading's take-down (firmware.bets.DOWN_WORD), on the wire "zone=-"


def frame(device, version, counter, kind, *words):
    """One frame line, LF included: e.g. frame("S", 1, 0x2A, "CARD", "Ah", "D")."""
    body = "%s%d %02X %s%s" % (device, version, counter, kind, "".join(" %s" % w for w in words))
    data = body.encode("ascii")
    return data + b"*%04X\n" % binascii.crc_hqx(data, 0xFFFF)


class Device:
    """A framed device: every frame it sends carries the next value of its counter."""

    letter = "?"

    def __init__(self, counter=0, version=1):
        self.counter = counter
        self.version = version

    def send(self, kind, *words):
        line = frame(self.letter, self.version, self.counter, kind, *words)
        self.counter = (self.counter + 1) % 256
        return line

    def hello(self, firmware="sim-1.0"):
        """The device powered up: its counter starts again at 0."""
        self.counter = 0
        return self.send("HELLO", firmware)

    def sensor_fault(self, code):
        return self.send("FAULT", code)


class ShoeDevice(Device):
    letter = "S"

    def card(self, code, face_up=False):
        return self.send("CARD", code, "U" if face_up else "D")

    def cut_card(self):
        return self.send("CUT")

    def inserted(self):
        return self.send("IN")

    def removed(self):
        return self.send("OUT")

    def unreadable(self):
        return self.send("UNREAD")


class BetReaderDevice(Device):
    letter = "B"

    def __init__(self, counter=0, version=1, reading_id=1):
        Device.__init__(self, counter, version)
        self.reading_id = reading_id

    def bet_frames(self, bets, reading_id=None):
        """One reading as a list of frames: OPEN, SEAT lines (packed up to MAX_LINE), CLOSE.

        bets: {seat: {zone: amount}} in the order to send; empty seats are skipped. An amount
        DOWN ("down") is a take-down, sent "zone=-" (the chips on that zone were taken off).
        """
        rid = self.reading_id if reading_id is None else reading_id
        if reading_id is None:
            self.reading_id = (self.reading_id + 1) % 65536
        frames = [self.send("OPEN", rid)]
        seat_lines = 0
        for seat, zones in bets.items():
            pairs = ["%s=%s" % (z, "-" if a == DOWN else a) for z, a in zones.items()]
            for words in self._pack(str(seat), pairs):
                frames.append(self.send("SEAT", seat, *words))
                seat_lines += 1
        frames.append(self.send("CLOSE", rid, seat_lines))
        return frames

    def bets(self, bets, reading_id=None):
        return b"".join(self.bet_frames(bets, reading_id))

    @staticmethod
    def _pack(seat, pairs):
        fixed = len("B1 00 SEAT ") + len(seat) + _TRAILER
        lines, words, length = [], [], fixed
        for pair in pairs:
            if words and (length + 1 + len(pair) > MAX_LINE or len(words) == MAX_ARGS - 1):
                lines.append(words)
                words, length = [], fixed
            words.append(pair)
            length += 1 + len(pair)
        if words:
            lines.append(words)
        return lines


class DiceReaderDevice(Device):
    """The Craps dice reader. Its flag words and their order are written out here again, apart from
    firmware/throws.py, as the protocol document gives them."""

    letter = "D"
    FLAGS = ("off_table", "short", "wall", "not_rolled", "invalid")   # the one wire order

    def throw(self, d1, d2, flags=(), cocked=()):
        """One throw: faces 1..6 or None (unread), flag words as given (in order, unchecked),
        cocked: the die indices (0, 1) resting cocked, their faces as read (Craps art. 3(1))."""
        faces = ["-" if d is None else "%s%s" % (d, "c" if i in cocked else "")
                 for i, d in enumerate((d1, d2))]
        return self.send("THROW", *(faces + list(flags)))

    def report(self, report):
        """A report in the Craps engine's shape (dice.check_report), flags put in wire order:
        (d1, d2), or {"dice": [d1, d2], "valid": bool, "flags": [...], "cocked": [...]}."""
        if not isinstance(report, dict):
            return self.throw(report[0], report[1])
        flags = set(report.get("flags", ()))
        if report.get("valid", True) is False:
            flags.add("invalid")
        unknown = flags - set(self.FLAGS)
        if unknown:
            raise ValueError("no wire word for dice flags %s" % sorted(unknown))
        d1, d2 = report["dice"]
        return self.throw(d1, d2, [f for f in self.FLAGS if f in flags], report.get("cocked", ()))


# -- what a line does to frames ------------------------------------------------------

def garble(line, index=None, value=None, rng=random):
    """line with one byte (not the LF) changed to another value."""
    body = bytearray(line)
    end = len(body) - 1 if body.endswith(b"\n") else len(body)
    i = rng.randrange(end) if index is None else index
    new = rng.choice([v for v in range(256) if v != body[i] and v not in (10, 13)]) if value is None else value
    if new == body[i]:
        raise ValueError("garble must change the byte")
    body[i] = new
    return bytes(body)


def truncate(line, keep):
    """The first `keep` bytes of a frame, then LF: a frame cut short."""
    return line.rstrip(b"\n")[:keep] + b"\n"


def drop(frames, index):
    """frames without frames[index] (a frame the line lost)."""
    return frames[:index] + frames[index + 1:]


def repeat(frames, index):
    """frames with frames[index] sent twice (a device retransmission)."""
    return frames[:index + 1] + frames[index:]
