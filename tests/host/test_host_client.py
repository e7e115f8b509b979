"""The host client against the board's Sender over a noisy line (docs/host-link.md).

The board side is the firmware itself (firmware.link.sender.Sender, reading host frames through
the firmware's SerialLine); the line is hostsim.line_noise; time is steps of 10 ms, never wall time.
"""
import json
import random
import re
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware.drivers.serial_line import SerialLine
from firmware.link import frame as fm
from firmware.link.sender import Sender
from firmware.link.ram_store import RamStore
from hostsim.line_noise import LineNoise
from tests.firmware.fakes import FakeUART
from tools import host as host_mod
from tools.host import HostClient

STEP_MS = 10
HOST_NOW = 1764525600000


class Wire:
    def __init__(self):
        self.data = bytearray()

    def write(self, data):
        self.data.extend(data)
        return len(data)

    def take(self):
        data = bytes(self.data)
        self.data = bytearray()
        return data


class Link:
    """A board (Sender + the firmware's SerialLine for host frames) and a HostClient, joined by two
    noisy lines. The game makes one report per step unless the sender's alarm says stop."""

    def __init__(self, p=0.0, seed=1, capacity=64, client=None, boot=1, previous=None):
        self.store = RamStore(capacity, fm.MAX_FRAME)
        self.wire = Wire()
        self.sender = Sender(self.wire, self.store, boot, previous=previous)
        self.up = LineNoise(p, seed)
        self.down = LineNoise(p, seed + 1000)
        self.client = client if client is not None else HostClient(clock_ms=lambda: HOST_NOW)
        self.uart = FakeUART()
        self.host_line = SerialLine(self.uart, max_len=96, timeout_ms=50)
        self.made = 0
        self.got = []
        self.retransmits = 0
        self.host_away = False
        self.rng = random.Random(seed)

    def make(self, count=1):
        for _ in range(count):
            if self.sender.alarm:
                return
            assert self.sender.send(json.dumps({"n": self.made})) > 0
            self.made += 1

    def step(self):
        self.sender.poll(STEP_MS)
        data = self.up.apply(self.wire.take())
        if self.host_away:
            return
        reports, reply = self.client.feed(data)
        self.got.extend(reports)
        self.uart.feed(self.down.apply(reply))
        while True:
            line = self.host_line.poll(STEP_MS)
            if line is not None:
                self.sender.receive(line)
            elif not self.uart.any():
                break

    def reset(self, keep_store=True):
        """Power lost mid-write: the frame being written is cut, host bytes in flight are lost;
        the next boot's Sender finds the store (the journal) or an empty RAM store."""
        self.retransmits += self.sender.retransmits
        pending = self.wire.data
        self.wire.data = pending[:self.rng.randrange(len(pending) + 1)]
        self.uart.rx = bytearray()
        self.host_line = SerialLine(self.uart, max_len=96, timeout_ms=50)
        last = self.sender.last_frame()
        if not keep_store:
            self.store = RamStore(self.store.capacity(), fm.MAX_FRAME)
            last = None
        self.sender = Sender(self.wire, self.store, self.sender.boot + 1, previous=last)

    def settle(self, most=100000):
        for _ in range(most):
            if self.store.count() == 0 and not self.wire.data:
                return
            self.step()
        raise AssertionError("the link did not settle: %d frames still held" % self.store.count())


def _numbers(reports):
    return [r["n"] for r in reports]


def test_10000_reports_over_a_1_percent_noisy_line_with_resets_arrive_once_in_order():
    link = Link(p=0.01, seed=12)
    resets = {2500: True, 6000: True, 6004: True}      # the last two: a reset while frames of two boots are held
    steps = 0
    while link.made < 10000:
        link.make()
        if link.made in resets:
            del resets[link.made]
            link.reset()
        link.step()
        steps += 1
    link.settle()
    assert _numbers(link.got) == list(range(10000))
    client = link.client
    assert [e["link"] for e in client.events] == ["open"] * 4
    assert [e["previous"] for e in client.events] == ["-", "1.2501", "2.3501", "3.5"]
    for noise in (link.up, link.down):
        assert min(noise.hits.values()) > 0           # the noise did hit, each kind, both ways
    assert client.refused.get("bad_crc", 0) > 0 and client.duplicates > 0
    print("\n10,000 reports in %d steps: %d retransmissions after a timeout, %d REPLAYs asked, %d duplicates "
          "dropped, lines refused %s, noise up %s down %s"
          % (steps, link.retransmits + link.sender.retransmits, client.replays_asked, client.duplicates,
             client.refused, link.up.hits, link.down.hits))


@pytest.mark.parametrize("seed", range(5))
def test_heavier_noise_and_random_resets_still_lose_nothing(seed):
    rng = random.Random(seed)
    link = Link(p=0.03, seed=seed, capacity=16)
    while link.made < 600:
        link.make(rng.randrange(3))
        if rng.random() < 0.01:
            link.reset()
        link.host_away = rng.random() < 0.05 if rng.random() < 0.1 else link.host_away
        link.step()
    link.host_away = False
    link.settle()
    assert _numbers(link.got) == list(range(link.made))
    # "start": the host missed boot 1's OPEN and synchronised by REPLAY 0.0 (from the oldest held)
    assert [e for e in link.client.events if e["link"] != "open"] in ([], [{"link": "start", "at": "1.1"}])


def test_the_game_is_held_while_the_host_is_away_and_nothing_is_lost():
    link = Link(capacity=16)
    link.host_away = True
    for _ in range(200):
        link.make()
        link.step()
    assert link.sender.alarm and link.made == 11        # OPEN + 11 reports: 12 of 16, the alarm
    assert link.sender.refused_total == 0
    link.host_away = False
    link.settle()
    assert _numbers(link.got) == list(range(11)) and not link.sender.alarm


def test_a_host_started_late_gets_everything_the_board_still_holds():
    link = Link(boot=3, previous=(2, 40))      # the frames before were acknowledged to another host
    link.host_away = True
    for _ in range(20):
        link.make()
        link.step()
    link.host_away = False
    link.settle()
    assert _numbers(link.got) == list(range(20))
    assert [e["link"] for e in link.client.events] == ["start", "open"]


def test_a_host_restarted_mid_boot_sets_the_boards_clock_when_it_gets_in_step():
    # TIME went out only at a boot's OPEN: a host client started (or restarted) after the board's OPEN
    # was acknowledged never set the board's clock, and every report until the next boot lacked host_ms.
    link = Link(client=HostClient(clock_ms=None))      # the first host: no clock, acknowledges the OPEN
    link.make(3)
    link.settle()
    assert link.sender.host_time is None
    link.client = HostClient(clock_ms=lambda: HOST_NOW, stamped=True)     # the host restarted
    link.make(3)
    link.settle()
    assert [e["link"] for e in link.client.events] == ["start"]
    assert link.sender.host_time is not None
    link.make(1)
    link.settle()
    assert link.got[-1]["link"]["host_ms"] >= HOST_NOW


def test_the_time_frame_is_the_documented_one():
    # docs/host-link.md, "Host to board": `#0.0 0 TIME 1764525600000*0BFF4115`, header 0.0 (no frame of the
    # board's, no tag), stamp 0.
    def recorded(client, sent):
        feed = client.feed

        def recording(data):
            reports, reply = feed(data)
            sent.append(reply)
            return reports, reply

        client.feed = recording
        return client

    at_open, restarted = [], []
    link = Link(client=recorded(HostClient(clock_ms=lambda: 1764525600000), at_open))
    link.make(1)
    link.settle()
    link.client = recorded(HostClient(clock_ms=lambda: 1764525600000), restarted)   # in step past the OPEN
    link.make(1)
    link.settle()
    for sent in (at_open, restarted):
        assert b"#0.0 0 TIME 1764525600000*0BFF4115\n" in b"".join(sent), sent
    with open(__file__.rsplit("/tests/", 1)[0] + "/docs/host-link.md") as f:
        assert "#0.0 0 TIME 1764525600000*0BFF4115" in f.read()


def test_a_reset_that_lost_a_ram_store_is_reported_not_hidden():
    link = Link()
    link.make(5)
    link.step()
    link.host_away = True
    link.make(3)                         # 5..7 never reach the host
    link.step()
    link.reset(keep_store=False)
    link.host_away = False
    link.make(2)
    link.settle()
    assert _numbers(link.got) == [0, 1, 2, 3, 4, 8, 9]
    assert [e["link"] for e in link.client.events] == ["open", "boot_unknown_end", "open"]
    assert link.client.events[1]["at"] == "1.7"


def test_frames_the_board_no_longer_holds_are_reported():
    link = Link()
    link.make(3)
    link.step()
    link.host_away = True
    link.make(3)
    link.step()
    link.sender.receive(fm.encode(1, 7, "ACK")[:-1])     # another host took 1.5..1.7
    link.host_away = False
    link.make(1)
    link.settle()
    assert _numbers(link.got) == [0, 1, 2, 6]
    assert [(e["link"], e["at"]) for e in link.client.events] == [("open", "1.1"), ("gone", "1.5")]
    assert link.client.events[1]["resume"] == "1.8"


def test_reports_refused_by_a_full_store_are_counted_in_order():
    link = Link(capacity=6)
    link.host_away = True
    for i in range(8):
        link.sender.send(json.dumps({"n": i}))
    link.host_away = False
    link.settle()
    link.sender.send(json.dumps({"n": 8}))
    link.settle()
    assert _numbers(link.got) == [0, 1, 2, 3, 4, 8]
    assert link.client.lost == 3
    assert [(e["link"], e.get("reports")) for e in link.client.events] == [("open", None), ("lost", 3)]


def test_time_is_set_at_every_boot_and_stamps_the_reports():
    client = HostClient(clock_ms=lambda: HOST_NOW, stamped=True)
    link = Link(client=client)
    link.make(1)
    link.settle()
    link.make(1)
    link.settle()
    assert link.sender.host_time.ms() >= HOST_NOW
    first, second = link.got
    assert first["link"] == {"boot": 1, "seq": 2, "uptime_ms": 0}
    assert second["link"]["seq"] == 3 and second["link"]["host_ms"] >= HOST_NOW


def test_raw_reports_are_the_text_the_board_sent():
    link = Link(client=HostClient(raw=True))
    link.sender.send('{"event":"x",  "n": 0}')
    link.settle()
    assert link.got == ['{"event":"x",  "n": 0}']


def test_a_frame_after_noise_on_the_same_line_is_still_read():
    client = HostClient()
    data = fm.encode(1, 1, "OPEN", "-") + b"\x00garbage#junk" + fm.encode(1, 2, "REPORT", '{"n": 0}')
    reports, reply = client.feed(data)
    assert reports == [{"n": 0}] and reply == fm.encode(1, 2, "ACK")
    reports, reply = client.feed(fm.encode(1, 2, "REPORT", '{"n": 0}'))
    assert reports == [] and reply == fm.encode(1, 2, "ACK") and client.duplicates == 1
    assert client.refused == {}


def test_a_gap_asks_for_a_replay_once_then_again_after_patience():
    client = HostClient(patience=2)
    client.feed(fm.encode(1, 1, "OPEN", "-"))
    asks = []
    for seq in range(3, 9):
        asks.append(client.feed(fm.encode(1, seq, "REPORT", "{}"))[1])
    replay = fm.encode(1, 2, "REPLAY")
    assert asks == [replay, b"", b"", replay, b"", b""]
    reports, reply = client.feed(fm.encode(1, 2, "REPORT", '{"n": 1}'))
    assert len(reports) == 7 and reply == fm.encode(1, 8, "ACK")


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=700))
def test_fuzz_decoder_refuses_with_a_reason_never_raises(data):
    frame = fm.Frame()
    status = frame.decode(data)
    assert 0 <= status < len(fm.STATUS_NAMES)
    if status == fm.OK:
        body = data[1:len(data) - 9]
        assert "%08X" % zlib.crc32(body) == data[-8:].decode()


_GOOD = fm.encode(7, 123, "REPORT", '{"event": "dice", "dice": [3, 4]}', 98765, 1764525600000)[:-1]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(("flip", "drop", "dup", "insert")),
                          st.integers(0, len(_GOOD) - 1), st.integers(1, 255)), min_size=1, max_size=4))
def test_fuzz_decoder_never_accepts_a_corrupted_frame(edits):
    line = bytearray(_GOOD)
    for kind, at, value in edits:
        at = min(at, len(line) - 1) if line else 0
        if kind == "flip" and line:
            line[at] ^= value
        elif kind == "drop" and line:
            del line[at]
        elif kind == "dup" and line:
            line.insert(at, line[at])
        elif kind == "insert":
            line.insert(at, value)
    status = fm.Frame().decode(bytes(line))
    assert status == fm.OK if bytes(line) == _GOOD else status != fm.OK


@settings(max_examples=200, deadline=None)
@given(st.lists(st.binary(max_size=200), max_size=8))
def test_fuzz_host_client_takes_any_bytes(chunks):
    client = HostClient()
    for chunk in chunks:
        reports, reply = client.feed(chunk)
        assert isinstance(reply, bytes)


def test_line_noise_is_seeded_and_does_what_it_says():
    data = bytes(range(256)) * 400
    a, b = LineNoise(0.01, seed=5), LineNoise(0.01, seed=5)
    assert a.apply(data) == b.apply(data)
    assert LineNoise(0, seed=5).apply(data) == data
    hits = sum(a.hits.values())
    assert 0.008 * len(data) < hits < 0.012 * len(data)
    only = LineNoise(0.05, seed=1, kinds=("drop",))
    out = only.apply(data)
    assert len(out) == len(data) - only.hits["drop"] and only.hits["corrupt"] == 0
    dup = LineNoise(0.05, seed=1, kinds=("duplicate",))
    assert len(dup.apply(data)) == len(data) + dup.hits["duplicate"]
    with pytest.raises(ValueError, match="probability"):
        LineNoise(1.0)
    with pytest.raises(ValueError, match="kind"):
        LineNoise(0.1, kinds=("flip",))


def test_docs_worked_example_is_a_real_frame():
    text = open(host_mod.__file__.replace("tools/host.py", "docs/host-link.md")).read()
    frames = re.findall(r"(#\d+\.\d+ [^`\n]*?\*[0-9A-F]{8})", text)     # in code blocks and `...`
    assert len(frames) >= 9
    frame = fm.Frame()
    for line in frames:
        assert frame.decode(line.encode()) == fm.OK, line
        body = line[1:-9].encode()
        assert "%08X" % zlib.crc32(body) == line[-8:], line
    assert any(line.startswith("#3.17 52310@1764525652433 REPORT") for line in frames)


class _FakeSerial:
    def __init__(self, chunks):
        self.chunks = list(chunks)
        self.written = bytearray()
        self.closed = False

    def read(self, n):
        if not self.chunks:
            raise KeyboardInterrupt
        return self.chunks.pop(0)

    def write(self, data):
        self.written.extend(data)

    def close(self):
        self.closed = True


def test_cli_prints_one_json_line_per_report(monkeypatch, capsys):
    frames = [fm.encode(1, 1, "OPEN", "-"), fm.encode(1, 3, "REPORT", '{"n": 1}'),
              fm.encode(1, 2, "REPORT", '{"n": 0}'), fm.encode(1, 2, "REPORT", '{"n": 0}')]
    line = _FakeSerial([f for f in frames] + [b""])
    monkeypatch.setattr(host_mod, "_open", lambda port, baud: line)
    assert host_mod.main(["/dev/ttyFAKE", "--baud", "9600"]) == 0
    out, err = capsys.readouterr()
    assert out == '{"n": 0}\n{"n": 1}\n'
    assert [json.loads(l)["link"] for l in err.splitlines()] == ["open", "summary"]
    assert fm.encode(1, 2, "REPLAY") in line.written and b" TIME " in line.written and line.closed


class _UnpluggedSerial(_FakeSerial):
    def read(self, n):
        if not self.chunks:
            import serial
            raise serial.SerialException("device reports readiness to read but returned no data")
        return self.chunks.pop(0)


def test_cli_says_when_the_port_goes_away_without_a_traceback(monkeypatch, capsys):
    # A USB-serial adapter unplugged under `python -m tools.host` ended it in pyserial's traceback.
    line = _UnpluggedSerial([fm.encode(1, 1, "OPEN", "-"), fm.encode(1, 2, "REPORT", '{"n": 0}')])
    monkeypatch.setattr(host_mod, "_open", lambda port, baud: line)
    assert host_mod.main(["/dev/ttyFAKE"]) == 1
    out, err = capsys.readouterr()
    assert out == '{"n": 0}\n'
    assert json.loads(err.splitlines()[-2])["link"] == "summary"
    assert err.splitlines()[-1].startswith("tools.host: lost the port /dev/ttyFAKE: device reports readiness")
    assert "run tools.host again" in err and line.closed


def test_cli_names_a_port_it_cannot_open():
    with pytest.raises(SystemExit, match="cannot open /nonexistent/tty"):
        host_mod.main(["/nonexistent/tty"])


# -- issue 12, wiring: long reports in PARTs, REQUEST frames, the NAK ---------------------------------
def test_a_report_in_parts_is_delivered_whole_once_even_over_noise():
    uart = FakeUART()
    uart.acks = False
    sender = Sender(uart, RamStore(64, 200), 1, piece=100)
    client = HostClient(raw=True)
    noise = (LineNoise(0.01, 5), LineNoise(0.01, 6))
    texts = [json.dumps({"n": n, "pad": "x" * (n * 37 % 400)}) for n in range(300)]
    got = []
    for text in texts:
        assert sender.send(text) > 0
        for _ in range(200):
            sender.poll(10)
            data, uart.tx = bytes(uart.tx), bytearray()
            reports, reply = client.feed(noise[0].apply(data))
            got.extend(reports)
            for line in noise[1].apply(reply).split(b"\n"):
                if line:
                    sender.receive(line)
            if sender.held() < 32:
                break
    for _ in range(5000):
        if sender.held() == 0:
            break
        sender.poll(10)
        data, uart.tx = bytes(uart.tx), bytearray()
        reports, reply = client.feed(noise[0].apply(data))
        got.extend(reports)
        for line in noise[1].apply(reply).split(b"\n"):
            if line:
                sender.receive(line)
    assert got == texts and sender.held() == 0
    assert not [e for e in client.events if e["link"] == "part_lost"]


def test_parts_cut_off_by_a_reset_are_never_delivered_as_a_report():
    client = HostClient(raw=True)
    data = (fm.encode(1, 1, "OPEN", "-") + fm.encode(1, 2, "PART", '{"a": ') +
            fm.encode(2, 1, "OPEN", "-") + fm.encode(2, 2, "REPORT", '{"b": 1}'))
    reports, _ = client.feed(data)
    assert reports == ['{"b": 1}']
    assert [e["link"] for e in client.events if e["link"] == "part_lost"] == ["part_lost"]


def test_request_is_a_request_frame_the_sender_takes():
    frame = HostClient.request('{"hand": {"button": 3}}')
    assert frame.startswith(b"\n#0.0 0 REQUEST {") and frame.endswith(b"\n")    # on a line of its own
    sender = Sender(FakeUART(), RamStore(4, fm.MAX_FRAME), 1)
    assert sender.receive(frame[1:-1]) == 5 and sender.request() == b'{"hand": {"button": 3}}'


def test_a_requests_tag_is_its_headers_seq_and_the_sender_gives_it_to_the_board():
    sender = Sender(FakeUART(), RamStore(4, fm.MAX_FRAME), 1)
    for frame, command in ((HostClient.request(b"open_bets", 17), 5), (HostClient.recall(3, 9999), 4)):
        assert sender.receive(frame.strip()) == command
        assert sender.request_tag() == int(frame.split(b".")[1].split()[0])
    assert HostClient.request(b"roads", 17).startswith(b"\n#0.17 0 REQUEST roads*")
    assert sender.receive(HostClient.request(b"roads").strip()) == 5 and sender.request_tag() == 0
    for bad in (-1, 10000):
        with pytest.raises(ValueError, match="tag is 0..9999"):
            HostClient.recall(3, bad)


def test_a_request_after_a_host_frame_noise_cut_short_still_reaches_the_board():
    """An ACK that lost its line end to line noise, then a request: the request's leading line end closes
    the damaged line, so the board reads the REQUEST whole (before, the two made one line, a bad CRC)."""
    from firmware.drivers.serial_line import SerialLine

    uart = FakeUART()
    line = SerialLine(uart)
    uart.feed(fm.encode(1, 7, "ACK")[:-1] + HostClient.request(b"roads") + HostClient.recall(5))
    lines = [line.poll(0) for _ in range(4)]
    sender = Sender(FakeUART(), RamStore(4, fm.MAX_FRAME), 1)
    assert lines[0] == fm.encode(1, 7, "ACK")[:-1] and lines[3] is None
    assert sender.receive(lines[1]) == 5 and sender.request() == b"roads"
    assert lines[2] == HostClient.recall(5).strip()


def test_a_damaged_frame_is_answered_at_once_with_a_replay_of_the_expected_one():
    client = HostClient()
    client.feed(fm.encode(1, 1, "OPEN", "-"))
    damaged = bytearray(fm.encode(1, 2, "REPORT", '{"x": 1}'))
    damaged[8] ^= 1
    reports, reply = client.feed(bytes(damaged))
    assert reports == [] and reply == fm.encode(1, 2, "REPLAY")


def test_a_payload_that_is_no_json_object_is_delivered_as_link_bad_json_in_its_place():
    """Whatever a board's REPORT carries, the client delivers something in its place and goes on: JSON
    nested deeper than the parser goes (a RecursionError stopped tools.host and the floor gateway, the
    same frame again at every restart), a JSON value that is not an object, text that is not JSON."""
    link = Link(client=HostClient(clock_ms=lambda: HOST_NOW, stamped=True))
    texts = ["[" * 3000, "[5]", "not json", "{" * 2000]
    for text in texts:
        assert link.sender.send(text) > 0
    link.make(1)
    link.settle()
    assert [r["event"] for r in link.got[:4]] == ["link_bad_json"] * 4
    assert [r["text"] for r in link.got[:4]] == texts
    assert [r["link"]["seq"] for r in link.got[:4]] == [8, 9, 10, 15]   # a report in PARTs: its last frame
    assert link.got[4]["n"] == 0 and len(link.got) == 5
