# The power-safe journal: a checked record log on the board's flash filesystem (issue 12).
#
# Two files, NAME.0 and NAME.1; the live one starts with a *base* record (the
# state at the last checkpoint, as entries) followed by appended records. Every
# record carries its length, kind and generation under a header CRC, and its
# payload under a second CRC; generations rise by one record after record, so a
# stale or misplaced record is caught as surely as a flipped bit.
#
# Why two files and no rename: a checkpoint writes a whole new file beside the
# live one and only then removes the old one. Until the new base is complete
# and checked, the old file is still the newest good one; once it is, it wins
# (higher generation) whatever happens to the old one. Rename would do the same
# with one file less, but it is atomic on littlefs only, and MicroPython's FAT
# driver refuses to rename over an existing file (firmware/saved_state.py).
# A power cut mid-append leaves at worst a torn last record, which the next
# boot cuts off; the first append after that rewrites the good records into
# the other file, so nothing is ever appended behind damage.
#
# keep_open: the live file stays open between appends, each record flushed as it is written (issue 14:
# the table journal's record is in every event's pass, and its open cost the VM ~20-45 us of the
# Baccarat answer's, a board's littlefs a walk of its directory and a file buffer made and dropped). A
# flush commits what a close did, so a record is on flash when append returns as before: littlefs's
# flush is lfs_file_sync, FAT's f_sync. The file is closed before the journal's files are read, removed
# or started anew, and after a write that raised. Not the default: on a board an open littlefs file
# keeps its buffer (4 x progsize: 1 KB on the RP2040's 256-byte pages) in the heap.
#
# Files are reached through `fs` (open/remove/stat; the board's own: saved_state.FlashFiles), so the host
# simulator's flash (hostsim/flash.py) can count every write and cut the power at any one.
# Format, wear and flash use: docs/journal.md.
import os
import struct
from binascii import crc32

from firmware.link import record
from firmware.link.record import ENTRY
from firmware.saved_state import FlashFiles, path

# copies of firmware.link.record (tests/host/test_const_copies.py)
_BASE = const(0)
_CLEAN = const(0)
_CORRUPT = const(2)
_ENTRY_SIZE = const(3)
_GEN_MASK = const(0xFFFFFFFF)
_OVERHEAD = const(15)

SNAPSHOT = const(0)        # the entry kind checkpoint() writes; callers' kinds are 1..255
_KIND_MAX = const(255)
_DEFAULT_MAX_BYTES = const(16384)
IN_PLACE_HEAD = record.HEAD_SIZE  # append_in_place(): a record's header and its CRC, before the payload
IN_PLACE_TAIL = const(4)   # and the payload's CRC after it (OVERHEAD in all)
_CRC_SIZE = const(4)       # a record's last bytes: its payload's CRC
# append()'s records are encoded in one buffer shared by every journal (one append at a time: the
# main loop's), made at the first append; a longer record is built by record.encode().
_SCRATCH_SIZE = const(512)
_scratch = None


class JournalError(Exception):
    pass


class JournalFull(JournalError):
    """The record does not fit in the live file: checkpoint first (nothing was written)."""


class Journal:
    """A power-safe record log in `state_dir` (files NAME.0 and NAME.1), at most max_bytes of flash.

    After construction: `status` (CLEAN, TORN or CORRUPT), `discarded` (bytes
    not used) and `detail` say what the boot found; records() replays the good
    records. fs: open/remove/stat (None or the os module: the board's own).
    """

    # Bytes of a file appends leave free: a user may keep them for a last record of its own (the table
    # journal's full mark: firmware/recovery.py). A class attribute: an instance that keeps none (every
    # journal but the table's) has no entry for it in its dict.
    reserve = 0

    def __init__(self, state_dir, name, fs=None, max_bytes=_DEFAULT_MAX_BYTES, keep_open=False):
        capacity = max_bytes // 2
        if capacity < 2 * _OVERHEAD or capacity > record.PAYLOAD_MAX + _OVERHEAD:
            raise ValueError("journal max_bytes %d out of range %d..%d"
                             % (max_bytes, 4 * _OVERHEAD, 2 * (record.PAYLOAD_MAX + _OVERHEAD)))
        self.max_bytes = max_bytes
        self.capacity = capacity   # bytes one file may hold; two may exist during a checkpoint
        self._fs = FlashFiles if fs is None or fs is os else fs   # (the class: its static methods, no instance)
        self._names = (path(state_dir, name + ".0"), path(state_dir, name + ".1"))
        self.writes = 0            # flash writes: file write calls and removes
        self.bytes_written = 0
        self.status = _CLEAN
        self.discarded = 0
        self.detail = ""
        self._live = None          # index of the live file; None: the journal is empty
        self.used = 0              # bytes of good records in the live file (an attribute: read after every event)
        self._gen = 0              # generation of the last good record
        self._damaged = False      # the live file has bytes past used: repair before appending
        self._stale = []           # files to remove before the next write (torn, corrupt)
        self.compactions = 0       # files started (checkpoints, compactions, repairs): places move
        self.keep_open = keep_open
        self._file = None          # keep_open: the live file, open for appending since the last record
        from firmware.link import journal_read      # the files read back: boot-only (parts.BOOT_ONLY)
        journal_read.load(self)

    # -- reading --------------------------------------------------------------------
    def records(self):
        """(kind, payload) of every good record in order: a checkpoint's entries first.

        The live file stays open while this runs: finish reading before writing.
        """
        for kind, payload, _ in self.records_at():
            yield kind, payload

    def records_at(self):
        """records(), each with where its payload lies in the live file (for read_at())."""
        if self._live is None:
            return
        self.close()
        with self._fs.open(self._names[self._live], "rb") as f:
            reader = record.Reader(f, self.used)
            while True:
                item = reader.next()
                if item is None:
                    break
                kind, payload = item
                at = reader.end - _CRC_SIZE - len(payload)
                if kind == _BASE:
                    k = 0
                    for entry in record.entries(payload, JournalError):
                        yield entry[0], entry[1], at + k + _ENTRY_SIZE
                        k += _ENTRY_SIZE + len(entry[1])
                else:
                    yield kind, payload, at
        if reader.end != self.used:             # read back differently from the boot's check
            self.status = _CORRUPT
            self.detail = "%s: %s on reading again" % (self._names[self._live], reader.detail)
            raise JournalError(self.detail)

    def read_at(self, at, buf, n):
        """n bytes of the live file from `at` (a place records_at() gave, or after it) into buf."""
        if self._live is None or at + n > self.used:
            raise JournalError("no %d bytes at %d in journal %s" % (n, at, self._names[0][:-2]))
        self.close()
        with self._fs.open(self._names[self._live], "rb") as f:
            f.seek(at)
            got = f.readinto(memoryview(buf)[:n])
        if got != n:
            raise JournalError("%s: %d of %d bytes read at %d" % (self._names[self._live], got or 0, n, at))

    @property
    def room(self):
        """Bytes an append may still take (payload and overhead) before a checkpoint is due."""
        return self.capacity - self.reserve - self.used

    @property
    def nearly_full(self):
        """Three quarters of the live file used: checkpoint now, alarm if that does not help."""
        return self.used * 4 >= self.capacity * 3

    # -- writing --------------------------------------------------------------------
    def append(self, kind, payload):
        """Write one record; when this returns, it survives a power cut. JournalFull if it does not fit."""
        if not 1 <= kind <= _KIND_MAX:
            raise ValueError("journal record kind %d not in 1..%d" % (kind, _KIND_MAX))
        if isinstance(payload, str):
            payload = payload.encode()
        n = len(payload)
        if n > record.PAYLOAD_MAX:
            raise ValueError("journal record of %d bytes, at most %d" % (n, record.PAYLOAD_MAX))
        if self._live is None:
            self.compact(((kind, payload),))    # the first record starts a file
            return
        if self._damaged or self._stale:
            self._repair()
        if self.used + n + _OVERHEAD + self.reserve > self.capacity:
            raise self._full(n + _OVERHEAD)
        gen = (self._gen + 1) & _GEN_MASK
        global _scratch
        if n + _OVERHEAD <= _SCRATCH_SIZE:       # the common record: encoded in a buffer made once
            if _scratch is None:
                _scratch = bytearray(_SCRATCH_SIZE)
            _scratch[IN_PLACE_HEAD:IN_PLACE_HEAD + n] = payload     # (record.encode_into's work inline:
            data = memoryview(_scratch)[:record.encode_in_place(_scratch, kind, gen, n, payload)]   # a call less)
        else:
            data = record.encode(kind, gen, payload)
        self._damaged = True                     # until the write is known to be whole
        self._put(data)
        self.writes += 1
        self.bytes_written += len(data)
        self._damaged = False
        self.used += len(data)
        self._gen = gen

    def append_in_place(self, kind, buf, n):
        """Write one record whose payload the caller has put at buf[IN_PLACE_HEAD:IN_PLACE_HEAD + n], with
        IN_PLACE_TAIL bytes free after it: its header and CRCs go around it and the whole goes to flash in
        ONE write call, no copy made (a batch built where it is written). As append() otherwise."""
        if not 1 <= kind <= _KIND_MAX:
            raise ValueError("journal record kind %d not in 1..%d" % (kind, _KIND_MAX))
        if n > record.PAYLOAD_MAX or IN_PLACE_HEAD + n + IN_PLACE_TAIL > len(buf):
            raise ValueError("journal record of %d bytes in a %d-byte buffer" % (n, len(buf)))
        if self._live is None:
            self.compact(())                    # an empty base starts the file
        elif self._damaged or self._stale:
            self._repair()
        if self.used + n + _OVERHEAD + self.reserve > self.capacity:
            raise self._full(n + _OVERHEAD)
        gen = (self._gen + 1) & _GEN_MASK
        size = record.encode_in_place(buf, kind, gen, n)   # nothing allocated with a native CRC
        self._damaged = True                     # until the write is known to be whole
        self._put(memoryview(buf)[:size])
        self.writes += 1
        self.bytes_written += size
        self._damaged = False
        self.used += size
        self._gen = gen

    def _put(self, data):
        """One record onto the live file's end, on flash when this returns (keep_open: above)."""
        f = self._file
        if f is None:
            f = self._fs.open(self._names[self._live], "ab")
        try:
            f.write(data)
            if self.keep_open:
                f.flush()
                self._file = f
            else:
                f.close()
        except BaseException:
            self._file = f
            self.close()                         # what a failed write left is the next append's repair
            raise

    def close(self):
        """Close the live file if keep_open left it open (the next append opens it again). Before anything
        else opens, removes or replaces the journal's files; at a shutdown. Never raises: a close that
        fails (a write that failed before it) leaves the damage to the next append's repair."""
        f = self._file
        if f is not None:
            self._file = None
            try:
                f.close()
            except Exception:
                pass

    def record_buffer(self):
        """The buffer append() encodes its records in (shared by every journal: one append at a time), for
        a caller that builds a payload at record_buffer()[IN_PLACE_HEAD:], up to IN_PLACE_TAIL bytes
        before its end, and writes it with append_in_place(): the record append() would write, with no
        payload built and copied. None while the journal is empty (append() then starts the file with
        the record in its base, which append_in_place() does not)."""
        global _scratch
        if self._live is None:
            return None
        if _scratch is None:
            _scratch = bytearray(_SCRATCH_SIZE)
        return _scratch

    def checkpoint(self, snapshot):
        """The state so far as one record: the log restarts from it in the other file."""
        if isinstance(snapshot, str):
            snapshot = snapshot.encode()
        self.compact(((SNAPSHOT, snapshot),))

    def _repair(self):
        if self._damaged:
            self.compact(Tail(self, 0))         # the good records, away from the damage
        else:
            self._drop_stale()

    def _drop_stale(self):
        if self._stale:                          # (an append finds none: no new list each time)
            for index in self._stale:
                self._remove(index)
            self._stale = []

    def compact(self, entries):
        """Restart the log from these (kind, payload) entries (kind SNAPSHOT or 1..255), e.g. a ring's tail.

        entries is walked twice (sizes, then bytes): a sequence, or an object whose
        __iter__ starts afresh each time.
        """
        total = 0
        for kind, payload in entries:
            if not SNAPSHOT <= kind <= _KIND_MAX:
                raise ValueError("journal entry kind %d not in 0..%d" % (kind, _KIND_MAX))
            total += _ENTRY_SIZE + len(payload)
        if total + _OVERHEAD > self.capacity:
            raise JournalFull("journal checkpoint of %d bytes, a file holds %d"
                              % (total + _OVERHEAD, self.capacity))
        self.close()                             # the live file is read (a Tail), then removed
        old = self._live
        target = 0 if old is None else 1 - old
        gen = (self._gen + 1) & _GEN_MASK
        head, check = record.head(total, _BASE, gen)
        with self._fs.open(self._names[target], "wb") as f:
            out = record.Chunks(self._write, f)
            out.add(head)
            for kind, payload in entries:
                entry = struct.pack(ENTRY, kind, len(payload))
                check = crc32(payload, crc32(entry, check))
                out.add(entry)
                out.add(payload)
            out.add(struct.pack(record.CHECK, check))
            out.flush()
        self._live = target
        self.used = total + _OVERHEAD
        self._gen = gen
        self._damaged = False
        self.compactions += 1
        if target in self._stale:
            self._stale.remove(target)
        if old is not None:
            self._remove(old)                    # superseded: its generation is lower anyway
        self._drop_stale()

    def _full(self, need):
        return JournalFull("journal %s full: %d of %d bytes used, record needs %d"
                           % (self._names[self._live], self.used, self.capacity - self.reserve, need))

    def _remove(self, index):
        if index == self._live:
            self.close()
        try:
            self._fs.remove(self._names[index])
        except OSError:
            return                               # missing already; a leftover loses on generation
        self.writes += 1

    def _write(self, f, data):
        f.write(data)
        self.writes += 1
        self.bytes_written += len(data)


class Tail:
    """A journal's records after the first `skip` (0: all), re-readable (a compaction reads them twice)."""

    def __init__(self, journal, skip):
        self.journal = journal
        self.skip = skip

    def __iter__(self):
        n = 0
        # records_at(), not records(): a generator less between a reader and the flash, 320 bytes of C stack
        # less on the Unix port under a RECALL's answer (bench/stack_depth.py)
        for kind, payload, _ in self.journal.records_at():
            n += 1
            if n > self.skip:
                yield kind, payload
