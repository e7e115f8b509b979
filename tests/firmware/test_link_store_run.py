# A report's frames handed to the link store at once (issue 14): append_run encodes each piece after the one
# before and places it, all held or none, the same frames, tags and flash records as append() one frame at a
# time (firmware/link/journal_store.py's header comment), on the store on flash and on RamStore. Dual runtime.
from firmware.link import frame as fm
from firmware.link.journal_store import JournalStore
from firmware.link.ram_store import RamStore
from firmware.link.sender import Sender
from firmware.link.stamp import Stamp
from tests.firmware.expect import raises, raises_match
from tests.firmware.scratch import ScratchDir

_SLOT = 200
_UP = 5678
PART = b"PART"
REPORT = b"REPORT"


def _pieces(text, most):
    return [text[k:k + most] for k in range(0, len(text), most)]


def _run(store, boot, seq, text, most):
    """append_run as the sender calls it: the first piece encoded whole, the rest by the store."""
    enc = fm.Encoder(fm.MAX_FRAME)
    view = memoryview(text)
    n = enc.encode(boot, seq, PART, view[:most], Stamp(_UP), -1, True)
    return store.append_run(boot, seq, enc, n, view, most, PART, REPORT, True)


def _each(store, boot, seq, text, most):
    """The same frames through append(), one at a time (what the sender did before)."""
    pieces = _pieces(text, most)
    for k, piece in enumerate(pieces):
        last = k == len(pieces) - 1
        data = fm.encode(boot, seq + k, "REPORT" if last else "PART", piece, _UP)
        store.append(boot, seq + k, data, len(data), last)


def _held(store):
    buf = bytearray(_SLOT)
    out = []
    for i in range(store.count()):
        n = store.read(i, buf)
        view = store.view(i)
        out.append((store.boot_at(i), store.seq_at(i), bytes(buf[:n]), view is not None and bytes(view) == bytes(buf[:n])))
    return out


def _state(store):
    return (_held(store), store.pending, store.mark, store.report, store.previous)


def _text(n, mark="r"):
    return ('{"event": "result", "pad": "%s"}' % (mark * n)).encode()


def _file(state):
    import os
    out = []
    for name in sorted(os.listdir(state)):
        with open(state + "/" + name, "rb") as f:
            out.append((name, f.read()))
    return out


def _twins(plan, ring_bytes=700, capacity=40):
    """Two stores on flash fed the same reports, one with append_run, one frame by frame: equal after each."""
    with ScratchDir() as a_dir:
        with ScratchDir() as b_dir:
            a = JournalStore(a_dir, None, capacity, _SLOT, ring_bytes=ring_bytes)
            b = JournalStore(b_dir, None, capacity, _SLOT, ring_bytes=ring_bytes)
            for event, seq, text, most in plan:
                for store in (a, b):
                    if store.event != event:
                        store.event, store.report = event, 0
                if most:
                    assert _run(a, 1, seq, text, most)
                    _each(b, 1, seq, text, most)
                else:
                    for store in (a, b):
                        data = fm.encode(1, seq, "REPORT", text, _UP)
                        store.append(1, seq, data, len(data), True)
                assert _state(a) == _state(b), seq
            a.flush()
            b.flush()
            assert _file(a_dir) == _file(b_dir)
            again = JournalStore(a_dir, None, capacity, _SLOT, ring_bytes=ring_bytes)
            assert [h[:3] for h in _held(again)] == [h[:3] for h in _held(a)]
            return a


def test_a_run_is_the_frames_tags_and_record_of_its_frames_appended_one_by_one():
    # After a report of the same event (a batch to join), across seq 9 -> 10 and 99 -> 100 (a digit more),
    # then a report of the next event (the batch before written first), then one that outgrows the ring's end
    # (moved to its start) and one that starts past the ring's middle (a jump).
    a = _twins([(1, 1, '{"event": "card"}', 0), (1, 2, _text(90), 40), (1, 6, _text(90, "s"), 40),
                (2, 10, _text(40), 25), (2, 13, '{"event": "state"}', 0), (3, 14, _text(30), 20),
                (3, 17, _text(170, "t"), 60), (4, 21, _text(50, "u"), 30), (4, 24, _text(160, "v"), 50)])
    assert a.mark == (4, 2) and a.previous == (1, 27)
    _twins([(1, 97, _text(120), 30), (1, 102, '{"event": "state"}', 0)])


def test_a_run_refused_holds_none_of_it_and_changes_nothing():
    with ScratchDir() as state:
        store = JournalStore(state, None, 6, _SLOT, ring_bytes=700)
        store.event = 1
        _run(store, 1, 1, _text(40), 30)                  # 3 frames
        before = _state(store)
        end = store._ram.end
        raises_match(ValueError, "full", _run, store, 1, 4, _text(100), 30)     # 5 frames: 3 + 5 > 6
        assert _state(store) == before and store._ram.end == end
        raises_match(ValueError, "slot", _run, store, 1, 4, _text(350), 180)    # 3 frames, 2 too long
        assert _state(store) == before and store._ram.end == end
        _run(store, 1, 4, _text(60), 30)                  # the numbers the refused ones would have had
        assert [h[1] for h in _held(store)] == [1, 2, 3, 4, 5, 6] and store.pending == 6


def test_a_run_of_another_event_writes_the_batch_before_it_first_and_is_one_batch():
    with ScratchDir() as state:
        store = JournalStore(state, None, 16, _SLOT, ring_bytes=700)
        store.event = 1
        _run(store, 1, 1, _text(40), 30)
        store.flush()
        _run(store, 1, 4, _text(40), 30)
        writes = store.writes
        store.event, store.report = 2, 0
        _run(store, 1, 7, _text(40, "q"), 30)
        assert store.writes == writes + 1 and store.pending == 3     # the first batch written, this one pending
        store.flush()
        assert store.writes == writes + 2 and store.mark == (2, 1) and store.count() == 9


def test_a_run_the_ring_or_its_index_cannot_hold_as_one_batch_is_refused_and_the_sender_appends_it():
    # 5 frames of ~100 bytes in a ring of 300: append_run keeps none (False); the sender appends them one by
    # one, batches written between them, every frame held in order, as before.
    text = _text(300)
    pieces = _pieces(text, 80)
    with ScratchDir() as state:
        store = JournalStore(state, None, 16, _SLOT, ring_bytes=300)
        store.event = 1
        assert not _run(store, 1, 1, text, 80) and store.count() == 0 and store.pending == 0
        store = JournalStore(state, None, 16, _SLOT, ram_frames=4)
        store.event = 1
        assert not _run(store, 1, 1, text, 80) and store.count() == 0     # 5 frames, an index of 4
    with ScratchDir() as state:
        store = JournalStore(state, None, 16, _SLOT, ring_bytes=300)
        sender = Sender(_Port(), store, 1, piece=80)
        sender.poll(0)
        store.event = 1
        writes = store.writes
        assert sender.send(text) == 6
        assert store.writes > writes and store.mark == (1, 1)
        want = [fm.encode(1, k + 2, "REPORT" if k == 4 else "PART", p, 0) for k, p in enumerate(pieces)]
        assert [h[2] for h in _held(store)][1:] == want


def test_a_run_of_no_journalled_event_is_left_to_the_sender_which_writes_each_frame_at_once():
    with ScratchDir() as state:
        store = JournalStore(state, None, 16, _SLOT, ring_bytes=700)
        assert not _run(store, 1, 1, _text(60), 30) and store.count() == 0
        sender = Sender(_Port(), store, 1, piece=30)
        assert sender.send(_text(60)) == 4 and store.pending == 0 and store.count() == 4
        assert _held(JournalStore(state, None, 16, _SLOT, ring_bytes=700)) == _held(store)


def test_ram_store_leaves_a_run_to_the_sender_with_the_same_frames():
    store = RamStore(6, _SLOT)
    assert not _run(store, 1, 1, _text(90), 40) and store.count() == 0
    sender = Sender(_Port(), store, 1, piece=40)
    assert sender.send(_text(90)) == 4
    want = [fm.encode(1, k + 2, "REPORT" if k == 2 else "PART", p, 0) for k, p in enumerate(_pieces(_text(90), 40))]
    assert [h[2] for h in _held(store)][1:] == want
    assert sender.send(_text(90)) == 0 and store.count() == 4 and sender.refused == 1    # full: none of it


class _Failing:
    """A store on flash whose next write fails (OSError), as a board's flash can."""

    def __init__(self, store):
        self.fail = False
        journal = store._journal
        self.append_in_place = journal.append_in_place
        journal.append_in_place = self._write

    def _write(self, *args):
        if self.fail:
            self.fail = False
            raise OSError(5)
        return self.append_in_place(*args)


def test_a_write_failing_before_a_run_keeps_none_of_it_and_no_number_is_spent():
    # A report of the next event: the batch before it is written first; that write fails. The batch stays
    # pending, nothing of the report is kept, and its numbers go to the next report.
    with ScratchDir() as state:
        store = JournalStore(state, None, 16, _SLOT, ring_bytes=700)
        sender = Sender(_Port(), store, 1, piece=40)
        sender.poll(0)
        store.event = 1
        assert sender.send(_text(90)) == 4 and store.pending == 3
        store.event, store.report = 2, 0
        failing = _Failing(store)
        failing.fail = True
        raises(OSError, sender.send, _text(90, "w"))
        assert store.count() == 4 and store.pending == 3
        assert sender.send(_text(90, "w")) == 7
        assert [store.seq_at(i) for i in range(store.count())] == list(range(1, 8))
        store.flush()
        assert store.pending == 0 and store.mark == (2, 1)


class _Port:
    def write(self, data):
        return len(data)


def test_a_run_that_would_outgrow_the_rings_end_goes_to_its_start_at_once_older_frames_not_overwritten_kept():
    # A batch's first frame would fit after the older frames (up to byte 342 of 700) but the report's 9 would
    # not: one by one, they begin there and are moved to the ring's start part way (every older frame out of
    # RAM); at once, they go to its start at once (the older frame at 297, past their end, stays in RAM).
    with ScratchDir() as a_dir:
        with ScratchDir() as b_dir:
            a = JournalStore(a_dir, None, 40, _SLOT, ring_bytes=700)
            b = JournalStore(b_dir, None, 40, _SLOT, ring_bytes=700)
            for store in (a, b):
                store.event = 1
                for seq, size in enumerate((82, 82, 82, 40, 45), 1):
                    data = fm.encode(1, seq, "REPORT", "x" * (size - 27), _UP)
                    store.append(1, seq, data, len(data), True)
                store.flush()
                store.event, store.report = 2, 0
            assert a._ram.end == b._ram.end == 342
            assert _run(a, 1, 6, _text(20), 6)
            _each(b, 1, 6, _text(20), 6)
            held = _held(a)
            assert [h[:3] for h in held] == [h[:3] for h in _held(b)] and len(held) == 14
            assert [h[3] for h in _held(b)][:5] == [False] * 5
            assert [h[3] for h in held][:5] == [False, False, False, False, True]
            assert a.pending == b.pending == 9 and a.mark == b.mark == (2, 1)
