# The host's rarer commands as the Sender takes them (firmware/link/sender.py, Sender.receive; docs/host-link.md):
# REPLAY (and the GONE frame for what is no longer held), TIME, RECALL, and a type the board does not take. ACK
# (every pass) and REQUEST stay in receive(). Resident, not imported on demand: a noisy line brings REPLAYs at any
# time (the host's NAK), and an import then could fail for want of heap inside receive().
from firmware.link.stamp import Stamp
from firmware.link.store import at_or_before

# copies of firmware.link.sender (tests/host/test_const_copies.py)
_CMD_REPLAY = const(2)
_CMD_TIME = const(3)
_CMD_RECALL = const(4)
_BAD_ARGUMENT = const(10)
_UNKNOWN_TYPE = const(11)

_RECALL_DIGITS = const(4)
_TIME_DIGITS = const(15)
# The latest host time taken: the last ms of the year 9999. A value up to the grammar's 15 digits would leave a
# stamp no room to grow (the next frame's uptime added past 10**15: "stamp out of range", the board reset;
# found by an adversarial host). Not a const(): more than a small int on a 31-bit port; compared once a TIME.
_TIME_MOST = 253402300799999


def take(sender, frame):
    """A good host frame other than ACK and REQUEST, decoded into `frame`: its CMD_* code (sender.receive's)."""
    if frame.type_is(b"REPLAY"):
        _replay(sender, frame.boot, frame.seq)
        return _CMD_REPLAY
    time = frame.type_is(b"TIME")
    if not time and not frame.type_is(b"RECALL"):
        return sender._bad(_UNKNOWN_TYPE)
    n = frame.payload_uint(_TIME_DIGITS if time else _RECALL_DIGITS)    # TIME's ms, RECALL's rounds
    if n < 0 or time and n > _TIME_MOST:
        return sender._bad(_BAD_ARGUMENT)
    if not time:
        sender.recall_count = n
        return _CMD_RECALL
    sender._chain = False
    if sender.host_time is None:
        sender.host_time = sender._host = Stamp(n)
    else:
        sender.host_time.set(n)
    return _CMD_TIME


def _replay(sender, boot, seq):
    """Send again from (boot, seq), which also says the host has everything before it."""
    sender.replays += 1
    if seq > 0:
        sender._ack(boot, seq - 1)
    store = sender.store
    count = store.count()
    i = 0
    while i < count and not at_or_before(boot, seq, store.boot_at(i), store.seq_at(i)):
        i += 1
    first_boot, first_seq = (store.boot_at(i), store.seq_at(i)) if i < count else (sender.boot, sender._next_seq)
    if first_boot != boot or first_seq != seq:
        payload = "%d.%d %d.%d" % (boot, seq, first_boot, first_seq)
        if sender._idle is None or sender._idle():
            sender._write_gone(payload)
        else:                     # the port still sends: at the next poll that finds it idle, first
            sender._gone = payload
    sender._next_write = i
    sender._probing = False
    sender._timer = 0
    sender._timeout = sender.timeout_ms   # the host is there: no back-off
