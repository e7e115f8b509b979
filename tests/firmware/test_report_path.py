# The host report path does each piece of work once (issue 14: the report path on the MicroPython VM):
# what a report, a frame or a pass skips is counted here, so putting the repeated work back fails.
# (Runs on MicroPython too: .venv/bin/python -m tools.mpvm tests.firmware.test_report_path)
import json

from firmware.games.baccarat import recall as bac_recall
from firmware.games.baccarat import reports as bac_reports
from firmware.games.craps import recall as craps_recall
from firmware.link import frame as fm
from firmware.link.journal_store import JournalStore
from firmware.link.sender import Sender
from firmware.link.stamp import Stamp
from firmware.link.ram_store import RamStore
from firmware.report import Reporter
from firmware.round_recall import RoundRecall
from firmware.table_codes import OUT_GAME_FIRST
from firmware.games.baccarat.codes import OUT_RESULT, OUT_SHOE
from firmware.games.craps.codes import OUT_PUCK
from firmware.games.omaha.codes import OUT_BUTTON_SET
from tests.firmware.booted import boot_pico
from tests.firmware.expect import count_calls
from tests.firmware.scratch import ScratchDir


def _game_modules_counted(table):
    return count_calls(table, "game_modules")[0]


def test_a_tables_game_reports_look_its_game_modules_up_once():
    # game_modules() is an import statement: ~14 us of the VM a call, four times the making of a card's
    # report. A table looks its reports module up at its first game report, never again.
    cases = (("baccarat", OUT_SHOE, 0, 8, ("shoe", {"shoe": "new", "decks": 8})),
             ("craps", OUT_PUCK, 6, 0, ("puck", {"puck": "on", "point": 6})),
             ("omaha", OUT_BUTTON_SET, 3, 0, ("dealer_button", {"seat": "3"})))
    for game, code, a, b, wanted in cases:
        with ScratchDir() as state:
            table = boot_pico(state, game).table
            table.game_report(code, a, b)
            calls = _game_modules_counted(table)
            for _ in range(3):
                assert table.game_report(code, a, b) == wanted, game
            assert calls[0] == 0, (game, calls[0])


def test_a_table_looks_its_game_modules_up_at_its_first_game_report():
    with ScratchDir() as state:
        table = boot_pico(state, "craps").table
        table._game_reports = None                 # as a table that has made no game report yet
        calls = _game_modules_counted(table)
        assert table.game_report(OUT_PUCK, 0, 0) == ("puck", {"puck": "off", "point": None})
        assert table.game_report(OUT_PUCK, 4, 0) == ("puck", {"puck": "on", "point": 4})
        assert calls[0] == 1


# -- the round kept for recall takes what the result report made ------------------------------------------
class _Obj:
    def __init__(self, **fields):
        for key in fields:
            setattr(self, key, fields[key])


def _baccarat_table(void, seats=7):
    width = len(bac_recall.ZONES)
    bets = [0] * (seats * width)
    nets = [0] * (seats * width)
    for seat in range(0, seats, 2):                    # every other seat bets, on two zones
        bets[seat * width] = 100
        bets[seat * width + 3] = 5
        nets[seat * width] = 0 if void else 100 - seat
        nets[seat * width + 3] = 0 if void else -5
    hand = _Obj(order=[0, 1, 0, 1, 1], player=[10, 11], banker=[13, 14, 40])
    result = _Obj(winner=1, player_total=3, banker_total=7, player_pair=False, banker_pair=False)
    return _Obj(record=_Obj(void=void, demo=False, result=result), last_hand=hand, has_bets=True, seats=seats,
                round_bets=bets, nets=nets, slots_round=None)      # (no bet slots taken: nets by seat walked)


def test_a_baccarat_round_sums_the_result_reports_nets_instead_of_walking_the_bets_again():
    # Baccarat art. 10 (a void round returns every bet: nets 0) and the settled nets: the round kept for
    # recall has each seat's net, which the result report's nets by seat and zone already hold: summed
    # from there (11 us of the VM's 21 for 7 seats), the same entry as from the table's arrays.
    walks, plain = count_calls(bac_recall, "seat_nets")
    try:
        for void in (False, True):
            table = _baccarat_table(void)
            fields = bac_reports.result_fields(table, 12)
            from_table = bac_recall.round_of(table, OUT_RESULT, 12, 0, None)
            assert walks[0] == 1
            walks[0] = 0
            from_report = bac_recall.round_of(table, OUT_RESULT, 12, 0, None, fields)
            assert walks[0] == 0, void
            assert from_report == from_table and json.dumps(from_report) == json.dumps(from_table)
            assert list(from_report["nets"]) == list(fields["nets"])      # (MicroPython: in hash order)
            assert sorted(from_report["nets"], key=int) == ["1", "3", "5", "7"]
            assert from_report["nets"]["3"] == (0 if void else 93)
    finally:
        bac_recall.seat_nets = plain


def test_a_baccarat_round_takes_its_cards_names_from_the_result_report_in_dealing_order():
    # Baccarat art. 7 (P, B, P, B, then the third cards): the round kept for recall lists the cards as
    # dealt; the result report has named both hands already (cards.names), so the round names none
    # again (a last card's pass: 29 -> 20 us of the VM for round_of with 6 cards).
    from firmware import cards
    for void in (False, True):
        table = _baccarat_table(void)
        fields = bac_reports.result_fields(table, 12)
        named, plain = count_calls(cards, "name")
        listed, plain_names = count_calls(cards, "names")
        try:
            from_report = bac_recall.round_of(table, OUT_RESULT, 12, 0, None, fields)
            assert (named[0], listed[0]) == (0, 0), void
            from_table = bac_recall.round_of(table, OUT_RESULT, 12, 0, None)
            assert listed[0] > 0
        finally:
            cards.name = plain
            cards.names = plain_names
        assert from_report == from_table and json.dumps(from_report) == json.dumps(from_table)
        assert from_report["cards"] == [cards.name(c) for c in (10, 13, 11, 14, 40)]


def test_the_reporter_hands_the_result_reports_fields_to_the_round():
    seen = []

    class _Rounds:
        ROUND_MAX = 640
        ROUND_CODES = (OUT_GAME_FIRST,)

        def round_of(self, table, code, a, b, previous, fields=None):
            seen.append((code, fields))
            return None

    class _Table:
        report_runs = (OUT_GAME_FIRST,)

        def game_report(self, code, a, b):
            return "result", {"round": a}

    with ScratchDir() as state:
        reporter = Reporter(None, "T1", [])
        reporter.recall = RoundRecall(state, "baccarat", None, _Rounds())
        reporter._send_outbox_entry(_Table(), OUT_GAME_FIRST, 4, 1)     # a run of one report (drain's other case)
        assert seen == []                       # noted: the round is made when it is kept
        reporter.recall.keep_waiting()
    assert seen == [(OUT_GAME_FIRST, {"round": 4})]


def test_a_craps_round_sums_each_seats_zones():
    nets = {"2": {"pass": 10, "field": -10, "hard_6": 90}, "10": {"any_seven": -5}}
    assert craps_recall.seat_nets(nets) == {"2": 90, "10": -5}
    assert list(craps_recall.seat_nets(nets)) == list(nets)


# -- the frames of a pass go out in one write -------------------------------------------------------------
class _Port:
    """A host UART: what was written, and in how many writes."""

    def __init__(self):
        self.data = b""
        self.writes = []

    def write(self, data):
        self.data += bytes(data)
        self.writes.append(len(data))
        return len(data)


_LONG = '{"event": "result", "nets": {%s}}' % ", ".join('"%d": {"player_pair": %d}' % (s, 9500 * s) for s in range(1, 21))


def _pass_reports(sender, k):
    sender.send('{"event": "card", "card": "Qs", "n": %d}' % k)
    sender.send(_LONG)                                 # PART frames and its REPORT frame
    sender.send('{"event": "state", "state": "betting"}')


def _run_link(store, rounds, budget=0, window=8):
    """rounds passes of 3 reports (7 frames); the host acknowledges all after each. -> the port."""
    port = _Port()
    sender = Sender(port, store, 3, window=window, budget=budget, piece=128)
    for k in range(rounds):
        if hasattr(store, "event"):
            store.event = k + 1                        # a journalled event's reports: batched
        _pass_reports(sender, k)
        if hasattr(store, "event"):
            store.event = 0
        for _ in range(20):                            # a small window or budget: poll by poll
            sender.poll(10)
            last = port.data[:-1].split(b"\n")[-1]
            sender.receive(fm.encode(3, int(last.split(b" ")[0].split(b".")[1]), "ACK")[:-1])
            if not store.count():
                break
        assert store.count() == 0
    return port


def test_a_passs_frames_side_by_side_in_ram_go_out_in_one_write():
    # The link store on flash keeps its newest frames in a RAM ring, one after another: the frames of a
    # pass (a card, a result in PARTs, a state: 7 frames) are written to the host port with ONE call,
    # the same bytes as frame by frame (a RamStore's slots: a write a frame).
    with ScratchDir() as state:
        ring = _run_link(JournalStore(state, None, 64, 200), 12)
    slots = _run_link(RamStore(64, 200), 12)
    assert ring.data == slots.data
    frames = slots.data.count(b"\n")
    assert frames == 12 * 7 + 1 and len(slots.writes) == frames    # OPEN, then 7 frames a pass
    # A pass's 7 frames in one write, in two where the ring (1,988 bytes) goes on at its start.
    assert len(ring.writes) <= 1 + 12 * 2 and len(ring.writes) < frames // 3


def test_frames_across_the_end_of_the_ram_ring_are_read_and_written_the_same():
    # Frames of 60..180 bytes in a ring of 2 x 200 bytes: most wrap, some meet its end exactly; each
    # reads back (read, view, runs) and goes out on the wire as the RamStore's would, with a budget too.
    for budget in (0, 300):
        with ScratchDir() as state:
            store = JournalStore(state, None, 64, 200, ram_frames=2)
            ring = _run_link(store, 9, budget, window=2)
        slots = _run_link(RamStore(64, 200), 9, budget, window=2)
        assert ring.data == slots.data, budget
        if budget:
            assert max(ring.writes) <= budget
    buf = bytearray(200)
    with ScratchDir() as state:
        store = JournalStore(state, None, 64, 200, ram_frames=2)
        store.event = 1
        made = []
        for k in range(41):
            data = fm.encode(3, k + 1, "REPORT", '{"n": "%s"}' % ("x" * (40 + (37 * k) % 100)))
            made.append(data)
            store.append(3, k + 1, data, len(data))
            newest = store.count() - 1
            for i in (newest - 1, newest):
                if i < 0:
                    continue
                assert bytes(buf[:store.read(i, buf)]) == made[i]
                view = store.view(i)
                j = store.run(i, i + 1, -1, True)
                assert (view is None) == (j < 0)
                if view is not None:
                    assert bytes(view) == made[i] == bytes(store.run_view(i, j))
            if newest >= 1 and store.run(newest - 1, newest + 1, -1, True) == newest + 1:
                assert bytes(store.run_view(newest - 1, newest + 1)) == made[newest - 1] + made[newest]
        store.flush()
        assert [bytes(buf[:store.read(i, buf)]) for i in range(store.count())] == made    # older: flash


def test_a_run_keeps_within_the_room_but_always_takes_the_first_frame():
    with ScratchDir() as state:
        store = JournalStore(state, None, 16, 200)
        store.event = 1
        sizes = []
        for k in range(5):
            data = fm.encode(3, k + 1, "REPORT", '{"n": "%s"}' % ("x" * 90))
            store.append(3, k + 1, data, len(data))
            sizes.append(len(data))
        n = sizes[0]
        assert store.run(0, 5, -1, False) == 5
        assert store.run(0, 5, 2 * n, False) == 2 and store.run(0, 5, 2 * n - 1, False) == 1
        assert store.run(0, 5, n - 1, False) == 0 and store.run(0, 5, n - 1, True) == 1
        assert store.run(0, 5, n, False) == 1          # a frame that fits the room exactly goes
        assert store.run(1, 3, -1, False) == 3
        assert len(store.run_view(1, 3)) == 2 * n


# -- a report's text is checked printable once, in C ---------------------------------------------------------
def _reporter():
    from tests.firmware.fakes import FakeUART
    port = FakeUART()
    return Reporter(Sender(port, RamStore(16, 200), 1, piece=128), "T1", []), port


def test_a_reports_json_is_checked_printable_without_the_regex_search():
    # check_printable's regex search cost the VM ~12 us for a Baccarat result's 470 bytes, a fifth of its
    # frames' encoding: json.dumps escapes every character below the space, so the Reporter looks for what
    # is left (DEL, a character not ASCII) in C and tells the Sender its text is checked.
    from firmware import report as report_mod
    reporter, port = _reporter()
    calls, plain = count_calls(fm, "check_printable")
    calls_here, plain_here = count_calls(report_mod, "check_printable")
    try:
        reporter.emit("card", {"card": "Qc", "to": "banker"})                     # one frame
        reporter.emit("result", {"nets": dict((str(s), {"banker": -100, "player_pair": -5}) for s in range(9))})
    finally:
        fm.check_printable = plain
        report_mod.check_printable = plain_here
    assert calls[0] == 0 and calls_here[0] == 0
    reporter.sender.poll(0)                                 # out on the link (a window of 8 frames)
    texts = [json.loads(text) for text in port.reports()]
    assert [t["event"] for t in texts] == ["card", "result"] and len(texts[1]["nets"]) == 9


def test_a_report_with_a_character_outside_printable_ascii_never_goes_out_raw():
    # DEL and a character not ASCII pass json.dumps raw on MicroPython (CPython escapes them): no frame
    # may carry them, so the report is refused as unsendable there, naming the byte; short or in PARTs.
    from firmware.compat import IS_MICROPYTHON
    for odd, byte in (("\x7f", 127), ("\u00e9", 195)):
        for size in (10, 400):
            reporter, port = _reporter()
            reporter.emit("card", {"card": "Q" + odd + "x" * size})
            reporter.sender.poll(0)
            texts = [json.loads(text) for text in port.reports()]
            assert len(texts) == 1
            if IS_MICROPYTHON:
                assert texts[0]["fault"] == "report_unsendable" and texts[0]["report"] == "card"
                assert texts[0]["error"] == "payload byte %d is not printable ASCII" % byte
            else:
                assert texts[0]["card"] == "Q" + odd + "x" * size


def test_the_first_frame_after_a_poll_writes_only_its_seqs_digit_and_the_stamps_again():
    # A pass's first frame follows a poll that moved the Sender's Stamps (the same objects): seq is
    # bumped in place as for the frames of one pass and only the stamps' digits are written again after
    # it (issue 14: ~3 us of the VM a pass), not boot's and seq's. Every frame
    # is the one a fresh encoder makes: a stamp gaining digits and losing them (a host's TIME set
    # back), its low part carrying into the high one, the host's time with it, and seq carried (9 -> 10,
    # written whole: a digit more).
    enc = fm.Encoder()
    uptime = Stamp(7)
    host = Stamp(1764525652433)
    puts, plain_put_uint = count_calls(fm, "put_uint")
    try:
        for h in (-1, host):
            enc.encode(5, 1, b"REPORT", b"{}", uptime, h)
            for seq, up_ms, host_ms in ((2, 993, 0), (3, 999000, 1), (4, 1000, 567), (5, 0, 999999),
                                        (6, 2 ** 30, 0), (7, 1, 0), (8, 0, 0), (9, 3, 2), (10, 7, 0), (11, 2, 0)):
                uptime.add(up_ms)
                host.add(host_ms)
                if seq == 8:
                    uptime.set(12)                 # (not a Sender's: its uptime only grows)
                    host.set(1764525652433)
                calls = puts[0]
                n = enc.encode(5, seq, b"REPORT", b"{}", uptime, h)
                whole = seq == 10
                wanted = 3 if whole else 1         # boot, seq, the uptime's low part (a put_stamp's own)
                if uptime.hi:
                    wanted -= 1                    # its digits by put_stamp
                assert puts[0] - calls == wanted, (seq, h)
                assert bytes(enc.buf[:n]) == fm.encode(5, seq, "REPORT", "{}", uptime.ms(),
                                                       -1 if h == -1 else host.ms()), (seq, h)
                n = enc.encode(5, seq + 1, b"PART", b"{}", uptime, h)
                assert bytes(enc.buf[:n]) == fm.encode(5, seq + 1, "PART", "{}", uptime.ms(),
                                                       -1 if h == -1 else host.ms()), (seq, h)
                enc.encode(5, seq, b"REPORT", b"{}", uptime, h)     # (the next frame follows seq again)
    finally:
        fm.put_uint = plain_put_uint
