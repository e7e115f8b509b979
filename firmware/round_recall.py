# Game recall wired to the table (issue 12): each round kept on flash at its end, read back by the
# console (`recall N`) and by the host (a RECALL frame), across reboots.
#
# The Reporter calls noted() after each game report it sent that ends a round (rounds.ROUND_CODES, checked
# by the Reporter first: no call for a card's or a bet's report): when the game's recall module
# (firmware/games/GAME/recall.py) makes a round of it (a Baccarat result, a Craps throw, an Omaha
# hand result), the round is added to firmware.link.recall.Recall when the Reporter has sent the
# event's reports (commit()). So the write comes after the result is on flash in the host link's
# store (the store's batch written first: reporter.durable()), and a round is on flash once its
# report is. Each round is kept with the number of the table event that ended it: when a recovery
# replays the events after a power cut (firmware/recovery.py), a round whose event is not past the
# newest kept one is there already, and the others are kept then, whether or not their reports
# had reached the host link's store before the cut. On the board (`defer`), a round of a journalled
# event waits for the start of the next pass or of the next event (keep_waiting(), from
# firmware.main, or before a snapshot replaces the journal's log): its making and its recall write, a
# flash program on a board, are not in the pass that shows and reports the result, the table does not
# change before them, and a power cut before the write is recovered as above. Reading them back
# (the console's `recall N`, the host's RECALL answered a report a round) is firmware/recall_answer.py's,
# imported when one asks and released once it is answered (firmware/parts.py, RECALL_ON_DEMAND); this
# object keeps only the state of an answer under way (answer_*) between passes
# (docs/journal.md, "Recall"; docs/protocol.md, "Host reports").
import json

from firmware.link.journal import JournalError
from firmware.link.recall import Recall

# copies of firmware.link.recall (tests/host/test_const_copies.py)
_KEEP = const(100)
# copies of firmware.link.record (tests/host/test_const_copies.py)
_CORRUPT = const(2)

_QUIET = const(2)              # commits with no round before the recall may compact (make_room)


class RoundRecall:
    """The recall of one game at one table: `game` the table file's game, `rounds` its recall module."""

    def __init__(self, state_dir, game, fs, rounds, keep=_KEEP):
        self.game = game
        self.rounds = rounds
        self.recall = None
        self.problem = ""            # why recall is unavailable or what the boot found damaged ("" none)
        self.unsaved = 0             # rounds that could not be kept (each reported)
        self.cut = 0                 # rounds kept without their detail (over rounds.ROUND_MAX)
        self.previous = None         # the last round kept (Craps numbers its throws from it)
        # The host's RECALL being answered (firmware/recall_answer.py: imported while one is under way)
        self.answer_of = -1          # rounds of the answer (-1: none)
        self.answer_asked = 0        # the rounds asked for, the host's tag above them (firmware/events.py)
        self.answer_sent = 0
        self.answer_added = 0        # rounds kept since it was asked
        self.answer_segment = []     # the next rounds of the answer, read from flash
        self.waiting = None          # a round's end noted, the round not made yet: (table, code, a, b, fields,
        #                              the number of the table event that ended it, the Reporter that noted it),
        #                              made and kept by keep_waiting() (from commit() or the main loop); one
        #                              tuple, not two attributes more (issue 14: 17 of them, a dict of 160 bytes)
        self.events = None           # the table journal (firmware/recovery.py): event_no, based, replaying
        self.defer = False           # a journalled event's round waits for keep_waiting() (the main loop's)
        self._quiet = 0              # commits in a row with no round to keep
        try:
            self.recall = Recall(state_dir, game, fs, keep=keep, round_max=rounds.ROUND_MAX)
            if self.recall.status == _CORRUPT:
                self.problem = "recall-%s damaged, %d bytes set aside (%s)" % (game, self.recall.discarded,
                                                                               self.recall.detail)
            last = self.recall.last(1)
            self.previous = last[0] if last else None
        except (OSError, JournalError, ValueError) as exc:
            self.recall = None
            self.problem = "recall unavailable (%s)" % exc

    def last_event(self):
        """The number of the table event that ended the newest round kept (0: none, or not known)."""
        return 0 if self.recall is None else max(0, self.recall.last_event)

    # -- keeping ------------------------------------------------------------------------------
    def noted(self, table, code, a, b, reporter, fields=None):
        """A game report was just sent: if it ends a round (rounds.ROUND_CODES; the Reporter calls for no
        other), the round is made from the table as the report saw it, and the report's fields (what the
        game's round takes from them is not made twice), and kept, by keep_waiting(): at the end of the
        drain (commit()), or where deferred, before anything can change the table: the start of the next
        pass or the next event (firmware.main), a snapshot. The link store then writes the event's reports
        in one batch before the round (reporter.durable()). While a recovery replays events, a round kept
        before the reset is not made again (nor `previous` moved)."""
        if code not in self.rounds.ROUND_CODES:
            return
        events = self.events
        event = 0 if events is None else events.event_no
        if events is not None and events.replaying and self._kept_before(event, reporter):
            return
        if self.waiting is not None:
            self.keep_waiting()                  # two rounds in one drain or pass (not seen in play): in order
        self.waiting = (table, code, a, b, fields, event, reporter)

    def _kept_before(self, event, reporter):
        """While a recovery replays `event`: is its round kept already? Yes when the newest round kept
        came from it or a later event; when that round has no event number (kept by firmware before
        them), the rule before them: yes when the host link's store had the report (reporter.replayed),
        which misses only a round whose recall write the power cut stopped."""
        last = -1 if self.recall is None else self.recall.last_event
        return event <= last if last >= 0 else reporter.replayed

    def commit(self, reporter):
        """At the end of a drain: keep the round noted last, if any, unless it waits for the next pass
        (`defer`, an event the table journal holds, not a recovery's replay). Never raises: a round that
        cannot be kept is a fault report ("recall_unsaved"), the table plays on."""
        if self.waiting is not None:
            events = self.events
            if not (self.defer and events is not None and events.based and not events.replaying):
                self.keep_waiting()
            return
        if self._quiet >= _QUIET:
            return                       # (counted no further: an idle table drains 100 times a second)
        self._quiet += 1
        if self._quiet == _QUIET and self.recall is not None and self.answer_of < 0:
            # The second drain in a row with no round (a pass after the one that kept a round), no
            # answer under way: the recall's compaction, when one is near, goes here rather than into
            # a result's pass.
            try:
                self.recall.make_room()
            except (OSError, JournalError):
                pass                     # add() compacts when a round does not fit, and reports failures

    def keep_waiting(self):
        """Make and keep the round that waits, if any (the end of a drain, the start of a pass or of an
        event, a snapshot about to replace the table journal's log, a second round). A write that fails
        is reported, not raised, as in commit()."""
        waiting = self.waiting
        if waiting is not None:
            self.waiting = None
            self._quiet = 0
            table, code, a, b, fields, event, reporter = waiting
            entry = self.rounds.round_of(table, code, a, b, self.previous, fields)
            if entry is not None:
                self.keep(entry, reporter, event)

    def keep(self, entry, reporter, event=0):
        """Keep one round (its dict) with the number of the event that ended it; a write that fails is
        reported, never raised."""
        self.previous = entry
        if self.recall is None:
            self.unsaved += 1
            return                   # reported once at boot (boot_steps.report_recall)
        text = json.dumps(entry)
        if len(text) > self.rounds.ROUND_MAX:
            entry = _cut(entry, self.rounds.ALWAYS, len(text))
            text = json.dumps(entry)
            self.cut += 1
        if reporter is not None:
            reporter.durable()           # its report on flash first (the link store writes in batches)
        try:
            self.recall.add(entry, text, event)
        except (OSError, JournalError, ValueError) as exc:
            self.unsaved += 1
            reporter.emit("fault", {"fault": "recall_unsaved", "error": str(exc)[:80]})
            return
        self.answer_added += 1


def _cut(entry, always, size):
    """A round over the bound kept by its identity and result only, saying how long it was."""
    short = {"cut": size}
    for key in always:
        if key in entry:
            short[key] = entry[key]
    return short
