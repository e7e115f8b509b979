# Game recall wired to the table (issue 12): each round kept on flash at its end, read back by the
# console (`recall N`) and by the host (a RECALL frame), across reboots.
#
# The Reporter calls noted() after every game report it sent: when the game's recall module
# (firmware/games/GAME/recall.py) makes a round of it (a Baccarat result, a Craps throw, an Omaha
# hand result), the round is added to firmware.link.recall.Recall. So the write comes after the
# result is in the host link's store, and a round is on flash once its report is. The host's
# RECALL is answered one report a round, paced by pump(): a report goes out only while the link's
# store is below half full, so an answer never raises the backlog alarm nor crowds out the
# game's own reports (docs/journal.md, "Recall"; docs/protocol.md, "Host reports").
import json

from firmware.compat import const
from firmware.link.journal import CORRUPT, JournalError
from firmware.link.recall import KEEP, Recall

ASK_MAX = KEEP                 # rounds one request or `recall N` may ask for
_HEADER_MAX = const(160)       # a recall report's bytes around its round (seq, table, event, game, index...)
_LINE_WIDTH = const(79)        # a console line of an 80-column terminal


class RoundRecall:
    """The recall of one game at one table: `game` the table file's game, `rounds` its recall module."""

    def __init__(self, state_dir, game, fs, rounds):
        self.game = game
        self.rounds = rounds
        self.recall = None
        self.problem = ""            # why recall is unavailable or what the boot found damaged ("" none)
        self.unsaved = 0             # rounds that could not be kept (each reported)
        self.cut = 0                 # rounds kept without their detail (over rounds.ROUND_MAX)
        self.previous = None         # the last round kept (Craps numbers its throws from it)
        self._answer = None          # the rounds of the host's RECALL being sent, oldest first
        self._asked = 0
        self._sent = 0
        try:
            self.recall = Recall(state_dir, game, fs, round_max=rounds.ROUND_MAX)
            if self.recall.status == CORRUPT:
                self.problem = "recall-%s damaged, %d bytes set aside (%s)" % (game, self.recall.discarded,
                                                                               self.recall.detail)
            last = self.recall.last(1)
            self.previous = last[0] if last else None
        except (OSError, JournalError, ValueError) as exc:
            self.recall = None
            self.problem = "recall unavailable (%s)" % exc

    def report_boot(self, reporter):
        """At boot: a damaged or unreadable recall is a fault report (the rounds it still has are served)."""
        if self.problem:
            reporter.emit("fault", {"fault": "recall_damaged", "text": self.problem})

    # -- keeping ------------------------------------------------------------------------------
    def noted(self, table, code, a, b, reporter):
        """A game report was just sent: keep its round if it ends one. Never raises: a round that
        cannot be kept is a fault report ("recall_unsaved"), the table plays on."""
        entry = self.rounds.round_of(table, code, a, b, self.previous)
        if entry is None:
            return
        self.previous = entry
        if self.recall is None:
            self.unsaved += 1
            return                   # reported once at boot (report_boot)
        size = len(json.dumps(entry))
        if size > self.rounds.ROUND_MAX:
            entry = _cut(entry, self.rounds.ALWAYS, size)
            self.cut += 1
        try:
            self.recall.add(entry)
        except (OSError, JournalError, ValueError) as exc:
            self.unsaved += 1
            reporter.emit("fault", {"fault": "recall_unsaved", "error": str(exc)[:80]})

    # -- the console ------------------------------------------------------------------------------
    def lines(self, n):
        """The last n rounds, one console line each (at most 79 characters), oldest first."""
        if self.recall is None:
            return [self.problem]
        out = []
        if self.problem:
            out.append(self.problem)
        for entry in self.recall.last(n):
            line = self.rounds.line(entry)
            out.append(line if len(line) <= _LINE_WIDTH else line[:_LINE_WIDTH - 3] + "...")
        if len(out) == (1 if self.problem else 0):
            out.append("no %s round kept yet" % self.game)
        return out

    # -- the host's RECALL ----------------------------------------------------------------------
    def ask(self, count):
        """The host asked for the last `count` rounds: None (the answer is on its way, pump()), or why not."""
        if not 1 <= count <= ASK_MAX:
            return "recall %d: ask for 1..%d rounds" % (count, ASK_MAX)
        if self.recall is None:
            return self.problem
        if self._answer is not None:
            return "recall busy: %d of %d rounds sent" % (self._sent, len(self._answer))
        try:
            self._answer = self.recall.last(count)
        except (OSError, JournalError) as exc:
            return "recall unreadable (%s)" % exc
        self._asked = count
        self._sent = 0
        return None

    def answering(self):
        return self._answer is not None

    def pump(self, reporter, sender):
        """Send what the answer under way can: one `recall` report a round while the host link's
        store is below half full (room for the longest report). Returns the reports sent."""
        answer = self._answer
        sent = 0
        while answer is not None:
            if sender is not None:
                pieces = (self.rounds.ROUND_MAX + _HEADER_MAX + sender.piece - 1) // sender.piece
                if sender.held() + pieces > sender.store.capacity() // 2:
                    break
            i = self._sent
            fields = {"game": self.game, "asked": self._asked, "index": i + 1 if answer else 0,
                      "of": len(answer), "round": answer[i] if answer else None}
            reporter.emit("recall", fields)
            sent += 1
            self._sent = i + 1
            if self._sent >= len(answer):
                self._answer = answer = None
        return sent


def _cut(entry, always, size):
    """A round over the bound kept by its identity and result only, saying how long it was."""
    short = {"cut": size}
    for key in always:
        if key in entry:
            short[key] = entry[key]
    return short
