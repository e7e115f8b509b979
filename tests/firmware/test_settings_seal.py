# The table file's seal (firmware/settings_seal.py, issue 12): a table.json changed outside a deploy or a
# settings change (a flipped bit that still validates) is found at boot and the table is held closed,
# never played on; a seal the power cut short is no seal (both runtimes).
import json

from firmware import faults, main, settings_seal, startup
from firmware.table_codes import FAULTED
from tests.firmware.fakes import FakeLCD, FakeMachine, FakeNeoPixelModule, FakeUART
from tests.firmware.scratch import ScratchDir, exists
from tests.firmware.test_main import _boot, _host, _press_confirm, _run


def _reboot(state):
    machine = FakeMachine()
    machine.usb = FakeUART()
    ctx = startup.boot(machine, FakeNeoPixelModule(), "boards/pico.json", state + "/t_table.json", state, FakeLCD,
                    machine.usb)
    return ctx, machine


def _edit(path, old, new):
    with open(path) as f:
        text = f.read()
    if old not in text:
        raise ValueError("%r not in %s" % (old, path))
    with open(path, "w") as f:
        f.write(text.replace(old, new, 1))


def test_a_board_is_sealed_at_its_first_boot_and_opens_again_with_the_same_file():
    with ScratchDir() as state:
        ctx, machine, _ = _boot(state)
        assert exists(state + "/" + settings_seal.SEAL)
        with open(state + "/t_table.json", "rb") as f:
            assert settings_seal.accepted(state, None) == [settings_seal.crc_of(f.read())]
        ctx, machine = _reboot(state)
        _run(ctx, 3)
        assert not ctx.table.closed_code
        assert not [r for r in _host(machine) if r["event"] == "fault"]


def test_a_table_file_changed_behind_the_seal_holds_the_table_closed_and_says_why():
    with ScratchDir() as state:
        _boot(state)
        # The minimum 5 read as 10: the file still validates, the seal finds it.
        _edit(state + "/t_table.json", '"minimum": 5,', '"minimum": 10,')
        ctx, machine = _reboot(state)
        _run(ctx, 3)
        assert ctx.table.closed_code == faults.SETTINGS_BAD and ctx.table.state == FAULTED
        # The boot's report says why (as program_mismatch does), then the held alarm itself.
        bad = [r for r in _host(machine) if r["event"] == "fault" and r["fault"] == "settings_bad"]
        assert len(bad) == 2 and "t_table.json" in bad[0]["text"] and "its seal says" in bad[0]["text"]
        _press_confirm(ctx, machine)                  # no acknowledgement opens it
        _run(ctx, 3)
        assert ctx.table.closed_code == faults.SETTINGS_BAD and ctx.table.state == FAULTED
        assert "SETTINGS_BAD" in main._dealer_lines(ctx) and "t_table.json" in main._dealer_lines(ctx)


def test_a_flipped_bit_in_the_seal_is_found_and_a_torn_one_is_no_seal():
    with ScratchDir() as state:
        _boot(state)
        seal = state + "/" + settings_seal.SEAL
        with open(seal, "rb") as f:
            line = f.read()
        flipped = bytearray(line)
        flipped[0] = ord("g") if flipped[0] != ord("g") else ord("h")   # not a hex digit
        with open(seal, "wb") as f:
            f.write(bytes(flipped))
        ctx, machine = _reboot(state)
        assert ctx.table.closed_code == faults.SETTINGS_BAD
        with open(seal, "wb") as f:
            f.write(line[:4])                         # a rewrite the power cut: no whole line
        ctx, machine = _reboot(state)
        assert not ctx.table.closed_code
        assert settings_seal.accepted(state, None) == [line[:8].decode()]   # sealed again as it is


def test_while_a_change_replaces_the_file_the_seal_takes_both_and_the_next_boot_keeps_one():
    with ScratchDir() as state:
        _boot(state)
        path = state + "/t_table.json"
        with open(path, "rb") as f:
            old = f.read()
        data = json.loads(old.decode())
        data["settings"]["field_12"] = 3
        new = json.dumps(data).encode()
        settings_seal.add(state, None, new)           # what a settings change does before the rename
        assert settings_seal.accepted(state, None) == [settings_seal.crc_of(old), settings_seal.crc_of(new)]
        with open(path, "wb") as f:
            f.write(new)                              # the rename happened; the power went before the reseal
        ctx, machine = _reboot(state)
        assert not ctx.table.closed_code and ctx.config["rules"].field_12 == 3
        assert settings_seal.accepted(state, None) == [settings_seal.crc_of(new)]
