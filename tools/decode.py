"""The report decoder: the reports in a capture of the host line, or in a host-link journal file.

    python -m tools.decode [--journal | --capture] [--frames] FILE|-

FILE is either what the board sent on its host line (`cat /dev/ttyUSB0 > capture.bin`, a logic
analyser's bytes, a hostsim pty log; both directions may be in it) or one of the host link's journal
files copied from a board's flash (`link.0`, `link.1`: docs/journal.md, "The host link's frames").
Which one is found from its first bytes (a journal file starts with a record whose header passes its
CRC); --journal or --capture says so instead.

stdout: each report once, in the board's order, one line each: the REPORT frame's payload as is (the
report's JSON), its PART frames joined before it. The frame log, one JSON object a line, goes to
stderr (with --frames to stdout, before the reports): each authentic frame's header
({"frame": TYPE, "boot", "seq", "stamp", "at": its byte offset}; "duplicate": true for a frame
sent again; in a journal file "held": false for one an ACK had already dropped), and every damaged
piece with why ({"damaged": "bad_crc" | "truncated" | "no_start" | "too_long" | "bad_syntax" |
"unknown_type" | "part_lost" | "torn" | "corrupt", "at", "bytes": escaped}); frames missing from a
boot's sequence are {"gap": "3.5", "to": "3.7"} (a frame that never came whole, or a capture cut).
Exit status: 0 every frame good, 1 some frame damaged or missing (the good ones are still decoded), 2 the input
could not be read. The frames are decoded by the firmware's own decoder (firmware/link/frame.py) and
found in a line as tools/host_client.py finds them; journal records are read by the firmware's own
reader (firmware/link/record.py). Reference: docs/host-link.md, "Decoding a capture".
"""
import argparse
import io
import json
import struct
import sys

from firmware.link import frame as frame_mod
from firmware.link import held_frames, journal_store, record
from firmware.link.frame_host import HostFrame
from tools.host_client import Received, _position, find_frame

OK = 0
DAMAGED = 1
UNREADABLE = 2
_BYTES_SHOWN = 600          # bytes of a damaged piece shown escaped (the rest counted)
# Every TYPE the link has: the board's frames (firmware/link/sender.py) and the host's.
KNOWN_TYPES = ("REPORT", "PART", "OPEN", "LOST", "GONE", "ACK", "REPLAY", "TIME", "RECALL", "REQUEST")
_HOST_TYPES = ("ACK", "REPLAY", "TIME", "RECALL", "REQUEST")


def escape(data):
    """Bytes as text: printable ASCII as is (a backslash doubled), every other byte as \\xNN."""
    out = []
    for b in data[:_BYTES_SHOWN]:
        if b == 92:
            out.append("\\\\")
        elif 32 <= b <= 126:
            out.append(chr(b))
        else:
            out.append("\\x%02x" % b)
    return "".join(out)


def _damage(log, why, at, data, **more):
    entry = {"damaged": why, "at": at, "bytes": escape(data)}
    if len(data) > _BYTES_SHOWN:
        entry["length"] = len(data)
    entry.update(more)
    log.append(entry)


class Decoder:
    """Frames in, the frame log (.log, dicts) and the reports (.reports, str) out."""

    def __init__(self):
        self.log = []
        self.reports = []
        self.damaged = 0
        self._frame = HostFrame()
        self._frames = {}          # (boot, seq) -> Received, board frames (seq > 0)

    def _note_damage(self, why, at, data, **more):
        self.damaged += 1
        _damage(self.log, why, at, data, **more)

    def frame(self, line, at, held=None):
        """One line without its LF, found at byte `at`: its frames logged in order. Noise that ate an
        LF joins frames in one line: the last one is found (after the first "#" it decodes from), then
        the frames before it the same way, and what is left before the first is damage."""
        spans = []
        end = len(line)
        while True:
            first = max(0, end - frame_mod.MAX_FRAME)      # a frame is shorter: no need to look further back
            status, start = find_frame(self._frame, line[first:end])
            if status != frame_mod.OK:                     # why, for the piece as a whole
                status = self._frame.decode(line[:end])
                self._note_damage(frame_mod.STATUS_NAMES[status], at, line[:end])
                break
            start += first
            spans.append((start, end))
            if start == 0:
                break
            end = start
        for start, end in reversed(spans):
            self._frame.decode(line[start:end])
            self._good(self._frame, at + start, held)

    def _good(self, frame, at, held):
        type_name = frame.type_name()
        entry = {"frame": type_name, "boot": frame.boot, "seq": frame.seq,
                 "stamp": bytes(frame.line[frame.stamp_start:frame.stamp_end]).decode(), "at": at}
        if type_name not in KNOWN_TYPES:
            self.damaged += 1
            entry["damaged"] = "unknown_type"
        if frame.seq == 0 or type_name in _HOST_TYPES:
            if frame.payload_end > frame.payload_start:
                entry["payload"] = frame.payload().decode()
            if frame.seq and (type_name == "REQUEST" or type_name == "RECALL"):
                entry["tag"] = frame.seq       # the host's tag, given back in the answer (docs/host-link.md)
        else:
            key = (frame.boot, frame.seq)
            if key in self._frames:
                entry["duplicate"] = True
            else:
                self._frames[key] = Received(frame)
        if held is not None:
            entry["held"] = held
        self.log.append(entry)

    def _gap(self, boot, first, last):
        self.damaged += 1          # frames that never came whole: a report may be in them
        self.log.append({"gap": "%d.%d" % (boot, first), "to": "%d.%d" % (boot, last)})

    def finish(self):
        """The reports, in (boot, seq) order, PARTs joined; gaps and lost pieces logged."""
        parts = []
        last = None
        for key in sorted(self._frames):
            got = self._frames[key]
            if last is not None and key[0] == last[0] and key[1] != last[1] + 1:
                self._gap(last[0], last[1] + 1, key[1] - 1)
            elif last is not None and got.type == "OPEN":      # a boot's OPEN names the last frame before it
                end = _position(got.payload)
                if end is not None and end[0] == last[0] and end[1] > last[1]:
                    self._gap(last[0], last[1] + 1, end[1])
            if parts and key != (last[0], last[1] + 1):
                self._note_damage("part_lost", None, b"".join(parts), pieces=len(parts),
                                  before="%d.%d" % key)
                parts = []
            last = key
            if got.type == "PART":
                parts.append(got.payload)
            elif got.type == "REPORT":
                parts.append(got.payload)
                self.reports.append(b"".join(parts).decode())
                parts = []
            elif parts:            # a PART run ended by anything else: its report is lost
                self._note_damage("part_lost", None, b"".join(parts), pieces=len(parts), before="%d.%d" % key)
                parts = []
        if parts:
            self._note_damage("part_lost", None, b"".join(parts), pieces=len(parts), before="end")


def decode_capture(data, decoder):
    """A line capture: every LF-ended line a frame (or damage); bytes after the last LF are cut short."""
    at = 0
    n = len(data)
    while at < n:
        end = data.find(b"\n", at)
        if end < 0:
            decoder._note_damage("truncated", at, data[at:])    # the capture ended inside a frame
            break
        if end > at:               # (an empty line is no damage: the host client starts a request with one)
            decoder.frame(data[at:end], at)
        at = end + 1
    decoder.finish()


def _journal_frames(data):
    """Each frame in a journal file as (kind, boot, seq, bytes, at) or a DROP as (DROP, boot, seq,
    None, at), in file order; then the reader (its status and detail say where it stopped)."""
    reader = record.Reader(io.BytesIO(data), len(data))
    items = []
    while True:
        start = reader.end
        got = reader.next()
        if got is None:
            return items, reader
        kind, payload = got
        at = start + record.HEAD_SIZE
        if kind == record.BASE:
            k = 0
            for entry_kind, entry in record.entries(payload, ValueError):
                _journal_entry(items, entry_kind, entry, at + k + record.ENTRY_SIZE)
                k += record.ENTRY_SIZE + len(entry)
        else:
            _journal_entry(items, kind, payload, at)


_REFUSED_COUNT = -1    # an item of _journal_frames(): a REFUSED count record (no frame; not a record kind)


def _journal_entry(items, kind, payload, at):
    hf = held_frames                            # the store's records read as frames (journal_store's DROP)
    if kind == hf._BATCH and len(payload) == hf._BATCH_END_SIZE:
        # A batch of no frame: the REFUSED count (journal_store.py, refused_report), its count as the event
        items.append((_REFUSED_COUNT, struct.unpack_from("<I", payload, 0)[0], 0, None, at))
    elif kind == hf._BATCH or kind == hf._FRAMES:
        for boot, seq, _, _, _, k, n in hf.frames_of(kind, payload):
            items.append((kind, boot, seq, payload[k:k + n], at + k))
    elif kind == hf._FRAME:
        boot, seq = struct.unpack_from("<II", payload, 0)
        items.append((kind, boot, seq, payload[hf._FRAME_HEAD_SIZE:], at + hf._FRAME_HEAD_SIZE))
    elif kind == journal_store._DROP:
        boot, seq = struct.unpack(journal_store._DROP_FORMAT, payload)
        items.append((kind, boot, seq, None, at))
    # MARK: the store's bookkeeping, no frame


def decode_journal(data, decoder):
    """A journal file (link.0 / link.1): its frames in order, each marked held or not (an ACK's DROP
    record after it dropped it); a torn or corrupt record ends the file, logged as damage."""
    try:
        items, reader = _journal_frames(data)
    except (ValueError, struct.error) as exc:   # a record that checks but does not read as frames
        decoder._note_damage("corrupt", None, b"", detail=str(exc))
        items, reader = [], None
    dropped = []                                # for each frame: dropped by a later DROP
    held = []
    for i, item in enumerate(items):
        if item[0] == _REFUSED_COUNT:
            continue
        if item[0] == journal_store._DROP:
            for j in held:
                if (items[j][1], items[j][2]) <= (item[1], item[2]):
                    dropped.append(j)
            held = [j for j in held if j not in dropped]
        else:
            held.append(i)
    for i, (kind, boot, seq, body, at) in enumerate(items):
        if kind == journal_store._DROP:
            decoder.log.append({"drop": "%d.%d" % (boot, seq), "at": at})
            continue
        if kind == _REFUSED_COUNT:
            decoder.log.append({"refused_count": boot, "at": at})     # (spent by a LOST frame after it)
            continue
        line = bytes(body[:-1]) if body[-1:] == b"\n" else bytes(body)
        decoder.frame(line, at, held=i not in dropped)
    if reader is not None and reader.status != record.CLEAN:
        why = "torn" if reader.status == record.TORN else "corrupt"
        decoder._note_damage(why, reader.end, data[reader.end:], detail=reader.detail)
    decoder.finish()


def is_journal(data):
    """The bytes start as a journal file does: a base record whose header passes its CRC (the rest
    of the file may be torn or corrupt; decode_journal says so). A line capture starts with a frame
    or noise, whose first 11 bytes pass a CRC-32 one time in 4 billion."""
    reader = record.Reader(io.BytesIO(data), len(data))
    got = reader.next()
    if got is not None:
        return got[0] == record.BASE
    return reader.status == record.TORN and not reader.detail.startswith("record header")


def decode(data, journal=None):
    """Decoder with everything in data decoded; journal None: found from the bytes."""
    decoder = Decoder()
    if journal is None:
        journal = is_journal(data)
    (decode_journal if journal else decode_capture)(data, decoder)
    return decoder


def _parser():
    ap = argparse.ArgumentParser(prog="python -m tools.decode",
                                 description="The reports in a host line capture or a host-link journal file.")
    kind = ap.add_mutually_exclusive_group()
    kind.add_argument("--journal", action="store_true", help="FILE is a journal file (link.0, link.1)")
    kind.add_argument("--capture", action="store_true", help="FILE is a capture of the host line")
    ap.add_argument("--frames", action="store_true", help="the frame log to stdout (before the reports)")
    ap.add_argument("file", help="the capture or journal file, or - for stdin")
    return ap


def main(argv=None, stdin=None, stdout=None, stderr=None):
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exc:
        return UNREADABLE if exc.code else OK
    try:
        if args.file == "-":
            data = (stdin or sys.stdin.buffer).read()
        else:
            with open(args.file, "rb") as f:
                data = f.read()
    except (OSError, ValueError) as exc:
        stderr.write("tools.decode: cannot read %s: %s\n" % (args.file, getattr(exc, "strerror", None) or exc))
        return UNREADABLE
    journal = True if args.journal else False if args.capture else None
    decoder = decode(data, journal)
    log_out = stdout if args.frames else stderr
    try:
        for entry in decoder.log:
            log_out.write(json.dumps(entry) + "\n")
        for report in decoder.reports:
            stdout.write(report + "\n")
        stdout.flush()
    except BrokenPipeError:
        return DAMAGED if decoder.damaged else OK
    return DAMAGED if decoder.damaged else OK


if __name__ == "__main__":
    sys.exit(main())
