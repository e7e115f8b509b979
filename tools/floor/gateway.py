"""The floor gateway: every table's report link in, every report out on MQTT (docs/floor.md).

Each table's link is the host side of the link protocol (tools.host.HostClient:
CRC, cumulative ACKs, REPLAY on gaps, duplicates dropped by (boot, seq)), run
with hold_acks: a report is published with QoS 1 and the table's frame is
acknowledged only once the broker has acknowledged that publish (PUBACK), in
order, so every frame not yet safe in the broker is still held by the board.
A gateway that restarts asks each board for everything it still holds
(`REPLAY 0.0`) and publishes it again: a report the broker already had arrives
twice, with the same "link": {"boot", "seq"}, and the consumer drops the
second. A broker that goes away keeps the gateway's publishes waiting in the
MQTT client, which sends every one not acknowledged again when it is back.

Topics: casino/<floor>/<table>/<event> for each report (its JSON, with "link"),
casino/<floor>/<table>/status (retained) for the link's state every second.
"""
import collections
import json
import os
import queue
import re
import select
import sys
import threading
import time

from firmware.link import frame as frame_mod
from tools.floor.broker import parse_url
from tools.floor.tables import TablesError, check_floor, load_tables, status_topic, topic
from tools.host import HostClient

STATUS_EVERY_S = 1.0
REOPEN_EVERY_S = 1.0          # a link that is down (no device, the table gone) is tried again this often
KEEPALIVE_S = 5
_READ = 4096
_TABLE_IN_TEXT = re.compile(r'"table"\s*:\s*"([^"\\]*)"')   # a report's table, in its first pieces
_OUT_MOST = 4096              # bytes kept for a line that takes none (a board not reading): past that, dropped
_REPLAY_ALL = frame_mod.encode(0, 0, "REPLAY")   # "from the oldest frame you hold": a new gateway in step


def _now_ms():
    return int(time.time() * 1000)


class Link:
    """One table's report link: its serial port, its HostClient, the reports waiting for their PUBACK."""

    def __init__(self, name, port, baud, reopen=True, spool=None):
        """spool: the folder where the pieces of a long report are kept once acknowledged (None: not kept)."""
        self.name = name
        self.spool = spool
        self._spooled = None      # (first, pieces) of the pieces in the spool file
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
        self.last_error = None
        self._past = {"retransmissions": 0, "replays_asked": 0, "refused": 0, "lost": 0}   # earlier HostClients'
        self.refused = None       # why the board on this port is not this table's (the last refusal logged)
        self.link_events = {}     # what the link noticed (HostClient.events: "gone", "unknown_control", ...) -> count
        self._next_try = 0.0

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
        self.client = HostClient(clock_ms=_now_ms, stamped=True, hold_acks=True, notices=True)
        self.waiting.clear()
        kept = self._read_spool()
        if kept is not None:
            self.client.resume_pieces(*kept)
            self._spooled = (tuple(kept[0]), len(kept[1]))
        self.write(_REPLAY_ALL)

    # -- the spool: a long report's pieces the board no longer has, on this gateway's disk --

    def _spool_file(self):
        return os.path.join(self.spool, "%s.pieces.json" % self.name)

    def _read_spool(self):
        if self.spool is None:
            return None
        path = self._spool_file()
        try:
            with open(path) as f:
                data = json.load(f)
            return (int(data["first"][0]), int(data["first"][1])), [p.encode() for p in data["pieces"]]
        except FileNotFoundError:
            return None
        except (OSError, ValueError, KeyError, TypeError, IndexError, AttributeError) as exc:
            # Not this gateway's writing (it writes whole files): set aside, not read, the link up without it
            os.replace(path, path + ".bad")
            self.last_error = "spool file %s unreadable (%s): set aside as .bad" % (path, exc)
            return None

    def keep_pieces(self):
        """Before an ACK that passes pieces of a report still being put together (more pieces than the
        board's window) goes out: those pieces on disk (written whole: a temporary file, fsync, rename)."""
        got = self.client.acknowledged_pieces() if self.spool is not None else None
        if got is None or (got[0], len(got[1])) == self._spooled:
            return
        first, pieces = got
        path = self._spool_file()
        with open(path + ".tmp", "w") as f:
            json.dump({"table": self.name, "first": list(first), "pieces": [p.decode() for p in pieces]}, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(path + ".tmp", path)
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

    def published_one(self, position, report):
        self.waiting.append([position, False, time.monotonic()])
        self.published += 1
        self.last_report = {"event": report.get("event") if isinstance(report, dict) else None,
                            "boot": position[0], "seq": position[1], "at_ms": _now_ms()}

    def puback(self, entry):
        """The broker has this report: acknowledge to the board what is now safe, in order."""
        entry[1] = True
        position = None
        while self.waiting and self.waiting[0][1]:
            position = self.waiting.popleft()[0]
            self.confirmed += 1
        if position is not None and self.client is not None:
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
            "error": self.last_error,
            "at_ms": _now_ms(),
        }


class Gateway:
    """Links in, MQTT out. start(), then step() in a loop (or run()); stop() at the end."""

    def __init__(self, floor, tables, broker_url, client_id=None, log=None, spool=None):
        """spool: a folder of this gateway's own (kept across its restarts) for the pieces of reports longer
        than a board's window, acknowledged before the broker has the report (docs/floor.md)."""
        import paho.mqtt.client as mqtt

        self.floor = floor
        if spool is not None:
            os.makedirs(spool, exist_ok=True)
        self.links = [Link(t["table"], t["port"], t.get("baud", 115200), t.get("reopen", True), spool)
                      for t in tables]
        self.host, self.port = parse_url(broker_url)
        self.log = log if log is not None else (lambda event: None)
        self.connected = False
        self._acked = queue.Queue()            # mids the broker acknowledged (from paho's thread)
        self._inflight = {}                    # mid -> (link, entry, link's client then)
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        os.set_blocking(self._wake_w, False)
        self._next_status = 0.0
        # After the broker connection went, no new report is published until every one published before
        # it has its PUBACK: paho sends a new publish on the new connection at once but sends the older
        # ones again only when the broker's CONNACK comes, so a new one could overtake them.
        self._held = collections.deque()        # (link, report, text, position, link's client then)
        self._hold_lock = threading.Lock()      # _holding: set in paho's thread, cleared in ours
        self._holding = True                    # until the first CONNACK too: a publish queued before it
                                                # goes out only then, one made meanwhile at once
        self.mqtt = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2,
                                client_id=client_id or "floor-gateway-%s" % floor, clean_session=True)
        self.mqtt.max_inflight_messages_set(1000)      # the boards' windows bound what is in flight
        self.mqtt.max_queued_messages_set(0)
        self.mqtt.reconnect_delay_set(0.05, 1)
        self.mqtt.on_publish = self._on_publish
        self.mqtt.on_connect = self._on_connect
        self.mqtt.on_disconnect = self._on_disconnect

    # -- paho's thread --

    def _on_publish(self, client, userdata, mid, reason_code, properties):
        self._acked.put(mid)
        try:
            os.write(self._wake_w, b"!")
        except BlockingIOError:
            pass

    def _on_connect(self, client, userdata, flags, reason_code, properties):
        self.connected = not reason_code.is_failure
        self.log({"mqtt": "connected" if self.connected else "refused", "reason": str(reason_code)})

    def _on_disconnect(self, client, userdata, flags, reason_code, properties):
        with self._hold_lock:
            self.connected = False
            self._holding = True
        self.log({"mqtt": "disconnected", "reason": str(reason_code)})

    # -- the loop --

    def start(self):
        self.mqtt.connect_async(self.host, self.port, keepalive=KEEPALIVE_S)
        self.mqtt.loop_start()
        self._open_links(time.monotonic())
        return self

    def run(self, until=None):
        """step() until until() is true (never, by default: until a signal)."""
        while until is None or not until():
            self.step()

    def step(self, timeout_s=0.05):
        now = time.monotonic()
        self._open_links(now)
        fds = {link.fd: link for link in self.links if link.up}
        poller = select.poll()        # (not select(): no limit on descriptor numbers, a large floor's)
        for fd in list(fds) + [self._wake_r]:
            poller.register(fd, select.POLLIN)
        for fd, _ in poller.poll(int(timeout_s * 1000)):
            if fd == self._wake_r:
                self._drain_wakes()
            elif fds[fd].up:          # (HUP or ERR too: the read finds the device gone)
                self._read(fds[fd], selected=True)
        for link in fds.values():
            link.write()              # what a full line did not take
        self._pubacks()
        self._release_held()
        if now >= self._next_status:
            self._next_status = now + STATUS_EVERY_S
            self.publish_status()

    def _open_links(self, now):
        for link in self.links:
            if not link.up and link.open(now):
                if link.refused is None:           # (a refused board's link: its one refusal logged)
                    self.log({"table": link.name, "link": "up", "port": link.port})
                self._publish_status(link)

    def _drain_wakes(self):
        try:
            while os.read(self._wake_r, 4096):
                pass
        except BlockingIOError:
            pass

    def _read(self, link, selected=False):
        """What the board sent in, its reports out. selected: select() said the port is readable,
        so no bytes at all means the device is gone (an unplugged USB serial adapter)."""
        try:
            data = link.read()
        except OSError as exc:
            data = exc
        if data == b"" and not selected:
            return
        if not data or isinstance(data, OSError):
            why = str(data) if data else "readable but no data: the device is gone"
            link.close(why)
            self.log({"table": link.name, "link": "down", "why": why})
            self._publish_status(link)
            return
        client = link.client
        reports, reply = client.feed(data)
        for event in link.noticed(client.events):
            self.log(dict(event, table=link.name))
        named = [r.get("table") for r in reports]
        begun = _TABLE_IN_TEXT.search(client.pieces_text())     # a long report's pieces so far name it too
        if begun is not None:
            named.append(begun.group(1))
        for table in named:                    # before anything of it is acknowledged, spooled or published
            why = self._refusal(link, table)
            if why is not None:
                self._refuse_board(link, why)
                return
        if reports:
            link.refused = None                # (its board is this table's again: logged when it next goes)
        if client.boot_back is not None:
            self._board_replaced(link, client.boot_back)
            return
        link.keep_pieces()                     # before the ACK that may pass them
        link.write(reply)
        for report, text, position in zip(reports, client.texts, client.positions):
            self._offer(link, client, report, text, position)

    def _offer(self, link, client, report, text, position):
        """A report to publish now, or to hold while the broker connection is being made whole again."""
        if self._holding or self._held:
            self._held.append((link, report, text, position, client))
        else:
            self._publish(link, report, text, position)

    def _refusal(self, link, named):
        """Why the board on this link is not the table it was set up for, or None: a report names its table
        ("table"), and a board on another table's port (two adapters swapped) would have its reports
        published as the other table's."""
        if isinstance(named, str) and named != link.name:
            return "the board on %s reports table %s, not %s (tables.json): nothing of it published" % (
                link.port, json.dumps(named), link.name)
        return None

    def _board_replaced(self, link, boots):
        """Another board on this line, its boot counter lower (boots: (the old board's, the new one's)): its
        frames would all be taken as duplicates. The link starts again with it (a new client, REPLAY 0.0)
        after a `link_boot_back` notice, so that a consumer forgets this table's marks from the new board's
        boot on (its (boot, seq) pairs can repeat the old board's) before its reports come."""
        self.log({"table": link.name, "link": "boot_back", "from": boots[0], "to": boots[1]})
        notice = {"event": "link_boot_back", "from": boots[0], "to": boots[1], "link": {"boot": boots[1], "seq": 0}}
        link.forget_pieces(board_gone=True)    # the old board's pieces: not the new one's to finish
        link.resync()
        self._offer(link, link.client, notice, None, None)   # held as any publish (after an outage)

    def _refuse_board(self, link, why):
        """Not this table's board: none of its frames acknowledged (it keeps them), the link down with why."""
        if why != link.refused:                # once, not at every reopen of the link
            link.refused = why
            self.log({"table": link.name, "link": "refused", "why": why})
        link.close(why)
        self._publish_status(link)

    def _publish(self, link, report, text, position):
        """text: the report as the board sent it (the "link" mark added at its end), else None (a notice,
        a link_bad_json: the dict's JSON)."""
        event = report.get("event")
        if text is None:
            payload = json.dumps(report, separators=(",", ":"))
        else:
            body = text.rstrip()[:-1].rstrip()          # up to its closing brace
            mark = json.dumps(report["link"], separators=(",", ":"))
            payload = '%s%s"link":%s}' % (body, "," if len(report) > 1 else "", mark)
        info = self.mqtt.publish(topic(self.floor, link.name, event), payload, qos=1)
        if position is None:                   # the gateway's own notice (link_boot_back): no board frame
            return
        link.published_one(position, report)
        self._inflight[info.mid] = (link, link.waiting[-1], link.client)

    def _release_held(self):
        """Once reconnected and every publish before the outage acknowledged: the held ones, in order."""
        if self._holding and not self._inflight:
            with self._hold_lock:
                if self.connected:
                    self._holding = False
        while self._held and not self._holding:
            link, report, text, position, client = self._held.popleft()
            if client is link.client:          # not from before the link was opened again (it comes again)
                self._publish(link, report, text, position)

    def _pubacks(self):
        while True:
            try:
                mid = self._acked.get_nowait()
            except queue.Empty:
                return
            got = self._inflight.pop(mid, None)
            if got is None:
                continue                       # a status message's
            link, entry, client = got
            if client is link.client:          # not from before the link was opened again
                link.puback(entry)

    def publish_status(self):
        for link in self.links:
            self._publish_status(link)

    def _publish_status(self, link):
        if not self.connected:
            return                             # not queued: a long outage would pile them up
        return self.mqtt.publish(status_topic(self.floor, link.name), json.dumps(link.status()), qos=1, retain=True)

    def status(self):
        return [link.status() for link in self.links]

    def stop(self):
        for link in self.links:
            link.close("gateway stopped")
        for link in self.links:                # the last status ("down") out before the disconnect
            info = self._publish_status(link)
            if info is not None:
                try:
                    info.wait_for_publish(0.5)
                except RuntimeError:
                    pass
        self.mqtt.disconnect()
        self.mqtt.loop_stop()
        os.close(self._wake_r)
        os.close(self._wake_w)


def main_gateway(args, out=sys.stdout, err=sys.stderr):
    """`python -m tools.floor gateway`: run until SIGTERM/SIGINT; the exit status."""
    import signal
    from tools.floor.broker import BrokerError, EmbeddedBroker

    try:
        floor, tables = load_tables(args.tables)
        if args.floor is not None:
            floor = check_floor(args.floor)
    except TablesError as exc:
        err.write("tools.floor gateway: %s\n" % exc)
        return 2
    broker = None
    url = args.broker
    try:
        if url in (None, "embedded"):
            host, port = parse_url("mqtt://" + args.listen, label="--listen %r" % args.listen)
            broker = EmbeddedBroker(host, port).start()
            url = broker.url
        parse_url(url, ("embedded",))
    except BrokerError as exc:
        err.write("tools.floor gateway: %s\n" % exc)
        return 2
    log = lambda event: (err.write(json.dumps(event) + "\n"), err.flush())
    log({"gateway": "start", "floor": floor, "tables": len(tables), "broker": url})
    stopping = []
    signal.signal(signal.SIGTERM, lambda *a: stopping.append(1))
    gateway = Gateway(floor, tables, url, client_id=args.client_id, log=log, spool=args.spool).start()
    try:
        gateway.run(until=lambda: stopping)
    except KeyboardInterrupt:
        pass
    finally:
        gateway.stop()
        if broker is not None:
            broker.stop()
    log({"gateway": "stopped", "status": gateway.status()})
    return 0
