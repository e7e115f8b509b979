# The last host reports' event names (and the fault each one names), for the console's `log`.
#
# A ring of fixed size, filled by the reporter as it sends: it keeps references
# to strings the report already holds (its event name, its fault name) and a
# small-int sequence number, so noting a report allocates nothing.
from array import array


SIZE = const(16)


class RecentReports:
    def __init__(self, size=SIZE):
        self.size = size
        self._seq = array("i", [0] * size)
        self._event = [""] * size
        self._fault = [""] * size
        self._next = 0
        self.count = 0            # reports noted since boot (forget_last: those the ring still holds)

    def note(self, seq, event, fields):
        """One report sent: its seq, its event name, and its "fault" field when it has one."""
        i = self._next
        self._seq[i] = seq
        self._event[i] = event
        fault = fields.get("fault") if fields else None
        self._fault[i] = fault if isinstance(fault, str) else ""
        self._next = i + 1 if i + 1 < self.size else 0
        self.count += 1

    def forget_last(self):
        """The report just noted was not sent (a recovery's replay: the host had it before the reset)."""
        if self.count:
            self._next = self._next - 1 if self._next else self.size - 1
            self.count = min(self.count - 1, self.size - 1)    # its slot holds no earlier report now

    def last(self, n=SIZE):
        """[(seq, event, fault or "")] of the last n reports, oldest first."""
        n = min(n, self.size, self.count)
        out = []
        for k in range(n):
            i = (self._next - n + k) % self.size
            out.append((self._seq[i], self._event[i], self._fault[i]))
        return out
