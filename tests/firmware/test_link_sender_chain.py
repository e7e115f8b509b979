# The Sender encodes the frame after its own last one at once (issue 14: Encoder.encode_next, encode()'s
# check of the kept header skipped) only while nothing has moved that header since: every frame it keeps
# is the one a fresh encoder makes, after a poll that moves the stamps and one that does not, the host's
# TIME (the first and a later one), a held frame read back into the encoder's buffer (a retransmission or
# a REPLAY from flash), a GONE, a report the encoder refuses (not printable), one the store fails to keep
# and one it refuses (full: then the LOST frame), a long report's pieces. (Runs on MicroPython too.)
from firmware.link import frame as fm
from firmware.link.ram_store import RamStore
from firmware.link.sender import CMD_TIME, PART, REPORT, Sender
from tests.firmware.expect import raises_match
from tests.firmware.test_link_sender import Wire, _host


def _held(store, i):
    buf = bytearray(fm.MAX_FRAME)
    return bytes(buf[:store.read(i, buf)])


def _made(sender, seq, type, payload):
    host = -1 if sender.host_time is None else sender.host_time.ms()
    return fm.encode(sender.boot, seq, type, payload, sender.uptime.ms(), host)


def _sends(sender, store, payload=b'{"n": 1}'):
    """A report sent as the Reporter sends it (checked): its frames as a fresh encoder makes them."""
    first = store.count()
    seq = sender.send(payload, REPORT, True)
    assert seq > 0
    pieces = [payload[k:k + sender.piece] for k in range(0, len(payload), sender.piece)]
    seq -= len(pieces) - 1
    for k in range(len(pieces)):
        type = REPORT if k == len(pieces) - 1 else PART
        assert _held(store, first + k) == _made(sender, seq + k, type, pieces[k]), (seq + k, type)


def test_the_frame_after_the_senders_last_is_encoded_at_once_only_while_its_header_holds():
    wire = Wire()
    store = RamStore(12, fm.MAX_FRAME)
    sender = Sender(wire, store, 3, piece=40)
    sender.poll(5)
    _sends(sender, store)
    _sends(sender, store)                              # chained: the same stamps
    sender.poll(0)                                     # frames out, the stamps unmoved
    _sends(sender, store, b'{"long": "%s"}' % (b"x" * 90))   # 3 pieces
    sender.poll(7)                                     # the stamps move
    _sends(sender, store)
    assert sender.receive(_host(0, 0, "TIME", "1764525600000")) == CMD_TIME     # the host's time: a stamp more
    _sends(sender, store)
    _sends(sender, store)
    sender.poll(10)
    assert sender.receive(_host(0, 0, "TIME", "1764525999999")) == CMD_TIME     # set again (the same Stamp)
    _sends(sender, store)
    sender._read(0)                                    # a held frame read back into the encoder's buffer
    _sends(sender, store)
    sender.receive(_host(3, 1, "ACK"))
    sender.receive(_host(3, 1, "REPLAY"))              # frames no longer held: a GONE (seq 0) written
    assert [f[2] for f in wire.take() if f[1] == 0] == ["GONE"]
    _sends(sender, store)
    raises_match(ValueError, "printable", sender.send, b'{"n": "\x01"}')
    _sends(sender, store)
    sender.receive(_host(3, sender.last_frame()[1], "ACK"))
    append = store.append

    def failing(*args):
        store.append = append
        raise OSError(5)                               # (a flash write that fails: the board resets)
    store.append = failing                             # the frame encoded, not kept: its seq made again
    raises_match(OSError, "5", sender.send, b'{"n": 3}', REPORT, True)
    _sends(sender, store)
    while sender.send(b'{"n": 2}', REPORT, True):      # the store full: refused, counted
        pass
    sender.receive(_host(3, sender.last_frame()[1], "ACK"))
    sender.poll(0)                                     # LOST first, then the reports
    assert store.count() == 1 and b" LOST " in _held(store, 0)
    _sends(sender, store)
    _sends(sender, store)
