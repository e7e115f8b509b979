"""One table's report link in the floor gateway: its serial port, its HostClient, the reports waiting for a PUBACK.

tools.floor.gateway runs one Link a table (docs/floor.md): the link opens the
port (again after it went away), reads what the board sent, writes the
client's ACK, REPLAY and TIME frames without cutting one short, keeps a long
report's acknowledged pieces in the spool, and acknowledges to the board each
report the broker has (`puback`), in the board's order.
"""
import collections
import json
import os
import time

from firmware.link import frame as frame_mod
from tools.host import HostClient

REOPEN_EVERY_S = 1.0          # a link that is down (no device, the table gone) is tried again this often
_READ = 4096
_OUT_MOST = 4096              # bytes kept for a line that takes none (a board not reading): past that, dropped
_REPLAY_ALL = frame_mod.encode(0, 0, "REPLAY")   # "from the oldest frame you hold": a new gateway in step


def now_ms():
    return int(time.time() * 1000)


class Link:
    """One table's report link: its serial port, its HostClient, the reports waiting for their PUBACK."""

    def __init__(self, name, port, baud, reopen=True, spool=None):
        """spool: the folder where the pieces of a long report are kept once acknowledged, and the table's mark
        (None: neither kept)."""
        self.name = name
        self.spool = spool
        self._spooled = None      # (first, pieces) of the pieces in the spool file
        self.last_error = None
        # (boot, seq) of the first report the broker confirmed in the board's newest boot it had, kept in the
        # spool (a write a board's boot): each new client starts from it (HostClient known=), so a board
        # replaced while its link was down, or while no gateway ran (with a spool), is told as one replaced
        # under a running link (docs/floor.md, "A board replaced while its link was down")
        self.mark = self._read_mark()
        self.reopen = reopen      # False: once down, stays down (a pty: its number may go to another program)
        self.port = port
        self.baud = baud
        self.serial = None
        self.fd = None
        self.client = None
        self.waiting = collections.deque()  # [position, done, read at (monotonic s)] in the board's order
        self._out = bytearray()   # host frames the line has not taken yet (a write can take part of them)
        self.opens = 0
        self.published = 0
        self.confirmed = 0
        self.last_report = None
        self._past = {"retransmissions": 0, "replays_asked": 0, "refused": 0, "lost": 0}   # earlier HostClients'
        self.refused = None       # why the board on this port is not this table's (the last refusal logged)
        self.link_events = {}     # what the link noticed (HostClient.events: "gone", "unknown_control", ...) -> count
        self._next_try = 0.0
        self.named = False        # the board has sent a report of its own (not another table's) since the client began
        self.unnamed = []         # (report, text, position) the client delivered before that: they wait

    def open(self, now):
        import serial
        if now < self._next_try or (self.opens and not self.reopen):
            return False
        self._next_try = now + REOPEN_EVERY_S
        try:
            self.serial = serial.Serial(self.port, self.baud, timeout=0)
        except (serial.SerialException, ValueError, OSError) as exc:
            self.last_error = str(exc)
            return False
        self.fd = self.serial.fileno()
        self.opens += 1
        self.last_error = None
        self.resync()
        return True

    def resync(self):
        """A new HostClient: what an earlier one had but the broker had not acknowledged is still on the
        board, and comes again (REPLAY 0.0: from the oldest frame it holds)."""
        self._fold_counts()
        self.client = HostClient(clock_ms=now_ms, stamped=True, hold_acks=True, notices=True, known=self.mark)
        self.waiting.clear()
        self.named, self.unnamed = False, []     # (not acknowledged: they come again after the REPLAY below)
        kept = self._read_spool()
        if kept is not None:
            self.client.resume_pieces(*kept)
            self._spooled = (tuple(kept[0]), len(kept[1]))
        self.write(_REPLAY_ALL)

    # -- the spool: a long report's pieces the board no longer has, and the mark, on this gateway's disk --

    def _spool_file(self, kind="pieces"):
        return os.path.join(self.spool, "%s.%s.json" % (self.name, kind))

    def _read_spooled(self, kind, parse):
        """parse(the file's JSON) of the spool's file of this kind, None when there is none (or no spool)."""
        if self.spool is None:
            return None
        path = self._spool_file(kind)
        try:
            with open(path) as f:
                return parse(json.load(f))
        except FileNotFoundError:
            return None
        except (OSError, ValueError, KeyError, TypeError, IndexError, AttributeError) as exc:
            # Not this gateway's writing (it writes whole files): set aside, not read, the link up without it
            os.replace(path, path + ".bad")
            self.last_error = "spool file %s unreadable (%s): set aside as .bad" % (path, exc)
            return None

    def _write_spooled(self, kind, data):
        """Whole: a temporary file, fsync, rename."""
        path = self._spool_file(kind)
        with open(path + ".tmp", "w") as f:
            json.dump(data, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(path + ".tmp", path)

    def _read_spool(self):
        return self._read_spooled(
            "pieces", lambda data: ((int(data["first"][0]), int(data["first"][1])),
                                    [p.encode() for p in data["pieces"]]))

    def _read_mark(self):
        def parse(data):
            if data["table"] != self.name or not all(type(data[k]) is int and data[k] > 0 for k in ("boot", "seq")):
                raise ValueError("not a mark of table %s" % self.name)
            return data["boot"], data["seq"]
        return self._read_spooled("mark", parse)

    def _keep_mark(self, position):
        """A report the broker has confirmed: its position kept as the mark when it is the first of a newer boot
        (or the first since board_replaced()); on disk with a spool. Never back to an older boot: frames of the
        boot before, sent again after a restart (their ACK had not left), are the same board's."""
        if self.mark is None or position[0] > self.mark[0]:
            if self.spool is not None:
                self._write_spooled("mark", {"table": self.name, "boot": position[0], "seq": position[1]})
            self.mark = position

    def board_replaced(self):
        """Another board on the line (its boot counter lower): its first confirmed report makes the mark; the
        clients from now on start without the old one's (the file keeps it until then: a gateway restarted
        before tells the replacement again)."""
        self.mark = None

    def keep_pieces(self):
        """Before an ACK that passes pieces of a report still being put together (more pieces than the
        board's window) goes out: those pieces on disk (written whole: a temporary file, fsync, rename)."""
        got = self.client.acknowledged_pieces() if self.spool is not None else None
        if got is None or (got[0], len(got[1])) == self._spooled:
            return
        first, pieces = got
        self._write_spooled("pieces", {"table": self.name, "first": list(first), "pieces": [p.decode() for p in pieces]})
        self._spooled = (first, len(pieces))

    def forget_pieces(self, board_gone=False):
        """The spooled report is confirmed (the broker has it), or given up (board_gone: its board replaced):
        its file goes."""
        if self._spooled is not None and (board_gone or self.client is None
                                          or not self.client.awaits(self._spooled[0])):
            try:
                os.remove(self._spool_file())
            except FileNotFoundError:
                pass
            self._spooled = None

    def _fold_counts(self):
        if self.client is not None:
            self._past["retransmissions"] += self.client.duplicates
            self._past["replays_asked"] += self.client.replays_asked
            self._past["refused"] += sum(self.client.refused.values())
            self._past["lost"] += self.client.lost
            self.client = None

    def close(self, why=None):
        self._fold_counts()
        if self.serial is not None:
            try:
                self.serial.close()
            except OSError:
                pass
        self.serial = self.fd = self.client = None
        self.waiting.clear()
        self.named, self.unnamed = False, []
        del self._out[:]
        self.last_error = why

    @property
    def up(self):
        return self.fd is not None

    def read(self):
        """The bytes the board sent (b"" when none: a raw tty reads 0 bytes rather than block);
        OSError when the device is gone (a pty whose other end closed: EIO)."""
        try:
            return os.read(self.fd, _READ)
        except BlockingIOError:
            return b""

    def write(self, data=b""):
        """data after what the line has not taken yet, then as much as it takes now: a frame is never cut
        short by a full line (the rest would run into the next frame and spoil both)."""
        if self.fd is None:
            return
        self._out += data
        if len(self._out) > _OUT_MOST:
            del self._out[:]  # a board that reads nothing: as lost ACKs, it sends again and gets newer ones
        if self._out:
            try:
                del self._out[:os.write(self.fd, self._out)]
            except BlockingIOError:
                pass          # the line is full: the rest at the next step

    def noticed(self, events):
        """Counts what the client noticed (its events, then forgotten: a flood of them keeps nothing);
        returns the ones worth a log line (not the routine open and start, nor a flood's kinds)."""
        logged = []
        for event in events:
            what = event.get("link")
            self.link_events[what] = self.link_events.get(what, 0) + 1
            if what not in ("open", "start", "unknown_control", "bad_gone") or self.link_events[what] == 1:
                logged.append(event)
        del events[:]
        return logged

    def to_offer(self, reports, texts, positions, told):
        """What of a read to offer the broker now, as (report, text, position), in the board's order. told: the
        read has a report of the board's own (its text, not a notice) or a long report's first pieces, and none
        names another table (those were refused). Until the board has told, what it sent waits, not
        acknowledged: a board on another table's port (adapters swapped) sends its OPEN and a LOST count (a
        `link_lost` notice) before the report that names its table; published, they would be this table's."""
        got = list(zip(reports, texts, positions))
        if self.named:
            return got
        if not told:
            self.unnamed.extend(got)
            return []
        self.named = True
        got, self.unnamed = self.unnamed + got, []
        return got

    def published_one(self, position, report):
        self.waiting.append([position, False, time.monotonic()])
        self.published += 1
        self.last_report = {"event": report.get("event") if isinstance(report, dict) else None,
                            "boot": position[0], "seq": position[1], "at_ms": now_ms()}

    def puback(self, entry):
        """The broker has this report: acknowledge to the board what is now safe, in order."""
        entry[1] = True
        position = None
        while self.waiting and self.waiting[0][1]:
            position = self.waiting.popleft()[0]
            self.confirmed += 1
        if position is not None and self.client is not None:
            self._keep_mark(position)          # before the ACK that lets the board drop it
            reply = self.client.confirm(position)
            self.forget_pieces()
            self.write(reply)

    def status(self):
        client = self.client
        count = lambda what, now: self._past[what] + (now if client is not None else 0)
        return {
            "table": self.name,
            "link": "up" if self.up else "down",
            "port": self.port,
            "lag_ms": int((time.monotonic() - self.waiting[0][2]) * 1000) if self.waiting else 0,
            "waiting_puback": len(self.waiting),
            "published": self.published,
            "confirmed": self.confirmed,
            "retransmissions": count("retransmissions", client.duplicates if client else 0),
            "replays_asked": count("replays_asked", client.replays_asked if client else 0),
            "refused_lines": count("refused", sum(client.refused.values()) if client else 0),
            "reports_lost_on_board": count("lost", client.lost if client else 0),
            "link_events": dict(self.link_events),
            "opens": self.opens,
            "last_report": self.last_report,
            "mark": None if self.mark is None else {"boot": self.mark[0], "seq": self.mark[1]},
            "error": self.last_error,
            "at_ms": now_ms(),
        }
