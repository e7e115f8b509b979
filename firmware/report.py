# Host reports: each table event as one JSON object with a sequence number, sent through the
# host link (firmware/link/sender.py: numbered, checksummed frames kept until the host has them;
# docs/host-link.md). The JSON text is the REPORT frame's payload, unchanged.
import json

from firmware import cards, fault_kinds
from firmware import table as table_mod
from firmware.link.frame import check_printable
from firmware.link.sender import REPORT
from firmware.recent import RecentReports

# copies of firmware.events (tests/host/test_const_copies.py)
_BUTTON_LONG = const(2)
_BUTTON_RELEASED = const(0)
_CON_ACT_COMMAND = const(7)
_CON_ACT_LOCKED = const(8)
_CON_ACT_LOCKOUT = const(3)
_CON_ACT_LOGIN_FAILED = const(2)
_HOST_ARG_MASK = const(0xFFFF)
_HOST_BAD = const(3)
_HOST_HAND = const(2)
_HOST_OPEN_BETS = const(5)
_HOST_RECALL = const(4)
_HOST_ROADS = const(1)
_HOST_TAG_SHIFT = const(16)
_HOST_UNKNOWN = const(0)
_LAMP_ALL = const(-1)
_LAMP_CHECK_END = const(-2)
# copies of firmware.faults (tests/host/test_const_copies.py)
_LINK_BACKLOG = const(17)
_UNEXPECTED_INPUT = const(8)
# copies of firmware.table_codes (tests/host/test_const_copies.py)
_OUT_ACK = const(7)
_OUT_BUTTON = const(2)
_OUT_CONSOLE = const(13)
_OUT_CONSOLE_ERROR = const(9)
_OUT_FAULT = const(6)
_OUT_FAULT_RESTORED = const(10)
_OUT_GAME_FIRST = const(32)
_OUT_HOST = const(11)
_OUT_LAMP = const(8)
_OUT_LINK_BACKLOG = const(12)
_OUT_NOT_TAKEN = const(14)
_OUT_STATE = const(1)

# The host report's and the audit log's words: CONSOLE_ERRORS[code] for a console error (firmware.events
# CON_*, CONSOLE_ERROR's a), CONSOLE_ACTIONS[code] for a technician's console action (firmware.events
# CON_ACT_*, CONSOLE's a; docs/console.md, "Audit").
CONSOLE_ERRORS = ("none", "unreadable", "line_too_long", "too_many_words", "unknown_command", "usage",
                  "no_zone", "refused", "login_required", "audit_failed")
CONSOLE_ACTIONS = ("none", "login", "login_failed", "lockout", "logout", "idle_logout", "passwd", "command",
                   "login_locked")
# The shoe's own words for its messages (events.SHOE_*, OUT_NOT_TAKEN's a; docs/protocol.md, "Shoe").
_SHOE_WORDS = ("", "HELLO", "CUT", "IN", "OUT", "UNREAD")

_UNICODE = len("\u00e9") == 1      # len() of a str counts characters (CPython; a MicroPython with unicode)


class Reporter:
    def __init__(self, sender, table_id, button_names):
        self.sender = sender              # firmware.link.sender.Sender on the host UART (or None: no host port)
        self.table_id = table_id
        self.button_names = button_names
        self.seq = 0
        self.outbox_overflows_reported = 0
        self.unused_role = ""             # the reader port the game does not use (unexpected_input)
        self.recent = RecentReports()     # the console's `log`
        self.recall = None                # firmware.round_recall.RoundRecall: keeps rounds, answers RECALL
        self.replayed = False             # the report just emitted was one the host already has (a recovery's
                                          # replay, firmware/recovery_replay.py; firmware/round_recall.py reads it)

    def emit(self, event, fields=None):
        seq = self.seq + 1
        self.seq = seq
        record = {"seq": seq, "table": self.table_id, "event": event}
        if fields:
            record.update(fields)             # in C; the same keys in the same order as a loop puts them
        line = json.dumps(record)
        self.recent.note(seq, event, fields)
        sender = self.sender
        if sender is not None:
            try:
                # json.dumps escapes every character below the space (on both runtimes): only DEL and a
                # character not ASCII (its bytes more than the str's characters) may be outside printable
                # ASCII, both found in C; check_printable's regex search (~12 us on the VM for a Baccarat
                # result's 470 bytes) names the byte of one (a ValueError, as send's own). Where len()
                # counts a str's bytes, not its characters (_UNICODE False), the search runs on every report.
                data = line.encode()
                if not _UNICODE or len(data) != len(line) or data.find(b"\x7f") >= 0:
                    check_printable(data)
                sender.send(data, REPORT, True)   # 0 when refused: the sender counts it (a LOST frame)
            except ValueError as exc:         # no frame can carry it: say so in its place
                line = json.dumps({"seq": self.seq, "table": self.table_id, "event": "fault",
                                   "fault": "report_unsendable", "report": event, "error": str(exc)[:80]})
                self.sender.send(line)
        return line

    def durable(self):
        """Every report emitted so far on flash (the link store's pending frames written), and out on the
        link as far as it allows: before a write that must come after them (a round kept for recall).
        Out too, so a power cut during that write finds the host with them, as when each report was
        written on its own, rather than a new boot sending them before its own."""
        sender = self.sender
        store = getattr(sender, "store", None)         # a recovery's replay: its stand-in holds the store too
        if store is not None:
            store.flush()
        if getattr(sender, "replaying", False) or sender is None:
            return                                     # the loop writes them after the replayed event
        sender.poll(0)

    def drain(self, table):
        """Send everything the table queued; returns how many reports went out."""
        outbox = table.outbox
        recall = self.recall
        runs = table.report_runs
        sent = 0
        while outbox.get():
            code = outbox.kind
            if code >= _OUT_GAME_FIRST and not (runs and code in runs):
                # a game report (most of a round's) here, not in _send_outbox_entry (its runs): a call less
                a = outbox.a
                b = outbox.b
                event, fields = table.game_report(code, a, b)
                self.emit(event, fields)
                if recall is not None and code in recall.rounds.ROUND_CODES:
                    # a round's end, kept after the reports (noted() for no other: a call less a card's,
                    # a bet's report)
                    recall.noted(table, code, a, b, self, fields)
            elif code == _OUT_STATE:          # here too, not in _send_outbox_entry: a call less a move's report
                self.emit("state", {"state": table.STATE_NAMES[outbox.a]})
            else:
                self._send_outbox_entry(table, code, outbox.a, outbox.b)
            sent += 1
        if recall is not None:
            recall.commit(self)               # a round noted above: after its reports, on flash in one batch
        if recall is not None and recall.answer_of >= 0 and not getattr(self.sender, "replaying", False):
            # A host's RECALL, paced by the link's room; not while a recovery replays events (its
            # sender then is QuietSender (firmware/recovery_replay.py), which keeps back reports the host has).
            from firmware.recall_answer import pump     # (on demand: released once the answer is out)
            sent += pump(recall, self, self.sender)
            _answered(recall)
        if outbox.overflows != self.outbox_overflows_reported:
            lost = outbox.overflows - self.outbox_overflows_reported
            self.outbox_overflows_reported = outbox.overflows
            self.emit("fault", {"fault": "report_overflow", "lost": lost})
        return sent

    def _send_outbox_entry(self, table, code, a, b):
        if code >= _OUT_GAME_FIRST:           # a run: one entry, b reports (Table.REPORT_RUNS; the others: drain's)
            recall = self.recall
            if recall is not None and code not in recall.rounds.ROUND_CODES:
                recall = None                 # none of them ends a round (drain)
            for i in range(a, a + b):
                event, fields = table.game_report(code, i, 0)
                self.emit(event, fields)
                if recall is not None:
                    recall.noted(table, code, i, 0, self, fields)   # a round's end: kept after the reports (drain)
        elif code == _OUT_BUTTON:             # (OUT_STATE: drain's)
            fields = {"button": self.button_names[a], "pressed": b != _BUTTON_RELEASED}
            if b == _BUTTON_LONG:
                fields["long"] = True
            self.emit("button", fields)
        elif code == _OUT_FAULT:
            self._fault(table, a, b)
        elif code == _OUT_ACK:
            self.emit("fault_ack", {"fault": fault_kinds.name(a), "by": table_mod.ACK_NAMES[b]})
        elif code == _OUT_FAULT_RESTORED:          # a card alarm names its card, as when raised
            if fault_kinds.is_game_alarm(a):
                fields = {"fault": fault_kinds.name(a), "card": cards.name(b) if b >= 0 else None}
            else:
                fields = fault_kinds.plain_fields(a, b)
            fields["restored"] = True
            self.emit("fault", fields)
        elif code == _OUT_LAMP:
            self.emit("lamp", {"lamp": _lamp_name(table, a)})
        elif code == _OUT_CONSOLE_ERROR:
            name = CONSOLE_ERRORS[a] if 0 <= a < len(CONSOLE_ERRORS) else "error_%d" % a
            self.emit("console_error", {"error": name, "line": table.evidence.text(b)})
        elif code == _OUT_CONSOLE:
            self._console(table, a, b)
        elif code == _OUT_HOST:
            if a == _HOST_UNKNOWN:
                self.emit("host_error", {"error": "unknown request", "bytes": table.evidence.text(b)})
            elif a == _HOST_BAD:
                fields = {"error": table.host_reason, "bytes": table.evidence.text(b)}
                if table.host_reason_tag:                   # the refused request's (b: its bytes' handle)
                    fields["tag"] = table.host_reason_tag
                self.emit("host_error", fields)
            elif a == _HOST_RECALL:
                count = b & _HOST_ARG_MASK                  # below the host's tag (firmware/events.py)
                if self.recall is None:
                    refused = "recall is not kept here"
                else:
                    from firmware import recall_answer      # (on demand: released once the answer is out)
                    if getattr(self.sender, "replaying", False):
                        # A request the board took before its reset, replayed by the recovery: its answer
                        # went out then (or was cut short: the host asks again): not made again, unasked.
                        refused = recall_answer.refusal(self.recall, count)
                    else:
                        refused = recall_answer.ask(self.recall, count, b >> _HOST_TAG_SHIFT)
                    _answered(self.recall)
                if refused:
                    self._host_error(refused, "recall", b)
            else:
                # named as the host asked it (its event number meant nothing to the host)
                request = ("roads" if a == _HOST_ROADS else "hand" if a == _HOST_HAND
                           else "open_bets" if a == _HOST_OPEN_BETS else "request_%d" % a)
                self._host_error("not served by this table", request, b)
        elif code == _OUT_NOT_TAKEN:         # the shoe's own word for it (docs/protocol.md, "Shoe")
            self.emit("not_taken", {"device": "shoe", "message": _SHOE_WORDS[a] if 0 < a < len(_SHOE_WORDS)
                                    else "message_%d" % a})
        elif code == _OUT_LINK_BACKLOG:
            fields = {"fault": fault_kinds.name(_LINK_BACKLOG), "frames_held": b}
            if not a:
                fields["cleared"] = True
            self.emit("fault", fields)
        else:
            self.emit("fault", {"fault": "unknown_outbox_code", "detail": code})

    def _host_error(self, error, request, b):
        """A request refused; b the HOST event's: its tag given back (not 0)."""
        fields = {"error": error, "request": request}
        tag = b >> _HOST_TAG_SHIFT
        if tag > 0:
            fields["tag"] = tag
        self.emit("host_error", fields)

    def _fault(self, table, code, b):
        """A fault shows the bytes behind it (escaped, bounded) where b is evidence; else b is a count."""
        if fault_kinds.is_game_alarm(code):
            self.emit("fault", {"fault": fault_kinds.name(code), "card": cards.name(b) if b >= 0 else None})
        elif not fault_kinds.has_evidence(code):
            self.emit("fault", fault_kinds.plain_fields(code, b))     # "detail" only where b means something
        elif code == _UNEXPECTED_INPUT:
            fields = {"fault": fault_kinds.name(code), "port": self.unused_role}
            self.emit("fault", table.evidence.into(fields, "bytes", b))
        else:
            self.emit("fault", table.evidence.into({"fault": fault_kinds.name(code)}, "bytes", b))  # none: no "bytes"

    def _console(self, table, action, b):
        """A technician's console action (docs/console.md, "Audit"); never a PIN."""
        name = CONSOLE_ACTIONS[action] if 0 < action < len(CONSOLE_ACTIONS) else "action_%d" % action
        fields = {"action": name}
        if action == _CON_ACT_COMMAND:
            fields["line"] = table.evidence.text(b)
        elif action == _CON_ACT_LOGIN_FAILED:
            fields["failures"] = b
        elif action == _CON_ACT_LOCKOUT or action == _CON_ACT_LOCKED:
            fields["seconds"] = b
        self.emit("console", fields)


def _lamp_name(table, a):
    """A LAMP argument as the console word: a zone name, "all" or "off"."""
    if a == _LAMP_ALL:
        return "all"
    if a == _LAMP_CHECK_END:
        return "off"
    return table.lights.names[a]


def _answered(recall):
    """No host's RECALL under way (refused, or its answer out): the reading side leaves the heap again."""
    if recall.answer_of < 0:
        from firmware.parts import RECALL_ON_DEMAND, release
        release(RECALL_ON_DEMAND)
