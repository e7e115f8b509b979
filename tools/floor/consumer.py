"""A floor system's end: every report from the broker, duplicates dropped by their "link" mark.

Subscribes to casino/<floor>/+/+ with QoS 1 on a persistent session (clean
session off, a fixed client id), so what it missed while away waits for it in
a broker that keeps sessions. A report is identified by its table (the topic)
and its "link": {"boot", "seq"}: the same pair again is a duplicate (the
gateway or the broker sent it twice after a restart) and is dropped; a new
pair below the table's highest one so far is out of order.
"""
import json
import threading
import time

from tools.floor.broker import parse_url

_SUBSCRIBE_TIMEOUT_S = 10.0


class Consumer:
    def __init__(self, floor, broker_url, client_id=None, keep=False):
        """keep: also keep every distinct report (dicts by table, in arrival order), for tests."""
        import paho.mqtt.client as mqtt

        self.floor = floor
        self.host, self.port = parse_url(broker_url)
        self.keep = keep
        self.lock = threading.Lock()
        self.received = {}            # (table, boot, seq) -> time.time() it first arrived
        self.reports = {}             # keep: table -> [report, ...]
        self.status = {}              # table -> its last status
        self.last = {}                # table -> highest (boot, seq) so far
        self.duplicates = 0
        self.out_of_order = 0
        self.unmarked = 0             # reports without a "link" mark (not from this gateway)
        self._subscribed = threading.Event()
        self.client_id = client_id or "floor-consumer-%s" % floor
        self.mqtt = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=self.client_id, clean_session=False)
        self.mqtt.reconnect_delay_set(0.05, 1)
        self.mqtt.on_connect = self._on_connect
        self.mqtt.on_subscribe = lambda *a: self._subscribed.set()
        self.mqtt.on_message = self._on_message

    def start(self):
        self.mqtt.connect(self.host, self.port, keepalive=5)
        self.mqtt.loop_start()
        if not self._subscribed.wait(_SUBSCRIBE_TIMEOUT_S):
            raise RuntimeError("the consumer could not subscribe at %s:%d" % (self.host, self.port))
        return self

    def stop(self, forget=False):
        """forget: also end the persistent session in the broker (a run's own consumer: nothing may wait
        there for it, nor reach the next run's consumer)."""
        import paho.mqtt.client as mqtt

        self.mqtt.disconnect()
        self.mqtt.loop_stop()
        if forget:
            eraser = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=self.client_id, clean_session=True)
            try:
                eraser.connect(self.host, self.port, keepalive=5)
                eraser.loop_start()
                time.sleep(0.2)
                eraser.disconnect()
                eraser.loop_stop()
            except OSError:
                pass                  # the broker is gone: so is the session, or it is not ours to end

    def local_port(self):
        sock = self.mqtt.socket()
        return sock.getsockname()[1] if sock is not None else None

    def _on_connect(self, client, userdata, flags, reason_code, properties):
        if not reason_code.is_failure:
            client.subscribe("casino/%s/+/+" % self.floor, qos=1)

    def _on_message(self, client, userdata, message):
        now = time.time()
        parts = message.topic.split("/")
        if len(parts) != 4:
            return
        table, event = parts[2], parts[3]
        try:
            report = json.loads(message.payload)
        except ValueError:
            report = None
        with self.lock:
            if event == "status":
                self.status[table] = report
                return
            link = report.get("link") if isinstance(report, dict) else None
            if not isinstance(link, dict) or "boot" not in link or "seq" not in link:
                self.unmarked += 1
                return
            position = (link["boot"], link["seq"])
            if event == "link_boot_back":
                # Another board on the table's line, its boot counter lower: its (boot, seq) pairs from
                # this boot on may repeat the old board's. Forget those and the highest so far.
                for old in [k for k in self.received if k[0] == table and k[1] >= position[0]]:
                    del self.received[old]
                self.last.pop(table, None)
            key = (table,) + position
            if key in self.received:
                self.duplicates += 1
                return
            self.received[key] = now
            if position < self.last.get(table, (0, 0)):
                self.out_of_order += 1
            else:
                self.last[table] = position
            if self.keep:
                self.reports.setdefault(table, []).append(report)

    def count(self):
        with self.lock:
            return len(self.received)

    def wait_for(self, keys, timeout_s):
        """Wait until every (table, boot, seq) in keys has arrived; True if they all did."""
        end = time.monotonic() + timeout_s
        while time.monotonic() < end:
            with self.lock:
                if all(key in self.received for key in keys):
                    return True
            time.sleep(0.05)
        return False
