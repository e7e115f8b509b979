# The console's audit log: every login, failed PIN, lockout, logout and change, on flash.
#
# Append-only as far as the console goes: no command writes, edits or clears it;
# only AuditLog.add (called by the shell as an action happens) appends. A ring
# through the power-safe journal (firmware/link/journal.py, files audit.0 and
# audit.1): an entry is on flash, under its CRCs, once add() returns; when the
# live file is full it is compacted to the last KEEP entries. An entry is one
# line of text: "UPTIME_S ACTION DETAIL" (docs/console.md, "Audit").
from firmware.link.journal import Journal, JournalError, JournalFull, Tail

# copies of firmware.link.record (tests/host/test_const_copies.py)
_CORRUPT = const(2)

NAME = "audit"
KEEP = const(64)                 # entries kept after a compaction
ENTRY_MAX = const(112)           # bytes of one entry; a longer detail is cut
MAX_BYTES = const(16384)         # two files of 8 KB: KEEP entries and room to append
_KIND = const(1)


class AuditLog:
    """add(uptime_s, action, detail); last(n) -> entries (str), oldest first. `problem`: "" or what the boot found."""

    def __init__(self, state_dir, fs=None, kept=None):
        if kept is not None:             # the console woken (firmware/parts.py): the log as kept(), not read again
            self.journal, self.count, self.problem = kept
            return
        self.journal = Journal(state_dir, NAME, fs, MAX_BYTES)
        self.count = 0
        self.problem = ""
        try:
            for kind, _ in self.journal.records():
                self.count += 1
        except (JournalError, OSError) as exc:
            self.problem = "audit log unreadable (%s)" % exc
        # A torn last entry is what a power cut during its write leaves: the action it was written for
        # never ran (the entry comes first). Flipped bits or foreign bytes are damage: entries set aside.
        if self.journal.status == _CORRUPT and not self.problem:
            self.problem = "audit log damaged at boot: %s" % self.journal.detail

    def kept(self):
        """What a dormant console keeps of the log: its journal, its count, its problem."""
        return (self.journal, self.count, self.problem)

    def add(self, uptime_s, action, detail=""):
        """Append one entry; on flash when this returns (OSError, JournalError if it cannot be)."""
        text = ("%d %s %s" % (uptime_s, action, detail)).strip() if detail != "" else "%d %s" % (uptime_s, action)
        payload = text.encode()[:ENTRY_MAX]
        try:
            self.journal.append(_KIND, payload)
        except JournalFull:
            if self.count > KEEP:
                self.journal.compact(Tail(self.journal, self.count - KEEP))
                self.count = KEEP
            self.journal.append(_KIND, payload)
        self.count += 1

    def last(self, n=KEEP):
        """The last n entries (str), oldest first."""
        n = min(n, self.count)
        if n <= 0:
            return []
        return [bytes(payload).decode() for _, payload in Tail(self.journal, self.count - n)]
