# The power-safe journal (issue 12): records, checkpoints, torn and flipped bytes, bounds.
# Dual runtime: files go to a scratch dir on CPython's disk or the VM's filesystem.
# Power cuts at every flash write: tests/host/test_journal_power_cut.py.
import os

from firmware.link import journal as jn
from firmware.link import record
from firmware.link.journal import SNAPSHOT, Journal, JournalFull
from firmware.link.record import CLEAN, CORRUPT, TORN
from tests.firmware.expect import raises, raises_match
from tests.firmware.scratch import ScratchDir, exists


def _read(name):
    with open(name, "rb") as f:
        return f.read()


def _write(name, data):
    with open(name, "wb") as f:
        f.write(data)


def _files(state):
    return sorted(n for n in os.listdir(state) if n.startswith("j."))


def _small(state, max_bytes=1024):
    """A journal with a checkpoint and two records after it; their (kind, payload) in order."""
    j = Journal(state, "j", max_bytes=max_bytes)
    j.append(1, b"dropped by the checkpoint")
    j.checkpoint(b"snap")
    j.append(2, b"first")
    j.append(3, b"")
    return j, [(SNAPSHOT, b"snap"), (2, b"first"), (3, b"")]


def test_empty_journal_is_clean_and_has_no_records():
    with ScratchDir() as state:
        j = Journal(state, "j")
        assert list(j.records()) == [] and j.status == CLEAN and j.discarded == 0
        assert j.used == 0 and _files(state) == []           # nothing written until there is something


def test_records_come_back_in_order_after_a_reboot():
    with ScratchDir() as state:
        j = Journal(state, "j")
        sent = [(k % 255 + 1, bytes([k]) * k) for k in range(40)]
        for kind, payload in sent:
            j.append(kind, payload)
        assert list(j.records()) == sent
        again = Journal(state, "j")
        assert list(again.records()) == sent and again.status == CLEAN and again.detail == ""


def test_text_payload_is_stored_as_utf8():
    with ScratchDir() as state:
        Journal(state, "j").append(7, "fault 3 \u00e9")
        assert list(Journal(state, "j").records()) == [(7, "fault 3 \u00e9".encode())]


def test_checkpoint_restarts_the_log_and_removes_the_old_file():
    with ScratchDir() as state:
        j, expected = _small(state)
        assert list(j.records()) == expected
        assert _files(state) == ["j.1"]                      # the checkpoint went to the other file
        j.checkpoint(b"second")
        assert _files(state) == ["j.0"] and list(j.records()) == [(SNAPSHOT, b"second")]
        assert list(Journal(state, "j").records()) == [(SNAPSHOT, b"second")]


def test_the_boards_own_files_are_the_builtins_with_no_call_of_the_journals_around_them():
    # Issue 14: a pass's journal writes (the table journal's record, the link store's frames) open a file
    # when it is not open yet (it stays open: below): the board's files are reached through the builtin open and os's functions themselves,
    # not through a Python method of FlashFiles around each (a call less a write).
    files = jn.FlashFiles()
    assert files.open is open and files.remove is os.remove and files.stat is os.stat and files.rename is os.rename
    with ScratchDir() as d:
        j = Journal(d, "t")
        assert j._fs.open is open
        j.append(1, b"abc")                       # (starts the file: its base)
        writes, written = j.writes, j.bytes_written
        j.append(2, b"defg")
        assert list(j.records()) == [(1, b"abc"), (2, b"defg")]
        assert j.writes == writes + 1 and j.bytes_written == written + 4 + record.OVERHEAD


class _CountedFiles(jn.FlashFiles):
    """The board's files, each open counted; the append files' flushes counted too."""

    def __init__(self):
        self.opens = []
        self.flushes = 0

    def open(self, name, mode="rb"):
        self.opens.append((name[-3:], mode))
        f = open(name, mode)
        return _Flushed(f, self) if mode == "ab" else f


class _Flushed:
    def __init__(self, f, files):
        self.f = f
        self.files = files

    def write(self, data):
        return self.f.write(data)

    def flush(self):
        self.files.flushes += 1
        self.f.flush()

    def close(self):
        self.f.close()


def test_kept_open_the_live_file_stays_open_between_appends_and_each_record_is_flushed():
    # Issue 14 (the table journal's record, in every event's pass): no open a record (an open cost the VM ~20-30 us of a pass); a flush a record puts it on
    # flash as the close did (littlefs: lfs_file_sync), so a record is there when append returns.
    with ScratchDir() as state:
        files = _CountedFiles()
        j = Journal(state, "j", fs=files, keep_open=True)
        j.append(1, b"base")                                  # starts the file ("wb")
        del files.opens[:]
        for k in range(2, 6):
            j.append(k, ("record %d" % k).encode())
            assert files.flushes == k - 1
            again = Journal(state, "j")                       # what another boot would read now
            assert [kind for kind, _ in again.records()][-1] == k
        buf = j.record_buffer()
        buf[jn.IN_PLACE_HEAD:jn.IN_PLACE_HEAD + 3] = b"abc"
        j.append_in_place(6, buf, 3)                          # the same file, the same way
        assert files.opens == [("j.0", "ab")] and files.flushes == 5
        assert list(Journal(state, "j").records())[-1] == (6, b"abc")


def test_by_default_each_append_opens_and_closes_the_file():
    with ScratchDir() as state:
        files = _CountedFiles()
        j = Journal(state, "j", fs=files)
        j.append(1, b"base")
        j.append(2, b"a")
        j.append(3, b"b")
        assert files.opens[-2:] == [("j.0", "ab"), ("j.0", "ab")] and j._file is None and files.flushes == 0


def test_the_kept_file_is_closed_before_the_files_are_read_or_replaced():
    with ScratchDir() as state:
        files = _CountedFiles()
        j = Journal(state, "j", fs=files, keep_open=True)
        j.append(1, b"a")
        j.append(2, b"b")
        assert j._file is not None
        assert list(j.records()) == [(1, b"a"), (2, b"b")] and j._file is None    # read: closed first
        j.append(3, b"c")
        j.checkpoint(b"snap")                                 # the old file removed: closed first
        assert j._file is None and _files(state) == ["j.1"]
        j.append(4, b"d")                                     # the new live file opened
        assert files.opens[-1] == ("j.1", "ab")
        j.close()
        j.close()                                             # twice: nothing to do
        assert list(Journal(state, "j").records()) == [(SNAPSHOT, b"snap"), (4, b"d")]


def test_writes_counted_one_per_append_one_plus_a_remove_per_checkpoint():
    with ScratchDir() as state:
        j = Journal(state, "j")
        j.append(1, b"abc")                                   # starts the file: one write
        j.append(1, b"defg")
        assert (j.writes, j.bytes_written) == (2, (15 + 3 + 3) + (15 + 4))
        j.checkpoint(b"s" * 10)                                # one write and the old file's remove
        assert (j.writes, j.bytes_written) == (4, 40 + 15 + 3 + 10)
        j.checkpoint(b"s" * 1000)                              # big pieces are written as they are
        assert j.writes == 4 + 3 + 1


def test_full_journal_refuses_the_record_and_keeps_what_it_has():
    with ScratchDir() as state:
        j = Journal(state, "j", max_bytes=200)                # 100 bytes a file
        j.append(1, b"x" * 40)                                 # 58 bytes with the base
        j.append(1, b"y" * 20)                                 # 35 more: 93
        assert j.room == 7 and j.nearly_full
        raises_match(JournalFull, "full", j.append, 1, b"")
        assert list(Journal(state, "j").records()) == [(1, b"x" * 40), (1, b"y" * 20)]
        raises_match(JournalFull, "checkpoint", j.checkpoint, b"z" * 90)
        j.checkpoint(b"z" * 10)                                # what fits goes
        assert not j.nearly_full and list(Journal(state, "j").records()) == [(SNAPSHOT, b"z" * 10)]


def test_flash_use_stays_within_max_bytes():
    with ScratchDir() as state:
        j = Journal(state, "j", max_bytes=600)
        for n in range(200):
            try:
                j.append(1 + n % 3, b"r" * (n % 50))
            except JournalFull:
                j.checkpoint(b"state %d" % n)
                j.append(1 + n % 3, b"r" * (n % 50))
            assert sum(os.stat(state + "/" + f)[6] for f in _files(state)) <= 600


def test_bad_arguments_refused():
    with ScratchDir() as state:
        raises_match(ValueError, "max_bytes", Journal, state, "j", None, 40)
        raises_match(ValueError, "max_bytes", Journal, state, "j", None, 1 << 20)
        j = Journal(state, "j")
        raises_match(ValueError, "kind", j.append, 0, b"")   # SNAPSHOT is the checkpoint's
        raises_match(ValueError, "kind", j.append, 256, b"")
        raises_match(ValueError, "kind", j.compact, [(300, b"")])
        raises(ValueError, j.append, 1, b"x" * 70000)
        assert _files(state) == []


def test_os_module_as_fs_means_the_boards_own_files():
    with ScratchDir() as state:
        Journal(state, "j", fs=os).append(1, b"a")
        assert list(Journal(state, "j", fs=None).records()) == [(1, b"a")]


# -- what a power cut leaves --------------------------------------------------------
def test_torn_last_record_is_cut_off_and_reported_as_torn():
    with ScratchDir() as state:
        j, expected = _small(state)
        whole = _read(state + "/j.1")
        j.append(4, b"in flight")
        _write(state + "/j.1", _read(state + "/j.1")[:len(whole) + 9])
        again = Journal(state, "j")
        assert list(again.records()) == expected
        assert again.status == TORN and again.discarded == 9 and "cut short" in again.detail


def test_append_after_a_torn_tail_goes_to_a_fresh_file():
    """Nothing is appended behind damage: it would be lost behind the bad record at the next boot."""
    with ScratchDir() as state:
        j, expected = _small(state)
        with open(state + "/j.1", "ab") as f:
            f.write(b"\x30\x00\x05")                           # a record's first bytes
        again = Journal(state, "j")
        again.append(9, b"after")
        assert _files(state) == ["j.0"]
        third = Journal(state, "j")
        assert list(third.records()) == expected + [(9, b"after")] and third.status == CLEAN


def test_torn_checkpoint_falls_back_to_the_previous_file():
    with ScratchDir() as state:
        j, expected = _small(state)
        live = _read(state + "/j.1")
        j.checkpoint(b"new state " * 5)                        # goes to j.0, then j.1 is removed
        new = _read(state + "/j.0")
        _write(state + "/j.1", live)                           # as it was while j.0 was written...
        _write(state + "/j.0", new[:len(new) - 3])             # ...when the power failed
        again = Journal(state, "j")
        assert list(again.records()) == expected and again.status == TORN
        assert again.discarded == len(new) - 3


def test_checkpoint_cut_before_its_first_byte_leaves_an_empty_file_that_is_ignored():
    with ScratchDir() as state:
        j, expected = _small(state)
        _write(state + "/j.0", b"")
        again = Journal(state, "j")
        assert list(again.records()) == expected and again.status == CLEAN


# -- flipped bits ------------------------------------------------------------------------
def _bounds(state, expected):
    """(first byte, count of entries returned when it is bad) of each record in the live file."""
    data = _read(state + "/j.1")
    base_len = data[0] | data[1] << 8
    ends = [(0, 0), (15 + base_len, 1)]
    at = 15 + base_len
    while at < len(data):
        at += 15 + (data[at] | data[at + 1] << 8)
        ends.append((at, len(ends)))
    return data, ends


def test_every_flipped_bit_is_detected_and_never_returned():
    with ScratchDir() as state:
        j, expected = _small(state)
        data, ends = _bounds(state, expected)
        flips = 0
        for bit in range(len(data) * 8):
            damaged = bytearray(data)
            damaged[bit // 8] ^= 1 << (bit % 8)
            _write(state + "/j.1", damaged)
            got = Journal(state, "j")
            keep = [n for start, n in ends if start <= bit // 8][-1]
            assert got.status == CORRUPT, bit
            assert list(got.records()) == expected[:keep], bit
            flips += 1
        assert flips == len(data) * 8 and flips > 400


def test_flipped_bit_in_a_superseded_file_is_reported_and_the_file_removed():
    with ScratchDir() as state:
        j, expected = _small(state)
        _write(state + "/j.0", b"\x00" * 20)                   # a leftover gone bad
        got = Journal(state, "j")
        assert got.status == CORRUPT and list(got.records()) == expected
        got.append(5, b"next")
        assert _files(state) == ["j.1"] and Journal(state, "j").status == CLEAN


def test_record_from_another_generation_is_out_of_sequence():
    """A whole, CRC-good record that does not follow its predecessor is stale data, not a record."""
    with ScratchDir() as state:
        j, expected = _small(state)
        before = _read(state + "/j.1")
        j.append(4, b"four")
        record = _read(state + "/j.1")[len(before):]
        with open(state + "/j.1", "ab") as f:
            f.write(record)                                    # the same record again
        got = Journal(state, "j")
        assert got.status == CORRUPT and "out of sequence" in got.detail
        assert list(got.records()) == expected + [(4, b"four")]


def test_both_files_bad_starts_empty_and_says_so():
    with ScratchDir() as state:
        _write(state + "/j.0", b"\xff" * 40)
        _write(state + "/j.1", b"\x00" * 3)
        got = Journal(state, "j")
        assert list(got.records()) == [] and got.status == CORRUPT and got.discarded == 43
        got.append(1, b"fresh")
        again = Journal(state, "j")
        assert list(again.records()) == [(1, b"fresh")] and again.status == CLEAN
        assert not exists(state + "/j.1")


def test_generations_wrap_without_losing_the_newer_file():
    assert record.newer(0, 0xFFFFFFFF) and not record.newer(0xFFFFFFFF, 0) and not record.newer(5, 5)


class _FailingFiles(jn.FlashFiles):
    """The board's files, but one write lands half done and fails (a flash error, not a power cut)."""

    def __init__(self):
        self.fail_next = False

    def open(self, name, mode="rb"):
        f = open(name, mode)
        return _HalfWrite(f, self) if "b" in mode and mode != "rb" else f


class _HalfWrite:
    def __init__(self, f, files):
        self.f = f
        self.files = files

    def write(self, data):
        if self.files.fail_next:
            self.files.fail_next = False
            self.f.write(data[:len(data) // 2])
            raise OSError(28)                                  # ENOSPC, as a full card says
        return self.f.write(data)

    def flush(self):
        self.f.flush()

    def close(self):
        self.f.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.f.close()
        return False


def test_failed_write_is_not_counted_and_the_next_append_repairs_first():
    for keep_open in (False, True):
        with ScratchDir() as state:
            files = _FailingFiles()
            j = Journal(state, "j", fs=files, keep_open=keep_open)
            j.append(1, b"kept")
            j.append(2, b"kept too")
            files.fail_next = True
            raises(OSError, j.append, 3, b"lost")
            assert j._file is None                             # closed: the next append opens it again
            assert list(j.records()) == [(1, b"kept"), (2, b"kept too")] and j.writes == 2
            j.append(4, b"next")                               # goes behind no half record
            again = Journal(state, "j")
            assert list(again.records()) == [(1, b"kept"), (2, b"kept too"), (4, b"next")]
            assert again.status == CLEAN
            j.close()


def test_file_changed_after_the_boot_is_an_error_not_wrong_records():
    with ScratchDir() as state:
        j, expected = _small(state)
        _write(state + "/j.1", _read(state + "/j.1")[:30])
        exc = raises(jn.JournalError, list, j.records())
        assert "reading again" in str(exc) and j.status == CORRUPT


def _in_place(payload, room=0):
    buf = bytearray(jn.IN_PLACE_HEAD + len(payload) + jn.IN_PLACE_TAIL + room)
    buf[jn.IN_PLACE_HEAD:jn.IN_PLACE_HEAD + len(payload)] = payload
    return buf


def test_a_record_built_in_place_is_one_write_and_reads_back_as_an_appended_one():
    with ScratchDir() as state:
        j = Journal(state, "j", max_bytes=1024)
        j.append_in_place(4, _in_place(b"one"), 3)              # an empty journal: a base first
        writes, written = j.writes, j.bytes_written
        j.append_in_place(5, _in_place(b"four", 9), 4)           # room after it: not written
        assert j.writes == writes + 1 and j.bytes_written == written + 4 + record.OVERHEAD
        j.append(6, b"appended")
        j.append_in_place(7, _in_place(b""), 0)
        want = [(4, b"one"), (5, b"four"), (6, b"appended"), (7, b"")]
        assert list(j.records()) == want
        again = Journal(state, "j", max_bytes=1024)
        assert again.status == CLEAN and list(again.records()) == want
        assert len(record.head(0, 1, 1)[0]) + jn.IN_PLACE_TAIL == record.OVERHEAD == jn.IN_PLACE_HEAD + 4


def test_a_record_built_in_place_that_does_not_fit_writes_nothing():
    with ScratchDir() as state:
        j = Journal(state, "j", max_bytes=256)
        j.append(1, b"x")
        writes, used = j.writes, j.used
        raises(JournalFull, j.append_in_place, 2, _in_place(b"y" * 120), 120)
        raises(ValueError, j.append_in_place, 2, _in_place(b"y" * 10), 11)     # past the buffer
        raises(ValueError, j.append_in_place, 0, _in_place(b"k"), 1)
        assert j.writes == writes and j.used == used and list(j.records()) == [(1, b"x")]


def test_an_ordinary_record_is_encoded_in_the_shared_buffer_not_built():
    # Journal.append encodes a record of up to 512 bytes into one buffer made once (record.encode_into:
    # allocation-free with the board's native CRC); only a longer one is built by record.encode().
    from firmware.link import record
    built = []
    encode = record.encode

    def counting_encode(kind, gen, payload):
        built.append(len(payload))
        return encode(kind, gen, payload)

    with ScratchDir() as state:
        j = Journal(state, "t")
        j.append(1, b"first")                 # the first record starts the file (a compaction)
        record.encode = counting_encode
        try:
            j.append(2, b"x" * 40)
            j.append(3, b"y" * 490)
            j.append(4, b"z" * 600)
        finally:
            record.encode = encode
        assert built == [600]
        assert [(k, len(p)) for k, p in Journal(state, "t").records()] == [(1, 5), (2, 40), (3, 490), (4, 600)]



def test_an_ordinary_record_goes_into_the_shared_buffer_with_no_call_of_encode_into():
    # Issue 14: Journal.append copies the payload into its buffer and encodes the record around it in
    # place itself (record.encode_into's work inline: a call less a recall round or a DROP record); the
    # bytes on flash are record.encode()'s.
    from tests.firmware.expect import count_calls
    with ScratchDir() as state:
        j = Journal(state, "t")
        j.append(1, b"first")                 # the first record starts the file (a compaction)
        used = j.used
        calls, plain = count_calls(record, "encode_into")
        try:
            j.append(2, b'{"round": 3}')
            j.append(3, "text " * 90)
        finally:
            record.encode_into = plain
        assert calls[0] == 0
        on_flash = _read(state + "/t.0")
        want = record.encode(2, 2, b'{"round": 3}') + record.encode(3, 3, ("text " * 90).encode())
        assert on_flash[used:] == want and j.used == len(on_flash)
        assert [p for _, p in Journal(state, "t").records()][1:] == [b'{"round": 3}', ("text " * 90).encode()]

def test_a_clean_append_makes_no_list_and_record_buffer_is_appends_buffer():
    # An append on a clean journal repairs nothing and drops nothing: it used to make a new (empty)
    # list of stale files every time (issue 14). record_buffer() is the buffer append() encodes in,
    # None while the journal is empty (its first record goes into the base).
    with ScratchDir() as state:
        j = Journal(state, "j")
        assert j.record_buffer() is None
        j.append(1, b"first")
        stale = j._stale
        j.append(2, b"second")
        buf = j.record_buffer()
        buf[jn.IN_PLACE_HEAD:jn.IN_PLACE_HEAD + 5] = b"third"
        j.append_in_place(3, buf, 5)
        assert j._stale is stale and j.record_buffer() is buf
        assert len(buf) >= jn.IN_PLACE_HEAD + 300 + jn.IN_PLACE_TAIL   # a 50-bet reading's record fits
        assert list(Journal(state, "j").records()) == [(1, b"first"), (2, b"second"), (3, b"third")]
