# The host link's store on flash (issue 12): held frames survive a reboot, acknowledgements are kept,
# flash stays bounded, flipped bits are reported and never used. Dual runtime.
# The whole table under power cuts: tests/host/test_power_cut_table.py.
import os

from firmware.link import frame as fm
from firmware.link.journal import CLEAN, CORRUPT
from firmware.link.journal_store import NAME, JournalStore, journal_bytes
from firmware.link.sender import Sender
from tests.firmware.expect import raises
from tests.firmware.fakes import FakeUART
from tests.firmware.scratch import ScratchDir

_FRAMES = 8
_SLOT = 200


def _store(state):
    return JournalStore(state, None, _FRAMES, _SLOT)


def _frame(boot, seq, type="REPORT", payload='{"event": "x"}'):
    return fm.encode(boot, seq, type, payload)


def _put(store, boot, seq, type="REPORT", payload='{"event": "x"}'):
    data = _frame(boot, seq, type, payload)
    store.append(boot, seq, data, len(data))


def _held(store):
    buf = bytearray(_SLOT)
    out = []
    for i in range(store.count()):
        n = store.read(i, buf)
        out.append((store.boot_at(i), store.seq_at(i), bytes(buf[:n])))
    return out


def test_held_frames_come_back_after_a_reboot_and_acknowledged_ones_do_not():
    with ScratchDir() as state:
        store = _store(state)
        for seq in range(1, 6):
            _put(store, 3, seq)
        assert store.drop_through(3, 2) == 2
        again = _store(state)
        assert again.status == CLEAN and again.count() == 3
        assert _held(again) == _held(store) == [(3, s, _frame(3, s)) for s in (3, 4, 5)]
        assert again.previous == (3, 5)


def test_the_mark_names_the_last_whole_report_of_a_journalled_event_and_survives_compaction():
    with ScratchDir() as state:
        store = _store(state)
        _put(store, 1, 1, "OPEN", "-")            # a boot's own frame: no event
        assert store.mark == (0, 0)
        store.event, store.report = 7, 0
        _put(store, 1, 2)
        _put(store, 1, 3, "PART", "abc")          # a report begun, not whole: the mark stays
        assert store.mark == (7, 1)
        _put(store, 1, 4)
        assert store.mark == (7, 2) and store.report == 2
        assert _store(state).mark == (7, 2)
        store.drop_through(1, 4)                   # everything acknowledged: compacted to the mark
        again = _store(state)
        assert again.count() == 0 and again.mark == (7, 2) and again.previous == (1, 4)


def test_a_sender_on_it_reopens_with_the_previous_boots_last_frame():
    with ScratchDir() as state:
        store = _store(state)
        sender = Sender(FakeUART(), store, 4)
        sender.send('{"event": "a"}')
        again = _store(state)
        assert again.previous == (4, 2)            # OPEN (seq 1), then the report
        assert Sender(FakeUART(), again, 5, previous=again.previous).previous == (4, 2)
        raises(ValueError, Sender, FakeUART(), _store(state), 4)   # the boot counter must grow


def test_flash_stays_bounded_however_long_the_link_runs():
    with ScratchDir() as state:
        store = _store(state)
        limit = journal_bytes(_FRAMES, _SLOT)
        seq = 0
        for _ in range(300):
            seq += 1
            _put(store, 2, seq)
            if store.count() == _FRAMES:
                store.drop_through(2, seq - 2)     # the host acknowledges all but the last two
            used = sum(os.stat(state + "/" + n)[6] for n in os.listdir(state) if n.startswith(NAME))
            assert used <= limit, (seq, used, limit)
        assert [s for _, s, _ in _held(_store(state))] == [s for _, s, _ in _held(store)]


def test_a_full_store_refuses_the_frame_and_writes_nothing():
    with ScratchDir() as state:
        store = _store(state)
        for seq in range(1, _FRAMES + 1):
            _put(store, 1, seq)
        writes = store.writes
        data = _frame(1, 99)
        raises(ValueError, store.append, 1, 99, data, len(data))
        assert store.writes == writes and store.count() == _FRAMES


def test_a_flipped_bit_is_reported_corrupt_and_the_frames_after_it_are_not_used():
    with ScratchDir() as state:
        store = _store(state)
        for seq in range(1, 4):
            _put(store, 1, seq)
        name = [n for n in os.listdir(state) if n.startswith(NAME)][0]
        with open(state + "/" + name, "rb") as f:
            data = bytearray(f.read())
        data[len(data) - 20] ^= 0x10               # inside the last frame
        with open(state + "/" + name, "wb") as f:
            f.write(data)
        again = _store(state)
        assert again.status == CORRUPT and again.detail
        assert [s for _, s, _ in _held(again)] == [1, 2]
