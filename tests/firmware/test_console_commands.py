# The console's command table and its commands: help, status, log, settings, sensors, time, selftest,
# lights test, display test, reboot.
import os

from firmware.link import frame as fm
from firmware import table_codes as t
from firmware.console import checks
from firmware.console.commands import ORDER, TABLE
from firmware.console.shell import SECRET_ARGS
from firmware.parts import release
from firmware.drivers.pixels import GOLD, OFF
from tests.firmware.console_rig import boot_with_pin, console_reports, login, reports, transcript, typed
from tests.firmware.fakes import ReadsFailFS
from tests.firmware.scratch import ScratchDir
from tests.firmware.test_main import _boot, _run


def test_every_command_has_usage_help_and_a_handler_and_help_lists_them_all():
    with ScratchDir() as state:
        ctx, machine, _ = _boot(state, "baccarat")
        _run(ctx)
        listed = typed(ctx, machine, "help")
        assert len(listed) == 1 + len(ORDER)
        for name in ORDER:
            command = TABLE[name]
            assert command.name == name and command.usage.split()[0] == name and command.help
            marker = "*" if command.login else " "
            assert "%s %-18s %s" % (marker, command.usage, command.help) in listed
        assert typed(ctx, machine, "help lamp") == ["usage: lamp ZONE|all|off",
                                                    "  light one zone / every zone / end the check (needs a "
                                                    "technician login)"]
        assert typed(ctx, machine, "help nothing")[0] == "error: no command 'nothing' (type help)"


def test_a_command_without_arguments_refuses_a_word_after_it():
    # Before, `status x` ran status (every other such command answered its usage).
    with ScratchDir() as state:
        ctx, machine, _ = boot_with_pin(state)
        login(ctx, machine)
        bare = [name for name in ORDER if TABLE[name].usage == name and name != "logout"] + ["logout"]
        for name in bare:
            reply = typed(ctx, machine, name + " x")
            assert reply[0].startswith("error: usage: " + name), (name, reply)
            line = name if name in SECRET_ARGS else name + " x"      # what follows login, passwd may be a PIN
            assert console_reports(machine)[-1] == {"event": "console_error", "error": "usage", "line": line}
        assert ctx.console.auth.logged_in and ctx.console.reboot_due is False


def test_what_changes_state_needs_a_login_and_what_reads_does_not():
    needs = sorted(name for name in TABLE if TABLE[name].login)
    assert needs == ["commit", "discard", "display", "lamp", "lights", "passwd", "reboot", "set"]


def test_a_command_added_to_the_table_is_listed_dispatched_and_guarded():
    # The table is made anew for each line and released after it (firmware/parts.py, CONSOLE_ON_DEMAND): a
    # command added goes into the table the next line finds, and is gone with it.
    seen = []

    def poke(con, args):
        failed = con.record()
        if failed:
            return failed
        seen.append(args)
        return ["poked"]

    def with_poke(ctx, machine, line):
        release(("firmware.console.commands",))    # a table of its own, not the one this module imported
        from firmware.console import commands
        commands.add(commands.Command("poke", poke, "poke N", True, "a test command"))
        return typed(ctx, machine, line)

    with ScratchDir() as state:
        ctx, machine, _ = boot_with_pin(state)
        assert "* poke N             a test command" in with_poke(ctx, machine, "help")
        assert with_poke(ctx, machine, "poke 3") == ["error: poke needs a technician login (type login)"]
        login(ctx, machine)
        assert with_poke(ctx, machine, "poke 3") == ["poked"] and seen == [["3"]]
        assert console_reports(machine)[-1] == {"event": "console", "action": "command", "line": "poke 3"}
        assert typed(ctx, machine, "poke 4") == ["error: unknown command 'poke' (type help)"] and seen == [["3"]]


def test_status_shows_game_round_uptime_reset_cause_heap_and_port_errors():
    with ScratchDir() as state:
        ctx, machine, _ = _boot(state, "omaha")
        _run(ctx)
        machine.usb.feed(b"\x01\x02")                        # two ignored bytes
        status = typed(ctx, machine, "status")
        assert status[0] == "table B01  game omaha  state ready"
        assert status[1] == "hand 0"
        assert status[2].startswith("uptime 6 s  reports sent ")
        assert status[3].startswith("reset cause pwron_reset  heap free ")
        assert "port console: 0 too long, 2 bytes ignored" in status
        assert "port host: 0 too long, 0 cut short" in status
        assert status[-1] == "not logged in"


def test_status_shows_the_host_links_counts():
    # ctx.host_noise (host lines refused as line noise) was counted and shown nowhere, nor were the frames
    # the host had not acknowledged or written again: a technician had nothing to read of the host link.
    with ScratchDir() as state:
        ctx, machine, _ = _boot(state, "baccarat")
        _run(ctx)
        host = machine.uarts[1]
        host.feed(b"#1.1 0 ACK*00000000\n")             # a bad CRC: noise
        host.feed(b"\x00garbage\n")                     # not a frame: noise
        _run(ctx, 2)
        held = ctx.sender.held()                         # (this rig's host acknowledges every frame)
        line = [x for x in typed(ctx, machine, "status") if x.startswith("host link: ")]
        assert line == ["host link: %d held, %d resent, 0 replays, 0 refused, 2 noise"
                        % (held, ctx.sender.retransmits)]


def test_log_shows_the_last_reports_and_faults():
    with ScratchDir() as state:
        ctx, machine, _ = _boot(state, "craps")
        _run(ctx)
        machine.uarts[0].feed(b"K?\n")
        _run(ctx, 2)
        log = typed(ctx, machine, "log")
        assert log[0] == "    1 boot"
        assert log[-1].split()[1:] == ["fault", "frame_syntax"]
        for _ in range(20):
            typed(ctx, machine, "nonsense")
        assert len(typed(ctx, machine, "log")) == 16               # a bounded ring


def test_settings_sensors_and_time():
    with ScratchDir() as state:
        ctx, machine, _ = _boot(state, "baccarat")
        _run(ctx)
        settings = typed(ctx, machine, "settings")
        assert settings[0] == "table B01  game baccarat"
        assert [line.split()[0] for line in settings[1:]] == [name for name, _ in ctx.config["rules"].as_pairs()]
        machine.uarts[0].feed(b"garbage\n")
        _run(ctx, 2)
        sensors = typed(ctx, machine, "sensors")
        assert sensors[0].startswith("shoe: 0 frames, 0 crc errors, 1 bad, ")
        assert typed(ctx, machine, "time") == ["uptime 6 s (0d 00:00:06)", "host time not set"]
        # The host's TIME on the report link (before, the console read a ctx.host_time nothing ever set)
        ctx.sender.receive(fm.encode(0, 0, "TIME", "1800000000000")[:-1])
        line = typed(ctx, machine, "time", 1)[1]
        assert line.startswith("host time 18000000") and line.endswith("(Unix seconds, set by the host link's TIME)")


def test_selftest_passes_on_a_healthy_table_and_names_what_is_wrong():
    with ScratchDir() as state:
        ctx, machine, _ = boot_with_pin(state)
        lines = typed(ctx, machine, "selftest")
        assert lines[-1] == "selftest: ok", lines
        assert "technician PIN: ok" in lines and "settings t_table.json: ok" in lines
        with open(state + "/t_table.json", "w") as f:
            f.write("{")
        lines = typed(ctx, machine, "selftest")
        assert [l for l in lines if l.startswith("settings: table settings")] and lines[-1] == "selftest: 1 problem"


def test_lights_test_walks_every_zone_through_the_lamp_check():
    with ScratchDir() as state:
        ctx, machine, _ = boot_with_pin(state)
        login(ctx, machine)
        before = len(reports(machine))
        names = ctx.table.lights.names
        ready = list(ctx.table.lights.colours)
        assert typed(ctx, machine, "lights test", 1)[0].startswith("lights test: %d zones" % len(names))
        assert ctx.table.state == t.LAMP_CHECK and ctx.table.lights.colours[0] is GOLD
        _run(ctx, 5 * (len(names) + 1))                      # 100 ms a pass, 500 ms a zone
        assert ctx.table.state == t.READY and ctx.table.lights.colours == ready
        lamps = [r["lamp"] for r in reports(machine, before) if r["event"] == "lamp"]
        assert lamps == list(names) + ["off"]
        assert transcript(machine).endswith("\r\nlights test done\r\n# ")


def test_ctrl_c_stops_the_lights_test():
    with ScratchDir() as state:
        ctx, machine, _ = boot_with_pin(state)
        login(ctx, machine)
        typed(ctx, machine, "lights test", 6)
        machine.usb.feed(b"\x03")
        _run(ctx, 2)
        assert ctx.table.state == t.READY and ctx.console.walk == -1
        # One answer, one prompt (before: a blank line, then "# # ").
        assert transcript(machine).endswith("^C\r\nlights test cancelled\r\n# "), transcript(machine)


def test_a_fault_stops_the_lights_test_and_keeps_the_alarm():
    with ScratchDir() as state:
        ctx, machine, _ = boot_with_pin(state)
        login(ctx, machine)
        typed(ctx, machine, "lights test", 2)
        machine.uarts[0].feed(b"K?\n")
        _run(ctx, 20)
        assert ctx.table.state == t.FAULTED and ctx.console.walk == -1
        assert "lights test stopped: the table is fault" in transcript(machine)


def test_display_test_holds_its_pattern_then_the_screens_come_back():
    with ScratchDir() as state:
        ctx, machine, _ = boot_with_pin(state)
        login(ctx, machine)
        dealer = ctx.hw.displays["dealer"]
        shown = list(dealer.lines)
        reply = typed(ctx, machine, "display test", 1)
        assert "dealer: test pattern for 3 s" in reply and "result: test pattern for 3 s" in reply
        # every character cell lit by something: its name, then digits and # rows in turn, the digits shifted
        # a cell a row (a stuck segment or a swapped row shows; mutant seed 72: rows of # only every third)
        assert dealer.lines == ["DEALER DISPLAY TEST", "12345678901234567890", "#" * 20, "34567890123456789012"]
        _run(ctx, 25)                                        # the table redraws every second: held meanwhile
        assert dealer.lines[0] == "DEALER DISPLAY TEST"
        _run(ctx, 10)
        assert dealer.lines == shown


def test_the_display_test_names_a_missing_display_and_tests_the_others():
    # A display out (missing at boot here, or one that stopped answering) gets no pattern, and says so in its
    # place rather than being left out of the reply.
    from firmware.console.pins import provision
    from tests.firmware.console_rig import PIN
    from tests.firmware.fakes import FakeLCD
    with ScratchDir() as state:
        provision(state, PIN)
        ctx, machine, _ = _boot(state, "baccarat", missing=(39,))
        _run(ctx)
        FakeLCD.missing = ()
        login(ctx, machine)
        assert typed(ctx, machine, "display test", 1) == ["dealer: missing (no pattern: see selftest)",
                                                          "result: test pattern for 3 s",
                                                          "scoreboard: test pattern for 3 s"]


def test_the_display_test_runs_at_every_game_on_the_board_fakes():
    # A Craps or Omaha table keeps its OLED as a Panel, which sends the pattern with I2C.writevto (as
    # machine.I2C and the simulator's bus have it): the test fake lacked it and the command crashed the run.
    for game in ("craps", "omaha"):
        with ScratchDir() as state:
            ctx, machine, _ = boot_with_pin(state, game)
            login(ctx, machine)
            bus = ctx.hw.displays["scoreboard"].i2c
            sent = bus.writes
            assert "scoreboard: test pattern for 3 s" in typed(ctx, machine, "display test", 1)
            _run(ctx, 35)
            assert bus.writes > sent
            assert "display scoreboard: ok" in typed(ctx, machine, "selftest", 1)


def test_after_the_display_test_the_scoreboard_is_painted_whole():
    import framebuf
    from firmware.games.baccarat.scoreboard import Scoreboard
    with ScratchDir() as state:
        ctx, machine, _ = boot_with_pin(state)
        login(ctx, machine)
        oled = ctx.hw.displays["scoreboard"]
        typed(ctx, machine, "display test", 1)
        assert bytes(oled.buffer) == b"\xff" * len(oled.buffer)
        _run(ctx, 35)
        want = bytearray(len(oled.buffer))
        Scoreboard(framebuf.FrameBuffer(want, oled.width, oled.height, framebuf.MONO_VLSB), oled.width,
                   oled.height).draw(ctx.table.roads)
        assert bytes(oled.buffer) == bytes(want)      # not the pattern with the changes painted over it


def test_reboot_resets_the_board_once_its_report_is_out():
    with ScratchDir() as state:
        ctx, machine, _ = boot_with_pin(state)
        login(ctx, machine)
        assert typed(ctx, machine, "reboot", 1) == ["rebooting once the reports are out"]
        assert machine.resets == 0
        assert reports(machine)[-1] == {"event": "console", "action": "command", "line": "reboot"}
        _run(ctx, 1)
        assert machine.resets == 1


def test_reboot_waits_for_its_own_report_to_be_kept_when_no_output_pass_comes_between():
    # Regression: the reboot waited for the table's outbox only, which an event's dispatch empties at once
    # into the link store's RAM; the store is written to flash and the port by the output pass. An input
    # pass before it reset the board with the command's report in RAM: the next boot made it again from
    # the table journal, after its own boot report (a shoe in play: seen on tools.replay).
    from firmware import main
    with ScratchDir() as state:
        ctx, machine, _ = boot_with_pin(state)
        login(ctx, machine)
        _run(ctx, 2)
        machine.usb.feed(b"reboot\r")
        for _ in range(3):                               # input passes only: no output pass between
            main.poll_inputs(ctx, 10)
        assert machine.resets == 1
        assert reports(machine)[-1] == {"event": "console", "action": "command", "line": "reboot"}


def test_lamp_zone_names_still_reach_the_table():
    with ScratchDir() as state:
        ctx, machine, _ = boot_with_pin(state)
        login(ctx, machine)
        typed(ctx, machine, "lamp tie")
        i = ctx.table.lights.index("tie")
        assert ctx.table.lights.colours[i] is GOLD and ctx.table.lights.colours[0] is OFF
        assert checks.WALK_STEP_MS == 500
        first = ctx.table.lights.names[0]                     # zone index 0 is a zone (a mutant refused it)
        assert typed(ctx, machine, "lamp " + first) == ["ok"] and ctx.table.lights.colours[0] is GOLD
        assert typed(ctx, machine, "lamp felt")[0] == "error: no zone 'felt' in this layout (type zones)"


def test_verify_seed_answers_the_programs_keyed_digest_without_a_login():
    # Issue 13: a lab compares this with `python -m tools.verify --board NAME --seed SEED` over its build.
    from firmware import program
    from tests.firmware.test_program import _deploy
    with ScratchDir() as state:
        ctx, machine, _ = _boot(state, "craps")
        _run(ctx)
        assert typed(ctx, machine, "verify lab-seed-1")[0].startswith("error: no deployed program to verify")
        deployed = state + "/deployed"
        os.mkdir(deployed)
        _deploy(deployed)
        ctx.program_dir = deployed
        digest = program.verify("lab-seed-1", deployed)
        assert typed(ctx, machine, "verify lab-seed-1") == ["verify " + digest]
        assert typed(ctx, machine, "verify lab-seed-2") != ["verify " + digest]
        assert typed(ctx, machine, "verify")[0] == "error: usage: verify SEED"



def _typed_on_image(ctx, machine, line, image):
    """A console line on a frozen image whose claim is `image` (None: no frozen image)."""
    from tests.firmware.test_program import install_image
    if image is not None:
        install_image(image)
    return typed(ctx, machine, line)


def test_verify_seed_of_a_frozen_build_answers_with_the_running_images_digest():
    # For a frozen build a lab's digest (tools.verify) hashes the build's own digest as the image's claim: only
    # the image of its sources answers the same (its claim: firmware.frozen_build.DIGEST).
    from firmware import program
    from tests.firmware.test_program import IMAGE, OTHER, _deploy_frozen
    with ScratchDir() as state:
        ctx, machine, _ = _boot(state, "craps")
        _run(ctx)
        deployed = state + "/deployed"
        os.mkdir(deployed)
        _deploy_frozen(deployed)
        ctx.program_dir = deployed
        lab = program.verify("lab-seed-1", deployed, image=IMAGE)
        for image in (IMAGE, OTHER, None):
            answer = _typed_on_image(ctx, machine, "verify lab-seed-1", image)
            assert answer == ["verify " + program.verify("lab-seed-1", deployed, image=image)], image
            assert (answer == ["verify " + lab]) == (image == IMAGE), image


# Each command with the arguments it takes (and what a technician may type wrong)
_EVERY_LINE = ("help", "help audit", "status", "log", "audit", "audit 3", "recall", "recall 2", "settings",
               "sensors", "time", "selftest", "board", "zones", "crash", "version", "verify 1", "lamp all",
               "lamp off", "lights test", "lamp off", "display test", "set decks 7", "discard", "set decks 7",
               "commit CAB-1", "passwd", "135790", "135790", "logout", "login", "135790")        # (reboot resets the board: tested on its own above)


def test_with_the_flash_reads_failing_every_command_answers_and_none_stops_the_table():
    # A console command that raised (the audit log's read, found by stop 66) crashed the main loop and
    # reset the table, from a read-only command anyone may type. Each command, logged in, once the
    # flash's reads fail: an answer (an error is one), and the table still at its state.
    with ScratchDir() as state:
        from tests.firmware.console_rig import PIN, provision
        provision(state, PIN)
        fs = ReadsFailFS(failing=False)
        ctx, machine, _ = _boot(state, "baccarat", fs=fs)
        _run(ctx)
        login(ctx, machine)
        fs.failing = True
        assert set(line.split()[0] for line in _EVERY_LINE if not line.isdigit()) == set(ORDER) - {"reboot"}
        replies = []
        for line in _EVERY_LINE:
            reply = typed(ctx, machine, line)
            assert line in ("passwd", "login", "135790") or reply, line       # (a PIN is asked for first)
            replies.append(reply[:1])
        assert replies[_EVERY_LINE.index("audit")] == ["audit log unreadable (%s)" % OSError(5)]
        assert replies[_EVERY_LINE.index("commit CAB-1")] == ["error: pending change not written (%s): nothing "
                                                              "committed" % OSError(5)]
        assert replies[-3] == ["logged out"] and replies[-1][0].startswith("logged in"), replies[-3:]   # the new PIN
        assert ctx.table.state == t.READY


def test_status_lists_the_bring_up_faults():
    with ScratchDir() as state:
        ctx, machine, _ = _boot(state, "baccarat", missing=(38,))      # the result LCD does not answer
        _run(ctx)
        lines = typed(ctx, machine, "status")
        assert [line for line in lines if line.startswith("bring-up fault display_missing: result display at I2C "
                                                           "address 38: ")], lines
