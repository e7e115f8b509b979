"""The floor gateway (tools.floor.gateway) on real ptys, into the embedded broker or one that stops answering.

Each board here is the firmware's link Sender on a pty's master end (the gateway opens the slave
by its path, as it opens a table's serial device); the consumer is tools.floor.consumer. Whole
simulated tables and process kills: test_floor_simulate.py. The tests taking the `floor` fixture
run on the embedded broker and on a Mosquitto of their own (where the binary exists).
"""
import io
import json
import os
import socket
import threading
import time
import tty

import pytest

from firmware.link import frame as fm
from firmware.link.sender import Sender
from firmware.link.ram_store import RamStore
from tools.floor import __main__ as floor_cli
from tools.floor.broker import EmbeddedBroker, Mosquitto, mosquitto_binary
from tools.floor.consumer import Consumer
from tools.floor.gateway import Gateway
from tools.floor.tables import TablesError, load_tables, topic

FLOOR = "test"


class PtyBoard:
    """A board's report link: the firmware's Sender writing to a pty master, reading host lines from it."""

    def __init__(self, name):
        self.name = name
        self.master, self.slave = os.openpty()
        tty.setraw(self.master)
        tty.setraw(self.slave)
        os.set_blocking(self.master, False)
        self.path = os.ttyname(self.slave)
        self.sender = Sender(self, RamStore(64, fm.MAX_FRAME), 1)
        self.from_host = bytearray()
        self.made = []

    def write(self, data):
        try:
            return os.write(self.master, bytes(data))
        except BlockingIOError:
            return 0                  # nobody reads the line: the frame is sent again later

    def make(self, count):
        for _ in range(count):
            n = len(self.made)
            assert self.sender.send(json.dumps({"event": "card", "n": n})) > 0
            self.made.append(n)

    def step(self, ms=10):
        self.sender.poll(ms)
        try:
            data = os.read(self.master, 4096)
        except BlockingIOError:
            data = b""
        self.from_host += data
        while b"\n" in self.from_host:
            line, _, rest = bytes(self.from_host).partition(b"\n")
            self.from_host = bytearray(rest)
            self.sender.receive(line)

    def close(self):
        os.close(self.master)
        os.close(self.slave)


def _tables(boards):
    return [{"table": b.name, "port": b.path, "baud": 115200} for b in boards]


def _drive(gateway, boards, until, timeout_s=10.0):
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        if gateway is not None:
            gateway.step(0.005)
        else:
            time.sleep(0.005)
        for board in boards:
            board.step()
        if until():
            return True
    return False


@pytest.fixture(params=["embedded", "mosquitto"])
def floor(request):
    if request.param == "mosquitto":
        if mosquitto_binary() is None:
            pytest.skip("no mosquitto binary here (Debian: apt-get install mosquitto; .ci/run installs it)")
        broker = Mosquitto().start()
    else:
        broker = EmbeddedBroker().start()
    boards = [PtyBoard("t%d" % i) for i in range(1, 4)]
    consumer = Consumer(FLOOR, broker.url, keep=True).start()
    yield broker, boards, consumer
    consumer.stop()
    for board in boards:
        board.close()
    broker.stop()


def _numbers(consumer, table):
    return [r["n"] for r in consumer.reports.get(table, [])]


def test_three_tables_reports_arrive_once_in_order_with_their_link_mark(floor):
    broker, boards, consumer = floor
    gateway = Gateway(FLOOR, _tables(boards), broker.url).start()
    try:
        for board in boards:
            board.make(40)
        assert _drive(gateway, boards, lambda: all(b.sender.held() == 0 for b in boards))
        assert _drive(None, [], lambda: consumer.count() == 120)
        for board in boards:
            reports = consumer.reports[board.name]
            assert _numbers(consumer, board.name) == list(range(40))
            assert [(r["link"]["boot"], r["link"]["seq"]) for r in reports] == [(1, s) for s in range(2, 42)]
        assert consumer.duplicates == 0 and consumer.out_of_order == 0
        status = {s["table"]: s for s in gateway.status()}
        assert status["t2"]["link"] == "up" and status["t2"]["published"] == 40 and status["t2"]["confirmed"] == 40
        assert status["t2"]["last_report"]["seq"] == 41 and status["t2"]["lag_ms"] == 0
    finally:
        gateway.stop()


def test_a_board_report_of_any_event_is_published_and_the_gateway_stays_up(floor):
    """A report's "event" is the board's: one that cannot be a topic level (a lone surrogate from a JSON
    escape crashed the gateway in paho's UTF-8 encoding, at every restart again, as the board sends it
    again; a NUL breaks the broker's connection), the gateway's own `status`, no string, or a payload that
    is not a JSON object: each is published, marked, in order, and the status topic stays the gateway's."""
    broker, boards, consumer = floor
    board = boards[0]
    payloads = ['{"event": "\\ud800", "n": 0}', '{"event": "a\\u0000b", "n": 1}', '{"event": "status", "n": 2}',
                '{"event": {"a": 1}, "n": 3}', '{"n": 4}', '[5]', 'not json', '{"event": "card", "n": 7}']
    for payload in payloads:
        assert board.sender.send(payload) > 0
    gateway = Gateway(FLOOR, _tables([board]), broker.url).start()
    try:
        assert _drive(gateway, [board], lambda: board.sender.held() == 0)
        assert _drive(None, [], lambda: consumer.count() == len(payloads))
        reports = consumer.reports[board.name]
        assert [r.get("n") for r in reports] == [0, 1, 2, 3, 4, None, None, 7]
        assert [r["link"]["seq"] for r in reports] == list(range(2, 10))
        assert [r["text"] for r in reports[5:7]] == ["[5]", "not json"] and reports[5]["event"] == "link_bad_json"
        assert consumer.unmarked == 0 and consumer.duplicates == 0 and consumer.out_of_order == 0
        assert consumer.status[board.name]["table"] == board.name           # the gateway's status only
        assert [topic(FLOOR, "t", e) for e in ("\ud800", "a\x00b", "status", 5, "")] == [
            "casino/test/t/_", "casino/test/t/a_b", "casino/test/t/report", "casino/test/t/report",
            "casino/test/t/report"]
    finally:
        gateway.stop()


def test_status_subcommand_prints_each_tables_retained_status(floor):
    broker, boards, consumer = floor
    gateway = Gateway(FLOOR, _tables(boards), broker.url).start()
    try:
        boards[0].make(3)
        assert _drive(gateway, boards, lambda: boards[0].sender.held() == 0)
        gateway.publish_status()
        assert _drive(gateway, boards, lambda: consumer.status.get("t1", {}).get("published") == 3)
        # A retained status someone else left, without a time the gateway writes: shown stale, no crash.
        left = gateway.mqtt.publish("casino/%s/zz/status" % FLOOR, '{"at_ms": "noon"}', qos=1, retain=True)
        left.wait_for_publish(2)
        out = io.StringIO()
        assert floor_cli.main(["status", "--floor", FLOOR, "--broker", broker.url, "--wait", "0.5"], out=out) == 0
        lines = [json.loads(line) for line in out.getvalue().splitlines()]
        assert [s.get("table") for s in lines] == ["t1", "t2", "t3", None] and lines[3]["stale"] is True
        assert lines[0]["link"] == "up" and lines[0]["published"] == 3 and lines[0]["stale"] is False
        assert {"lag_ms", "retransmissions", "last_report"} <= set(lines[0])
    finally:
        gateway.stop()


class SilentBroker:
    """Accepts an MQTT connection, answers CONNACK, and then never acknowledges a publish."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(4)
        self.url = "mqtt://127.0.0.1:%d" % self.sock.getsockname()[1]
        self.received = 0
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self._client, args=(conn,), daemon=True).start()

    def _client(self, conn):
        first = True
        while True:
            try:
                data = conn.recv(65536)
            except OSError:
                return
            if not data:
                return
            if first:
                conn.sendall(b"\x20\x02\x00\x00")      # CONNACK, accepted
                first = False
            else:
                self.received += len(data)

    def close(self):
        self.sock.close()


def test_a_broker_that_does_not_acknowledge_leaves_every_report_on_the_board():
    broker = SilentBroker()
    board = PtyBoard("t1")
    gateway = Gateway(FLOOR, _tables([board]), broker.url).start()
    try:
        board.make(5)
        _drive(gateway, [board], lambda: False, timeout_s=1.5)
        assert broker.received > 0                       # the publishes did go out
        status = gateway.status()[0]
        assert status["published"] == 5 and status["confirmed"] == 0 and status["waiting_puback"] == 5
        assert status["lag_ms"] > 1000
        assert board.sender.held() == 5                  # no report acknowledged on the serial link
        acks = [line for line in bytes(board.from_host).split(b"\n") if b" ACK" in line]
        # Acknowledged at most: the boot's OPEN (1.1), never a report.
        assert all(line.startswith(b"#1.1 ") for line in acks)
    finally:
        gateway.stop()
        board.close()
        broker.close()


def _crash(gateway):
    """The gateway process dies: no DISCONNECT, no more PUBACKs read, its links closed."""
    gateway.mqtt.loop_stop()
    sock = gateway.mqtt.socket()
    if sock is not None:
        sock.close()
    for link in gateway.links:
        link.close("crashed")


def test_a_gateway_restart_loses_nothing_and_its_duplicates_are_dropped(floor):
    broker, boards, consumer = floor
    first = Gateway(FLOOR, _tables(boards), broker.url).start()
    for board in boards:
        board.make(10)
    assert _drive(first, boards, lambda: all(b.sender.held() == 0 for b in boards))
    for board in boards:
        board.make(10)
    for _ in range(20):                                   # read and published, PUBACKs never handled
        for board in boards:
            board.step()
        for link in first.links:
            first._read(link)
        time.sleep(0.01)
    # The board's window: 8 frames out beyond the oldest one not acknowledged.
    assert [link.published for link in first.links] == [18, 18, 18]
    assert _drive(None, [], lambda: consumer.count() == 54)  # the broker had them all
    _crash(first)
    assert all(b.sender.held() == 10 for b in boards)     # ... but the boards were never told
    second = Gateway(FLOOR, _tables(boards), broker.url).start()
    try:
        assert _drive(second, boards, lambda: all(b.sender.held() == 0 for b in boards))
        assert _drive(None, [], lambda: consumer.count() == 60)
        assert consumer.duplicates == 24
        for board in boards:
            assert _numbers(consumer, board.name) == list(range(20))
        assert consumer.out_of_order == 0
    finally:
        second.stop()


def test_a_broker_restart_loses_nothing(floor):
    broker, boards, consumer = floor
    gateway = Gateway(FLOOR, _tables(boards), broker.url).start()
    try:
        for board in boards:
            board.make(10)
        assert _drive(gateway, boards, lambda: consumer.count() == 30)
        outage = threading.Thread(target=broker.restart, args=(1.0, (consumer.local_port(),)))
        outage.start()
        time.sleep(0.2)
        for board in boards:
            board.make(10)
        _drive(gateway, boards, lambda: not outage.is_alive())
        assert _drive(gateway, boards, lambda: all(b.sender.held() == 0 for b in boards))
        _drive(None, [], lambda: consumer.count() == 60)
        for board in boards:
            assert _numbers(consumer, board.name) == list(range(20)), consumer.duplicates
        assert consumer.out_of_order == 0 and broker.restarts == 1
    finally:
        gateway.stop()


def test_tables_file_errors_are_named(tmp_path):
    bad = [
        ("[]", "expected"),
        ('{"tables": [{"table": "a"}]}', "port"),
        ('{"tables": [{"table": "a/b", "port": "/dev/x"}]}', "without /"),
        ('{"tables": [{"table": "a", "port": "/dev/x"}, {"table": "a", "port": "/dev/y"}]}', "twice"),
        ('{"tables": [{"table": "a", "port": "/dev/x", "baud": "fast"}]}', "baud"),
        ('{"tables": [{"table": "a", "port": "/dev/x", "reopen": 1}]}', "reopen"),
        # One device read by two links: each would publish part of the other's reports as its own.
        ('{"tables": [{"table": "a", "port": "/dev/x"}, {"table": "b", "port": "/dev/../dev/x"}]}',
         "already the port of table 'a'"),
    ]
    for text, words in bad:
        path = tmp_path / "tables.json"
        path.write_text(text)
        with pytest.raises(TablesError, match=words):
            load_tables(str(path))
    path.write_text('{"floor": "north", "tables": [{"table": "BAC-01", "port": "/dev/ttyUSB0"}]}')
    assert load_tables(str(path)) == ("north", [{"table": "BAC-01", "port": "/dev/ttyUSB0", "baud": 115200,
                                                 "reopen": True}])
    assert topic("north", "BAC-01", "card") == "casino/north/BAC-01/card"
    assert topic("north", "BAC-01", "a/b#") == "casino/north/BAC-01/a_b_"


def test_the_gateway_command_refuses_a_bad_tables_file_or_broker(tmp_path):
    path = tmp_path / "tables.json"
    path.write_text('{"tables": [{"table": "a"}]}')
    err = io.StringIO()
    assert floor_cli.main(["gateway", "--tables", str(path)], out=io.StringIO(), err=err) == 2
    assert 'needs a "port"' in err.getvalue()
    path.write_text('{"tables": [{"table": "a", "port": "/dev/x"}]}')
    err = io.StringIO()
    assert floor_cli.main(["gateway", "--tables", str(path), "--broker", "tcp://x"], out=io.StringIO(),
                          err=err) == 2
    assert "expected mqtt://HOST:PORT" in err.getvalue()


def test_a_floor_name_on_the_command_line_is_checked_as_the_files(tmp_path):
    """--floor overrides the file's floor name: a wildcard in it crashed the gateway at its first status
    publish (paho: no wildcard in a publish topic), a / put every report where no consumer looks."""
    path = tmp_path / "tables.json"
    path.write_text('{"floor": "north", "tables": [{"table": "a", "port": "/dev/x"}]}')
    for floor in ("a+b", "north/2", "#", ""):
        for argv in (["gateway", "--tables", str(path), "--floor", floor, "--broker", "mqtt://127.0.0.1:1"],
                     ["simulate", "--floor", floor], ["status", "--floor", floor]):
            err = io.StringIO()
            assert floor_cli.main(argv, out=io.StringIO(), err=err) == 2, (argv, err.getvalue())
            assert "--floor: floor name %r must be a non-empty string without / + #" % floor in err.getvalue()


def test_a_links_status_counts_across_its_clients_and_logs_a_floods_kind_once():
    # The status a floor watches: what each HostClient of the link counted (one a connection) adds up across
    # reconnections, and a link event a flood repeats is logged once but counted every time (two mutants of
    # these counts lived: no test read them).
    from types import SimpleNamespace
    from tools.floor.link import Link
    link = Link("t1", "/nonexistent", 115200)
    assert {k: link.status()[k] for k in ("retransmissions", "replays_asked", "refused_lines",
                                         "reports_lost_on_board", "link_events")} == {
        "retransmissions": 0, "replays_asked": 0, "refused_lines": 0, "reports_lost_on_board": 0, "link_events": {}}
    link.client = SimpleNamespace(duplicates=2, replays_asked=1, refused={"crc": 3, "syntax": 1}, lost=4)
    first = link.status()
    link.close("unplugged")                                  # the client's counts kept as the link's past
    assert link.client is None and link.status()["retransmissions"] == first["retransmissions"] == 2
    link.client = SimpleNamespace(duplicates=1, replays_asked=0, refused={}, lost=5)
    now = link.status()
    assert (now["retransmissions"], now["replays_asked"], now["refused_lines"], now["reports_lost_on_board"]) == \
        (3, 1, 4, 9)
    events = [{"link": "open"}, {"link": "unknown_control"}, {"link": "unknown_control"}, {"link": "gone"},
              {"link": "gone"}]
    logged = link.noticed(events)
    assert logged == [{"link": "open"}, {"link": "unknown_control"}, {"link": "gone"}, {"link": "gone"}]
    assert events == [] and link.status()["link_events"] == {"open": 1, "unknown_control": 2, "gone": 2}
    assert link.noticed([{"link": "open"}]) == [] and link.status()["link_events"]["open"] == 2


def test_an_embedded_broker_that_cannot_listen_says_so_at_start():
    # Its port taken (another broker left running): start() raises BrokerError, not a broker taken for
    # started whose clients then wait for a CONNACK that never comes (a mutant that said started lived).
    import socket
    from tools.floor.broker import BrokerError
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        with pytest.raises(BrokerError, match="the embedded broker did not start on mqtt://127.0.0.1:%d" % port):
            EmbeddedBroker(port=port).start()
