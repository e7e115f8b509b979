# The host link's store on flash (issue 12): held frames survive a reboot, acknowledgements are kept,
# flash stays bounded, flipped bits are reported and never used. Dual runtime.
# The whole table under power cuts: tests/host/test_power_cut_table.py.
import os

from firmware.link import frame as fm
from firmware.link import journal as jn_mod
from firmware.link.journal_store import NAME, JournalStore, journal_bytes
from firmware.link.record import CLEAN, CORRUPT
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
        store.flush()
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
        seq = acks = 0
        compacted = set()                          # how many frames were kept by an acknowledgement that compacted
        for _ in range(300):
            seq += 1
            _put(store, 2, seq)
            if store.count() == _FRAMES:
                # the host acknowledges all but the last one, two or three: the DROP record written, or the file
                # compacted without them (now and then: each of the three among them): exactly those frames go
                acks += 1
                keep = acks % 3 + 1
                before = store.used
                assert store.drop_through(2, seq - keep) == _FRAMES - keep
                assert [s for _, s, _ in _held(store)] == list(range(seq - keep + 1, seq + 1))
                if store.used < before:
                    compacted.add(keep)
            used = sum(os.stat(state + "/" + n)[6] for n in os.listdir(state) if n.startswith(NAME))
            assert used <= limit, (seq, used, limit)
        assert [s for _, s, _ in _held(_store(state))] == [s for _, s, _ in _held(store)]
        assert sorted(compacted) == [1, 2, 3]


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


# -- batches: an event's frames go to flash in one journal write, before any of them goes out -------
class _Files(jn_mod.FlashFiles):
    """The board's files, counting the opens for appending (a journal write each)."""

    def __init__(self):
        self.appends = 0

    def open(self, name, mode="rb"):
        if "a" in mode:
            self.appends += 1
        return open(name, mode)


def _on_flash(state):
    return [s for _, s, _ in _held(_store(state))]


def test_an_events_frames_wait_in_ram_and_go_to_flash_in_one_journal_write():
    with ScratchDir() as state:
        files = _Files()
        store = JournalStore(state, files, _FRAMES, _SLOT)
        _put(store, 1, 1, "OPEN", "-")            # no event: on flash at once
        assert _on_flash(state) == [1] and store.pending == 0
        store.event, store.report = 4, 0
        appends, writes = files.appends, store.writes
        for seq in range(2, 8):
            _put(store, 1, seq)
        assert store.pending == 6 and files.appends == appends and store.writes == writes
        assert _on_flash(state) == [1]             # not yet: a cut now replays event 4 (its reports again)
        assert store.mark == (4, 6)
        store.flush()
        assert files.appends == appends + 1        # one file open for all six
        assert store.writes == writes + 1          # and one write call (short frames: one buffer full)
        assert store.pending == 0 and _on_flash(state) == list(range(1, 8))
        again = _store(state)
        assert again.mark == (4, 6) and again.previous == (1, 7)
        store.flush()
        assert files.appends == appends + 1        # nothing pending: nothing written


def test_a_frame_of_another_event_an_acknowledgement_and_an_eventless_frame_write_the_batch_first():
    # Issue 14: a batch is one event's frames, tagged with that event; the last event's batch waits (for
    # the sender's poll, after the pass's lights and displays) until a frame of another event, a DROP, a
    # frame of no event or a flush: setting the event writes nothing.
    with ScratchDir() as state:
        store = _store(state)
        store.event = 1
        _put(store, 1, 1)
        _put(store, 1, 2)
        store.event = 0                            # recovery's after(): event 1's reports are done
        store.event = 2
        assert store.pending == 2 and _on_flash(state) == []
        _put(store, 1, 3)                          # event 2's first frame: event 1's batch on flash first
        assert store.pending == 1 and _on_flash(state) == [1, 2]
        assert _store(state).mark == (1, 2)        # tagged with its own event, not the one set since
        store.event = 2                            # the same event: nothing written
        assert store.pending == 1
        assert store.drop_through(1, 1) == 1       # the DROP record after the frames it follows
        assert store.pending == 0 and _on_flash(state) == [2, 3]
        _put(store, 1, 4)
        store.event = 0
        assert store.pending == 1                  # event 2's batch waits for the poll
        store.event, store.report = 3, 0
        _put(store, 1, 5)
        assert store.pending == 1 and _on_flash(state) == [2, 3, 4]
        store.event = 0                            # recovery's after(): before any snapshot is taken
        _put(store, 1, 6, "LOST", "1")
        assert store.pending == 0 and _on_flash(state) == [2, 3, 4, 5, 6]
        assert _store(state).mark == (3, 1)


def test_a_frame_goes_out_only_once_it_is_on_flash():
    with ScratchDir() as state:
        store = _store(state)
        seen = []

        class Port:
            def write(self, data):                 # (a write may carry several frames: a run)
                for line in bytes(data).split(b"\n")[:-1]:
                    seq = int(line.split(b" ")[0].split(b".")[1])
                    assert seq in _on_flash(state), seq
                    seen.append(seq)

        sender = Sender(Port(), store, 1)
        store.event, store.report = 9, 0
        for i in range(3):
            sender.send('{"event": "x", "n": %d}' % i)
        assert store.pending == 3 and seen == []
        sender.poll(0)
        assert seen == [1, 2, 3, 4] and store.pending == 0


def test_a_report_that_mentions_part_is_still_a_whole_report():
    """The sender says which frames are PARTs: a report's own text saying " PART " is not one."""
    with ScratchDir() as state:
        store = _store(state)
        sender = Sender(FakeUART(), store, 1)
        store.event, store.report = 5, 0
        sender.send('{"e": " PART "}')
        assert store.mark == (5, 1)
        store.flush()
        assert _store(state).mark == (5, 1)


def test_an_eventless_frame_that_cannot_be_written_is_not_kept():
    with ScratchDir() as state:
        store = _store(state)
        _put(store, 1, 1, "OPEN", "-")

        class Dead:
            def open(self, name, mode="rb"):
                raise OSError(5)

        store._journal._fs = Dead()                # the flash fails from here on
        data = _frame(1, 2)
        raises(OSError, store.append, 1, 2, data, len(data))
        assert store.count() == 1 and store.pending == 0


def test_a_full_batch_is_written_before_the_frame_that_would_not_fit():
    with ScratchDir() as state:
        store = JournalStore(state, None, _FRAMES, _SLOT, ring_bytes=300)    # a 200-byte frame's batch and a bit
        store.event = 1
        _put(store, 1, 1, payload="a" * 110)
        _put(store, 1, 2, payload="b" * 110)      # would not fit with the first: the first is written
        assert store.pending == 1 and _on_flash(state) == [1]
        store.flush()
        assert _on_flash(state) == [1, 2]
        raises(ValueError, JournalStore, state, None, _FRAMES, _SLOT, 0, 231)   # no room for one frame's batch
        JournalStore(state, None, _FRAMES, _SLOT, 0, 232)       # 11 + 200 + its head, the batch's end, the CRC


def test_a_report_whose_pieces_span_two_batches_is_not_marked_stored_by_its_first_batch():
    # A report the ring would not hold as one batch goes frame by frame (docs/journal.md): its PART frames filling a
    # batch are written before its last piece. A power cut then leaves the report begun on flash; the mark read back
    # names the last whole report, as the running store's did, not the one begun (a mutant reading every BATCH
    # frame as whole lived through every test: stop 70).
    with ScratchDir() as state:
        store = JournalStore(state, None, _FRAMES, _SLOT, ring_bytes=300)
        store.event, store.report = 7, 0
        _put(store, 1, 1)                             # report 0, whole
        _put(store, 1, 2, "PART", "a" * 110)          # report 1 begun
        _put(store, 1, 3, "PART", "b" * 110)          # no room with the others: the batch before it written
        assert _on_flash(state) == [1, 2] and store.mark == (7, 1)
        again = _store(state)                         # the power cut before the rest of report 1
        assert [seq for _, seq, _ in _held(again)] == [1, 2] and again.mark == (7, 1)


def test_frames_pending_when_the_file_is_compacted_are_kept_once():
    for window in (_FRAMES, 2):                    # every frame in RAM too; only the newest two
        _compacted_with_frames_pending(window)


def _compacted_with_frames_pending(window):
    with ScratchDir() as state:
        store = JournalStore(state, None, _FRAMES, _SLOT, ram_frames=window)
        seq = 0
        compactions = 0
        for event in range(1, 120):
            store.event, store.report = event, 0
            for _ in range(3):
                seq += 1
                _put(store, 2, seq)
            used = store.used
            if store.count() > _FRAMES - 3:
                held = store.count()
                # flushes first: sometimes through a compaction, which drops exactly the frames acknowledged
                assert store.drop_through(2, seq - 2) == held - 2
                assert [s for _, s, _ in _held(store)] == [seq - 1, seq]
            store.event = 0
            store.flush()                                  # the sender's poll (issue 14: not the tag)
            compactions += store.used < used
            again = _store(state)
            assert _held(again) == _held(store), event
            assert again.mark == store.mark == (event, 3)
        assert compactions > 5


# -- RAM keeps the newest frames only: older ones are read back from flash --------------------------
def test_frames_out_of_the_ram_window_are_read_back_from_flash_the_same():
    with ScratchDir() as state:
        store = JournalStore(state, None, _FRAMES, _SLOT, ram_frames=2)
        want = []
        for seq in range(1, 8):
            store.event, store.report = seq, 0
            payload = '{"event": "x", "n": "%s"}' % ("y" * (seq * 7))
            _put(store, 1, seq, payload=payload)
            want.append((1, seq, _frame(1, seq, payload=payload)))
        store.event = 0
        store.flush()                                  # the sender's poll (issue 14: not the tag)
        assert _held(store) == want                # 5 of them from flash
        assert _held(_store(state)) == want        # a reboot: read back from where they were loaded
        assert store.drop_through(1, 2) == 2
        assert _held(store) == want[2:] == _held(JournalStore(state, None, _FRAMES, _SLOT, ram_frames=3))


def test_a_sender_on_a_small_ram_window_sends_a_backlog_in_order_when_the_host_comes_back():
    with ScratchDir() as state:
        store = JournalStore(state, None, _FRAMES, _SLOT, ram_frames=2)
        uart = FakeUART()
        uart.acks = False                          # the host is away
        sender = Sender(uart, store, 1, window=2, timeout_ms=100)
        texts = ['{"event": "e", "n": %d}' % n for n in range(6)]
        for n in range(6):
            store.event, store.report = n + 1, 0
            sender.send(texts[n])
            sender.poll(10)
        store.event = 0
        sender.poll(200)                           # a timeout: the oldest again (from flash)
        assert sender.retransmits >= 1
        uart.acks = True                           # the host is back: it acknowledges what it gets
        for _ in range(100):                       # up to 1 s: past the backed-off timeout
            while uart.rx:
                line = bytes(uart.rx).split(b"\n")[0]
                uart.rx = uart.rx[len(line) + 1:]
                sender.receive(line)
            sender.poll(10)
        assert uart.reports() == texts and store.count() == 0


def test_after_a_torn_tail_the_first_write_moves_every_frame_and_they_are_found_again():
    from firmware.link.record import TORN
    with ScratchDir() as state:
        store = JournalStore(state, None, _FRAMES, _SLOT, ram_frames=2)
        for seq in range(1, 6):
            store.event, store.report = seq, 0
            _put(store, 1, seq)
        store.event = 0
        store.flush()                                  # the sender's poll (issue 14: not the tag)
        name = [n for n in os.listdir(state) if n.startswith(NAME)][0]
        with open(state + "/" + name, "rb") as f:
            data = f.read()
        with open(state + "/" + name, "wb") as f:
            f.write(data[:-7])                     # the last batch cut short: a power cut mid-write
        again = JournalStore(state, None, _FRAMES, _SLOT, ram_frames=2)
        assert again.status == TORN and [s for _, s, _ in _held(again)] == [1, 2, 3, 4]
        again.event, again.report = 9, 0
        _put(again, 2, 1)
        again.flush()                              # the good records to a fresh file first, then the batch
        want = [(1, s, _frame(1, s)) for s in (1, 2, 3, 4)] + [(2, 1, _frame(2, 1))]
        assert _held(again) == want
        assert _held(JournalStore(state, None, _FRAMES, _SLOT, ram_frames=2)) == want


def test_a_frame_out_of_the_ram_window_has_no_view_and_the_next_frame_is_still_right():
    # view(i): the frame's bytes in the RAM window (the sender writes them from there), None for a
    # frame on flash only, which the sender reads into its encoder's buffer: the header the encoder
    # keeps there (the frames of one pass) is written whole again after it.
    with ScratchDir() as state:
        store = JournalStore(state, None, _FRAMES, _SLOT, ram_frames=2)
        uart = FakeUART()
        uart.acks = False
        sender = Sender(uart, store, 1, window=8)
        sender.poll(30)
        store.event, store.report = 1, 0
        for n in range(3):
            sender.send('{"event": "e", "n": %d}' % n)
        assert [store.view(i) is None for i in range(4)] == [True, True, False, False]
        buf = bytearray(_SLOT)
        assert bytes(store.view(3)) == bytes(buf[:store.read(3, buf)])
        sender.receive(fm.encode(1, 1, "REPLAY")[:-1])
        sender.poll(0)                             # frames 1 and 2 from flash, at the same uptime
        assert bytes(uart.tx).count(b"\n") == 5      # OPEN at the first poll, then 1.1 to 1.4
        sender.send('{"event": "after"}')          # seq 5, its header not the one left in the buffer
        store.event = 0
        sender.poll(0)
        assert bytes(uart.tx).split(b"\n")[-2] + b"\n" == fm.encode(1, 5, "REPORT", '{"event": "after"}', 30)


def test_a_frame_appended_to_the_ram_window_takes_no_call_past_the_store():
    # WindowFrames.append does _new_slot's work inline (issue 14: a call a frame the sender makes):
    # the same checks, the same frames held.
    from firmware.link.store import WindowFrames

    def refused(*args):
        raise AssertionError("a call a frame")

    kept = WindowFrames._new_slot
    WindowFrames._new_slot = refused
    try:
        with ScratchDir() as state:
            store = JournalStore(state, None, 2, _SLOT)
            store.event, store.report = 1, 0
            _put(store, 1, 1)
            _put(store, 1, 2, payload='{"n": 2}')
            raises(ValueError, _put, store, 1, 3)                     # full
            store.event = 0
            assert _held(store) == [(1, 1, _frame(1, 1)), (1, 2, _frame(1, 2, payload='{"n": 2}'))]
            store.drop_through(1, 2)
            long = fm.encode(1, 3, "REPORT", "x" * (_SLOT - 20))
            raises(ValueError, store.append, 1, 3, long, len(long))    # longer than a slot
            assert store.count() == 0
    finally:
        WindowFrames._new_slot = kept


def test_a_pending_frame_knows_its_place_in_the_file_before_the_flush_and_the_flush_walks_no_frame():
    # Issue 14: a batch's record goes at the live file's end, which nothing but flush() moves while a
    # frame is pending, so append() gives each frame its place in the file at once; flush() makes no
    # pass over the batch's frames, nor calls the journal's room/nearly_full properties (its
    # compaction test reads used and capacity). The places are right: read back from flash.
    from firmware.link.journal import Journal
    with ScratchDir() as state:
        store = JournalStore(state, None, _FRAMES, _SLOT, ram_frames=2)
        _put(store, 1, 1, "OPEN", "-")             # no event: on flash at once (the file started)
        store.event, store.report = 2, 0
        want = [(1, 1, _frame(1, 1, "OPEN", "-"))]
        for seq in range(2, 6):
            payload = '{"event": "x", "n": "%s"}' % ("y" * seq)
            _put(store, 1, seq, payload=payload)
            want.append((1, seq, _frame(1, seq, payload=payload)))
        ram = store._ram
        before = [ram.offsets[ram.slot_of(i)] for i in range(store.count())]
        room, nearly_full = Journal.room, Journal.nearly_full

        def refused(journal):
            raise AssertionError("a property call a flush")
        Journal.room = Journal.nearly_full = property(refused)
        try:
            store.flush()
        finally:
            Journal.room, Journal.nearly_full = room, nearly_full
        assert [ram.offsets[ram.slot_of(i)] for i in range(store.count())] == before
        store.event = 0
        assert _held(store) == want                # 3 of them read back from flash at those places
        assert _held(_store(state)) == want


# -- one ring: each frame's bytes in RAM once (issue 14) -----------------------------------------------------
def _records(state):
    """(kind, payload) of every record of the link journal on flash."""
    return list(jn_mod.Journal(state, NAME, None, journal_bytes(_FRAMES, _SLOT)).records())


def test_a_batch_goes_to_flash_as_one_batch_record_written_from_the_ring_in_one_call():
    # The ring is the batch: no buffer holds the pending frames a second time. The record: the frames'
    # bytes, then a head each (boot, seq, tag report, length and whole), then the tag event and the count.
    import struct
    with ScratchDir() as state:
        store = _store(state)
        assert not [k for k in dir(store) if k.startswith("_batch")]      # no batch buffer any more
        _put(store, 1, 1, "OPEN", "-")
        store.event, store.report = 6, 2
        _put(store, 1, 2)
        _put(store, 1, 3, "PART", "abc")
        _put(store, 1, 4)
        writes = store.writes
        store.flush()
        assert store.writes == writes + 1              # one write call for the whole record
        kind, payload = _records(state)[-1]
        assert kind == 5                               # BATCH (a private const: no global on MicroPython)
        frames = _frame(1, 2) + _frame(1, 3, "PART", "abc") + _frame(1, 4)
        assert payload[:len(frames)] == frames
        heads = [struct.unpack_from("<IIHH", payload, len(frames) + 12 * k) for k in range(3)]
        whole = 0x8000                                 # the length's top bit: not a PART
        assert heads == [(1, 2, 2, whole | len(_frame(1, 2))), (1, 3, 3, len(_frame(1, 3, "PART", "abc"))),
                         (1, 4, 3, whole | len(_frame(1, 4)))]
        assert struct.unpack_from("<IB", payload, len(frames) + 36) == (6, 3) and len(payload) == len(frames) + 41
        again = _store(state)
        assert _held(again) == _held(store) and again.mark == (6, 4) and again.previous == (1, 4)


def test_a_journal_of_frames_records_as_boards_wrote_them_before_loads_the_same():
    # Boards in the field hold frames in FRAMES records (each frame after a 17-byte head): read at boot.
    import struct
    with ScratchDir() as state:
        journal = jn_mod.Journal(state, NAME, None, journal_bytes(_FRAMES, _SLOT))
        payload = b""
        for seq, event, report, whole in ((1, 0, 0, 1), (2, 8, 0, 1), (3, 8, 1, 0), (4, 8, 1, 1)):
            data = _frame(5, seq, "PART" if not whole else "REPORT")
            payload += struct.pack("<IIIHBH", 5, seq, event, report, whole, len(data)) + data
        journal.append(4, payload)
        journal.append(2, struct.pack("<II", 5, 1))    # a DROP: the host had 5.1
        store = _store(state)
        assert store.status == CLEAN and store.mark == (8, 2) and store.previous == (5, 4)
        assert _held(store) == [(5, s, _frame(5, s, "PART" if s == 3 else "REPORT")) for s in (2, 3, 4)]
        store.event, store.report = 9, 0
        _put(store, 6, 1)                              # and the next batch after them, as a BATCH record
        store.flush()
        assert [k for k, _ in _records(state)] == [4, 2, 5]     # (the first record: the base's entry)
        assert _held(_store(state)) == _held(store) and len(_held(store)) == 4
        store.drop_through(5, 3)
        assert _held(_store(state)) == [(5, 4, _frame(5, 4)), (6, 1, _frame(6, 1))]


def test_a_batch_record_whose_frames_do_not_add_up_is_reported_corrupt():
    from firmware.link.held_frames import frames_of
    with ScratchDir() as state:
        store = _store(state)
        store.event = 3
        _put(store, 1, 1)
        _put(store, 1, 2)
        store.flush()
        kind, payload = _records(state)[-1]
        assert [f[:2] for f in frames_of(kind, payload)] == [(1, 1), (1, 2)]
        for bad in (payload[:-1], payload[:4], payload[:-1] + b"\x03", payload[:-1] + b"\x01"):
            raises(ValueError, list, frames_of(kind, bad))
        journal = jn_mod.Journal(state, NAME, None, journal_bytes(_FRAMES, _SLOT))
        journal.append(5, payload[:-1] + b"\x01")      # a batch of 2 frames saying 1: CRC-good, wrong
        again = _store(state)
        assert again.status == CORRUPT and "link record" in again.detail
        # None of its frames is held: it read one (1.2, over 1.1's bytes) before the error until stop 70.
        assert _held(again) == [(1, 1, _frame(1, 1)), (1, 2, _frame(1, 2))]
    for bad in (payload[:-1], payload[:-1] + b"\x03", payload[:-1] + b"\x01"):
        seen = []
        try:
            for frame in frames_of(kind, bad):
                seen.append(frame)
        except ValueError:
            pass
        assert seen == [], bad


def test_the_ring_bytes_around_a_batch_are_put_back_after_its_write_even_a_failed_one():
    # flush() puts the record's header in the 11 ring bytes before the batch and its heads after it:
    # frames lying there (an older frame's end, frames of the ring's last cycle) are as they were.
    with ScratchDir() as state:
        store = JournalStore(state, None, _FRAMES, _SLOT, ring_bytes=700)
        want = []
        for seq, k in ((1, 150), (2, 100), (3, 100), (4, 60)):   # frames of 33 + k bytes: 11..194..327..460,
            store.event, store.report = seq, 0                 # then 11..104 (past the middle: the start)
            payload = '{"n": "%s"}' % ("x" * k)
            _put(store, 1, seq, payload=payload)
            want.append((1, seq, _frame(1, seq, payload=payload)))
        store.event = 0
        ram = store._ram
        assert ram.end == 104 and ram.view(0) is None and ram.view(1) is not None   # 1 overwritten
        store.event, store.report = 9, 0
        payload = '{"n": "%s"}' % ("y" * 40)
        _put(store, 1, 5, payload=payload)             # 104..177: its heads up to 200, over frame 2's start
        want.append((1, 5, _frame(1, 5, payload=payload)))
        ring = bytes(ram.data)

        class Dead:
            def open(self, name, mode="rb"):
                raise OSError(28)

        files = store._journal._fs
        store._journal._fs = Dead()
        raises(OSError, store.flush)
        assert bytes(ram.data) == ring and store.pending == 1    # nothing changed, the frame still pending
        store._journal._fs = files
        store._journal._damaged = False                # (the failed open wrote nothing)
        store.flush()
        assert bytes(ram.data) == ring and store.pending == 0
        assert [bytes(ram.view(i)) for i in range(1, 5)] == [w[2] for w in want[1:]]
        assert _held(store) == want == _held(JournalStore(state, None, _FRAMES, _SLOT, ring_bytes=700))


def test_a_batch_that_outgrows_the_rings_end_moves_to_its_start_and_is_one_record():
    with ScratchDir() as state:
        store = JournalStore(state, None, _FRAMES, _SLOT, ring_bytes=700)
        store.event = 1
        _put(store, 1, 1, payload='{"n": "%s"}' % ("a" * 100))     # 11..161
        _put(store, 1, 2, payload='{"n": "%s"}' % ("b" * 100))     # ..311
        store.event = 2                                # a new batch at 311 (not past the middle, 350)
        store.flush()                                  # (event 1's, which waits for the poll: issue 14)
        ram = store._ram
        writes = store.writes
        want = _held(store)
        for seq in range(3, 6):                        # 311..461, ..611: the third would pass the end
            payload = '{"n": "%s"}' % ("c" * (90 + seq))
            _put(store, 1, seq, payload=payload)
            want.append((1, seq, _frame(1, seq, payload=payload)))
        assert store.pending == 3 and store.writes == writes   # moved, not written early
        assert ram.end - 3 * 33 - 93 - 94 - 95 == 11 and ram.view(0) is None and ram.view(1) is None
        store.event = 0
        store.flush()                                  # the sender's poll (issue 14: not the tag)
        assert store.writes == writes + 1 and _held(store) == want == _held(_store(state))


def test_the_rings_append_allocates_nothing_a_jump_an_overwrite_and_a_move_included():
    # WindowFrames.append runs for every frame the table reports: under heap_lock on MicroPython (an
    # allocation raises MemoryError) it places frames, jumps to the ring's start, drops overwritten frames
    # from RAM and moves a batch that outgrows the end, allocating nothing.
    from firmware.compat import heap_lock, heap_unlock
    from firmware.link.store import WindowFrames
    from tests.firmware.expect import heap_lock_catches_allocation
    frames = [memoryview(_frame(1, seq, payload='{"n": "%s"}' % ("z" * (60 + 7 * seq)))) for seq in range(1, 13)]
    sizes = [len(f) for f in frames]
    ring = WindowFrames(16, _SLOT, 8, None, 700, 350)
    ring.append(1, 99, frames[0], sizes[0], 0)         # warm up (the first call of a method)
    ring.drop_first(1)
    # The pending frames before each (frames of 100..177 bytes): 11..111..218..332, then a batch at 332..581
    # whose third frame would pass the end (moved to 11..260, the frame after it), a jump to 11, ..., a jump.
    plan = [0, 0, 0, 0, 1, 2, 0, 0, 1, 2, 0, 0]
    heap_lock()
    try:
        for k in range(12):
            ring.append(1, k + 1, frames[k], sizes[k], 0, plan[k], (plan[k] + 1) * 12 + 9)
    finally:
        heap_unlock()
    assert heap_lock_catches_allocation()
    buf = bytearray(_SLOT)
    newest = [bytes(buf[:ring.read(i, buf)]) for i in range(ring.count()) if ring.view(i) is not None]
    assert newest == [bytes(f) for f in frames[9:]]     # 10 (past 358: not overwritten), 11 and 12


def test_a_batch_record_cut_anywhere_is_torn_off_whole_and_the_frames_before_it_stay():
    # One write call from the ring: a power cut during it leaves the record cut short at any byte. The next
    # boot reports TORN, keeps every frame before the batch and none of it (recovery makes its reports
    # again), and the next batch goes to a fresh file behind no damage.
    from firmware.link.record import TORN
    with ScratchDir() as state:
        store = _store(state)
        store.event = 1
        _put(store, 1, 1)
        store.event = 2
        _put(store, 1, 2)
        _put(store, 1, 3, "PART", "abc")
        store.event = 0
        store.flush()                                  # the sender's poll (issue 14: not the tag)
        name = state + "/" + [n for n in os.listdir(state) if n.startswith(NAME)][0]
        with open(name, "rb") as f:
            whole = f.read()
        record = len(_frame(1, 2)) + len(_frame(1, 3, "PART", "abc")) + 2 * 12 + 5 + 15
        for cut in range(1, record, 7):
            with open(name, "wb") as f:
                f.write(whole[:len(whole) - cut])
            again = _store(state)
            assert again.status == TORN, cut
            assert _held(again) == [(1, 1, _frame(1, 1))] and again.mark == (1, 1), cut
        again.event, again.report = 3, 0
        _put(again, 2, 1)
        again.flush()
        assert _held(_store(state)) == [(1, 1, _frame(1, 1)), (2, 1, _frame(2, 1))]
        assert _store(state).status == CLEAN
