# The host link on a UART as MicroPython's rp2 port makes it (firmware/hardware.py: timeout=0, a txbuf
# ring): a write takes what fits the ring and returns that count (None when nothing fits), so bytes
# written into a fuller ring are cut short on the wire. The sender writes its budget only when the
# port has sent everything (txdone()): every frame goes out whole, in order, however the line drains.
from firmware.link import frame as fm
from firmware.link.frame_host import HostFrame
from firmware.link.ram_store import RamStore
from firmware.link.sender import Sender


class RingPort:
    """A transmit ring of `size` bytes draining to `wire` only when drain() is called."""

    def __init__(self, size):
        self.size = size
        self.ring = bytearray()
        self.wire = bytearray()

    def write(self, data):
        n = min(len(data), self.size - len(self.ring))
        if n == 0:
            return None                     # EAGAIN: MicroPython's stream write returns None
        self.ring += bytes(data[:n])
        return n

    def txdone(self):
        return not self.ring

    def drain(self, n):
        self.wire += self.ring[:n]
        self.ring = self.ring[n:]


def _frames(data):
    """The wire's lines decoded; a line cut short fails its check."""
    out = []
    frame = HostFrame()
    for line in bytes(data).split(b"\n")[:-1]:
        status = frame.decode(line)
        out.append((frame.seq, frame.type_name()) if status == fm.OK else ("broken", status))
    return out


def _sender(port, budget):
    return Sender(port, RamStore(32, fm.MAX_FRAME), 1, budget=budget)


def test_a_burst_bigger_than_the_ring_goes_out_whole_frame_by_frame():
    port = RingPort(256)
    sender = _sender(port, 256)
    for i in range(12):
        sender.send('{"event": "x", "n": %d, "pad": "%s"}' % (i, "p" * 40))   # ~90 bytes a frame
    for _ in range(40):                     # passes of 10 ms at 115200 baud: ~115 bytes drained each
        sender.poll(10)
        port.drain(115)
        for seq, _ in _frames(port.wire):
            if seq != "broken":
                sender.receive(fm.encode(1, seq, "ACK")[:-1])
    frames = _frames(port.wire)
    assert all(seq != "broken" for seq, _ in frames), frames
    assert [seq for seq, _ in frames] == list(range(1, 14))     # OPEN and 12 reports, once each


def test_nothing_is_written_while_the_port_still_sends():
    port = RingPort(512)
    sender = _sender(port, 512)
    sender.send("{}")
    sender.poll(10)
    assert len(port.ring) > 0
    sender.send("{}")
    sender.poll(10)                         # the ring still holds the first frames: the report waits
    held = bytes(port.ring)
    port.drain(len(port.ring))
    assert [seq for seq, _ in _frames(held)] == [1, 2]
    sender.poll(10)
    assert [seq for seq, _ in _frames(port.ring)] == [3]


def test_a_gone_frame_waits_for_the_line_and_goes_first():
    port = RingPort(512)
    sender = _sender(port, 512)
    for i in range(3):
        sender.send("{}")
    sender.poll(10)
    port.drain(512)
    sender.receive(fm.encode(1, 3, "ACK")[:-1])
    sender.send("{}")
    sender.poll(10)                         # seq 5 in the ring, not yet sent
    sender.receive(fm.encode(1, 2, "REPLAY")[:-1])     # 1.2 and 1.3 are gone: GONE owed
    assert [seq for seq, _ in _frames(port.ring)] == [5]
    port.drain(512)
    sender.poll(10)
    frames = _frames(port.ring)
    assert frames[0] == (0, "GONE") and [seq for seq, _ in frames[1:]] == [4, 5]


def test_a_retransmission_due_while_the_port_sends_waits_for_it():
    port = RingPort(512)
    sender = Sender(port, RamStore(32, fm.MAX_FRAME), 1, budget=512, timeout_ms=100)
    sender.send("{}")
    sender.poll(10)
    port.drain(512)
    port.ring += b"x" * 10                  # (the line busy with other bytes)
    sender.poll(200)                        # the timeout passed: the oldest is due again, the port busy
    assert sender.retransmits == 0
    port.drain(10)
    sender.poll(0)
    assert sender.retransmits == 1 and [seq for seq, _ in _frames(port.ring)] == [1]
