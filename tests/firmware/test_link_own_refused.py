# A boot's own reports (of no journalled event: `recovered`, its faults, a state at boot) refused because the
# link store is full: no replay makes them again, so their count is on flash (firmware/link/journal_store.py,
# refused_report; docs/host-link.md, "If the store fills anyway"). A power cut before the boot's LOST frame is
# stored: the next boot's LOST counts them; once a LOST frame counting them is stored, never again. Checked
# with the power cut at every flash write of a small life of three boots. Runs on MicroPython too.
from firmware.link import frame as fm
from firmware.link import held_frames
from firmware.link import journal as jn_mod
from firmware.link.frame_host import HostFrame
from firmware.link.journal_store import JournalStore
from firmware.link.sender import Sender
from tests.firmware.scratch import ScratchDir
from tests.firmware.test_link_sender import Wire   # the port: what the sender wrote

_FRAMES = 8
_KEPT = 2                       # slots kept for a boot's first frames (the board's 6 of 70, smaller)
_SLOT = 200
_MAX_BYTES = 1800               # a small journal: compactions in the life below


class _Cut(Exception):
    """The power goes."""


class _CuttingFiles(jn_mod.FlashFiles):
    """The board's files with the power cut at write number `after` (a file's write call or a remove, as the
    journal counts them), that write torn: half its bytes on flash. Nothing is written after it."""

    def __init__(self, after=-1):
        self.left = after
        self.dead = False

    def open(self, name, mode="rb"):
        if self.dead:
            raise _Cut()
        f = open(name, mode)
        return f if "r" in mode else _CutFile(f, self)

    def remove(self, name):
        self.tick()
        jn_mod.FlashFiles.remove(name)

    def tick(self, f=None, data=None):
        if self.dead:
            raise _Cut()
        if self.left == 0:
            self.dead = True
            if f is not None:
                f.write(bytes(data)[:len(data) // 2])
                f.close()
            raise _Cut()
        self.left -= 1


class _CutFile:
    def __init__(self, f, files):
        self.f = f
        self.files = files

    def write(self, data):
        self.files.tick(self.f, data)
        return self.f.write(data)

    def flush(self):
        if not self.files.dead:
            self.f.flush()

    def close(self):
        self.f.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.f.close()


class _Life:
    """The boots on one flash: every report made (send() returned: its (boot, seq), seq 0 refused), the one
    in flight when the power went, and every frame on the wire."""

    def __init__(self, state, files):
        self.state = state
        self.files = files
        self.boot = 0
        self.made = []
        self.in_flight = None
        self.wire = Wire()
        self.sender = None

    def start(self):
        self.boot += 1
        store = JournalStore(self.state, self.files, _FRAMES + _KEPT, _SLOT, _MAX_BYTES)
        assert store.status == 0 or store.status == 1, store.detail      # CLEAN, or TORN by a cut
        self.sender = Sender(self.wire, store, self.boot, previous=store.previous, boot_frames=_KEPT)
        return self.sender

    def send(self, text, event=0):
        self.sender.store.event = event
        self.in_flight = (self.boot, text)
        seq = self.sender.send(text)
        self.in_flight = None
        self.made.append((self.boot, seq, text))
        return seq

    def host_back(self, passes=60):
        """The host asks from the oldest held frame and acknowledges what it gets."""
        sender = self.sender
        sender.receive(fm.encode(0, 0, "REPLAY")[:-1])
        for _ in range(passes):
            sender.poll(100)
            heard = _heard(self.wire.data)
            if heard:
                sender.receive(fm.encode(heard[-1][0], heard[-1][1], "ACK")[:-1])
            if sender.held() == 0:
                return


def _heard(data):
    """The numbered frames on the wire, each (boot, seq) once: [(boot, seq, type, payload)]."""
    out = []
    seen = {}
    frame = HostFrame()
    for line in bytes(data).split(b"\n"):
        if line and frame.decode(line) == fm.OK and frame.seq and (frame.boot, frame.seq) not in seen:
            seen[(frame.boot, frame.seq)] = True
            out.append((frame.boot, frame.seq, frame.type_name(), frame.payload().decode()))
    return out


def _refuse_until(life, refused, event=0):
    """Reports of `event` (0: a boot's own) sent until the sender has refused `refused` of them."""
    n = 0
    while life.sender.refused < refused:
        life.send('{"event": "%s", "n": %d}' % ("card" if event else "own", n), event)
        n += 1


def _three_boots(life):
    """Boot 1 fills the store with its own reports, the host away, and has three refused; a reset. Boot 2,
    the host still away: its boot report in the kept slots, two more refused; then the host is back: its
    LOST frame, two reports more. A reset: boot 3, the host there."""
    life.start()
    _refuse_until(life, 3)
    life.start()
    life.send('{"event": "boot"}')
    life.send('{"event": "recovered"}')
    life.send('{"event": "fault"}')
    life.host_back()
    life.send('{"event": "after", "n": 1}')
    life.send('{"event": "after", "n": 2}')
    life.host_back()
    life.start()
    life.send('{"event": "boot"}')
    life.host_back()


def _accounts(life):
    """(reports the host heard + the LOST frames' counts, reports made): every report made is heard or counted."""
    heard = _heard(life.wire.data)
    reports = [h for h in heard if h[2] == "REPORT"]
    lost = sum(int(h[3]) for h in heard if h[2] == "LOST")
    return len(reports) + lost, len(life.made)


def test_own_reports_refused_before_a_cut_are_counted_by_the_next_boots_lost_frame():
    with ScratchDir() as state:
        life = _Life(state, None)
        life.start()
        _refuse_until(life, 3)
        # The power goes before any LOST frame: the next boot starts with the three, its LOST frame says so.
        sender = life.start()
        assert sender.refused == 3
        assert life.send('{"event": "boot"}') == 2            # its first report, in the kept slots, all the same
        life.host_back()
        heard = _heard(life.wire.data)
        assert [(b, s, t) for b, s, t, _ in heard if b == 2][:3] == [(2, 1, "OPEN"), (2, 2, "REPORT"), (2, 3, "LOST")]
        assert [p for b, _, t, p in heard if t == "LOST"] == ["3"]
        assert _accounts(life) == (len(life.made), len(life.made))
        # The LOST frame is on flash: a boot after it counts them no more.
        again = life.start()
        assert again.refused == 0


def test_refused_reports_of_a_journalled_event_are_left_to_the_replay():
    # Ordinary operation: the replay after a reset makes them again (the mark says they were not made), so
    # nothing is written for them and the next boot does not count them.
    with ScratchDir() as state:
        life = _Life(state, None)
        life.start()
        _refuse_until(life, 3, event=7)
        store = life.sender.store
        writes = store.writes
        life.send('{"event": "card"}', event=7)
        assert store.writes == writes and life.sender.refused == 4
        assert life.start().refused == 0


def test_an_unspent_count_survives_compactions_and_a_spent_one_does_not_come_back():
    with ScratchDir() as state:
        life = _Life(state, None)
        life.start()
        _refuse_until(life, 2)
        store = life.sender.store
        held_frames.compact(store, 0)                         # the live file restarted from what is held
        sender = life.start()
        assert sender.refused == 2
        life.host_back()                                      # its LOST frame counts them, then every frame goes
        assert sender.store.count() == 0
        held_frames.compact(sender.store, 0)
        assert life.start().refused == 0


def test_older_firmware_reads_the_count_as_a_batch_of_no_frame():
    # Firmware before the count reads a store's records with the same frames_of() (a BATCH of no frame: none).
    with ScratchDir() as state:
        life = _Life(state, None)
        life.start()
        _refuse_until(life, 1)
        kinds = [(kind, bytes(payload)) for kind, payload in life.sender.store._journal.records()]
        kind, payload = kinds[-1]
        assert len(payload) == 5 and list(held_frames.frames_of(kind, payload)) == []


def test_a_cut_at_any_write_neither_loses_nor_counts_twice_a_boots_own_refused_report():
    with ScratchDir() as state:
        whole = _Life(state, _CuttingFiles())
        _three_boots(whole)
        total, made = _accounts(whole)
        assert total == made and made > 12
    counted_after_a_cut = 0
    cut = 0
    while True:
        with ScratchDir() as state:
            life = _Life(state, _CuttingFiles(cut))
            try:
                _three_boots(life)
                break                                         # no write left to cut
            except _Cut:
                pass
            in_flight = life.in_flight
            life.files = None                                 # the power back: the next boot, the host there
            life.start()
            life.host_back()
            total, made = _accounts(life)
            # The report being made when the power went may be on flash whole (a compaction's last write is
            # the old file's removal), or not: either way, each made before it exactly once.
            assert total == made or (in_flight is not None and total == made + 1), (cut, total, made, in_flight)
            counted_after_a_cut += any(t == "LOST" and b == life.boot for b, _, t, _ in _heard(life.wire.data))
        cut += 1
        assert cut < 1000
    assert cut > 20 and counted_after_a_cut > 3, (cut, counted_after_a_cut)
