# The boot counter (firmware/link/boot_counter.py) and the boot report's fields; the host link at boot
# (docs/host-link.md "Boot counter"). Runs on MicroPython too.
import json

from firmware import faults, host_port, saved_state_read
from firmware import table_codes as t
from firmware.link import frame as fm
from firmware.link.boot_counter import JUMP, next_boot
from firmware.version import FIRMWARE_VERSION
from tests.firmware.scratch import ScratchDir
from tests.firmware.test_main import _boot, _host, _run


def _files(state):
    return [state + "/boot.0", state + "/boot.1"]


def _flip(path, at):
    with open(path, "rb") as f:
        data = bytearray(f.read())
    data[at] ^= 0x10
    with open(path, "wb") as f:
        f.write(data)


def test_the_counter_grows_by_one_at_every_boot_across_checkpoints():
    with ScratchDir() as state:
        got = [next_boot(state) for _ in range(20)]     # several checkpoints of the 128-byte files
        assert got == [(n, "") for n in range(1, 21)]


def test_a_flipped_bit_is_reported_and_the_counter_jumps_ahead_never_back():
    with ScratchDir() as state:
        for _ in range(3):
            next_boot(state)
        live = None
        for path in _files(state):
            try:
                open(path, "rb").close()
                live = path
            except OSError:
                pass
        with open(live, "rb") as f:
            size = len(f.read())
        _flip(live, size - 2)                            # the last record's CRC: boots 1 and 2 still read
        boot, problem = next_boot(state)
        assert boot == 2 + JUMP and "CRC" in problem
        assert next_boot(state) == (3 + JUMP, "")        # rewritten whole: clean again


def test_a_counter_with_nothing_readable_is_never_taken_as_zero():
    with ScratchDir() as state:
        next_boot(state)
        _flip(_files(state)[0], 3)                       # the base record's header
        boot, problem = next_boot(state)
        assert boot == JUMP and problem
        assert next_boot(state) == (JUMP + 1, "")


def test_a_torn_counter_write_costs_nothing():
    """A power cut while the new number was written: that boot sent nothing, so its number is reused."""
    with ScratchDir() as state:
        next_boot(state)
        next_boot(state)
        with open(_files(state)[0], "ab") as f:
            f.write(b"\x04\x00\x01")                     # a record cut short, as a cut leaves it
        assert next_boot(state) == (3, "")


def test_boot_report_carries_version_settings_digest_and_reset_cause():
    with ScratchDir() as state:
        ctx, machine, _ = _boot(state)
        _run(ctx, 5)
        report = _host(machine)[0]
        assert report["event"] == "boot" and report["firmware"] == FIRMWARE_VERSION
        assert report["reset_cause"] == "PWRON_RESET"
        with open(state + "/t_table.json") as f:
            config = json.loads(f.read())
        assert report["settings"] == host_port.settings_digest(config)
        config["table_id"] = config["table_id"] + "X"
        assert host_port.settings_digest(config) != report["settings"]          # a changed setting shows
        assert len(report["settings"]) == 8
        assert machine.uarts[1].tx.startswith(b"#1.1 ")                     # framed, boot 1


def test_settings_digest_ignores_layout_and_key_order():
    assert host_port.settings_digest({"b": [1, 2], "a": {"y": 1, "x": "s"}}) == \
        host_port.settings_digest({"a": {"x": "s", "y": 1}, "b": [1, 2]})


def test_reset_cause_names_and_an_unknown_number():
    class Machine:
        PWRON_RESET, HARD_RESET, WDT_RESET, DEEPSLEEP_RESET, SOFT_RESET = 1, 2, 3, 4, 5

        def __init__(self, cause):
            self.cause = cause

        def reset_cause(self):
            return self.cause

    assert [saved_state_read.reset_cause_name(Machine(c)) for c in (1, 2, 3, 4, 5, 9)] == \
        ["PWRON_RESET", "HARD_RESET", "WDT_RESET", "DEEPSLEEP_RESET", "SOFT_RESET", "reset_9"]
    assert saved_state_read.reset_cause_name(object()) == "unknown"


def test_the_counter_survives_a_reboot_and_the_next_boot_is_a_new_one():
    with ScratchDir() as state:
        ctx, machine, _ = _boot(state)
        _run(ctx, 5)
        assert ctx.sender.boot == 1
        ctx, machine, _ = _boot(state)
        _run(ctx, 5)
        assert ctx.sender.boot == 2 and machine.uarts[1].tx.startswith(b"#2.1 ")
        assert _host(machine)[0]["event"] == "boot"


def test_a_bad_counter_is_a_fault_report_and_holds_the_table():
    with ScratchDir() as state:
        ctx, machine, _ = _boot(state)
        _flip(state + "/boot.0", 3)
        ctx, machine, _ = _boot(state)
        _run(ctx)
        assert ctx.sender.boot == JUMP
        reported = [r for r in _host(machine) if r["event"] == "fault"]
        assert reported[0]["fault"] == "boot_counter_bad" and reported[0]["text"]
        assert ctx.table.state == t.FAULTED and ctx.table.fault_code == faults.BOOT_COUNTER_BAD


def test_the_boot_counter_is_read_through_the_boards_filesystem():
    # The boot's fs (the board's flash in tests and the simulator) is the counter's too: with its reads
    # failing the counter is unreadable, a fault, never read past it through os.
    from tests.firmware.fakes import ReadsFailFS
    with ScratchDir() as state:
        _boot(state)
        ctx, machine, _ = _boot(state, fs=ReadsFailFS("/boot."))
        _run(ctx)
        assert ctx.sender.boot == JUMP
        reported = [r for r in _host(machine) if r["event"] == "fault"]
        assert reported[0]["fault"] == "boot_counter_bad" and "unreadable" in reported[0]["text"], reported


def lamp_checks_until(ctx, done, most):
    """Console lamp checks (two reports each), a pass after each, until done(): with the host away they fill
    the link store (fewer than `most` of them)."""
    checks = 0
    while not done():
        ctx.console.handle(b"lamp all")
        ctx.console.handle(b"lamp off")
        _run(ctx, 1)
        checks += 1
        assert checks < most


def test_a_host_away_raises_link_backlog_and_nothing_is_lost_when_it_returns():
    with ScratchDir() as state:
        ctx, machine, _ = _boot(state, "baccarat")
        host = machine.uarts[1]
        host.acks = False                                # the host is away
        _run(ctx, 3)
        lamp_checks_until(ctx, lambda: ctx.table.link_backlog, 40)
        alarm_level = ctx.sender.report_slots * 3 // 4     # the store's 64, not the boot's kept slots
        assert ctx.sender.held() >= alarm_level and ctx.sender.refused_total == 0
        assert ctx.table.state != t.FAULTED               # reported, not held (no game refuses rounds yet)
        host.acks = True
        host.feed(fm.encode(0, 0, "REPLAY"))              # the host is back: from the oldest held
        _run(ctx, 40)
        reports = _host(machine)
        backlog = [r for r in reports if r.get("fault") == "link_backlog"]
        assert backlog[0]["frames_held"] == alarm_level and backlog[-1].get("cleared") is True
        assert [r["seq"] for r in reports] == list(range(1, len(reports) + 1))     # each once, in order
        assert not ctx.table.link_backlog and ctx.sender.held() == 0
