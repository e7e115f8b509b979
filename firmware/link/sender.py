# The board's side of the host link: numbered frames, kept until acknowledged (docs/host-link.md).
#
# send() numbers a report and keeps its frame in the store; poll() flushes the store (a store on flash writes its
# batch: every frame on the wire is durable) and writes what the window allows and, when no acknowledgement came in
# time, the oldest unacknowledged frame again, waiting twice as long each time (capped). Nothing here waits and
# there is no clock inside (poll(elapsed_ms)): when the host is away frames stay in the store and the game goes on
# until the alarm (the store nearly full), which the caller turns into "take no new round". A full store keeps the
# oldest frames (the host needs them to continue in order) and counts the reports it refuses: a LOST frame says how
# many, in their place in the sequence, as soon as there is room; room() tells the game what is left.
# The host's ACK and REQUEST are taken here (receive()); its rarer commands, REPLAY (with its GONE frame), TIME and
# RECALL, by firmware/link/sender_commands.py (resident: a noisy line brings REPLAYs at any time, and taking one must
# not need the heap an import does).
from firmware.link import frame as frame_mod
from firmware.link import sender_commands
from firmware.link.stamp import Stamp
from firmware.link.store import at_or_before

# Frame types, board to host.
REPORT = b"REPORT"   # a report's JSON
OPEN = b"OPEN"       # seq 1 of every boot: payload the previous boot's last frame "<boot>.<seq>", or "-"
LOST = b"LOST"       # payload: how many reports were refused because the store was full
GONE = b"GONE"       # seq 0, not kept: "<from> <to>": a REPLAY asked for frames no longer held
PART = b"PART"       # the leading pieces of a report too long for one frame; its REPORT frame ends it

# What receive() found in a host frame.
CMD_BAD = const(0)       # refused: .last_status says why (a frame_mod status, or _UNKNOWN_TYPE)
CMD_ACK = const(1)
CMD_REPLAY = const(2)
CMD_TIME = const(3)      # the clock is set; frames now carry the host's time
CMD_RECALL = const(4)    # .recall_count rounds asked for; the caller answers
CMD_REQUEST = const(5)   # a host request (roads, a JSON request): request() gives its payload

BAD_ARGUMENT = const(10)  # .last_status: a good frame whose argument is not a number
UNKNOWN_TYPE = const(11)  # .last_status: a good frame of a type the board does not take
_OWN_PAYLOAD_MOST = const(39)   # the longest payload of a frame the sender makes itself: GONE's "b.s b.s"


class Sender:
    def __init__(self, port, store, boot, previous=None, window=8, timeout_ms=500,
                 max_timeout_ms=8000, alarm_percent=75, clear_percent=50, on_alarm=None, budget=0,
                 piece=frame_mod.MAX_PAYLOAD, boot_frames=0):
        """port: has write(buf); store: see firmware/link/store.py; boot: this boot's counter (it must grow
        from one start of the board to the next: the host tells boots apart by it).
        budget: bytes poll() may write at once (but always one frame), e.g. the UART's transmit buffer, so a
        write never waits for the line; 0: the whole window. With a budget, a port that tells when it has sent
        everything (txdone(): MicroPython's UART) is written only then: the transmit buffer empty, a budget's
        bytes fit it whole (written into a fuller one, they would wait for the line, or, with the UART's
        timeout 0, be cut short: a broken frame).
        piece: the most payload bytes one frame carries (a longer report goes out in PARTs): a short frame
        gets through a noisy line more often, and fits a smaller store slot.
        previous: (boot, seq) of the previous boot's last frame when the journal knows it; by default the
        newest frame the store still holds from an earlier boot, if any.
        boot_frames: of the store's slots, kept for a boot's first frames: its OPEN and the reports whose
        frames are all numbered up to boot_frames (the `boot` report, its first `state`) may take them, no
        other frame. A board reset while its store was full (the host away) still tells the host it booted,
        why and with which settings; everything else, the alarm, room(), refusals and the LOST frame, counts
        on the other slots (report_slots) as if the kept ones were not there (docs/host-link.md, "When the
        host is away")."""
        if not 1 <= boot <= frame_mod.MAX_NUMBER:
            raise ValueError("boot counter must be 1..%d" % frame_mod.MAX_NUMBER)
        count = store.count()
        if count and not at_or_before(store.boot_at(count - 1), 0, boot - 1, 0):
            raise ValueError("the store holds frames of boot %d: the boot counter must grow"
                             % store.boot_at(count - 1))
        if previous is None and count:
            previous = (store.boot_at(count - 1), store.seq_at(count - 1))
        self.previous = previous
        self.port = port
        self.store = store
        self._capacity = store.capacity()   # fixed: looked up once, not at each report
        if boot_frames and not 0 < boot_frames <= self._capacity - 3:     # (none: any store, a RamStore(2) too)
            raise ValueError("boot_frames must be 0..%d" % (self._capacity - 3))
        self.report_slots = self._capacity - boot_frames   # what any frame may fill: all but the kept slots
        self.boot = boot
        self.window = window
        self.timeout_ms = timeout_ms
        self.max_timeout_ms = max_timeout_ms
        self.alarm_percent = alarm_percent
        self.clear_percent = clear_percent
        self.on_alarm = on_alarm
        self.budget = budget
        # The port's "all sent" (a bound method, looked up once), when poll() must wait for it (above).
        self._idle = getattr(port, "txdone", None) if budget else None
        self._gone = None             # a GONE frame's payload owed to the host until the port is idle
        if not 1 <= piece <= frame_mod.MAX_PAYLOAD:
            raise ValueError("piece must be 1..%d bytes" % frame_mod.MAX_PAYLOAD)
        self.piece = piece
        self.alarm = False
        self.uptime = Stamp()             # ms since boot, as poll() was told
        self.host_time = None             # the host's Unix ms (a Stamp: .ms()), once TIME came
        self._host = -1                   # host_time, or -1 before TIME: the encoder's stamp argument
        # Reports refused since the last LOST frame; at boot, those of a boot before it of no journalled event
        # (no replay makes them again) that no LOST frame counted: the store keeps their count on flash
        # (firmware/link/journal_store.py, own_refused).
        self.refused = store.own_refused
        self.refused_total = 0        # this boot's
        self.retransmits = 0          # frames written again after a timeout
        self.replays = 0              # REPLAY requests served
        self.bad_frames = 0           # host frames refused
        self.last_status = frame_mod.OK
        self.recall_count = 0
        # The encoder's buffer holds the longest frame this sender makes (issue 14: a board whose reports go in
        # 128-byte pieces keeps 200 bytes, not MAX_FRAME's 512): the longest header and trailer with a piece, or
        # with its own OPEN, LOST and GONE payloads; and any frame held at boot, which _read() reads back into it. A
        # longer payload is refused by the encoder (ValueError), never cut.
        most = piece if piece > _OWN_PAYLOAD_MOST else _OWN_PAYLOAD_MOST
        size = frame_mod.MAX_FRAME - frame_mod.MAX_PAYLOAD + most     # + header, trailer and LF: 72 bytes
        for i in range(count):
            if store.length_at(i) > size:
                size = store.length_at(i)
        self._enc = frame_mod.Encoder(size)
        self._frame = frame_mod.Frame()
        self._next_seq = 1
        self._next_write = 0          # held frames [0, _next_write) have been written
        self._timer = 0
        self._timeout = timeout_ms
        self._probing = False         # a timeout passed: only the oldest goes out until an ACK
        self._chain = False           # no poll moved the stamps since our last report (nor TIME)
        self._open_payload = b"-" if previous is None else ("%d.%d" % previous).encode()
        self._open_pending = True
        self._flush_pending()
        self._check_alarm()           # a store found nearly full at boot raises the alarm at once

    # -- the game's side --
    def send(self, payload, type=REPORT, checked=False):
        """Keep and number one report (JSON text or bytes). Returns its seq, or 0 when refused: the store is
        full (the oldest frames are kept; the count goes out as a LOST frame). A report longer than `piece`
        bytes goes out as PART frames and a last REPORT frame (all held at once, or all refused). ValueError
        for a payload no frame can carry (not printable ASCII, more pieces than the store holds; checked: the
        caller found it printable already)."""
        if self._open_pending or self.refused:
            self._flush_pending()
        if isinstance(payload, str):
            payload = payload.encode()
        most = self.piece
        size = len(payload)
        pieces = (size + most - 1) // most if size > most else 1
        store = self.store
        capacity = self._capacity
        if pieces > self.report_slots - 2:
            raise ValueError("a %d-byte report needs %d frames, the store takes %d a report"
                             % (size, pieces, self.report_slots - 2))
        count = store.count() + pieces  # held once this report is
        seq = self._next_seq
        # Past report_slots, into the kept slots, only a report whose frames are all among the boot's first.
        if self._open_pending or self.refused or seq + pieces - 1 > frame_mod.MAX_NUMBER or (
                count > self.report_slots and (count > capacity or seq + pieces - 1 > capacity - self.report_slots)):
            # (A count carried from a boot before, none refused yet in this one, refuses none of the boot's first
            # frames the kept slots take: its LOST frame follows them.)
            if self._open_pending or self.refused_total or count > capacity \
                    or seq + pieces - 1 > capacity - self.report_slots:
                self.refused += 1
                self.refused_total += 1
                store.refused_report()    # one of no journalled event: its count kept on flash
                return 0
        # _append's work inline, its lookups made once a report: a frame costs the VM a call less; while the
        # encoder's header is our last frame's (seq - 1) and the stamps unmoved, the next one at once as that.
        enc = self._enc
        buf = enc.buf
        boot = self.boot
        chained = self._chain and enc._head and enc._seq == seq - 1     # (encode()'s check, skipped)
        if pieces == 1:
            n = (enc.encode_next(type, payload) if chained and checked
                 else enc.encode(boot, seq, type, payload, self.uptime, self._host, checked))
        else:
            if not checked:                            # once, before a piece is held: all or nothing
                frame_mod.check_printable(payload)
            view = memoryview(payload)
            # The first piece encoded whole, the next ones as the frames after it (encode_next: the same boot and
            # stamps, no poll between), by the store at once (issue 14: a call a report, not three a frame; a
            # REPORT's, a TYPE encode_next takes: none refused part way), else here one by one.
            n = (enc.encode_next(PART, view[:most]) if chained
                 else enc.encode(boot, seq, PART, view[:most], self.uptime, self._host, True))
            if type is REPORT and store.append_run(boot, seq, enc, n, view, most, PART, type, True):
                seq += pieces - 1
                n = 0                                  # every frame held
            else:
                at = 0
                for _ in range(pieces - 1):
                    store.append(boot, seq, buf, n, False)
                    seq += 1
                    self._next_seq = seq
                    at += most
                    n = enc.encode_next(PART if at + most < size else type, view[at:at + most])
        if n:
            store.append(boot, seq, buf, n, type != PART)
        self._next_seq = seq + 1
        self._chain = True
        # The alarm once a report: its frames only raise the level, so below it nothing changes.
        if self.alarm or count * 100 >= self.report_slots * self.alarm_percent:
            self._check_alarm()
        return seq

    def request(self):
        """The payload of the REQUEST frame receive() just took (bytes)."""
        return self._frame.payload()

    def request_tag(self):
        """The host's tag of the REQUEST or RECALL frame receive() just took: the seq of its `#0.<tag>`
        (0: none), given back in the answer (docs/host-link.md, "Host to board")."""
        return self._frame.seq

    def held(self):
        return self.store.count()

    def room(self):
        """Frames reports may take now (a reading is bounded by it): free slots (the boot's kept ones apart)
        less a pending OPEN and LOST."""
        return max(0, self.report_slots - self.store.count() - (self._open_pending + (self.refused > 0)))

    def last_frame(self):
        """(boot, seq) of the newest frame made, for the next boot's OPEN (the journal keeps it): this boot's,
        or, when this boot has made none yet, the one before it (None: unknown)."""
        if self._next_seq > 1:
            return (self.boot, self._next_seq - 1)
        return self.previous

    # -- the loop's side --
    def poll(self, elapsed_ms):
        """Advance the clock by elapsed_ms; write what is due. Never waits."""
        if elapsed_ms:                   # (none: the poll after a drain, in the pass that made the reports)
            self._chain = False          # the stamps move
            self.uptime.add(elapsed_ms)  # Stamps: no int past 2**30 made (a heap object on the RP2040)
            if self.host_time is not None:
                self.host_time.add(elapsed_ms)
        if self._open_pending or self.refused:
            self._flush_pending()
        self.store.flush()            # a frame goes out only once it is durable (a store on flash)
        written = 0
        idle = self._idle
        if idle is not None:
            if not idle():            # earlier bytes still going out: the rest when they are
                if self._next_write > 0:
                    self._timer += elapsed_ms        # (a retransmission due waits for the line too)
                return
            if self._gone is not None:
                written = self._write_gone(self._gone)
                self._gone = None
        count = self.store.count()
        if count == 0:
            self._next_write = self._timer = 0
            return
        if self._next_write > 0:
            self._timer += elapsed_ms
            if self._timer >= self._timeout:
                self._timer = 0
                self._timeout = min(self._timeout * 2, self.max_timeout_ms)
                self._probing = True
                self.retransmits += 1
                frame = self.store.view(0)
                self.port.write(self._read(0) if frame is None else frame)
                return
        if self._probing:
            return
        limit = count if count < self.window else self.window
        i = self._next_write
        if i >= limit:
            return
        budget = self.budget
        store = self.store
        run = store.run
        write = self.port.write
        while i < limit:
            # The frames side by side in the store's RAM (a pass's, mostly) in one write, from there: no copy made,
            # no call a frame. The budget's first frame goes whatever its size.
            j = run(i, limit, budget - written if budget else -1, not written)
            if j > i:
                frames = store.run_view(i, j)
                write(frames)
                written += len(frames)
            elif j == i:
                break                   # the rest at the next poll
            else:
                frame = self._read(i)   # on flash only (a backlog), or across the end of the RAM ring
                n = len(frame)
                if budget and written and written + n > budget:
                    break
                write(frame)
                written += n
                j = i + 1
            i = j
            self._next_write = i

    def receive(self, line, n=-1):
        """One line from the host (without its LF). Returns a CMD_* code."""
        frame = self._frame
        status = frame.decode(line, n)
        if status != frame_mod.OK:
            return self._bad(status)
        if frame.type_is(b"ACK"):
            self._ack(frame.boot, frame.seq)
            return CMD_ACK
        if frame.type_is(b"REQUEST"):
            if frame.payload_end == frame.payload_start:
                return self._bad(BAD_ARGUMENT)
            return CMD_REQUEST
        return self._command(frame)

    # -- inside --
    def _command(self, frame):
        """REPLAY, TIME, RECALL or a type the board does not take: firmware/link/sender_commands.py's."""
        return sender_commands.take(self, frame)

    def _bad(self, status):
        self.bad_frames += 1
        self.last_status = status
        return CMD_BAD

    def _append(self, type, payload):
        """Number, encode and keep one frame of ours (OPEN, LOST); the caller checks the alarm after it."""
        seq = self._next_seq
        enc = self._enc
        n = enc.encode(self.boot, seq, type, payload, self.uptime, self._host)
        if type is LOST:
            # It counts every report refused so far: the store tags it so (a replay after a reset makes
            # none of them again: firmware/link/journal_store.py, append_lost).
            self.store.append_lost(self.boot, seq, enc.buf, n)
        else:
            self.store.append(self.boot, seq, enc.buf, n, True)
        self._next_seq = seq + 1

    def _flush_pending(self):
        """OPEN first, as soon as there is a slot; then the LOST count, once there are two besides the boot's
        kept slots (so a report can follow it rather than be refused again straight away)."""
        store = self.store
        if self._open_pending:
            if store.count() >= self._capacity:
                return
            self._open_pending = False
            self._append(OPEN, self._open_payload)
            self._check_alarm()
        if self.refused and store.count() <= self.report_slots - 2:
            refused, self.refused = self.refused, 0
            self._append(LOST, "%d" % refused)
            self._check_alarm()

    def _read(self, i):
        """The i-th held frame read into the encoder's buffer (a view of it)."""
        enc = self._enc
        enc.forget()                  # its header no longer in its buffer
        buf = enc.buf
        n = self.store.read(i, buf)
        return memoryview(buf)[:n]

    def _ack(self, boot, seq):
        """The host has every frame up to (boot, seq). An ACK past the newest frame is ignored, and so is one
        naming a frame of the previous boot past its last (a confused host: it would free that boot's frames the
        host never had; found by an adversarial host)."""
        store = self.store
        if store.count() == 0 or not at_or_before(boot, seq, self.boot, self._next_seq - 1):
            return
        previous = self.previous
        if boot < self.boot and previous is not None and boot == previous[0] and seq > previous[1]:
            return
        dropped = store.drop_through(boot, seq)
        if dropped == 0:
            return
        self._next_write = self._next_write - dropped if self._next_write > dropped else 0
        self._timer = 0
        self._timeout = self.timeout_ms
        if self._probing:
            self._probing = False
            self._next_write = 0      # the host is back: the window goes out again from the oldest
        self._check_alarm()

    def _write_gone(self, payload):
        n = self._enc.encode(self.boot, 0, GONE, payload, self.uptime, self._host)
        self.port.write(memoryview(self._enc.buf)[:n])
        return n

    def _check_alarm(self):
        """Raised at alarm_percent full, cleared at clear_percent or less (on_alarm told of each change); of the
        slots reports may fill, the boot's kept ones apart."""
        level = self.store.count() * 100
        if self.alarm:
            alarm = level > self.report_slots * self.clear_percent
        else:
            alarm = level >= self.report_slots * self.alarm_percent
        if alarm != self.alarm:
            self.alarm = alarm
            if self.on_alarm is not None:
                self.on_alarm(alarm)
