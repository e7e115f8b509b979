# The boot's program check and service mode (issue 13), on fake hardware (runs on MicroPython too):
# a deployed file differing from manifest.json holds the table closed for every game (no CONFIRM
# opens it, nothing is saved for the next boot); the service jumper opens the REPL, reported and shown.
import hashlib
import binascii
import json
import os
import sys

from firmware import faults, saved_state, startup, table_codes as t
from tests.firmware.fakes import FakeLCD, FakeMachine, FakeNeoPixelModule, FakeUART
from tests.firmware.scratch import ScratchDir, exists
from tests.firmware.test_program import install_image
from tests.firmware.test_main import _host, _press_confirm, _run as run_passes

GAMES = ("baccarat", "craps", "omaha")
PICO_SERVICE_PIN = 7            # boards/pico.json "service_pin"
FILES = (("firmware/x.mpy", b"M\x06\x00" + bytes(range(200))), ("main.py", b"run()\n"))


def _write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def _deploy(root):
    os.mkdir(root + "/program")
    os.mkdir(root + "/program/firmware")
    entries = []
    for path, data in FILES:
        _write(root + "/program/" + path, data)
        entries.append({"path": path, "size": len(data),
                        "sha256": binascii.hexlify(hashlib.sha256(data).digest()).decode()})
    _write(root + "/program/manifest.json", json.dumps({"files": entries}).encode())
    return root + "/program"


def _boot(state, game="baccarat", program_dir=None, grounded=()):
    with open("boards/tables/sim-%s.json" % game) as f:
        config = json.loads(f.read())
    _write(state + "/t_table.json", json.dumps(config).encode())
    FakeLCD.missing = ()
    machine = FakeMachine()
    machine.grounded = grounded
    machine.usb = FakeUART()
    ctx = startup.boot(machine, FakeNeoPixelModule(), "boards/pico.json", state + "/t_table.json", state, FakeLCD,
                    machine.usb, program_dir=program_dir)
    return ctx, machine


def _run(ctx, passes=40):
    run_passes(ctx, passes)


def test_a_verified_program_opens_the_table():
    with ScratchDir() as state:
        program_dir = _deploy(state)
        ctx, machine = _boot(state, program_dir=program_dir)
        _run(ctx)
        assert ctx.program_dir == program_dir          # what the console's `verify SEED` hashes
        boot = _host(machine)[0]
        assert boot["event"] == "boot" and boot["program"] == "verified" and boot["service_mode"] is False
        assert ctx.table.state != t.FAULTED


def test_without_a_program_dir_the_boot_says_unverified():
    with ScratchDir() as state:
        ctx, machine = _boot(state)
        _run(ctx, 1)                                        # the output pass writes the boot's frames
        assert _host(machine)[0]["program"] == "unverified" and ctx.program_dir is None


def test_a_changed_file_holds_every_game_closed():
    for game in GAMES:
        with ScratchDir() as state:
            program_dir = _deploy(state)
            _write(program_dir + "/firmware/x.mpy", b"M\x06\x00" + bytes(range(199)) + b"\x00")
            ctx, machine = _boot(state, game, program_dir)
            _run(ctx)
            reports = _host(machine)
            assert reports[0]["program"] == "mismatch", game
            fault = [r for r in reports if r.get("fault") == "program_mismatch"][0]
            assert fault["file"] == "firmware/x.mpy" and fault["problem"] == "sha256 differs", (game, fault)
            assert ctx.table.state == t.FAULTED and ctx.table.closed_code == faults.PROGRAM_MISMATCH, game
            _press_confirm(ctx, machine)          # the dealer cannot acknowledge it
            _press_confirm(ctx, machine)
            assert ctx.table.state == t.FAULTED, game
            assert not [r for r in _host(machine) if r["event"] == "fault_ack"], game
            lines = ctx.hw.displays["dealer"].lines
            assert lines[1] == "PROGRAM_MISMATCH" and lines[2] == "x.mpy" and lines[3] == "TABLE CLOSED", lines
            # found again at every boot, never kept as a pending fault for a repaired program
            assert not exists(saved_state.path(state, saved_state.PENDING_FAULT)), game


def test_a_missing_file_or_manifest_holds_the_table_closed():
    for victim, problem in (("main.py", "missing"), ("manifest.json", "manifest.json missing")):
        with ScratchDir() as state:
            program_dir = _deploy(state)
            os.remove(program_dir + "/" + victim)
            ctx, machine = _boot(state, "craps", program_dir)
            _run(ctx)
            fault = [r for r in _host(machine) if r.get("fault") == "program_mismatch"][0]
            assert fault["file"] == victim and fault["problem"] == problem, fault
            assert ctx.table.state == t.FAULTED
            # the console's status said "press CONFIRM to acknowledge" (before stop 71), which opens nothing here
            status = [line for line in ctx.console.handle(b"status") if line.startswith("fault ")]
            assert status == ["fault program_mismatch (detail 0): the table stays closed (no button opens it): "
                              "see the boot's reports"], status
            # and a lamp check refused over it says so too (until stop 72: "until CONFIRM acknowledges it")
            ctx.console.shell.auth.logged_in = True     # (a technician logged in: the check needs it)
            assert ctx.console.handle(b"lamp all") == [
                "error: lamp check refused: the table is in FAULT until the alarm is closed: the table stays "
                "closed (no button opens it): see the boot's reports"]


def _deploy_frozen(root, digest):
    """A frozen build's deployment (tools/build.py --frozen): main.py and a manifest.json whose "frozen"
    object has the digest of the sources frozen into the image; no firmware/ on the filesystem."""
    os.mkdir(root + "/program")
    data = FILES[1][1]
    _write(root + "/program/main.py", data)
    entry = {"path": "main.py", "size": len(data), "sha256": binascii.hexlify(hashlib.sha256(data).digest()).decode()}
    _write(root + "/program/manifest.json", json.dumps({"files": [entry], "frozen": {"digest": digest}}).encode())
    return root + "/program"


def _booted_on_image(state, game, program_dir, image):
    """The boot on a frozen image whose claim is `image` (None: no frozen image, the source tree's firmware)."""
    if image is not None:
        install_image(image)
    booted = _boot(state, game, program_dir)
    assert "firmware.frozen_build" not in sys.modules        # read at boot and released
    return booted


def test_a_frozen_build_opens_only_on_the_image_of_its_sources_else_every_game_is_held_closed():
    built = "0123456789abcdef" * 4         # the digest of the sources frozen: in manifest.json and the image
    cases = ((built, None), ("fedcba9876543210" * 4, "the firmware image was built from other sources"),
             (None, "not a frozen firmware image: flash the image built from frozen/manifest.py"))
    for game in GAMES:
        for image, problem in cases:
            with ScratchDir() as state:
                program_dir = _deploy_frozen(state, built)
                ctx, machine = _booted_on_image(state, game, program_dir, image)
                _run(ctx)
                reports = _host(machine)
                faults_seen = [r for r in reports if r.get("fault") == "program_mismatch"]
                if problem is None:
                    assert reports[0]["program"] == "verified" and not faults_seen, (game, reports[0])
                    assert ctx.table.state != t.FAULTED, game
                    continue
                assert reports[0]["program"] == "mismatch", (game, image)
                fault = faults_seen[0]
                assert fault["file"] == "firmware (frozen)" and fault["problem"] == problem, fault
                assert ctx.table.state == t.FAULTED and ctx.table.closed_code == faults.PROGRAM_MISMATCH, game
                _press_confirm(ctx, machine)          # the dealer cannot acknowledge it
                assert ctx.table.state == t.FAULTED, game
                lines = ctx.hw.displays["dealer"].lines
                assert lines[1] == "PROGRAM_MISMATCH" and lines[2] == "firmware (frozen)", lines


def test_a_closed_table_reports_what_reaches_it_and_never_plays():
    with ScratchDir() as state:
        program_dir = _deploy(state)
        os.remove(program_dir + "/main.py")
        ctx, machine = _boot(state, "baccarat", program_dir)
        _run(ctx)
        before = len(_host(machine))
        from firmware.events import CARD, FAULT, LAMP, LAMP_ALL
        ctx.table.dispatch(CARD, 5, 1)
        ctx.table.dispatch(FAULT, faults.QUEUE_FULL, 2)
        ctx.table.dispatch(LAMP, LAMP_ALL, 0)
        _run(ctx, 2)
        later = _host(machine)[before:]
        assert [r.get("fault") for r in later if r["event"] == "fault"] == ["card_out_of_order", "queue_full"]
        assert [r["error"] for r in later if r["event"] == "console_error"] == ["refused"]
        assert ctx.table.state == t.FAULTED and ctx.table.fault_code == faults.PROGRAM_MISMATCH


def test_service_jumper_opens_service_mode_reported_and_shown():
    with ScratchDir() as state:
        ctx, machine = _boot(state, "craps", grounded=(PICO_SERVICE_PIN,))
        assert ctx.hw.service_mode is True
        assert machine.pins[PICO_SERVICE_PIN].pull == machine.Pin.PULL_UP
        _run(ctx, 1)
        reports = _host(machine)
        assert reports[0]["service_mode"] is True
        assert reports[1]["event"] == "service_mode" and reports[1]["pin"] == PICO_SERVICE_PIN
        shown = []
        for _ in range(30):                       # 3 s: the banner is up every other second
            _run(ctx, 1)
            shown.append(ctx.hw.displays["dealer"].lines[0])
        assert "SERVICE MODE" in shown, shown
        assert [line for line in shown if line != "SERVICE MODE"], shown     # the game's own top line between


def test_without_the_jumper_no_service_mode():
    with ScratchDir() as state:
        ctx, machine = _boot(state, "craps")
        _run(ctx, 30)
        reports = _host(machine)
        assert reports[0]["service_mode"] is False
        assert not [r for r in reports if r["event"] == "service_mode"]
        assert ctx.hw.displays["dealer"].lines[0] != "SERVICE MODE"
