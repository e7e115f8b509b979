# Game recall (issue 12): the last rounds of one game, kept on flash for the regulator.
#
# A ring through the power-safe journal (firmware/link/journal.py): each round
# is one record, the number of the table event that ended it and its dict as
# JSON; when the live file is full it is compacted to the last `keep` rounds and
# the log goes on. So a round is on flash, checked by its CRCs, once add()
# returns, and a reboot or power cut keeps every round added before it. One
# journal per game (recall-GAME.0/.1), so a table that changes game keeps each
# game's history. The event number tells a recovery which rounds it replays are
# kept already (firmware/round_recall.py). Round contents: docs/journal.md.
import json
import struct

from firmware.link.journal import Journal, JournalError, JournalFull, Tail

KEEP = const(100)                  # rounds recall must give back (GLI-11 asks for at least 10)
ROUND_MAX = const(512)             # bytes of one round's JSON: 9 Omaha hands and a board fit
_ROUND = const(1)                  # a round's record as first written: its JSON only (read, no longer written)
_ROUND_AT = const(2)               # a round's record: the event number ("<I") and its JSON
_EVENT = "<I"
_EVENT_SIZE = const(4)
_BASE_OVERHEAD = const(15)         # a compacted base's record
_ENTRY_OVERHEAD = const(7)         # a round kept in a compacted base: entry head 3, event number 4
_RECORD_OVERHEAD = const(19)       # a round appended as a record: record 15, event number 4


def flash_bytes(keep=KEEP, round_max=ROUND_MAX):
    """The journal size that holds `keep` rounds of round_max bytes after a compaction, and one more."""
    per_file = _BASE_OVERHEAD + keep * (_ENTRY_OVERHEAD + round_max) + _RECORD_OVERHEAD + round_max
    return 2 * per_file


class Recall:
    """The last `keep` rounds of `game` in state_dir; add(round dict), last(n) oldest first.

    status, discarded and detail are the journal's: what the boot found (a
    CORRUPT status is an alarm; no damaged round is ever given back).
    """

    def __init__(self, state_dir, game, fs=None, keep=KEEP, round_max=ROUND_MAX, max_bytes=None):
        if not game or not game.isalpha():
            raise ValueError("recall game name %r: letters only" % (game,))
        if keep < 1 or round_max < 2:
            raise ValueError("recall keeps at least one round of at least 2 bytes")
        self.keep = keep
        self.round_max = round_max
        self.journal = Journal(state_dir, "recall-" + game, fs,
                               flash_bytes(keep, round_max) if max_bytes is None else max_bytes)
        self.count = 0                 # rounds in the journal (the last `keep` are recalled)
        self.last_event = 0            # the table event that ended the newest round (0: none kept; -1: the
                                       # newest was written without it, by firmware before event numbers)
        for kind, payload in self.journal.records():
            if kind == _ROUND_AT:
                self.last_event = struct.unpack_from(_EVENT, payload, 0)[0]
            elif kind == _ROUND:
                self.last_event = -1
            else:
                raise JournalError("recall-%s holds a record of kind %d" % (game, kind))
            self.count += 1

    @property
    def status(self):
        return self.journal.status

    @property
    def discarded(self):
        return self.journal.discarded

    @property
    def detail(self):
        return self.journal.detail

    def add(self, round, text=None, event=0):
        """Keep one round (a dict of JSON values); it survives a power cut once this returns.
        text: its json.dumps when the caller has it already (not made twice). event: the number of
        the table event that ended it (firmware/recovery.py's; 0: none), kept with it (last_event)."""
        if not isinstance(round, dict):
            raise ValueError("recall round must be a dict, not %s" % type(round).__name__)
        if not 0 <= event <= 0xFFFFFFFF:
            raise ValueError("recall event number %d not in 0..2**32-1" % event)
        text = (json.dumps(round) if text is None else text).encode()
        if len(text) > self.round_max:
            raise ValueError("recall round of %d bytes, at most %d" % (len(text), self.round_max))
        payload = struct.pack(_EVENT, event) + text
        try:
            self.journal.append(_ROUND_AT, payload)
        except JournalFull:
            if self.count > self.keep:
                self.journal.compact(Tail(self.journal, self.count - self.keep))
                self.count = self.keep
            self.journal.append(_ROUND_AT, payload)   # JournalFull again: max_bytes too small
        self.count += 1
        self.last_event = event

    def make_room(self):
        """Compact now if the next round might not fit (a round of round_max bytes): at a quiet moment,
        so that no round's add() pays for it (reading and rewriting `keep` rounds: tens of ms in the VM,
        in the pass of a result). The same compaction add() would make a few rounds later: the last
        `keep` rounds. True if it compacted."""
        journal = self.journal
        if self.count <= self.keep or journal.room >= self.round_max + _RECORD_OVERHEAD:
            return False
        journal.compact(Tail(journal, self.count - self.keep))
        self.count = self.keep
        return True

    def last(self, n=KEEP):
        """The last n rounds kept (at most `keep`), oldest first, as dicts."""
        n = min(n, self.keep, self.count)
        if n <= 0:
            return []
        kept = []
        for text in self.texts(self.count - n):
            try:
                kept.append(json.loads(text.decode()))
            except ValueError:           # the CRC held, so the writer was wrong: say so, never guess
                raise JournalError("recall round is not JSON: %r" % text[:40])
        return kept

    def texts(self, skip):
        """Each round's JSON (bytes) after the first `skip`, oldest first, read from flash as it goes."""
        for kind, payload in Tail(self.journal, skip):
            yield payload[_EVENT_SIZE:] if kind == _ROUND_AT else payload
