# The input pass on fake hardware: reader lines, their faults with the offending bytes, bounded work,
# the reader port a game does not use (runs on MicroPython too).
import json

from firmware import events, faults, main, startup
from firmware.hardware import line_timeout_ms
from firmware.device_frame import crc16
from tests.firmware.device_helpers import Sender
from tests.firmware.fakes import FakeLCD, FakeMachine, FakeNeoPixelModule
from tests.firmware.scratch import ScratchDir
from tests.firmware.test_main import _boot, _host, _run


def _boot_sim(state, game):
    """Boot on boards/sim.json, where shoe, dice, host and console each have a UART of their own."""
    FakeLCD.missing = ()
    machine = FakeMachine()
    ctx = startup.boot(machine, FakeNeoPixelModule(), "boards/sim.json", "boards/tables/sim-%s.json" % game,
                    state, FakeLCD)
    return ctx, machine


_SIM_HOST = 3                                       # boards/sim.json's host UART (pico's is _host's 1)


def _sim_host(machine):
    return [json.loads(line) for line in machine.uarts[_SIM_HOST].reports()]


def _inputs(machine, reports=None):
    """What the host heard about reader input: (event, value[, bytes or detail]) in order."""
    out = []
    for r in _host(machine) if reports is None else reports:
        if r["event"] == "card":                    # a game's report of a card from the framed shoe
            out.append(("card", r["card"]))
        elif r["event"] == "throw":
            out.append(("throw", r["dice"], r.get("no_roll")))
        elif r["event"] == "fault":
            out.append(("fault", r["fault"], r["bytes"] if "bytes" in r else r.get("detail", r.get("card"))))
    return out


def test_truncated_reader_line_does_not_swallow_the_next_line():
    with ScratchDir() as state:
        # Issue 8 item 10: "K", a pause, then "Ah\n" gave one bad_card and the A of hearts was never seen.
        ctx, machine, _ = _boot(state)
        _run(ctx)
        reader = machine.uarts[0]
        reader.feed(b"K")
        _run(ctx, 2)                                    # 100 ms a pass: longer than the line timeout
        reader.feed(Sender("D")("THROW", "3", "4") + b"\n")
        _run(ctx, 2)
        # The throw is read (the partial line's fault holds it for the dealer, as every reader fault does).
        assert _inputs(machine) == [("fault", "partial_line", "K"), ("throw", [3, 4], "alarm")]


def test_reader_ports_time_out_and_the_console_does_not():
    with ScratchDir() as state:
        ctx, machine = _boot_sim(state, "baccarat")
        shoe = ctx.game.devices[0].source
        assert shoe.timeout_ms == line_timeout_ms(ctx.board.ports["shoe"]["baudrate"]) > 0
        assert ctx.unused_reader.timeout_ms > 0
        assert ctx.console_port.timeout_ms == 0         # a technician types slowly
        _run(ctx)
        console = machine.uarts[4]
        for ch in b"version":
            console.feed(bytes([ch]))
            _run(ctx, 3)                                # 300 ms between keys
        console.feed(b"\r\n")
        _run(ctx, 1)
        assert console.lines() == ["> version", "table firmware 0.1.0", "> "]   # echoed as typed


def test_dice_digits_beyond_ascii_are_faults_not_a_crash_or_a_throw():
    with ScratchDir() as state:
        # Issue 8 item 1: "1 \u00b2" raised inside poll_inputs on CPython; "\u0663 4" was a roll of 3 and 4.
        # The dice reader is framed now: such a frame, checksum and all, is still never a throw.
        ctx, machine, _ = _boot(state, "craps")
        _run(ctx)
        dice = machine.uarts[0]
        for body in ("D1 00 THROW 1 \u00b2", "D1 01 THROW \u0663 4"):
            data = body.encode()
            dice.feed(data + b"*%04X\n" % crc16(data))
            _run(ctx, 2)
        dice.feed(Sender("D", counter=2)("THROW", "3", "4") + b"\n")
        _run(ctx, 2)
        found = _inputs(machine)
        assert [f[0] for f in found] == ["fault", "fault", "throw"] and found[2][1:] == ([3, 4], "alarm"), found


def test_unknown_no_roll_flag_is_a_fault_not_a_no_roll():
    with ScratchDir() as state:
        # Issue 8 item 2: "noroll whatever" was a no-roll with reason "other" (Craps art. 3(2)).
        ctx, machine, _ = _boot(state, "craps")
        _run(ctx)
        dice = Sender("D")
        machine.uarts[0].feed(dice("THROW", "3", "4", "whatever") + b"\n" + dice("THROW", "3", "4", "short") + b"\n")
        _run(ctx, 3)
        found = _inputs(machine)
        assert [f[:2] for f in found] == [("fault", "dice_bad_flag"), ("throw", [3, 4])]
        assert found[1][2] == "alarm"                   # the reader's fault holds the table: not decided


def test_fault_reports_carry_the_escaped_bytes_and_counts_stay_details():
    with ScratchDir() as state:
        ctx, machine, _ = _boot(state)
        _run(ctx)
        machine.uarts[0].feed(b"K?\n\x1b[2J\\\n")      # a terminal escape sequence must not reach a log raw
        _run(ctx, 3)
        ctx.table.dispatch(events.FAULT, faults.QUEUE_FULL, 5)
        main.refresh_outputs(ctx, False)
        reported = [r for r in _host(machine) if r["event"] == "fault"]
        assert reported[0] == {"seq": reported[0]["seq"], "table": "B01", "event": "fault",
                               "fault": "frame_syntax", "bytes": "K?"}
        assert reported[1]["bytes"] == "\\x1b[2J\\x5c"
        assert reported[2]["fault"] == "queue_full" and reported[2]["detail"] == 5 and "bytes" not in reported[2]


def test_overlong_line_fault_shows_its_first_bytes():
    with ScratchDir() as state:
        ctx, machine, _ = _boot(state)
        _run(ctx)
        machine.uarts[0].feed(b"0123456789" * 30 + b"\n" + Sender("D")("THROW", "3", "4") + b"\n")
        _run(ctx, 6)
        found = _inputs(machine)
        assert [f[:2] for f in found] == [("fault", "line_too_long"), ("throw", [3, 4])]
        assert found[0][2].startswith("0123456789012345678901234567890123456789")


def test_flood_without_line_end_is_read_in_bounded_steps_and_the_watchdog_is_fed():
    with ScratchDir() as state:
        # Issue 8 item 11: `while uart.any()` on an endless stream held the loop until the watchdog reset.
        ctx, machine, _ = _boot(state)
        _run(ctx)
        shoe = machine.uarts[0]
        budget = ctx.game.devices[0].source.budget
        flood = 1000
        shoe.feed(b"K" * flood)
        machine.usb.feed(b"x" * flood)                  # the console port too
        fed = machine.fed
        main.poll_inputs(ctx, 10)
        assert machine.fed == fed + 1
        assert shoe.any() >= flood - budget
        assert machine.usb.any() >= flood - ctx.console_port.budget
        passes = 1
        while shoe.any():
            main.poll_inputs(ctx, 1)
            passes += 1
        assert passes > flood // budget and machine.fed == fed + passes
        shoe.feed(b"\n" + Sender("D")("THROW", "3", "4") + b"\n")
        _run(ctx, 4)                     # reports leave within a few output passes (the link budget)
        found = _inputs(machine)
        assert [f[:2] for f in found] == [("fault", "line_too_long"), ("throw", [3, 4])]   # one long line, one fault
        assert found[0][2].startswith("KKKK")


def test_lines_on_the_unused_reader_port_are_counted_and_reported_once():
    with ScratchDir() as state:
        # Issue 8 item 22: 13 dice lines on a Baccarat table had no effect and no counter.
        ctx, machine = _boot_sim(state, "baccarat")
        _run(ctx)
        dice = machine.uarts[2]
        dice.feed(b"3 4\n" * 13)
        _run(ctx, 15)
        dice.feed(b"\xff" * 300)                        # garbage counts too: one overlong line...
        _run(ctx, 6)                                    # (read in bounded steps, then a pause ends it)
        dice.feed(b"2 ")                                # ...and one that stops mid-way
        _run(ctx, 3)
        assert ctx.unexpected_lines == 15
        unexpected = [r for r in _sim_host(machine) if r.get("fault") == "unexpected_input"]
        assert len(unexpected) == 1
        assert unexpected[0]["port"] == "dice" and unexpected[0]["bytes"] == "3 4"
        machine.uarts[1].feed(Sender("S")("CARD", "Kh", "D") + b"\n")   # the shoe is still read
        _run(ctx, 2)
        assert _inputs(machine, _sim_host(machine))[-1] == ("card", "Kh")   # read (set aside: the alarm is open)


def test_a_first_unexpected_line_too_long_is_reported_from_its_first_byte():
    # The first line on the unused port is the fault's evidence; one the line buffer could not hold (the port's
    # fault, no line) is kept from the buffer's first byte, as the port's own line_too_long shows it.
    with ScratchDir() as state:
        ctx, machine = _boot_sim(state, "baccarat")
        _run(ctx)
        machine.uarts[2].feed(b"ABCDEFGH" * 40)
        _run(ctx, 6)
        unexpected = [r for r in _sim_host(machine) if r.get("fault") == "unexpected_input"]
        assert len(unexpected) == 1 and unexpected[0]["bytes"].startswith("ABCDEFGHABCD"), unexpected


def test_shoe_lines_on_a_craps_table_are_unexpected_input_on_the_shoe_port():
    with ScratchDir() as state:
        ctx, machine = _boot_sim(state, "craps")
        _run(ctx)
        machine.uarts[1].feed(b"Kh\n")
        _run(ctx, 2)
        machine.uarts[2].feed(Sender("D")("THROW", "3", "4") + b"\n")
        _run(ctx, 2)
        assert _inputs(machine, _sim_host(machine)) == [("fault", "unexpected_input", "Kh"),
                                                        ("throw", [3, 4], "alarm")]   # held: every fault holds
        assert [r["port"] for r in _sim_host(machine) if r.get("fault") == "unexpected_input"] == ["shoe"]
        assert ctx.unexpected_lines == 1


def test_shared_reader_uart_has_no_unused_port_to_watch():
    with ScratchDir() as state:
        # pico: shoe and dice share UART 0 (board_ports.SHAREABLE_PORTS); that UART is the game's own reader.
        ctx, machine, _ = _boot(state, "craps")
        assert ctx.unused_reader is None
        _run(ctx)
        machine.uarts[0].feed(b"Kh\n")
        _run(ctx, 2)
        assert _inputs(machine) == [("fault", "frame_syntax", "Kh")]
        assert ctx.unexpected_lines == 0
        assert json.loads(machine.uarts[1].reports()[0])["board"] == "pico"


def _omaha_request(payload, events=("host_error", "hand_start"), tags=(0,)):
    """A REQUEST frame with this payload to a booted Omaha table (one a tag, in turn): its host reports of
    those events."""
    from firmware.link import frame as fm
    with ScratchDir() as state:
        ctx, machine, _ = _boot(state, "omaha")
        _run(ctx)
        for tag in tags:
            machine.uarts[1].feed(fm.encode(0, tag, "REQUEST", payload))
            _run(ctx, 4)
        return [r for r in _host(machine) if r["event"] in events]


def test_a_tagged_hand_request_gets_its_tag_back_in_the_hand_start_or_the_refusal():
    # The host's tag (`#0.<tag>`, docs/host-link.md): the hand a request started says which request it was;
    # the same request again while that hand runs is refused with its own tag.
    got = _omaha_request('{"hand": {"stacks": {"1": 100, "2": 100}}}', tags=(21, 22))
    assert [(r["event"], r.get("error"), r.get("tag")) for r in got] == [
        ("hand_start", None, 21), ("host_error", "hand refused: a hand is in play", 22)]
    assert _omaha_request('{"hand": {"stacks": {"1": 100, "2": 100}}}')[0].get("tag") is None


def test_a_host_request_with_a_key_twice_is_refused_not_read_as_its_last():
    # {"stacks": {"1": 100, "1": 200, ...}}: the JSON parser keeps the last value silently, so the hand
    # started with seat 1 at 200 where the host's own first words said 100. Refused, as table.json is.
    payload = '{"hand": {"stacks": {"1": 100, "1": 200, "2": 100}}}'
    assert [(r["event"], r.get("error"), r.get("bytes")) for r in _omaha_request(payload)] == [
        ("host_error", "hand.stacks.1: key given twice in one object (remove one)", payload)]


def test_a_host_request_number_with_a_leading_zero_is_refused_on_every_runtime():
    # {"stacks": {"1": 0100}}: MicroPython's JSON parser reads 0100 as 100 (the hand would start), CPython's
    # refuses it: the board refuses it by the one number rule, as table.json (jsonfile.NUMBER_RULE).
    from firmware.jsonfile import NUMBER_RULE
    payload = '{"hand": {"stacks": {"1": 0100, "2": 100}}}'
    assert [(r["event"], r.get("error"), r.get("bytes")) for r in _omaha_request(payload)] == [
        ("host_error", "number 0100: " + NUMBER_RULE, payload)]


def test_a_host_request_cut_inside_a_string_after_a_backslash_is_refused_not_a_crash():
    # {"hand": {"stacks": {"1\ : a request whose last string never ends and whose last byte is a backslash.
    # The number rule's scan (jsonfile.bad_number, run before the JSON parser so that 0100 is refused alike on
    # both runtimes) looked past the end of the text for the string's end: an IndexError out of the input
    # pass, the main loop down (a crash and a reset) on a line the host sent. Now: refused as the bad JSON it is.
    payload = '{"hand": {"stacks": {"1\\'
    got = _omaha_request(payload, ("host_error", "hand_start", "crash_recorded"))
    assert [(r["event"], r.get("bytes")) for r in got] == [("host_error", payload.replace("\\", "\\x5c"))]
    assert got[0]["error"]                      # the parser's own words (they differ by runtime)
