# The bytes behind a report (a bad reader line, a console error), kept until the report goes out.
#
# Events and outbox entries are three small ints, so a report that must show
# what was received carries a handle into this store instead of the bytes.
# Slots are allocated once; keep() copies without allocating, so a driver can
# keep evidence from the input pass with the heap locked. The store is a ring:
# evidence older than `slots` keeps is overwritten, and text() says so rather
# than showing another line's bytes.

_NONE = const(0)          # handle meaning "no evidence"
# The handle a journal replay gives bytes that were overwritten before the event was journalled (never
# one keep() gives): text() says "(overwritten)", as the live report did, never "" (an empty line).
GONE = const(-1)


class Evidence:
    def __init__(self, slots=8, size=40):
        self.size = size
        self._slots = slots
        self._buf = bytearray(slots * size)   # slot k's bytes from k * size (one object: a bytearray a slot
                                              # kept 20 bytes more each)
        self._lens = [0] * slots          # original length (may exceed size: truncated)
        self._handles = [0] * slots       # which handle each slot holds now
        self._last = 0                    # last handle given out (1, 2, 3, ...)

    def keep(self, data, start=0, end=-1):
        """Copy data[start:end] (end -1: to the end); returns a handle > 0."""
        if end < 0:
            end = len(data)
        handle = self._last + 1
        if handle > 0x3FFFFFFF:           # stays a small int on MicroPython
            handle = 1
        self._last = handle
        slot = handle % self._slots
        buf = self._buf
        at = slot * self.size - start
        n = end - start
        keep = n if n < self.size else self.size
        for i in range(start, start + keep):
            buf[at + i] = data[i]
        self._lens[slot] = n
        self._handles[slot] = handle
        return handle

    def gone(self, handle):
        """True when handle named evidence whose slot has since been given to newer bytes (or is GONE)."""
        return handle != _NONE and self._handles[handle % self._slots] != handle

    def raw(self, handle):
        """(the bytes kept, their original length) of a handle, for the table journal; (b"", 0) if gone."""
        slot = handle % self._slots
        if handle == _NONE or self._handles[slot] != handle:
            return b"", 0
        n = self._lens[slot]
        at = slot * self.size
        return bytes(self._buf[at:at + (n if n < self.size else self.size)]), n

    def keep_raw(self, data, n):
        """keep() bytes raw() gave, with their original length (a truncated line stays truncated)."""
        handle = self.keep(data)
        self._lens[handle % self._slots] = n if n > len(data) else len(data)
        return handle

    def into(self, fields, key, handle):
        """fields with fields[key] = text(handle) where the report has evidence; without the key where it
        has none (handle 0): never "", which reads as "no bytes came". Returns fields."""
        if handle != _NONE:
            fields[key] = self.text(handle)
        return fields

    def text(self, handle):
        """Escaped, bounded text of a handle: printable ASCII as is, other bytes as \\xNN."""
        if handle == _NONE:
            return ""
        slot = handle % self._slots
        if self._handles[slot] != handle:
            return "(overwritten)"
        n = self._lens[slot]
        buf = self._buf
        at = slot * self.size
        parts = []
        for i in range(at, at + (n if n < self.size else self.size)):
            ch = buf[i]
            if 32 <= ch < 127 and ch != 92:
                parts.append(chr(ch))
            else:
                parts.append("\\x%02x" % ch)
        if n > self.size:
            parts.append("...(%d bytes)" % n)
        return "".join(parts)
