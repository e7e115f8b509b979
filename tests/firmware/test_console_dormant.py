# The console dormant while nobody uses it (issue 14, memory; firmware/parts.py, CONSOLE_AWAKE and ConsoleState):
# its shell, editor, login and audit log leave the heap once the technician is logged out and nothing is under way,
# come back with the first byte typed, and the technician and the host see the same as before. Fakes only: runs on
# MicroPython too.
import sys

from firmware.parts import CONSOLE_AWAKE
from tests.firmware.console_rig import PIN, boot_with_pin, console_reports, login, transcript, typed
from tests.firmware.scratch import ScratchDir
from tests.firmware.test_boot_release import _boot_only_objects, _holders
from tests.firmware.test_main import _boot, _run


def _awake():
    return [name for name in CONSOLE_AWAKE if name in sys.modules]


def _dormant(ctx):
    """Dormant: none of CONSOLE_AWAKE imported (nor an attribute of firmware.console), no shell kept."""
    assert _awake() == [] and ctx.console.shell is None, _awake()
    package = sys.modules["firmware.console"]
    assert [name for name in CONSOLE_AWAKE if hasattr(package, name.split(".")[-1])] == []
    return True


def test_after_boot_nothing_of_the_shell_editor_auth_or_audit_is_imported_or_held():
    for game in ("baccarat", "craps", "omaha"):
        with ScratchDir() as state:
            found = _boot_only_objects(CONSOLE_AWAKE)     # the very objects the boot and the first pass use
            ctx, machine, _ = _boot(state, game)
            assert _dormant(ctx)
            _run(ctx, 20)                                 # the first prompt out, no settings change read back
            assert _dormant(ctx) and transcript(machine) == "> ", game
            roots = {"ctx": ctx}
            for name in sys.modules:
                if name == "firmware" or name.startswith("firmware."):
                    roots[name] = sys.modules[name]
            assert _holders(found, roots) == [], game


def test_a_command_typed_wakes_it_and_it_sleeps_again_once_the_line_is_done():
    with ScratchDir() as state:
        ctx, machine, _ = boot_with_pin(state)
        assert _dormant(ctx)
        machine.usb.tx = bytearray()
        machine.usb.feed(b"sta")                          # half a line: awake, each byte echoed as it comes
        _run(ctx, 3)
        assert _awake() == list(CONSOLE_AWAKE) and transcript(machine) == "sta"
        machine.usb.feed(b"tus\r")
        _run(ctx, 3)
        lines = transcript(machine).split("\r\n")
        assert lines[0] == "status" and lines[1].startswith("table ") and lines[-1] == "> ", lines
        assert _dormant(ctx)
        machine.usb.tx = bytearray()
        machine.usb.feed(b"\r")                           # an empty line: the prompt again, and dormant
        _run(ctx, 3)
        assert transcript(machine) == "\r\n> " and _dormant(ctx)


def test_the_lf_of_a_cr_lf_after_going_dormant_is_no_second_line():
    with ScratchDir() as state:
        ctx, machine, _ = boot_with_pin(state)
        machine.usb.feed(b"version\r")
        _run(ctx, 3)
        assert _dormant(ctx)
        machine.usb.tx = bytearray()
        machine.usb.feed(b"\n")                           # the CR's LF, a pass later: one line end, no prompt
        _run(ctx, 3)
        assert transcript(machine) == "" and _dormant(ctx)


def test_a_lockout_survives_going_dormant_and_runs_out_on_the_clock_kept_meanwhile():
    with ScratchDir() as state:
        ctx, machine, _ = boot_with_pin(state)
        for n in range(4):
            typed(ctx, machine, "login")
            assert typed(ctx, machine, "111111") == ["error: wrong PIN"]
            assert _dormant(ctx)                          # between the PINs too: the failures counted on
        typed(ctx, machine, "login")
        assert typed(ctx, machine, "111111") == ["error: wrong PIN: console locked for 30 s"]
        _run(ctx, 50)                                     # 5 s, dormant
        assert _dormant(ctx)
        reply = typed(ctx, machine, "login")
        assert reply[0].startswith("error: console locked for 2"), reply     # still locked, time running
        assert typed(ctx, machine, PIN) == ["error: a number is no command (a PIN goes at the PIN: prompt)"]
        _run(ctx, 300)                                    # 30 s more, dormant all along
        assert _dormant(ctx)
        assert typed(ctx, machine, "login") == []         # unlocked: the PIN asked for
        assert typed(ctx, machine, PIN)[0].startswith("logged in")
        actions = [r.get("action", r["event"]) for r in console_reports(machine)]
        assert actions == ["login_failed"] * 5 + ["lockout", "login_locked", "console_error", "login"], actions


def test_login_command_logout_twice_in_a_row():
    with ScratchDir() as state:
        ctx, machine, _ = boot_with_pin(state)
        for _ in range(2):
            login(ctx, machine)
            _run(ctx, 20)
            assert _awake() == list(CONSOLE_AWAKE)        # logged in: awake (idle logout, the # prompt)
            assert typed(ctx, machine, "lamp all") == ["ok"]
            assert typed(ctx, machine, "lamp off") == ["ok"]
            machine.usb.tx = bytearray()
            assert typed(ctx, machine, "logout") == ["logged out"]
            assert transcript(machine).endswith("\r\n> ") and _dormant(ctx)
        actions = [r["action"] for r in console_reports(machine)]
        assert actions == ["login", "command", "command", "logout"] * 2, actions


def test_status_keeps_its_counts_across_dormancy():
    # The console's errors and the editor's counts are kept while dormant: status answers as if it had stayed.
    with ScratchDir() as state:
        ctx, machine, _ = boot_with_pin(state)
        assert typed(ctx, machine, "nosuch") == ["error: unknown command 'nosuch' (type help)"]
        assert _dormant(ctx)
        machine.usb.feed(b"\x1b[A\x01")                   # an arrow key (skipped whole) and a Ctrl-A (ignored)
        _run(ctx, 3)
        machine.usb.feed(b"x" * 200 + b"\r")              # too long: dropped whole
        _run(ctx, 3)
        assert _dormant(ctx)
        status = typed(ctx, machine, "status")
        assert "console errors 2" in status, status
        assert "port console: 1 too long, 2 bytes ignored" in status, status
        assert typed(ctx, machine, "help")[0] == "commands (* needs a technician login):"
        assert _dormant(ctx) and ctx.console.errors == 2


def test_with_no_console_port_it_wakes_for_the_first_pass_only():
    # A console port that bring-up could not make: nothing to type, no prompt; the first pass reads a settings
    # change back (awake for it), then the console stays dormant, not imported again each pass.
    with ScratchDir() as state:
        ctx, machine, _ = _boot(state, "craps")
        console = ctx.console
        console.port = None
        wakes = []
        wake = console.wake

        def counted():
            wakes.append(1)
            return wake()

        console.wake = counted
        _run(ctx, 20)
        assert len(wakes) == 1 and _dormant(ctx), len(wakes)


def test_help_and_status_answer_the_same_from_a_dormant_console_as_from_an_awake_one():
    with ScratchDir() as state:
        ctx, machine, _ = boot_with_pin(state)
        assert _dormant(ctx)
        woken = typed(ctx, machine, "help"), typed(ctx, machine, "help lamp"), typed(ctx, machine, "status")
        machine.usb.feed(b"x")                            # half a line: awake while the same lines are asked
        _run(ctx, 1)
        awake = ctx.console.shell
        assert awake is not None
        answers = awake.handle(b"help"), awake.handle(b"help lamp"), awake.handle(b"status")
        assert woken[:2] == answers[:2] and woken[0][0] == "commands (* needs a technician login):"
        heap = [i for i in range(len(answers[2])) if "heap free" in answers[2][i]]
        same = [line for line in woken[2] if "heap free" not in line and not line.startswith("uptime ")]
        assert same == [line for line in answers[2] if "heap free" not in line and not line.startswith("uptime ")]
        assert len(heap) == 1 and ctx.console.shell is awake


def test_a_pin_changed_leaves_no_boot_only_module_behind_once_dormant():
    # passwd rewrites the PIN record (a journal's compaction), which reads the journal's files back with
    # firmware.link.journal_read, boot-only (firmware/parts.py): gone again once the console is dormant.
    from firmware.parts import BOOT_ONLY
    with ScratchDir() as state:
        ctx, machine, _ = boot_with_pin(state)
        login(ctx, machine)
        typed(ctx, machine, "passwd")
        typed(ctx, machine, "13579135")
        assert typed(ctx, machine, "13579135") == ["PIN changed"]
        assert typed(ctx, machine, "logout") == ["logged out"]
        assert _dormant(ctx) and [name for name in BOOT_ONLY if name in sys.modules] == []
