"""The host's end of the host link, without the port: HostClient (docs/host-link.md).

HostClient is the protocol: feed() it the bytes that came in, send back the
bytes it returns. It checks every frame's CRC, acknowledges what it has in
order (cumulative ACK), keeps frames that came early, asks for a REPLAY where
there is a gap, drops duplicates by (boot, seq), and sets the board's clock
(TIME) at every new boot when it has a clock. With hold_acks it acknowledges a
report only once the caller confirm()s it (a gateway: once the broker has it),
so the board keeps every frame not yet safe further on. tools/host.py is its
command line (and re-exports it).
"""
import collections
import json

from firmware.events import HOST_TAG_MAX as TAG_MAX   # a request's tag at most: the board's
from firmware.link import frame as frame_mod
from firmware.link.frame_host import HostFrame

_MAX_PENDING = 2 * frame_mod.MAX_FRAME   # bytes of an unfinished line kept; more is noise
_NOTHING = (0, 0)                        # "REPLAY 0.0": from the oldest frame the board holds
_STALE_TRIES = 8                         # ACKs a frame of an older boot may outlive: then it is another board
_NAK_TRIES = 8                           # REPLAYs asked again (every `patience` reads) after a damaged line


def _tag(tag):
    if not 0 <= tag <= TAG_MAX:
        raise ValueError("a request's tag is 0..%d, not %r" % (TAG_MAX, tag))
    return tag


def _position(text):
    """b"3.17" -> (3, 17); None for anything else."""
    boot, dot, seq = text.partition(b".")
    if not dot or not boot.isdigit() or not seq.isdigit():
        return None
    return int(boot), int(seq)


def find_frame(frame, line):
    """Decode line (without its LF) into frame (a frame_host.HostFrame): the frame it holds, or one starting at
    a later "#" (noise ate the LF before it). -> (status, at): OK and where the frame starts in line,
    or, when no frame is in it, the status of the last try (from the last "#") and -1. (tools.decode
    reads captures with it too.)"""
    status = frame.decode(line)
    at = 0
    while status != frame_mod.OK:
        at = line.find(b"#", at + 1)
        if at < 0:
            return status, -1
        status = frame.decode(line[at:])
    return status, at


def _one_of_each_key(pairs):
    report = {}
    for key, value in pairs:
        if key in report:
            raise ValueError("the key %s twice" % json.dumps(key))
        report[key] = value
    return report


def _no_constant(name):
    raise ValueError("%s is no JSON number" % name)


class Received:
    """One authentic sequenced frame, waiting for its turn."""

    __slots__ = ("boot", "seq", "type", "payload", "uptime_ms", "host_ms")

    def __init__(self, frame):
        self.boot = frame.boot
        self.seq = frame.seq
        self.type = frame.type_name()
        self.payload = frame.payload()
        self.uptime_ms = frame.uptime_ms()
        self.host_ms = frame.host_ms()


class HostClient:
    def __init__(self, clock_ms=None, raw=False, stamped=False, patience=16, max_ahead=256, hold_acks=False,
                 window=8, notices=False, known=None):
        """clock_ms: () -> Unix ms, to set the board's clock at each boot (None: never).
        raw: reports as the JSON text the board sent instead of dicts; stamped: dicts gain
        "link": {"boot", "seq", "uptime_ms"[, "host_ms"]}. patience: frames past a gap
        before the same REPLAY is asked again. max_ahead: early frames kept.
        hold_acks: a report is acknowledged only once confirm() covers its position
        (feed() leaves each report's (boot, seq) in .positions); until then the ACK
        stops before its first frame, and a REPLAY asks from there too (a REPLAY
        acknowledges what comes before it). window: the board's (frames it sends
        past the oldest one not acknowledged): a report in more pieces than that
        has its leading pieces acknowledged once `window` of them are here, or
        the board could never send its end.
        notices (a gateway's): what the link finds missing or unreadable in the board's sequence is
        delivered as a report of its own, in its place, held with hold_acks like any report (so a
        board's frame is never acknowledged before the caller has its notice): `link_lost` (a LOST
        frame: reports the board refused), `link_unknown_type` (a numbered frame of a TYPE the link
        does not have), `link_part_lost` (PART pieces never finished), `link_frames_gone` (frames the
        board no longer has, skipped by its GONE; or, from a board that kept nothing over its reset,
        frames that may have been lost there); and a report is read strictly (JSON only: no NaN or
        Infinity, no key twice, no "link" key, the gateway's mark) with its text as sent kept in
        .texts (None for a notice or a link_bad_json).
        known: (boot, seq) of a report the caller already has from this line, from before this client (a
        restarted gateway's mark, tools/floor/link.py): a board's first OPEN ("-") of a lower boot is then
        taken as it is once the ACKs of a running client passed it: the ACK of `known` goes back (the board
        that was here drops it), and one that outlives _STALE_TRIES of them is another board's (.boot_back),
        never delivered as this line's next frames."""
        self.clock_ms = clock_ms
        self.raw = raw
        self.stamped = stamped
        self.patience = patience
        self.max_ahead = max_ahead
        self.expected = None          # (boot, seq) next in order; None until synchronised
        self.events = []              # what the link noticed, as dicts (the CLI prints them)
        self.lost = 0                 # reports the board said it refused (LOST frames)
        self.frames = 0               # authentic frames received
        self.refused = {}             # status name -> lines refused
        self.duplicates = 0
        self.replays_asked = 0
        self._pending = bytearray()
        self._damaged = False         # this feed() refused a line
        self._naks_left = 0           # REPLAYs still to ask while nothing follows a damaged line
        self._ahead = {}              # (boot, seq) -> Received
        self._skip = None             # (from, to) from a GONE: "to" may follow "from"
        self._time_due = False        # in step with a board running: its clock to set (as at an OPEN)
        self._asked = None            # the position of the last REPLAY asked
        self._since_ask = 0
        self._frame = HostFrame()
        self._parts = []              # PART payloads of the report being put together
        self._parts_next = None       # the position its next piece must have
        self._parts_from = None       # the position of its first piece
        self.hold_acks = hold_acks
        self.window = window
        self.notices = notices
        self.positions = []           # (boot, seq) of each report the last feed() returned
        self.texts = []               # notices: each report's JSON text as the board sent it, or None
        self._passed = None           # _next_key(): "gone" / "boot_unknown_end" when it passed frames over
        self._unconfirmed = collections.deque()   # hold_acks: (first frame, last frame) of each report
        self._acked = None            # hold_acks: the position last acknowledged
        self._stale = {}              # a frame of a boot before the one acknowledged -> times it came
        self.boot_back = None         # (boot acknowledged, boot of a frame that keeps coming): not that board
        self._known = known           # a restarted gateway's mark (above)
        self._ack_known = False       # this feed() met a board's first OPEN of a boot before it

    # -- bytes in, reports and replies out --

    def feed(self, data):
        """Bytes from the board -> (reports in order, bytes to send to the board)."""
        self._pending.extend(data)
        reply = []
        start = self.expected
        duplicate = False
        self._damaged = False
        self._piece_again = False
        self.positions = []
        self.texts = []
        while True:
            end = self._pending.find(b"\n")
            if end < 0:
                break
            line = bytes(self._pending[:end])
            del self._pending[:end + 1]
            duplicate = self._line(line, reply) or duplicate
        if len(self._pending) > _MAX_PENDING:
            self._count_refused(frame_mod.TOO_LONG)
            del self._pending[:]
        reports = []
        if self._time_due:
            self._time_due = False
            if self.clock_ms is not None:
                reply.append(frame_mod.encode(0, 0, "TIME", "%d" % self.clock_ms()))
        self._deliver(reports, reply)
        if self.expected is not None and (duplicate or self.expected != start):
            self._ack(reply, repeat=duplicate or not self.hold_acks)
        if self._ack_known:
            # The ACK of the mark, then "from the oldest frame you hold": the board that was here answers from
            # past the mark, another board with its first OPEN again (a round trip a try, not a back-off's wait).
            self._ack_known = False
            reply.append(frame_mod.encode(self._known[0], self._known[1], "ACK"))
            if self.expected is None:
                self._ask(_NOTHING, reply)
        if self._damaged:
            self._naks_left = _NAK_TRIES
        elif self.expected != start:
            self._naks_left = 0               # progress: nothing is waited for any more
        if self.expected is None and self._damaged and not reply:
            self._ask(_NOTHING, reply)        # not yet in step: the damaged line may be the boot's OPEN
        elif self.expected is not None and (self._ahead or self._naks_left or self._piece_again):
            self._since_ask += 1
            # A frame that arrived damaged is most likely the one expected: ask for it now (a NAK),
            # and again every `patience` reads while nothing comes (the NAK may be damaged too),
            # rather than leave the board to wait out its back-off (docs/host-link.md "Rules").
            # A piece sent again while its report's ACK is held (hold_acks) is the board timing out
            # on that ACK: the piece after the last one here was lost, and with nothing after it to
            # show the gap, both sides would wait for ever (the board, probing, sends no new frame).
            # Asked then only if the read brought nothing new and the REPLAY reaches it: the board
            # sends `window` frames from the ACK's limit, and one held before an unconfirmed report
            # would bring back only pieces here already, each asking again (a storm while the broker
            # is away).
            again = self._piece_again and self.expected == start and self._replay_reaches()
            if (again or self._damaged or self._asked != self.expected
                    or self._since_ask > self.patience):
                if not self._ahead and not self._damaged and self._naks_left > 0:
                    self._naks_left -= 1
                self._ask(self.expected, reply)
        return reports, b"".join(reply)

    def _line(self, line, reply):
        """One line: the frame in it (also one starting at a later "#", after noise ate a LF).
        Returns True for a duplicate."""
        frame = self._frame
        status, _ = find_frame(frame, line)
        if status != frame_mod.OK:
            self._count_refused(status)
            self._damaged = True
            return False
        self.frames += 1
        if frame.seq == 0:
            self._control(frame)
            return False
        key = (frame.boot, frame.seq)
        if self._known is not None and key[0] < self._known[0] and frame.type_is(b"OPEN") \
                and frame.payload() == b"-":
            # A board's first OPEN, of a boot before the mark's: what the board that was here had acknowledged
            # (it drops it at the ACK of the mark), or another board's (its frames would repeat the old board's
            # (boot, seq) pairs): never this line's next frame. Synchronised on it (a GONE's resume), this
            # client starts again (REPLAY 0.0 below): the board that was here goes on past the mark.
            self._stale_frame(key, self._known)
            self._ack_known = True
            if self.expected is not None and self.expected <= key:
                self.expected = None
                self._ahead.clear()
            return True
        if self.expected is None:
            if frame.type_is(b"OPEN") and frame.payload() == b"-":
                self.expected = key           # a boot with nothing before it held: start here
            else:
                self._since_ask += 1
                if self._asked != _NOTHING or self._since_ask > self.patience:
                    self._ask(_NOTHING, reply)
                return False
        if key < self.expected:
            self.duplicates += 1
            if self.hold_acks and self._parts and key >= self._parts_from:
                self._piece_again = True      # (feed() asks for what follows: see there)
            if frame.type_is(b"OPEN") and frame.payload() == b"-":
                self._stale_frame(key)        # (only a board's first OPEN: see _stale_frame)
            return True
        if key in self._ahead:
            self.duplicates += 1
        elif len(self._ahead) < self.max_ahead:
            self._ahead[key] = Received(frame)
        return False

    def _stale_frame(self, key, acked=None):
        """An OPEN of a board that kept nothing before it ("-"), of a boot before the last acknowledged one:
        the board that was here had it acknowledged (an ACK is cumulative) and drops it at the ACK sent again
        now. One that keeps coming after _STALE_TRIES ACKs is from another board on this line (replaced, its
        flash new: boot counter lower): .boot_back. Not any older frame: the same board whose line drops the
        host's frames keeps sending its oldest one, whatever is acknowledged."""
        acked = acked or self._acked    # (a restarted gateway's: its mark, `known`)
        if acked is None or key[0] >= acked[0]:
            return
        times = self._stale[key] = self._stale.get(key, 0) + 1
        if times >= _STALE_TRIES and self.boot_back is None:
            self.boot_back = (acked[0], key[0])
            self._event("boot_back", key[0], key[1], acknowledged="%d.%d" % acked)

    def _control(self, frame):
        if not frame.type_is(b"GONE"):
            self._event("unknown_control", frame.boot, 0, type=frame.type_name())
            return
        parts = frame.payload().split(b" ")
        span = [_position(p) for p in parts] if len(parts) == 2 else [None]
        if None in span:
            self._event("bad_gone", frame.boot, 0, payload=frame.payload().decode("utf-8", "replace"))
            return
        first, resume = span
        if self.expected is None and first == _NOTHING:
            self.expected = resume           # synchronised: what came before is not ours to claim
            if self._parts and self._parts_from <= resume < self._parts_next:
                # resumed pieces (resume_pieces) the board still holds from `resume` on (the ACK that would
                # have passed them never went out): it sends them again
                self._parts = self._parts[:resume[1] - self._parts_from[1]]
                self._parts_next = resume
            self._event("start", resume[0], resume[1])
            self._time_due = True            # the boot's OPEN (and its TIME) may be long acknowledged
        elif first == self.expected:
            self._skip = (first, resume)

    def _replay_reaches(self):
        """A REPLAY now brings the frame expected: it is within `window` frames of the ACK's limit."""
        limit = self._ack_limit()
        return limit[0] == self.expected[0] and self.expected[1] - limit[1] < self.window

    def _ask(self, position, reply):
        self._asked = position
        self._since_ask = 0
        self.replays_asked += 1
        if self.hold_acks and position != _NOTHING:
            position = min(position, self._ack_limit())   # never free a frame not yet confirmed
        reply.append(frame_mod.encode(position[0], position[1], "REPLAY"))

    # -- acknowledgements --

    def _ack_limit(self):
        """The first frame not to acknowledge: the next expected, or with hold_acks the first frame
        of the oldest report not confirmed (or of a report whose pieces are still coming)."""
        limit = self.expected
        if self.hold_acks:
            if self._unconfirmed:
                limit = min(limit, self._unconfirmed[0][0])
            if self._parts and len(self._parts) < self.window:
                limit = min(limit, self._parts_from)
        return limit

    def _ack(self, reply, repeat):
        boot, seq = self._ack_limit()
        position = (boot, seq - 1)
        if repeat or position != self._acked:
            self._acked = position
            reply.append(frame_mod.encode(boot, seq - 1, "ACK"))

    def confirm(self, position):
        """hold_acks: every report up to position (boot, seq) is safe (cumulative) -> the bytes to send
        to the board (the ACK that now covers more, or b"")."""
        while self._unconfirmed and self._unconfirmed[0][1] <= position:
            self._unconfirmed.popleft()
        reply = []
        if self.expected is not None:
            self._ack(reply, repeat=False)
        return b"".join(reply)

    def acknowledged_pieces(self):
        """hold_acks: the pieces of the report being put together whose frames the ACK passes (a report in
        more pieces than the window) as (first, pieces), else None. They are on no board any more: a
        gateway keeps them (its spool) before it sends that ACK."""
        if self.hold_acks and self._parts and len(self._parts) >= self.window:
            return self._parts_from, list(self._parts)
        return None

    def pieces_text(self):
        """The text of the report being put together so far ("" when none)."""
        return b"".join(self._parts).decode() if self._parts else ""

    def awaits(self, first):
        """hold_acks: is the report whose first frame is `first` still being put together or unconfirmed?"""
        if self._parts and self._parts_from == first:
            return True
        return any(entry[0] == first for entry in self._unconfirmed)

    def resume_pieces(self, first, pieces):
        """A new client (a restarted gateway): the pieces an earlier one had acknowledged (its spool), first at
        `first`, one frame each; the board sends the rest from the next one. If what the board sends next is
        not that, they are a link_part_lost report (as any report cut off)."""
        self._parts = [bytes(p) for p in pieces]
        self._parts_from = tuple(first)
        self._parts_next = (first[0], first[1] + len(pieces))

    def unconfirmed(self):
        """hold_acks: reports delivered and not yet confirmed."""
        return len(self._unconfirmed)

    # A request's frame starts with a line end: what line noise left of the host's frame before it (an ACK
    # that lost its own line end) ends there, not in this frame's line, which it would spoil (a bad CRC, the
    # request lost). The board skips an empty line. The link's own frames need none: the board replays a
    # report whose ACK was lost, while a request is neither numbered nor acknowledged (docs/host-link.md).
    @staticmethod
    def request(payload, tag=0):
        """A host request (b"roads", a JSON request's text) as the REQUEST frame that carries it, on a line
        of its own. tag (1..TAG_MAX, 0 none): given back in the answer as "tag"."""
        return b"\n" + frame_mod.encode(0, _tag(tag), "REQUEST", payload)

    @staticmethod
    def recall(count, tag=0):
        """The RECALL frame asking for the board's last `count` rounds (1..100; docs/protocol.md, "Host
        reports"), on a line of its own; tag as request()'s, given back in every `recall` report."""
        return b"\n" + frame_mod.encode(0, _tag(tag), "RECALL", "%d" % count)

    # -- delivery in order --

    def _deliver(self, reports, reply):
        while self.expected is not None:
            passed_from = self.expected
            self._passed = None
            key = self._next_key()
            if key is None:
                break
            got = self._ahead.pop(key)
            self.expected = (got.boot, got.seq + 1)
            self._skip = None
            if self._parts and (got.boot, got.seq) != self._parts_next:
                self._event("part_lost", got.boot, got.seq, pieces=len(self._parts))
                last = (self._parts_next[0], self._parts_next[1] - 1)
                self._notice(reports, self._parts_from, last, {
                    "event": "link_part_lost", "pieces": len(self._parts), "at": "%d.%d" % self._parts_from,
                    "text": b"".join(self._parts).decode("utf-8", "replace")})
                self._parts = []      # a report cut off by a boot's end or frames gone: never whole
            if self._passed is not None:
                self._notice(reports, passed_from, passed_from, {
                    "event": "link_frames_gone", "why": self._passed,
                    "from": "%d.%d" % passed_from, "resume": "%d.%d" % key})
            if got.type == "PART":
                if not self._parts:
                    self._parts_from = (got.boot, got.seq)
                self._parts.append(got.payload)
                self._parts_next = (got.boot, got.seq + 1)
            elif got.type == "REPORT":
                first = (got.boot, got.seq)
                if self._parts:
                    first = self._parts_from
                    self._parts.append(got.payload)
                    got.payload = b"".join(self._parts)
                    self._parts = []
                report, text = self._report(got)
                reports.append(report)
                self.positions.append((got.boot, got.seq))
                self.texts.append(text)
                if self.hold_acks:
                    self._unconfirmed.append((first, (got.boot, got.seq)))
            elif got.type == "OPEN":
                self._event("open", got.boot, got.seq, previous=got.payload.decode("utf-8", "replace"))
                if self.clock_ms is not None:
                    reply.append(frame_mod.encode(0, 0, "TIME", "%d" % self.clock_ms()))
            elif got.type == "LOST":
                count = int(got.payload) if got.payload.isdigit() else -1
                self.lost += max(count, 0)
                self._event("lost", got.boot, got.seq, reports=count)
                notice = {"event": "link_lost", "reports": count}
                if count < 0:
                    notice["text"] = got.payload.decode("utf-8", "replace")
                self._notice(reports, key, key, notice)
            else:
                self._event("unknown_type", got.boot, got.seq, type=got.type)
                self._notice(reports, key, key, {"event": "link_unknown_type", "type": got.type,
                                                  "text": got.payload.decode("utf-8", "replace")})
        if self.expected is not None:
            for key in [k for k in self._ahead if k < self.expected]:
                del self._ahead[key]      # passed over (a boot's end, frames gone): never due

    def _next_key(self):
        """The frame that comes next in order, if it is here."""
        expected = self.expected
        if expected in self._ahead:
            return expected
        before = "%d.%d" % (expected[0], expected[1] - 1)
        for key, got in self._ahead.items():
            if got.type == "OPEN" and key[0] > expected[0] and key[1] == 1:
                if got.payload == before.encode():
                    return key                # the previous boot ended just before expected
                if got.payload == b"-" and not self._older_ahead(key):
                    # The board kept nothing from before this boot (RAM store): it cannot say.
                    self._event("boot_unknown_end", expected[0], expected[1], next_boot=key[0])
                    self._passed = "boot_unknown_end"
                    return key
        if self._skip is not None and self._skip[0] == expected and self._skip[1] in self._ahead:
            resume = self._skip[1]
            self._event("gone", expected[0], expected[1], resume="%d.%d" % resume)
            self._passed = "gone"
            return resume
        return None

    def _older_ahead(self, key):
        return any(k < key for k in self._ahead)

    def _report(self, got):
        """-> (the report, its text as sent when it was read as one, else None)."""
        text = got.payload.decode()         # (printable ASCII: the frame's decoder refuses any other byte)
        if self.raw:
            return text, text
        why = None
        try:
            if self.notices:
                report = json.loads(text, object_pairs_hook=_one_of_each_key, parse_constant=_no_constant)
            else:
                report = json.loads(text)
        except (ValueError, RecursionError) as exc:   # RecursionError: nested too deeply for the parser
            report, why = None, str(exc) if self.notices else None
        if self.notices and isinstance(report, dict) and "link" in report:
            report, why = None, 'a key "link": the gateway\'s mark'
        if not isinstance(report, dict):    # not a report (an object): what the board sent, marked as such
            report, text = {"event": "link_bad_json", "text": text}, None
            if why is not None:
                report["why"] = why
        return self._stamp(report, got), text

    def _stamp(self, report, got):
        if self.stamped:
            link = {"boot": got.boot, "seq": got.seq, "uptime_ms": got.uptime_ms}
            if got.host_ms >= 0:
                link["host_ms"] = got.host_ms
            report["link"] = link
        return report

    def _notice(self, reports, first, last, notice):
        """notices: a link notice delivered as a report at `last` (its frames first..last held with it)."""
        if not self.notices:
            return
        if self.stamped:
            notice["link"] = {"boot": last[0], "seq": last[1]}
        reports.append(notice)
        self.positions.append(last)
        self.texts.append(None)
        if self.hold_acks:
            self._unconfirmed.append((first, last))

    def _event(self, what, boot, seq, **fields):
        event = {"link": what, "at": "%d.%d" % (boot, seq)}
        event.update(fields)
        self.events.append(event)

    def _count_refused(self, status):
        name = frame_mod.STATUS_NAMES[status]
        self.refused[name] = self.refused.get(name, 0) + 1
