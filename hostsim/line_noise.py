"""A noisy serial line for tests and replays: bytes dropped, corrupted or duplicated.

Each byte that passes is hit with probability p, seeded, so a run repeats
exactly; a hit byte is dropped, replaced by another value, or sent twice, the
three equally likely (or only the kinds named). The distance to the next hit
is drawn once (geometric), so a clean stretch costs nothing per byte.
"""
import math
import random

KINDS = ("drop", "corrupt", "duplicate")


class LineNoise:
    def __init__(self, p, seed=0, kinds=KINDS):
        if not 0 <= p < 1:
            raise ValueError("line noise probability must be in [0, 1), got %r" % (p,))
        for kind in kinds:
            if kind not in KINDS:
                raise ValueError("line noise kind must be one of %s, got %r" % (", ".join(KINDS), kind))
        self.p = p
        self.kinds = tuple(kinds)
        self.rng = random.Random(seed)
        self.hits = dict.fromkeys(KINDS, 0)
        self.bytes = 0
        self._clean = self._gap()        # bytes that pass untouched before the next hit

    def _gap(self):
        if self.p == 0:
            return -1
        u = 1.0 - self.rng.random()      # (0, 1]
        return int(math.log(u) / math.log(1.0 - self.p))

    def apply(self, data):
        """What arrives at the other end when data is sent."""
        self.bytes += len(data)
        if self._clean < 0:
            return bytes(data)
        out = bytearray()
        i = 0
        while i < len(data):
            take = min(self._clean, len(data) - i)
            out += data[i:i + take]
            i += take
            self._clean -= take
            if i == len(data):
                break
            kind = self.rng.choice(self.kinds)
            self.hits[kind] += 1
            byte = data[i]
            if kind == "corrupt":
                out.append(byte ^ self.rng.randrange(1, 256))
            elif kind == "duplicate":
                out += bytes((byte, byte))
            i += 1
            self._clean = self._gap()
        return bytes(out)
