# The host link store's slots kept for a boot's first frames (firmware/link/sender.py, boot_frames;
# docs/host-link.md, "When the host is away"): a board reset while its store is full (the host away) still
# sends its OPEN and its `boot` report (reset cause, settings) as the first of its boot; a boot that finds even
# the kept slots taken counts what it refused in a LOST frame; and a store that fills with no reset behaves
# exactly as the store of 64 frames did (the alarm, room(), refusals, the LOST count). Runs on MicroPython too.
import json

from firmware.link import frame as fm
from firmware.link.frame_host import HostFrame
from firmware.link.journal_store import JournalStore
from firmware.link.ram_store import RamStore
from firmware.link.record import CLEAN, CORRUPT
from firmware.link.sender import Sender
from firmware.startup import HOST_BOOT_FRAMES, HOST_PIECE, HOST_SLOT, HOST_STORE_FRAMES
from tests.firmware.expect import raises_match
from tests.firmware.scratch import ScratchDir
from tests.firmware.test_boot_counter import lamp_checks_until
from tests.firmware.test_link_sender import Wire   # the port: what the sender wrote
from tests.firmware.test_main import _boot, _run

# A boot report as long as the board's (two frames of HOST_PIECE bytes: a PART and its REPORT).
_BOOT_REPORT = '{"event": "boot", "reset_cause": "power_on", "settings": "%s", "program": "unverified"}' % ("5e" * 64)


def _heard(data):
    """Host-link frames (bytes) -> [(boot, seq, type, payload)] of the numbered ones, each (boot, seq) once, a
    report's PARTs joined into its REPORT (at the REPORT's seq), in the order first written."""
    out = []
    seen = {}
    parts = []
    frame = HostFrame()
    for line in bytes(data).split(b"\n"):
        if not line:
            continue
        assert frame.decode(line) == fm.OK, line
        key = (frame.boot, frame.seq)
        if frame.seq == 0 or key in seen:
            continue
        seen[key] = True
        kind = frame.type_name()
        if kind == "PART":
            parts.append(frame.payload())
            continue
        payload = b"".join(parts + [frame.payload()]).decode()
        parts = []
        out.append((frame.boot, frame.seq, kind, payload))
    return out


def _of_boot(heard, boot):
    return [(seq, kind, payload) for b, seq, kind, payload in heard if b == boot]


def _boot_store(state, frames=HOST_STORE_FRAMES + HOST_BOOT_FRAMES):
    """The link store as firmware/boot_steps.py's make_context opens it (frames: 64, as older firmware did)."""
    return JournalStore(state, None, frames, HOST_SLOT)


def _boot_sender(store, boot, wire, kept=HOST_BOOT_FRAMES):
    return Sender(wire, store, boot, previous=store.previous, piece=HOST_PIECE, boot_frames=kept)


def _fill(sender):
    """The host away: reports until the store refuses three (reports of no journalled event: their count on
    flash too, the next boot's LOST frame counts them if this one's does not)."""
    n = 0
    while sender.refused < 3:
        sender.send('{"event": "lamp", "n": %d}' % n)
        n += 1
        assert n < 200


def _host_back(sender, wire, passes=80):
    """The host returns: it asks from the oldest held frame and acknowledges each frame it gets."""
    sender.receive(fm.encode(0, 0, "REPLAY")[:-1])
    for _ in range(passes):
        sender.poll(100)
        heard = _heard(wire.data)
        if heard:
            boot, seq = heard[-1][0], heard[-1][1]
            sender.receive(fm.encode(boot, seq, "ACK")[:-1])
        if sender.held() == 0:
            break
    return _heard(wire.data)


def test_a_boot_finding_the_store_full_sends_its_boot_report_first_even_on_a_store_older_firmware_wrote():
    for first_frames, first_kept in ((HOST_STORE_FRAMES, 0), (HOST_STORE_FRAMES + HOST_BOOT_FRAMES, HOST_BOOT_FRAMES)):
        with ScratchDir() as state:
            first = _boot_sender(_boot_store(state, first_frames), 1, Wire(), first_kept)
            _fill(first)
            assert first.held() == HOST_STORE_FRAMES      # the kept slots are not the first boot's to fill
            # The power cut: boot 2 opens the same flash (the first at 64 frames: a store older firmware wrote).
            store = _boot_store(state)
            wire = Wire()
            second = _boot_sender(store, 2, wire)
            assert store.count() == HOST_STORE_FRAMES + 1                     # its OPEN held at once
            assert second.send(_BOOT_REPORT) == 3                             # a PART (2) and its REPORT (3)
            assert second.send('{"event": "state", "state": "starting"}') == 4
            assert second.room() == 0 and second.alarm
            heard = _host_back(second, wire)
            assert _of_boot(heard, 2)[:3] == [(1, "OPEN", "1.64"), (3, "REPORT", _BOOT_REPORT),
                                              (4, "REPORT", '{"event": "state", "state": "starting"}')]
            assert second.refused_total == 0 and second.held() == 0


def test_a_boot_past_the_kept_slots_is_refused_and_counted_and_the_next_one_takes_what_is_left():
    with ScratchDir() as state:
        _fill(_boot_sender(_boot_store(state), 1, Wire()))
        # Boot 2: its OPEN, boot report and one report more in the kept slots; cut before the host came back.
        second = _boot_sender(_boot_store(state), 2, Wire())
        assert second.send(_BOOT_REPORT) == 3 and second.send('{"event": "recovered"}') == 4
        # Boot 3 finds two kept slots left: its OPEN; its boot report's two frames would pass them.
        store = _boot_store(state)
        wire = Wire()
        third = _boot_sender(store, 3, wire)
        assert store.count() == HOST_STORE_FRAMES + HOST_BOOT_FRAMES - 1
        # Boot 1's three refused (cut before its LOST frame, as boot 2 was) come counted with boot 3's own.
        assert third.refused == 3
        assert third.send(_BOOT_REPORT) == 0 and third.refused == 4        # refused, counted
        assert third.send('{"event": "state"}') == 0 and third.refused == 5
        heard = _host_back(third, wire)
        assert _of_boot(heard, 2) == [(1, "OPEN", "1.64"), (3, "REPORT", _BOOT_REPORT),
                                      (4, "REPORT", '{"event": "recovered"}')]
        assert _of_boot(heard, 3)[:2] == [(1, "OPEN", "2.4"), (2, "LOST", "5")]
        assert third.send('{"event": "after"}') == 3


def test_a_second_cut_before_the_host_came_back_loses_no_boot_report():
    with ScratchDir() as state:
        _fill(_boot_sender(_boot_store(state), 1, Wire()))
        second = _boot_sender(_boot_store(state), 2, Wire())
        assert second.send(_BOOT_REPORT) == 3                           # then the power goes again
        store = _boot_store(state)
        wire = Wire()
        third = _boot_sender(store, 3, wire)
        assert third.send(_BOOT_REPORT) == 3                            # the last two kept slots
        assert third.send('{"event": "state"}') == 0                    # past them: counted
        heard = _host_back(third, wire)
        assert _of_boot(heard, 2) == [(1, "OPEN", "1.64"), (3, "REPORT", _BOOT_REPORT)]
        # Its LOST frame after them, with boot 1's three (of no journalled event, refused, cut before a LOST).
        assert _of_boot(heard, 3)[:3] == [(1, "OPEN", "2.3"), (3, "REPORT", _BOOT_REPORT), (4, "LOST", "4")]


def test_a_store_filling_with_no_reset_behaves_as_the_store_of_64_did():
    """The same reports and acknowledgements to a sender on a store of 64 with no kept slots (boot_frames 0: the
    sender as it was) and to one on 64 + 6 kept: the same seqs, refusals, alarms, room() and frames on the
    wire; the alarm at 48 frames held (75 % of 64)."""
    runs = []
    for frames, kept in ((HOST_STORE_FRAMES, 0), (HOST_STORE_FRAMES + HOST_BOOT_FRAMES, HOST_BOOT_FRAMES)):
        alarms = []
        wire = Wire()
        sender = Sender(wire, RamStore(frames, HOST_SLOT), 1, piece=HOST_PIECE, boot_frames=kept,
                        on_alarm=alarms.append)
        seen = []
        for n in range(90):
            payload = '{"n": %d}' % n if n % 7 else '{"n": %d, "long": "%s"}' % (n, "x" * 300)   # 3 frames
            seen.append((sender.send(payload), sender.room(), sender.held(), sender.alarm, sender.refused))
            sender.poll(100)
            if n in (70, 80):                                  # the host acknowledges some, then goes again
                sender.receive(fm.encode(1, 30 if n == 70 else 60, "ACK")[:-1])
        assert sender.refused_total > 0 and True in alarms and b"LOST" in wire.data
        raised = [e[3] for e in seen].index(True)
        assert seen[raised][2] >= 48 > seen[raised - 1][2]
        runs.append((seen, alarms, bytes(wire.data), sender.refused_total))
    assert runs[0] == runs[1]


def test_the_kept_slots_leave_room_for_a_report_and_a_lost_frame():
    raises_match(ValueError, "boot_frames", Sender, Wire(), RamStore(8, HOST_SLOT), 1, boot_frames=6)
    raises_match(ValueError, "boot_frames", Sender, Wire(), RamStore(8, HOST_SLOT), 1, boot_frames=-1)
    assert Sender(Wire(), RamStore(8, HOST_SLOT), 1, boot_frames=5).report_slots == 3
    assert Sender(Wire(), RamStore(2, HOST_SLOT), 1).report_slots == 2     # none kept: a store of 2 as before


def test_a_board_reset_twice_with_its_store_full_reports_each_boot():
    """The whole boot (firmware/startup.py) on fake hardware: the host away while lamp checks fill the store,
    a power cut, a boot that makes its own reports and is cut in turn, a third boot; then the host is back."""
    with ScratchDir() as state:
        ctx, machine, _ = _boot(state, "baccarat")
        machine.uarts[1].acks = False                    # the host is away
        _run(ctx, 3)
        lamp_checks_until(ctx, lambda: ctx.sender.refused, 60)
        boots = [ctx.sender.boot]
        for _ in range(2):                               # a power cut, then another before the host is back
            ctx, machine, _ = _boot(state, "baccarat")
            host = machine.uarts[1]
            host.acks = False
            _run(ctx, 3)
            boots.append(ctx.sender.boot)
        host.acks = True
        host.feed(fm.encode(0, 0, "REPLAY"))             # the host is back: from the oldest held
        _run(ctx, 120)
        assert ctx.sender.held() == 0
        heard = _heard(host.tx)
        second = _of_boot(heard, boots[1])
        assert [kind for _, kind, _ in second[:2]] == ["OPEN", "REPORT"], second    # (before: none of it)
        report = json.loads(second[1][2])
        assert report["event"] == "boot" and report["seq"] == 1 and report["reset_cause"]
        # The third boot finds one kept slot left: its OPEN; its boot report and first state are refused and
        # counted in a LOST frame, the first thing after its OPEN (the host knows two reports are missing).
        third = _of_boot(heard, boots[2])
        assert [kind for _, kind, _ in third[:3]] == ["OPEN", "LOST", "REPORT"], third
        assert third[0][2] == "%d.%d" % (boots[1], second[-1][0]) and third[1][2] == "2"
        assert json.loads(third[2][2])["seq"] == 3


def test_a_store_past_64_frames_opened_at_64_as_older_firmware_does_keeps_the_oldest_and_says_it_is_bad():
    # A downgrade with the host still away (docs/host-link.md): the store older firmware opens, 64 slots, reads
    # its records up to the frame that does not fit, and stops there: the boot reports journal_bad.
    with ScratchDir() as state:
        _fill(_boot_sender(_boot_store(state), 1, Wire()))
        second = _boot_sender(_boot_store(state), 2, Wire())
        assert second.send(_BOOT_REPORT) == 3
        assert _boot_store(state).count() == HOST_STORE_FRAMES + 3 and _boot_store(state).status == CLEAN
        older = _boot_store(state, HOST_STORE_FRAMES)
        assert older.status == CORRUPT and "store full" in older.detail
        assert older.count() == HOST_STORE_FRAMES and older.previous == (1, HOST_STORE_FRAMES)
