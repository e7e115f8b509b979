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

from tools.floor.broker import parse_url
from tools.floor.link import Link
from tools.floor.tables import TablesError, check_floor, load_tables, status_topic, topic

STATUS_EVERY_S = 1.0
KEEPALIVE_S = 5
_TABLE_IN_TEXT = re.compile(r'"table"\s*:\s*"([^"\\]*)"')   # a report's table, in its first pieces


class Gateway:
    """Links in, MQTT out. start(), then step() in a loop (or run()); stop() at the end."""

    def __init__(self, floor, tables, broker_url, client_id=None, log=None, spool=None):
        """spool: a folder of this gateway's own (kept across its restarts) for the pieces of reports longer
        than a board's window, acknowledged before the broker has the report, and each table's mark (a board
        replaced while no gateway ran: docs/floor.md)."""
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
        told = begun is not None or any(text is not None for text in client.texts)
        offered = link.to_offer(reports, client.texts, client.positions, told)
        link.keep_pieces()                     # before the ACK that may pass them
        link.write(reply)
        for report, text, position in offered:
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
        link.board_replaced()                  # its mark too: the new client starts without it
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
