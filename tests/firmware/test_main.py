# Boot and the main loop's passes, on fake hardware (runs on MicroPython too).
import json
import os
import sys

from firmware import faults, main, saved_state, startup, table_codes as t
from firmware.link import frame as fm
from firmware.errors import SettingsError
from firmware.events import HOST_HAND
from tests.firmware.device_helpers import Sender
from tests.firmware.expect import raises_match
from tests.firmware.fakes import FakeLCD, FakeMachine, FakeNeoPixelModule, FakeUART
from tests.firmware.scratch import ScratchDir, exists
from tests.firmware.table_rig import strip


def _table_file(game):
    with open("boards/tables/sim-%s.json" % game) as f:
        config = json.loads(f.read())
    config["table_id"] = "B01"
    return config


def _write(path, data):
    with open(path, "w") as f:
        f.write(json.dumps(data))


def _boot(state, game="craps", missing=(), fs=None):
    """Boot on fake hardware with `state` as the board's flash (a fresh ScratchDir per test).
    Craps by default: between throws its dealer display is the table core's (state, uptime), and
    anything but a dice reader frame on the reader line (uarts[0]) is a fault with its bytes."""
    config = _table_file(game)
    _write(state + "/t_table.json", config)
    FakeLCD.missing = missing
    machine = FakeMachine()
    np = FakeNeoPixelModule()
    machine.usb = FakeUART()                     # the pico's console is the USB REPL port
    ctx = startup.boot(machine, np, "boards/pico.json", state + "/t_table.json", state, FakeLCD, machine.usb, fs=fs)
    return ctx, machine, np


def _run(ctx, passes=60):
    for _ in range(passes):
        main.poll_inputs(ctx, 100)
        main.refresh_outputs(ctx, True)


def _host(machine):
    return [json.loads(line) for line in machine.uarts[1].reports()]


def _press_confirm(ctx, machine):
    pin = machine.pins[ctx.board.buttons[ctx.board.button_index("confirm")][1]]
    pin.level = 0                                  # active low: pressed
    _run(ctx, 5)
    pin.level = 1
    _run(ctx, 5)


def test_boot_reports_and_reaches_ready():
    with ScratchDir() as state:
        ctx, machine, np = _boot(state)
        _run(ctx)
        assert ctx.table.state == t.READY
        reports = _host(machine)
        assert reports[0]["event"] == "boot" and reports[0]["board"] == "pico"
        assert [r["seq"] for r in reports] == list(range(1, len(reports) + 1))
        assert {"seq": reports[-1]["seq"], "table": "B01", "event": "state", "state": "ready"} == reports[-1]
        assert machine.fed >= 60                      # watchdog fed every pass
        assert ctx.hw.displays["dealer"].lines[1] == "READY"
        assert np.strips[0].writes > 0


def test_garbage_from_the_reader_faults_the_table():
    with ScratchDir() as state:
        ctx, machine, _ = _boot(state)
        _run(ctx)
        machine.uarts[0].feed(b"K?\n")
        _run(ctx, 2)
        assert ctx.table.state == t.FAULTED
        assert _host(machine)[-1]["fault"] == "frame_syntax" and _host(machine)[-1]["bytes"] == "K?"
        assert ctx.hw.displays["dealer"].lines[1] == "FRAME_SYNTAX"


def test_overlong_line_dropped_and_faulted():
    with ScratchDir() as state:
        ctx, machine, _ = _boot(state)
        _run(ctx)
        machine.uarts[0].feed(b"K" * 500 + b"\n" + Sender("D")("THROW", "3", "4") + b"\n")
        _run(ctx, 6)                                   # a bounded number of bytes per pass
        events = [r.get("fault") or r.get("dice") for r in _host(machine) if r["event"] in ("fault", "throw")]
        assert events == ["line_too_long", [3, 4]]     # the next good line still arrives


def test_confirm_button_acknowledges():
    with ScratchDir() as state:
        ctx, machine, _ = _boot(state)
        _run(ctx)
        machine.uarts[0].feed(b"zz\n")
        _run(ctx, 2)
        _press_confirm(ctx, machine)
        assert ctx.table.state == t.READY
        assert any(r["event"] == "fault_ack" for r in _host(machine))


def test_missing_display_is_a_fault_not_a_crash():
    with ScratchDir() as state:
        ctx, machine, _ = _boot(state, missing=(38,))
        _run(ctx)
        assert "result" not in ctx.hw.displays
        assert ctx.table.state == t.FAULTED
        assert any(r.get("fault") == "display_missing" for r in _host(machine))


def test_craps_table_reads_the_framed_dice_reader():
    with ScratchDir() as state:
        ctx, machine, _ = _boot(state, "craps")
        _run(ctx)
        dice = Sender("D")
        machine.uarts[0].feed(dice("THROW", "3", "4") + b"\n" + dice("THROW", "6", "7") + b"\n")
        _run(ctx, 3)
        reports = _host(machine)
        assert [r["dice"] for r in reports if r["event"] == "throw"] == [[3, 4]]
        assert any(r.get("fault") == "dice_bad_face" for r in reports)   # Craps art. 1(2): never a throw


def test_bad_table_file_refused():
    with ScratchDir() as state:
        _write(state + "/t_bad.json", {"table_id": "B01", "game": "roulette", "settings": {}})
        raises_match(SettingsError, "roulette", startup.boot, FakeMachine(), FakeNeoPixelModule(),
                     "boards/pico.json", state + "/t_bad.json", state, FakeLCD)
        raises_match(SettingsError, "not found", startup.boot, FakeMachine(), FakeNeoPixelModule(),
                     "boards/nope.json", state + "/t_bad.json", state, FakeLCD)


def _crash(state, message):
    try:
        raise RuntimeError(message)
    except RuntimeError as exc:
        main.record_crash(exc, state)


def _crash_reports(ctx, machine):
    _run(ctx, 5)                  # the boot's reports go out over a few output passes
    return [r["error"] for r in _host(machine) if r["event"] == "crash_recorded"]


def test_crash_recorded_then_reported_at_next_boot():
    with ScratchDir() as state:
        _crash(state, "display task blew up")
        ctx, machine, _ = _boot(state)
        _run(ctx)
        reports = _host(machine)
        assert any(r["event"] == "crash_recorded" and "blew up" in r["error"] for r in reports)
        assert ctx.table.state == t.FAULTED
        assert "blew up" in ctx.crash_record
        ctx2, _, _ = _boot(state)
        assert ctx2.crash_record == ""                 # reported once, kept as crash.prev
        assert exists(state + "/crash.prev") and not exists(state + "/crash.log")


def test_usb_console_answers_commands():
    with ScratchDir() as state:
        ctx, machine, _ = _boot(state)
        _run(ctx)
        machine.usb.feed(b"version\r\nbogus\r\n")
        _run(ctx, 2)
        assert machine.usb.lines() == ["> version", "table firmware 0.1.0", "> bogus",
                                       "error: unknown command 'bogus' (type help)", "> "]


# -- issue 8: the state dir, crash records and faults across resets ---------------------
class NoReplaceFS:
    """os as MicroPython's littlefs/FAT may behave: rename refuses to replace an existing file.

    With refuse_rename every rename fails. Only the operations firmware takes
    from its injected fs are here; open() stays the builtin.
    """

    def __init__(self, refuse_rename=False):
        self.refuse_rename = refuse_rename
        self.refused = 0

    def rename(self, old, new):
        if self.refuse_rename or exists(new):
            self.refused += 1
            raise OSError(17)
        os.rename(old, new)

    def remove(self, name):
        os.remove(name)

    def stat(self, name):
        return os.stat(name)

    def open(self, name, mode="r"):
        return open(name, mode)


def test_each_test_gets_a_fresh_state_dir():
    """A crash or fault left by another test (or an earlier run) is never seen (issue 8 #25)."""
    with ScratchDir() as old:
        _crash(old, "left over from another test")
        with open(old + "/" + saved_state.PENDING_FAULT, "w") as f:
            f.write("1 0\n")
        with ScratchDir() as state:
            assert state != old and os.listdir(state) == []
            ctx, machine, _ = _boot(state)
            _run(ctx)
            assert ctx.table.state == t.READY and _crash_reports(ctx, machine) == []
    assert not exists(state) and not exists(old)       # removed afterwards


def test_crash_reported_once_where_rename_cannot_replace():
    """crash.prev from an earlier crash blocks the rename: the record must still go (issue 8 #16)."""
    with ScratchDir() as state:
        fs = NoReplaceFS()
        _crash(state, "first crash")
        ctx, machine, _ = _boot(state, fs=fs)
        assert len(_crash_reports(ctx, machine)) == 1
        _crash(state, "second crash")
        ctx, machine, _ = _boot(state, fs=fs)          # crash.prev exists now
        assert ["second crash" in e for e in _crash_reports(ctx, machine)] == [True]
        ctx, machine, _ = _boot(state, fs=fs)
        assert _crash_reports(ctx, machine) == [] and ctx.crash_record == ""
        with open(state + "/crash.prev") as f:
            assert "second crash" in f.read()          # the latest record is kept


def test_crash_log_removed_when_it_cannot_be_moved():
    with ScratchDir() as state:
        fs = NoReplaceFS(refuse_rename=True)
        _crash(state, "stuck")
        ctx, machine, _ = _boot(state, fs=fs)
        assert fs.refused == 1 and len(_crash_reports(ctx, machine)) == 1
        assert not exists(state + "/crash.log")
        ctx, machine, _ = _boot(state, fs=fs)
        assert _crash_reports(ctx, machine) == []


def test_unreadable_crash_log_reported_not_fatal():
    with ScratchDir() as state:
        with open(state + "/crash.log", "wb") as f:
            f.write(b"\xff\xfe\x00torn")
        ctx, machine, _ = _boot(state)
        assert "unreadable" in _crash_reports(ctx, machine)[0]
        ctx, machine, _ = _boot(state)
        assert _crash_reports(ctx, machine) == []


def test_unacknowledged_fault_survives_a_reset():
    """A watchdog or power reset does not clear a fault: only the dealer's CONFIRM does (issue 8 #17)."""
    with ScratchDir() as state:
        ctx, machine, _ = _boot(state)
        _run(ctx)
        machine.uarts[0].feed(b"K?\n")
        _run(ctx, 2)
        assert ctx.table.state == t.FAULTED
        ctx, machine, _ = _boot(state)                 # the reset: same flash, new run
        _run(ctx)
        assert ctx.table.state == t.FAULTED and ctx.table.fault_code == faults.FRAME_SYNTAX
        # The table journal replays the event that raised it; the host has its report already, and is
        # told of it once more in the recovery report (firmware/recovery.py), not as a second fault.
        assert [r for r in _host(machine) if r["event"] == "fault"] == []
        recovered = [r for r in _host(machine) if r["event"] == "recovered"]
        assert [(r["state"], r["fault"], r["resumed"]) for r in recovered] == [("fault", "frame_syntax", True)]
        assert ctx.hw.displays["dealer"].lines[1] == "FRAME_SYNTAX"
        assert "fault frame_syntax (from before the reset): the dealer display says CONFIRM OR HOLD VOID" in \
            ctx.console.handle(b"status")
        _press_confirm(ctx, machine)
        assert ctx.table.state == t.READY
        assert not exists(state + "/" + saved_state.PENDING_FAULT)
        ctx, machine, _ = _boot(state)                 # acknowledged: the next boot is clean
        _run(ctx)
        assert ctx.table.state == t.READY
        assert [r for r in _host(machine) if r["event"] == "fault"] == []


def test_torn_or_unreadable_fault_record_is_a_fault_not_a_crash():
    records = (b"", b"1", b"1 0", b"\x00\x00\x00\x00", b"\xff\xfe\n", b"1 x\n", b"0 0\n", b"999 0\n",
               b"1 0 7\n", b"1" * 40 + b" 0\n")
    for record in records:
        with ScratchDir() as state:
            with open(state + "/" + saved_state.PENDING_FAULT, "wb") as f:
                f.write(record)
            ctx, machine, _ = _boot(state)
            _run(ctx)
            assert ctx.table.fault_code == faults.FAULT_RECORD_BAD, record
            assert [r["fault"] for r in _host(machine) if r["event"] == "fault"] == ["fault_record_bad"], record
            from firmware.parts import release
            from firmware.saved_state_read import load_fault      # boot-only (firmware/parts.py): released after
            assert load_fault(state) == (faults.FAULT_RECORD_BAD, 0)    # rewritten whole
            release(("firmware.saved_state_read",))
            _press_confirm(ctx, machine)
            ctx, machine, _ = _boot(state)
            _run(ctx)
            assert ctx.table.state == t.READY, record


def test_fault_record_that_is_not_a_file():
    with ScratchDir() as state:
        os.mkdir(state + "/" + saved_state.PENDING_FAULT)
        ctx, machine, _ = _boot(state)
        _run(ctx)
        reported = [r["fault"] for r in _host(machine) if r["event"] == "fault"]
        assert reported == ["fault_record_bad", "fault_record_unsaved"]   # and it cannot be rewritten


def test_fault_that_cannot_be_saved_is_reported():
    with ScratchDir() as state:
        ctx, machine, _ = _boot(state)
        _run(ctx)
        ctx.state_dir = state + "/gone"                # the flash refuses the write
        machine.uarts[0].feed(b"K?\n")
        _run(ctx, 4)
        reported = [(r["fault"], r.get("bytes", r.get("detail"))) for r in _host(machine) if r["event"] == "fault"]
        assert reported == [("frame_syntax", "K?"), ("fault_record_unsaved", faults.FRAME_SYNTAX)]


def test_dealer_display_shows_the_current_uptime():
    """A TICK that changes the shown second redraws the dealer LCD (issue 8 #15)."""
    with ScratchDir() as state:
        ctx, machine, _ = _boot(state)
        _run(ctx, 160)                                 # 16 s of 100 ms passes
        assert ctx.hw.displays["dealer"].lines[3] == "UP 16s"


def _request(payload):
    return fm.encode(0, 0, "REQUEST", payload)


def test_json_host_request_goes_to_the_game_and_a_refusal_is_reported_with_its_reason_and_bytes():
    with ScratchDir() as state:
        ctx, machine, _ = _boot(state)
        _run(ctx)
        host = machine.uarts[1]
        host.feed(_request('{"hand": {}}'))           # Omaha's request at a game without JSON requests
        host.feed(_request('{"hands": {}}'))          # no request of any game: not understood
        _run(ctx, 4)
        seen = []

        def request(parsed):
            seen.append(parsed)
            if "bad" in parsed:
                raise SettingsError("hand: bad request")
            return HOST_HAND, 0

        ctx.game.host_request = request
        for line in (b'{"hand": {"button": 3}}', b'{"bad": 1}', b'{"hand": [1, 2'):
            host.feed(_request(line))
            _run(ctx, 2)
        host.feed(_request("roads"))                   # the word requests still work
        _run(ctx, 2)
        errors = [strip(r) for r in _host(machine) if r["event"] == "host_error"]
        assert seen == [{"hand": {"button": 3}}, {"bad": 1}]
        assert errors[0] == {"event": "host_error", "error": "not served by this table", "request": "hand"}
        assert errors[1] == {"event": "host_error", "error": "unknown request", "bytes": '{"hands": {}}'}
        assert errors[2] == {"event": "host_error", "error": "not served by this table", "request": "hand"}
        assert errors[3] == {"event": "host_error", "error": "hand: bad request", "bytes": '{"bad": 1}'}
        assert errors[4]["bytes"] == '{"hand": [1, 2' and errors[4]["error"]     # not JSON: the parser's words
        assert errors[5] == {"event": "host_error", "error": "not served by this table", "request": "roads"}
        assert len(errors) == 6


def test_an_open_bets_request_carries_the_room_below_the_links_alarm_and_only_craps_serves_it():
    """The HOST event's b is the frames the answer may take with the host link's store staying below its
    backlog alarm (48 of 64 frames): the table answers within it, less 3 frames kept for a reading."""
    with ScratchDir() as state:
        ctx, machine, _ = _boot(state)
        _run(ctx)
        host = machine.uarts[1]
        host.feed(_request("open_bets"))
        _run(ctx, 2)
        answer = strip(_host(machine)[-1])
        assert answer == {"event": "open_bets", "point": None, "shooter": 1, "count": 0, "bets": {}}
        seen = []
        # The empty answer is reckoned at 2 frames (its envelope at its longest): 47 - held - 3 must hold them.
        for held in (42, 43):
            ctx.sender.held = lambda: held             # (as the store would count them)
            host.feed(_request("open_bets"))
            _run(ctx, 2)
            del ctx.sender.held
            seen.append(strip(_host(machine)[-1]))
        assert seen[0]["event"] == "open_bets"
        assert seen[1] == {"event": "host_error", "request": "open_bets",
                           "error": "open_bets refused: the answer takes 2 frames, the host link has room for 1 "
                                    "now: ask again once it has caught up"}
    with ScratchDir() as state:
        ctx, machine, _ = _boot(state, "baccarat")
        _run(ctx)
        machine.uarts[1].feed(_request("open_bets") + b"open_bets\n")
        _run(ctx, 4)
        errors = [strip(r) for r in _host(machine) if r["event"] == "host_error"]
        assert errors == [{"event": "host_error", "error": "not served by this table", "request": "open_bets"},
                          {"event": "host_error", "error": "unframed request: the host sends requests in REQUEST "
                                                           "frames", "bytes": "open_bets"}]


def test_a_requests_tag_comes_back_in_its_answer_and_its_refusal():
    """The host's tag (`#0.<tag>`: docs/host-link.md) is given back by the answer to a roads, open_bets or
    RECALL request, each recall report, and a refusal of one: a host tells its answer from an older one
    still on the link. Past 4 digits the frame is refused; a request without one gets no `tag`."""
    with ScratchDir() as state:
        ctx, machine, _ = _boot(state)
        _run(ctx)
        host = machine.uarts[1]
        host.feed(fm.encode(0, 7, "REQUEST", "open_bets"))
        _run(ctx, 2)
        assert strip(_host(machine)[-1]) == {"event": "open_bets", "point": None, "shooter": 1, "count": 0,
                                             "bets": {}, "tag": 7}
        ctx.sender.held = lambda: 43                   # no room for it below the alarm: refused, the tag back
        host.feed(fm.encode(0, 9999, "REQUEST", "open_bets"))
        _run(ctx, 2)
        del ctx.sender.held
        refused = strip(_host(machine)[-1])
        assert refused["event"] == "host_error" and "ask again" in refused["error"] and refused["tag"] == 9999
        host.feed(fm.encode(0, 10000, "REQUEST", "open_bets") + fm.encode(0, 3, "REQUEST", "roads")
                  + fm.encode(0, 4, "RECALL", "2") + fm.encode(0, 5, "RECALL", "2"))
        _run(ctx, 8)
        seen = [strip(r) for r in _host(machine)][-4:]
        assert seen[0] == {"event": "host_error", "error": "host frame refused: tag 10000: a request's tag is "
                                                           "0..9999", "bytes": "#0.10000 0 REQUEST open_bets*%s"
                           % fm.encode(0, 10000, "REQUEST", "open_bets")[-9:-1].decode()}
        assert seen[1] == {"event": "host_error", "error": "not served by this table", "request": "roads", "tag": 3}
        assert seen[2] == {"event": "recall", "game": "craps", "asked": 2, "index": 0, "of": 0, "round": None,
                           "tag": 4}                   # (no round kept yet: an empty answer, its tag)
        assert seen[3]["event"] == "recall" and seen[3]["tag"] == 5
        host.feed(_request("open_bets"))
        _run(ctx, 2)
        assert "tag" not in _host(machine)[-1]
    with ScratchDir() as state:
        ctx, machine, _ = _boot(state, "baccarat")
        _run(ctx)
        machine.uarts[1].feed(fm.encode(0, 12, "REQUEST", "roads") + fm.encode(0, 13, "REQUEST", "open_bets"))
        _run(ctx, 4)
        roads, refused = [strip(r) for r in _host(machine)][-2:]
        assert roads["event"] == "roads" and roads["tag"] == 12
        assert refused == {"event": "host_error", "error": "not served by this table", "request": "open_bets",
                           "tag": 13}


def test_a_request_refused_for_its_words_gives_its_tag_back_too():
    """An unknown word, Omaha's hand at a table of another game (not served there, as roads at a Craps table),
    JSON no game reads, or a request the game refuses (Omaha: a stack of -5): the host_error says which
    request it refuses, as every answer does."""
    with ScratchDir() as state:
        ctx, machine, _ = _boot(state)
        _run(ctx)
        machine.uarts[1].feed(fm.encode(0, 31, "REQUEST", "opn_bets") + fm.encode(0, 32, "REQUEST", '{"hand": {}}')
                              + fm.encode(0, 35, "REQUEST", '{"hand": [1') + fm.encode(0, 0, "REQUEST", "opn_bets"))
        _run(ctx, 8)
        assert [strip(r) for r in _host(machine) if r["event"] == "host_error"] == [
            {"event": "host_error", "error": "unknown request", "bytes": "opn_bets", "tag": 31},
            {"event": "host_error", "error": "not served by this table", "request": "hand", "tag": 32},
            {"event": "host_error", "error": "unknown request", "bytes": '{"hand": [1', "tag": 35},
            {"event": "host_error", "error": "unknown request", "bytes": "opn_bets"}]     # untagged: none
    with ScratchDir() as state:
        ctx, machine, _ = _boot(state, "omaha")
        _run(ctx)
        bad = '{"hand": {"stacks": {"1": 100, "2": -5}}}'
        machine.uarts[1].feed(fm.encode(0, 33, "REQUEST", bad) + fm.encode(0, 34, "REQUEST", '{"hand": [1'))
        _run(ctx, 4)
        refused = [strip(r) for r in _host(machine) if r["event"] == "host_error"]
        assert [(r["bytes"], r["tag"]) for r in refused] == [(bad, 33), ('{"hand": [1', 34)], refused
        assert "whole number 0..9999999" in refused[0]["error"]


def test_a_tagged_answer_unacknowledged_at_a_reset_goes_out_again_once_with_its_tag():
    """An answer the host has not acknowledged at a reset goes out again from the link's journal as it was
    made, its tag with it; the recovery's replay of the request (the tag kept with the HOST event in the
    table journal) makes no second one."""
    with ScratchDir() as state:
        ctx, machine, _ = _boot(state)
        _run(ctx)
        machine.uarts[1].acks = False                  # the host away from here on
        machine.uarts[1].feed(fm.encode(0, 21, "REQUEST", "open_bets"))
        _run(ctx, 2)
        assert [r["tag"] for r in _host(machine) if r["event"] == "open_bets"] == [21]
        ctx, machine, _ = _boot(state)                 # a reset, the same flash, nothing acknowledged
        _run(ctx)
        machine.uarts[1].feed(fm.encode(0, 0, "REPLAY"))   # the host: from the oldest frame held
        _run(ctx, 4)
        after = _host(machine)
        assert [(r["event"], r["tag"]) for r in after if r["event"] == "open_bets"] == [("open_bets", 21)], after
        assert any(r["event"] == "recovered" for r in after)


def test_plain_request_lines_are_refused_only_framed_requests_are_served():
    """Error-checked communications only: roads or JSON as a plain line is refused with its bytes;
    a REQUEST frame whose CRC fails is line noise, counted and never acted on."""
    with ScratchDir() as state:
        ctx, machine, _ = _boot(state, "baccarat")
        _run(ctx)
        host = machine.uarts[1]
        host.feed(b"roads\n" + b'{"hand": {}}\n')
        _run(ctx, 4)
        damaged = bytearray(_request("roads"))
        damaged[10] ^= 1
        host.feed(bytes(damaged) + b"ACK*0000\n" + b"#1.1\n" + b"{1.32 0 REPLAY*A9997F43\n")    # noise: no host_error
        host.feed(b"{*A9997F43\n{*0BFF4159\n")     # the shortest such: a `#` hit, the header lost, the CRC left
        _run(ctx, 4)
        errors = [strip(r) for r in _host(machine) if r["event"] == "host_error"]
        reason = "unframed request: the host sends requests in REQUEST frames"
        assert errors == [{"event": "host_error", "error": reason, "bytes": "roads"},
                          {"event": "host_error", "error": reason, "bytes": '{"hand": {}}'}]
        assert ctx.host_noise == 6 and not [r for r in _host(machine) if r["event"] == "roads"]
        host.feed(_request("roads"))
        _run(ctx, 4)
        assert [r["event"] for r in _host(machine)][-1] == "roads"


def test_a_host_frame_with_a_good_crc_the_board_cannot_take_is_a_host_error():
    with ScratchDir() as state:
        ctx, machine, _ = _boot(state)
        _run(ctx)
        machine.uarts[1].feed(fm.encode(0, 0, "HELLO") + fm.encode(0, 0, "REQUEST") + fm.encode(0, 0, "RECALL", "0")
                              + fm.encode(0, 0, "RECALL", "101"))
        _run(ctx, 4)
        errors = [r["error"] for r in _host(machine) if r["event"] == "host_error"]
        assert errors == ["host frame refused: unknown type", "host frame refused: bad argument",
                          "recall 0: ask for 1..100 rounds", "recall 101: ask for 1..100 rounds"]


def _stops_answering(display, addr):
    """Nothing answers at `addr` any more (a loose cable): every write to `display` raises, as machine.I2C does,
    and its setup again too."""
    def dead(*args):
        raise OSError(19)                       # ENODEV: nothing acknowledged the address
    display.show = dead
    FakeLCD.missing = FakeLCD.missing + (addr,)


def test_a_display_that_stops_answering_is_an_alarm_not_a_crash():
    # An LCD's cable worked loose mid-play: its write raised out of the output pass, the loop crashed and the
    # board reset mid-round. Now the display is left out and the table raises display_missing, as for one
    # missing at boot; the other displays go on.
    with ScratchDir() as state:
        ctx, machine, _ = _boot(state, "baccarat")
        _run(ctx)
        assert ctx.table.state == t.READY
        addr = ctx.hw.displays["dealer"].addr
        _stops_answering(ctx.hw.displays["dealer"], addr)
        ctx.table.display_dirty = True
        _run(ctx, 3)
        assert "dealer" not in ctx.hw.displays and ctx.table.state == t.FAULTED
        assert ctx.table.fault_detail == 0             # (no detail: as a display missing at boot)
        # Which display and why first (as at boot), then the alarm's own report.
        said = [r for r in _host(machine) if r["event"] == "fault"]
        assert [r["fault"] for r in said] == ["display_missing", "display_missing"], said
        assert said[0]["text"] == "dealer display at I2C address %d stopped answering: %s" % (addr, OSError(19))
        assert "text" not in said[1], said
        result = ctx.hw.displays["result"]
        result.lines = []
        _press_confirm(ctx, machine)
        assert ctx.table.state == t.READY and result.lines                  # still drawn
        from tests.firmware.console_rig import typed
        assert "display dealer: missing (stopped answering: tried again every 5 s)" in typed(ctx, machine, "selftest")


def _run_ms(ctx, ms):
    for _ in range(ms // 20):
        main.poll_inputs(ctx, 20)
        main.refresh_outputs(ctx, True, 20)


def test_a_display_that_stopped_answering_is_tried_again_and_back_once_it_answers():
    # The cable reseated mid-shoe: without a reset (a reset_in_round alarm mid-round) the display comes back,
    # set up again from its first byte (it lost its power and its setup), drawn whole, and the host hears it.
    from firmware.display_loss import RETRY_MS
    from tests.firmware.console_rig import typed
    with ScratchDir() as state:
        ctx, machine, _ = _boot(state, "baccarat")
        _run(ctx)
        lcd = ctx.hw.displays["dealer"]
        shown = list(lcd.lines)
        _stops_answering(lcd, lcd.addr)               # the cable out: its setup fails too
        ctx.table.display_dirty = True
        _run(ctx, 3)
        assert "dealer" not in ctx.hw.displays and ctx.lost_displays.roles() == ["dealer"]
        _run_ms(ctx, RETRY_MS * 2)
        assert "dealer" not in ctx.hw.displays and getattr(lcd, "restarts", 0) == 0   # tried, still out
        del lcd.show                                  # (FakeLCD.show again)
        FakeLCD.missing = ()                          # reseated
        _run_ms(ctx, RETRY_MS)
        assert ctx.hw.displays["dealer"] is lcd and lcd.restarts == 1 and ctx.lost_displays is None
        alarm = main._dealer_lines(ctx)
        assert lcd.lines == alarm and alarm[0].startswith("ALARM") and alarm != shown   # drawn whole again
        assert [r for r in _host(machine) if r["event"] == "display_back"] == [
            {"seq": _host(machine)[-1]["seq"], "table": "B01", "event": "display_back", "display": "dealer"}]
        assert "display dealer: ok" in typed(ctx, machine, "selftest")
        _press_confirm(ctx, machine)                  # the alarm stays until the dealer closes it
        assert ctx.table.state == t.READY and lcd.lines == shown


def test_a_display_missing_at_boot_is_tried_again_and_taken_once_it_answers():
    # A cable plugged in after the boot: set up from the bring-up's own entry every 5 s until it answers, then
    # in the table as the boot would have taken it (drawn whole), the host told; no reboot needed.
    from firmware.display_loss import RETRY_MS
    from tests.firmware.console_rig import typed
    with ScratchDir() as state:
        ctx, machine, _ = _boot(state, "baccarat", missing=(38,))
        _run_ms(ctx, RETRY_MS * 2)
        assert "result" not in ctx.hw.displays and ctx.lost_displays.missing[0][0] == "result"
        assert "display result: missing (not answering since boot: tried again every 5 s)" in \
            typed(ctx, machine, "selftest")
        assert [line for line in typed(ctx, machine, "status") if line.startswith(
            "bring-up fault display_missing: result display at I2C address 38: ")]
        FakeLCD.missing = ()                          # plugged in
        _run_ms(ctx, RETRY_MS + main.DISPLAY_MS)
        result = ctx.hw.displays["result"]
        assert result.addr == 38 and result.lines == ctx.game.screens.result_lines(ctx.table, ctx.config,
                                                                                    ctx.button_names)
        assert ctx.lost_displays is None and _host(machine)[-1]["event"] == "display_back"
        assert _host(machine)[-1]["display"] == "result"
        assert "display result: ok" in typed(ctx, machine, "selftest")
        assert not [line for line in typed(ctx, machine, "status") if "bring-up fault" in line]
        _press_confirm(ctx, machine)                  # the boot's alarm stays until the dealer closes it
        assert ctx.table.state == t.READY


def test_a_scoreboard_missing_at_boot_is_taken_as_the_boot_takes_it():
    # A Baccarat table's: its scoreboard, drawn whole; a Craps table's: the blank panel, the driver released.
    from firmware.display_loss import RETRY_MS
    for game in ("baccarat", "craps"):
        with ScratchDir() as state:
            ctx, machine, _ = _boot(state, game, missing=(60,))
            _run_ms(ctx, RETRY_MS + main.DISPLAY_MS)
            assert "scoreboard" not in ctx.hw.displays and ctx.game.scoreboard is None
            FakeLCD.missing = ()
            _run_ms(ctx, RETRY_MS + 2 * main.DISPLAY_MS)
            taken = ctx.hw.displays["scoreboard"]
            assert ctx.lost_displays is None and _host(machine)[-1]["event"] == "display_back"
            if game == "baccarat":
                assert taken is ctx.game.scoreboard[1] and ctx.game.scoreboard[0].full_draws == 1
            else:
                assert type(taken).__name__ == "Panel" and ctx.game.scoreboard is None
                assert "firmware.drivers.ssd1306" not in sys.modules
            assert "firmware.game_setup" not in sys.modules         # (boot-only: released again)


def test_a_scoreboard_that_stops_answering_is_left_out_too():
    with ScratchDir() as state:
        ctx, machine, _ = _boot(state, "baccarat")
        _run(ctx)
        oled = ctx.game.scoreboard[1]
        _stops_answering(ctx.game.scoreboard[0], oled.addr)
        ctx.table.scoreboard_dirty = True
        _run(ctx, 3)
        assert ctx.game.scoreboard is None and "scoreboard" not in ctx.hw.displays and oled is not None
        assert ctx.table.state == t.FAULTED and ctx.table.fault_code == faults.DISPLAY_MISSING
        said = [r for r in _host(machine) if r["event"] == "fault"]
        assert said[0]["text"] == "scoreboard display at I2C address %d stopped answering: %s" % (oled.addr,
                                                                                                  OSError(19))
        # Back: set up again, then its whole picture drawn and sent.
        from firmware.display_loss import RETRY_MS
        scoreboard = ctx.lost_displays.out[0][2][0]
        del scoreboard.show
        FakeLCD.missing = ()
        draws, writes = scoreboard.full_draws, oled.i2c.writes
        _run_ms(ctx, RETRY_MS + 200)
        assert ctx.game.scoreboard == (scoreboard, oled) and ctx.hw.displays["scoreboard"] is oled
        assert scoreboard.full_draws == draws + 1 and oled.i2c.writes > writes
        assert _host(machine)[-1]["event"] == "display_back" and _host(machine)[-1]["display"] == "scoreboard"


def test_a_display_pulled_between_two_writes_is_noticed_by_the_probe_within_a_second():
    # Nothing new to show (a Baccarat table between rounds: the scoreboard waits for the next result, mid-round
    # for the next card): the probe asks each display every PROBE_MS all the same, so the alarm comes before the
    # dealer deals on, not at a card it then discards.
    with ScratchDir() as state:
        ctx, machine, _ = _boot(state, "baccarat")
        _run(ctx)
        result = ctx.hw.displays["result"]
        FakeLCD.missing = (result.addr,)
        _run_ms(ctx, main.PROBE_MS)
        assert "result" not in ctx.hw.displays and ctx.lost_displays.roles() == ["result"]
        assert ctx.table.state == t.FAULTED and ctx.table.fault_code == faults.DISPLAY_MISSING
        said = [r for r in _host(machine) if r["event"] == "fault"]
        assert said[0]["text"] == "result display at I2C address %d stopped answering: %s" % (result.addr,
                                                                                               OSError(19))


def test_a_display_reseated_between_two_writes_is_set_up_again_and_drawn_whole_without_an_alarm():
    # Its writes still succeed (the cable is back), but it powered up blank and not set up: the probe's
    # lost_setup() tells it; the table sets it up again, draws it whole, tells the host, and deals on.
    with ScratchDir() as state:
        ctx, machine, _ = _boot(state, "baccarat")
        _run(ctx)
        lcd = ctx.hw.displays["dealer"]
        shown = list(lcd.lines)
        lcd.powered_up = True
        lcd.lines = []                                # (blank: what the glass shows)
        sent = len(_host(machine))
        _run_ms(ctx, main.PROBE_MS + main.DISPLAY_MS)
        assert lcd.restarts == 1 and lcd.lines == shown and ctx.table.state == t.READY
        assert [r["event"] for r in _host(machine)[sent:]] == ["display_restarted"]
        assert _host(machine)[-1]["display"] == "dealer" and ctx.lost_displays is None
        # Its setup failing (the cable out again meanwhile): lost, as a write's failure is.
        lcd.powered_up = True

        def setup_fails():
            raise OSError(5)
        lcd.init_display = setup_fails
        _run_ms(ctx, main.PROBE_MS)
        assert "dealer" not in ctx.hw.displays and ctx.lost_displays.roles() == ["dealer"]
        assert ctx.table.fault_code == faults.DISPLAY_MISSING


def test_the_probe_leaves_a_display_test_s_pattern_alone():
    from tests.firmware.console_rig import boot_with_pin, login, typed
    with ScratchDir() as state:
        ctx, machine, _ = boot_with_pin(state, "baccarat")
        login(ctx, machine)
        typed(ctx, machine, "display test")
        lcd = ctx.hw.displays["dealer"]
        lcd.powered_up = True
        _run_ms(ctx, main.PROBE_MS)
        assert not getattr(lcd, "restarts", 0) and lcd.lines[0] == "DEALER DISPLAY TEST"


def test_one_glitch_on_the_bus_is_not_a_display_lost_nor_restarted():
    # The probe asks again at once: a failed read, or one answer of a powered-up display, the next answer
    # does not confirm, is no alarm (it would hold the game, the cards read meanwhile discarded) and no setup.
    with ScratchDir() as state:
        ctx, machine, _ = _boot(state, "baccarat")
        _run(ctx)
        _press_confirm(ctx, machine)
        lcd = ctx.hw.displays["dealer"]
        answers = []

        def glitchy():
            if answers:
                answer = answers.pop(0)
                if answer is None:
                    raise OSError(5)
                return answer
            return False
        lcd.lost_setup = glitchy
        sent = len(_host(machine))
        for glitch in ([None], [True, False]):
            answers[:] = glitch
            _run_ms(ctx, main.PROBE_MS)
            assert not answers and ctx.hw.displays["dealer"] is lcd and not getattr(lcd, "restarts", 0)
        assert _host(machine)[sent:] == [] and ctx.table.state == t.READY and ctx.lost_displays is None
        answers[:] = [None, None]                    # twice no answer: out
        _run_ms(ctx, main.PROBE_MS)
        assert "dealer" not in ctx.hw.displays and ctx.table.fault_code == faults.DISPLAY_MISSING


def test_one_write_that_fails_is_a_display_set_up_again_not_an_alarm():
    # Noise on the bus fails one write; the display answers its setup at once: drawn whole, the host told, the
    # game goes on (an alarm would hold it, the cards read meanwhile discarded).
    with ScratchDir() as state:
        ctx, machine, _ = _boot(state, "baccarat")
        _run(ctx)
        _press_confirm(ctx, machine)
        lcd = ctx.hw.displays["dealer"]
        shown = list(lcd.lines)
        failed = []

        def glitch(lines):
            del lcd.show                              # (FakeLCD.show again)
            failed.append(lines)
            raise OSError(5)
        lcd.show = glitch
        sent = len(_host(machine))
        ctx.table.display_dirty = True
        _run(ctx, 3)
        assert failed and lcd.restarts == 1 and lcd.lines == shown and ctx.hw.displays["dealer"] is lcd
        assert [r["event"] for r in _host(machine)[sent:]] == ["display_restarted"]
        assert ctx.table.state == t.READY and ctx.lost_displays is None


def test_a_display_missing_at_boot_gets_no_driver_made_while_nothing_answers():
    # The retry asks the address first: no driver (an SSD1306's 1 KB picture) made and dropped every 5 s.
    from firmware.display_loss import RETRY_MS
    with ScratchDir() as state:
        ctx, machine, _ = _boot(state, "baccarat", missing=(60,))
        made = []

        def counted(*args):
            made.append(args)
            raise OSError(19)
        role, _, i2c, addr, width, height = ctx.lost_displays.missing[0]
        ctx.lost_displays.missing[0] = (role, counted, i2c, addr, width, height)
        _run_ms(ctx, RETRY_MS * 3)
        assert made == [] and ctx.lost_displays.missing[0][0] == "scoreboard"
        FakeLCD.missing = ()
        _run_ms(ctx, RETRY_MS)
        assert len(made) == 1                         # it answers: the driver made (here: refused still)


def test_the_output_pass_sends_the_scoreboard_s_changes_not_its_whole_picture():
    # Issue 14: a result's draw paints a window or two of the scoreboard; the pass sends those (Scoreboard.show:
    # up to its whole 1 KB picture is ~23 ms on the I2C bus at 400 kHz), the whole picture only when it is new.
    with ScratchDir() as state:
        ctx, machine, _ = _boot(state, "baccarat")
        _run(ctx)
        scoreboard, oled = ctx.game.scoreboard
        whole = []
        show = oled.show
        oled.show = lambda: (whole.append(1), show())
        ctx.table.scoreboard_dirty = True
        _run(ctx, 3)
        assert whole == [] and not ctx.table.scoreboard_dirty
        scoreboard.forget()                           # a picture to paint anew: the whole of it
        ctx.table.scoreboard_dirty = True
        _run(ctx, 3)
        assert whole == [1]
