"""What a gateway's link finds wrong in a board's sequence is published, never acknowledged away (docs/floor.md).

HostClient(notices=True) turns a LOST frame, a frame of a TYPE the link does not have, PART pieces never
finished and frames a board no longer has into reports of their own (`link_*`), held like any report
until the caller confirms them; it reads a report strictly and keeps its text as sent; and it tells a
board whose boot counter went back (another board on the line). The gateway publishes all of it, refuses
a board that names another table, and after a broker outage publishes nothing new before the older
publishes are acknowledged. Found by a gateway fed hand-made frames (4 Dec 2026): each of these was
acknowledged to the board with nothing published, published rewritten, or published as the wrong table.
"""
import binascii
import contextlib
import json
import os
import threading
import time
import tty

from firmware.link import frame as fm
from tools.floor.broker import EmbeddedBroker, parse_url
from tools.floor.gateway import Gateway
from tools.floor.link import Link
from tools.host import HostClient

FLOOR = "notices"


def _client():
    return HostClient(hold_acks=True, stamped=True, notices=True)


def _frames(*frames):
    return b"".join(fm.encode(*f) for f in frames)


def _acks(reply):
    """The positions the reply acknowledges, as "boot.seq"."""
    return [line[1:].split(b" ")[0].decode() for line in reply.split(b"\n") if b" ACK*" in line]


def _events(reports):
    return [r["event"] for r in reports]


def test_a_lost_frame_is_a_report_held_until_confirmed():
    client = _client()
    reports, reply = client.feed(_frames((1, 1, "OPEN", "-"), (1, 2, "REPORT", '{"event": "card"}'),
                                         (1, 3, "LOST", "7")))
    assert _events(reports) == ["card", "link_lost"]
    assert reports[1]["reports"] == 7 and reports[1]["link"] == {"boot": 1, "seq": 3}
    assert client.positions == [(1, 2), (1, 3)] and client.lost == 7
    assert _acks(reply) == ["1.1"]                       # neither the report nor the notice before confirm()
    assert _acks(client.confirm((1, 2))) == ["1.2"]
    assert _acks(client.confirm((1, 3))) == ["1.3"]


def test_a_frame_of_an_unknown_type_is_published_with_its_text_not_acknowledged_away():
    client = _client()
    reports, reply = client.feed(_frames((1, 1, "OPEN", "-"), (1, 2, "ROUND", '{"round": 4}')))
    assert reports == [{"event": "link_unknown_type", "type": "ROUND", "text": '{"round": 4}',
                        "link": {"boot": 1, "seq": 2}}]
    assert _acks(reply) == ["1.1"]


def test_pieces_cut_off_by_a_new_boot_are_a_part_lost_report_with_their_text():
    client = _client()
    reports, reply = client.feed(_frames((1, 1, "OPEN", "-"), (1, 2, "PART", '{"event": "bets", "bets": [1,'),
                                         (1, 3, "PART", " 2, 3"), (2, 1, "OPEN", "1.3"),
                                         (2, 2, "REPORT", '{"event": "card"}')))
    assert _events(reports) == ["link_part_lost", "card"]
    lost = reports[0]
    assert lost["pieces"] == 2 and lost["at"] == "1.2" and lost["text"] == '{"event": "bets", "bets": [1, 2, 3'
    assert lost["link"] == {"boot": 1, "seq": 3} and client.positions == [(1, 3), (2, 2)]
    assert _acks(reply) == ["1.1"]                       # the pieces stay on the board until it is confirmed
    assert _acks(client.confirm((1, 3))) == ["2.1"]


def test_frames_a_gone_skips_are_reported_where_they_were():
    client = _client()
    first, _ = client.feed(_frames((1, 1, "OPEN", "-"), (1, 2, "REPORT", '{"event": "card", "n": 1}')))
    reports, _ = client.feed(_frames((1, 0, "GONE", "1.3 1.6"), (1, 6, "REPORT", '{"event": "card", "n": 5}')))
    assert _events(first + reports) == ["card", "link_frames_gone", "card"]
    assert reports[0]["from"] == "1.3" and reports[0]["resume"] == "1.6" and reports[0]["why"] == "gone"
    assert client.positions == [(1, 3), (1, 6)]


def test_a_report_is_read_strictly_and_its_text_kept_as_sent():
    client = _client()
    sent = '{"event": "card", "chips": 12345678901234567890.0,  "n": 4}'
    bad = ['{"event": "card", "x": NaN}', '{"event": "card", "x": 1e999, "y": -Infinity}',
           '{"event": "card", "card": "Ah", "card": "Kd"}', '{"event": "card", "link": 3}']
    frames = [(1, 1, "OPEN", "-"), (1, 2, "REPORT", sent)]
    frames += [(1, 3 + i, "REPORT", text) for i, text in enumerate(bad)]
    # A byte no encoder writes (the firmware's refuses it), with a good CRC: what a faulty board could send.
    body = b"#1.%d 0 REPORT " % (3 + len(bad)) + b'{"event": "card \xff"}'
    unreadable = body + b"*%08X\n" % (binascii.crc32(body[1:]) & 0xFFFFFFFF)
    reports, _ = client.feed(_frames(*frames) + unreadable)
    assert client.texts[0] == sent and reports[0]["n"] == 4
    assert _events(reports[1:]) == ["link_bad_json"] * 4 and client.texts[1:] == [None] * 4
    whys = [r["why"] for r in reports[1:]]
    assert "NaN" in whys[0] and "Infinity" in whys[1] and '"card" twice' in whys[2] and "link" in whys[3]
    assert reports[1]["text"] == bad[0]
    assert client.refused == {"bad_syntax": 1}                   # the byte 0xff: a line refused, never a report


def test_frames_of_an_older_boot_that_outlive_the_acks_are_another_board():
    client = _client()
    client.feed(_frames((57, 1, "OPEN", "-"), (57, 2, "REPORT", '{"event": "card"}')))
    client.confirm((57, 2))
    replaced = _frames((1, 1, "OPEN", "-"), (1, 2, "REPORT", '{"event": "card"}'))
    for _ in range(7):                                   # the board that was here drops them at the ACK again
        client.feed(replaced)
    assert client.boot_back is None
    client.feed(replaced)                                # this one does not: it never had 57.x
    assert client.boot_back == (57, 1)
    assert client.events[-1]["link"] == "boot_back"


# -- the gateway ---------------------------------------------------------------------------------------------

class RawBoard:
    """A pty whose master end writes hand-made frames and reads the gateway's lines."""

    def __init__(self):
        self.master, self.slave = os.openpty()
        tty.setraw(self.master)
        tty.setraw(self.slave)
        os.set_blocking(self.master, False)
        self.path = os.ttyname(self.slave)
        self.heard = bytearray()
        self.closed = False

    def send(self, *frames):
        os.write(self.master, _frames(*frames))

    def read(self):
        try:
            self.heard += os.read(self.master, 4096)
        except BlockingIOError:
            pass
        return bytes(self.heard)

    def close(self):
        if not self.closed:             # (a test closes it to unplug the device; the teardown again)
            self.closed = True
            os.close(self.master)
            os.close(self.slave)


class RawSubscriber:
    """Every message under casino/FLOOR/#, its payload's bytes as the broker has them."""

    def __init__(self, url):
        import paho.mqtt.client as mqtt

        self.got = []
        self._ready = threading.Event()
        self.mqtt = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
        self.mqtt.on_connect = lambda c, *a: c.subscribe("casino/%s/#" % FLOOR, qos=1)
        self.mqtt.on_subscribe = lambda *a: self._ready.set()
        self.mqtt.on_message = lambda c, u, m: self.got.append((m.topic, m.payload))
        host, port = parse_url(url)
        self.mqtt.connect(host, port)
        self.mqtt.loop_start()
        assert self._ready.wait(10)

    def reports(self):
        return [(t, p) for t, p in list(self.got) if not t.endswith("/status")]

    def stop(self):
        self.mqtt.disconnect()
        self.mqtt.loop_stop()


def _run(gateway, until, timeout_s=10.0):
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        gateway.step(0.005)
        if until():
            return True
    return False


@contextlib.contextmanager
def _two_tables():
    """A gateway of two tables, BAC-01 and BAC-02, each on a RawBoard, into an embedded broker with a
    subscriber: yields (gateway, board of BAC-01, board of BAC-02, subscriber, the gateway's log)."""
    broker = EmbeddedBroker().start()
    board, other = RawBoard(), RawBoard()
    sub = RawSubscriber(broker.url)
    tables = [{"table": "BAC-01", "port": board.path}, {"table": "BAC-02", "port": other.path}]
    log = []
    gateway = Gateway(FLOOR, tables, broker.url, log=log.append).start()
    try:
        yield gateway, board, other, sub, log
    finally:
        gateway.stop()
        sub.stop()
        board.close()
        other.close()
        broker.stop()


def test_the_gateway_publishes_the_text_as_sent_and_its_notices_and_refuses_another_tables_board():
    with _two_tables() as (gateway, board, other, sub, log):
        sent = '{"event": "card", "table": "BAC-01",  "chips": 12345678901234567890.0}'
        board.send((1, 1, "OPEN", "-"), (1, 2, "REPORT", sent), (1, 3, "LOST", "7"))
        other.send((4, 1, "OPEN", "-"), (4, 2, "REPORT", '{"event": "card", "table": "BAC-01"}'))
        assert _run(gateway, lambda: len(sub.reports()) >= 2 and any(e.get("link") == "refused" for e in log))
        assert _run(gateway, lambda: b"#1.3 " in board.read())               # acknowledged once published
        published = dict(sub.reports())
        assert published["casino/%s/BAC-01/card" % FLOOR] == (
            sent[:-1] + ',"link":{"boot":1,"seq":2,"uptime_ms":0}}').encode()
        assert json.loads(published["casino/%s/BAC-01/link_lost" % FLOOR]) == {
            "event": "link_lost", "reports": 7, "link": {"boot": 1, "seq": 3}}
        assert not [t for t, _ in sub.reports() if "/BAC-02/" in t]          # nothing of the swapped board
        assert b"#4.2 " not in other.read()                                   # its report stays on it
        status = {s["table"]: s for s in gateway.status()}
        assert "reports table \"BAC-01\", not BAC-02" in status["BAC-02"]["error"]
        assert [e for e in log if e.get("link") == "refused"][0]["table"] == "BAC-02"
        board.close()                                                         # the device goes
        assert _run(gateway, lambda: not gateway.links[0].up)
        assert gateway.status()[0]["reports_lost_on_board"] == 7              # the count outlives the link


class _Info:
    def __init__(self, mid):
        self.mid = mid


class _StubMqtt:
    """paho's publish() as the gateway uses it: each call a mid, recorded in order."""

    def __init__(self):
        self.published = []

    def publish(self, topic, payload, qos=0, retain=False):
        self.published.append(json.loads(payload).get("n"))
        return _Info(len(self.published))


class _Reason:
    is_failure = False


def test_after_a_broker_outage_nothing_new_is_published_before_the_older_publishes_are_acknowledged():
    gateway = Gateway(FLOOR, [], "mqtt://127.0.0.1:1")
    gateway.mqtt = _StubMqtt()
    link = Link("t1", "/nonexistent", 115200)
    link.client = client = _client()

    def report(n):
        gateway._offer(link, client, {"event": "card", "n": n, "link": {"boot": 1, "seq": n}}, None, (1, n))

    report(1)                                                       # before the first CONNACK: held too
    assert gateway.mqtt.published == []
    gateway._on_connect(None, None, None, _Reason(), None)
    gateway._release_held()
    assert gateway.mqtt.published == [1]
    gateway._on_disconnect(None, None, None, _Reason(), None)       # its PUBACK not yet come
    report(2)
    report(3)
    assert gateway.mqtt.published == [1]
    gateway._on_connect(None, None, None, _Reason(), None)          # paho sends 1 again after this, at CONNACK
    gateway._release_held()
    assert gateway.mqtt.published == [1]                            # 2 would overtake it
    gateway._on_publish(None, None, 1, None, None)                  # 1's PUBACK
    gateway._pubacks()
    gateway._release_held()
    assert gateway.mqtt.published == [1, 2, 3]
    report(4)
    assert gateway.mqtt.published == [1, 2, 3, 4]
    os.close(gateway._wake_r)
    os.close(gateway._wake_w)


def test_frames_a_full_line_does_not_take_go_out_whole_at_the_next_step():
    link = Link("t1", "/nonexistent", 115200)
    read_end, link.fd = os.pipe()
    os.set_blocking(link.fd, False)
    filled = 0
    try:
        while True:
            filled += os.write(link.fd, b"x" * 1000)
    except BlockingIOError:
        pass
    frames = _frames((1, 5, "ACK"), (1, 6, "ACK"))
    link.write(frames)                       # the line full: kept (before, they were dropped)
    got = bytearray()
    while len(got) < filled:
        got += os.read(read_end, filled - len(got))
    link.write()                             # the next step: the rest
    got = os.read(read_end, 4096)
    assert got == frames
    os.close(read_end)
    os.close(link.fd)


def test_a_long_reports_acknowledged_pieces_survive_a_gateway_crash_in_its_spool(tmp_path):
    # A report in more pieces than the board's window has its leading pieces acknowledged before the broker
    # has it; with a spool they are on the gateway's disk first, and the next gateway joins them to the rest.
    from tests.host.test_floor_gateway import PtyBoard, SilentBroker, _crash, _drive, _tables
    from tools.floor.consumer import Consumer

    silent, board = SilentBroker(), PtyBoard("t1")
    board.sender.piece = 128                                    # the board's (firmware/startup.py, HOST_PIECE)
    spool = str(tmp_path / "spool")
    first = Gateway(FLOOR, _tables([board]), silent.url, spool=spool).start()
    bets = ["seat%02d-pass-line-25" % i for i in range(70)]
    board.sender.send(json.dumps({"event": "bets", "bets": bets}))
    held = board.sender.held()
    assert held > 10                                            # more pieces than the window of 8
    assert _drive(first, [board], lambda: board.sender.held() < held - 4)   # leading pieces acknowledged
    assert os.listdir(spool) == ["t1.pieces.json"]
    _crash(first)                                               # the broker never had the report
    silent.close()
    broker = EmbeddedBroker().start()
    consumer = Consumer(FLOOR, broker.url, keep=True).start()
    second = Gateway(FLOOR, _tables([board]), broker.url, spool=spool).start()
    try:
        assert _drive(second, [board], lambda: board.sender.held() == 0)
        assert _drive(None, [], lambda: consumer.count() == 1)
        report = consumer.reports["t1"][0]
        assert report["event"] == "bets" and report["bets"] == bets
        assert os.listdir(spool) == ["t1.mark.json"]            # confirmed: the pieces' file gone (the mark kept)
    finally:
        second.stop()
        consumer.stop()
        board.close()
        broker.stop()


def test_resumed_pieces_the_board_still_holds_are_taken_again_not_lost():
    # The spool written, the gateway dead before its ACK went out: the board sends those pieces again.
    client = _client()
    client.resume_pieces((1, 2), [b'{"event": "bets", ', b'"bets": [1, ', b'2, 3'])
    client.feed(_frames((1, 0, "GONE", "0.0 1.3")))
    reports, _ = client.feed(_frames((1, 3, "PART", '"bets": [1, '), (1, 4, "PART", "2, 3"), (1, 5, "REPORT", "]}")))
    assert reports[0]["bets"] == [1, 2, 3] and client.positions == [(1, 5)]


def test_another_tables_board_is_refused_at_its_long_reports_first_pieces_before_any_is_spooled(tmp_path):
    broker = EmbeddedBroker().start()
    other = RawBoard()
    spool = str(tmp_path / "spool")
    gateway = Gateway(FLOOR, [{"table": "BAC-02", "port": other.path}], broker.url, spool=spool).start()
    try:
        text = json.dumps({"table": "BAC-01", "event": "bets", "bets": list(range(400))})
        pieces = [text[i:i + 128] for i in range(0, len(text), 128)]
        assert len(pieces) > 9
        frames = [(4, 1, "OPEN", "-")] + [(4, 2 + i, "PART", p) for i, p in enumerate(pieces[:9])]
        other.send(*frames)
        assert _run(gateway, lambda: gateway.status()[0]["error"] is not None)
        heard = other.read()
        assert b"#4.2 " not in heard and b"#4.9 " not in heard           # no piece acknowledged
        assert os.listdir(spool) == []                                   # nor kept as this table's
        assert "reports table \"BAC-01\"" in gateway.status()[0]["error"]
    finally:
        gateway.stop()
        other.close()
        broker.stop()


def test_what_a_board_sends_before_naming_its_table_waits_so_a_swapped_boards_lost_count_is_not_published():
    with _two_tables() as (gateway, board, other, sub, log):
        # Each board's first frames name no table: its OPEN, then a LOST count (the host was away).
        board.send((1, 1, "OPEN", "-"), (1, 2, "LOST", "5"))
        other.send((4, 1, "OPEN", "-"), (4, 2, "LOST", "3"))
        assert _run(gateway, lambda: b"TIME" in board.read() and b"TIME" in other.read())   # read: OPEN answered
        for _ in range(20):
            gateway.step(0.01)
        assert sub.reports() == []                                            # neither published yet
        assert b"#1.2 " not in board.read() and b"#4.2 " not in other.read()  # nor acknowledged
        # The board on BAC-02's port names BAC-01 (the adapters swapped): refused, its LOST never published.
        other.send((4, 3, "REPORT", '{"event": "card", "table": "BAC-01"}'))
        assert _run(gateway, lambda: any(e.get("link") == "refused" for e in log))
        # The right board names its table: its LOST count goes out first, in its place, then the report.
        board.send((1, 3, "REPORT", '{"event": "card", "table": "BAC-01"}'))
        assert _run(gateway, lambda: b"#1.3 " in board.read() and len(sub.reports()) >= 2)   # published, acknowledged
        topics = [t for t, _ in sub.reports()]
        assert topics == ["casino/%s/BAC-01/link_lost" % FLOOR, "casino/%s/BAC-01/card" % FLOOR]
        assert json.loads(dict(sub.reports())["casino/%s/BAC-01/link_lost" % FLOOR])["reports"] == 5
        assert not [t for t in topics if "/BAC-02/" in t]
        assert b"#4.2 " not in other.read()                                   # the swapped board keeps its count
