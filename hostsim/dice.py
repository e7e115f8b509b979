"""Simulated dice reader: seeded throws of two fair dice, reported as the real reader would.

Each throw is a report for firmware.games.craps.dice.check_report:
  (d1, d2)                                   a good throw (the common case, allocation-light)
  {"dice": [d1, d2], "cocked": [i]}          a die rested cocked; the face is the larger visible one
  {"dice": [d1, None], "flags": [...]}       an invalid throw (no roll, Craps art. 3(2)-(3))
Generic on purpose (no game rules beyond what the reader sees). With the default rates
(0) every throw is a plain pair, which is what the Monte-Carlo odds need.
frame_line() gives a throw as the framed dice reader sends it (docs/protocol.md, "Dice reader"),
which carries every field of the report: b"D1 00 THROW 3 4c*....\n".
"""
import random

from hostsim.devices import DiceReaderDevice

INVALID_FLAGS = ("off_table", "short", "not_rolled")


class SimDice:
    def __init__(self, seed=None, invalid_rate=0.0, cocked_rate=0.0, rng=None, device=None):
        for name, rate in (("invalid_rate", invalid_rate), ("cocked_rate", cocked_rate)):
            if not 0.0 <= rate <= 1.0:
                raise ValueError("%s must lie in 0..1, got %r" % (name, rate))
        self.rng = rng if rng is not None else random.Random(seed)
        self.invalid_rate = invalid_rate
        self.cocked_rate = cocked_rate
        self.throws = 0
        self.device = device if device is not None else DiceReaderDevice()   # its counter runs on

    def faces(self):
        """Two fair faces, 1..6 each (no report wrapping): the Monte-Carlo hot path."""
        r = self.rng.random
        self.throws += 1
        return (int(r() * 6) + 1, int(r() * 6) + 1)

    def frame_line(self, report=None):
        """One throw (or the given report) as the framed dice reader's next frame (bytes, LF included)."""
        return self.device.report(self.throw() if report is None else report)

    def throw(self):
        """One report as the reader would send it."""
        d1, d2 = self.faces()
        rng = self.rng
        if self.invalid_rate and rng.random() < self.invalid_rate:
            flag = INVALID_FLAGS[int(rng.random() * len(INVALID_FLAGS))]
            if flag == "off_table":
                return {"dice": [d1, None], "flags": [flag]}   # that die was not read
            return {"dice": [d1, d2], "flags": [flag]}
        if self.cocked_rate and rng.random() < self.cocked_rate:
            return {"dice": [d1, d2], "cocked": [int(rng.random() * 2)]}
        return (d1, d2)

