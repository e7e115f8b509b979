# Game recall (issue 12): the last rounds of one game, kept on flash for the regulator.
#
# A ring through the power-safe journal (firmware/link/journal.py): each round
# is one record, its dict as JSON; when the live file is full it is compacted
# to the last `keep` rounds and the log goes on. So a round is on flash, checked
# by its CRCs, once add() returns, and a reboot or power cut keeps every round
# added before it. One journal per game (recall-GAME.0/.1), so a table that
# changes game keeps each game's history. Round contents: docs/journal.md.
import json

from firmware.compat import const
from firmware.link.journal import Journal, JournalError, JournalFull, Tail

KEEP = const(100)                  # rounds recall must give back (GLI-11 asks for at least 10)
ROUND_MAX = const(512)             # bytes of one round's JSON: 9 Omaha hands and a board fit
_ROUND = const(1)                  # the journal record kind of one round
_ENTRY_OVERHEAD = const(3)         # a round kept in a compacted base
_RECORD_OVERHEAD = const(15)       # a round appended as a record


def flash_bytes(keep=KEEP, round_max=ROUND_MAX):
    """The journal size that holds `keep` rounds of round_max bytes after a compaction, and one more."""
    per_file = _RECORD_OVERHEAD + keep * (_ENTRY_OVERHEAD + round_max) + _RECORD_OVERHEAD + round_max
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
        for kind, _ in self.journal.records():
            if kind != _ROUND:
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

    def add(self, round, text=None):
        """Keep one round (a dict of JSON values); it survives a power cut once this returns.
        text: its json.dumps when the caller has it already (not made twice)."""
        if not isinstance(round, dict):
            raise ValueError("recall round must be a dict, not %s" % type(round).__name__)
        payload = (json.dumps(round) if text is None else text).encode()
        if len(payload) > self.round_max:
            raise ValueError("recall round of %d bytes, at most %d" % (len(payload), self.round_max))
        try:
            self.journal.append(_ROUND, payload)
        except JournalFull:
            if self.count > self.keep:
                self.journal.compact(Tail(self.journal, self.count - self.keep))
                self.count = self.keep
            self.journal.append(_ROUND, payload)   # JournalFull again: max_bytes too small
        self.count += 1

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
        for _, payload in Tail(self.journal, self.count - n):
            try:
                kept.append(json.loads(payload.decode()))
            except ValueError:           # the CRC held, so the writer was wrong: say so, never guess
                raise JournalError("recall round is not JSON: %r" % payload[:40])
        return kept
