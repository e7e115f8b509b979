# The host report path does each piece of work once (issue 14: the report path on the MicroPython VM):
# what a report, a frame or a pass skips is counted here, so putting the repeated work back fails.
# (Runs on MicroPython too: .venv/bin/python -m tools.mpvm tests.firmware.test_report_path)
from firmware import main
from firmware.games.baccarat.codes import OUT_SHOE
from firmware.games.craps.codes import OUT_PUCK
from firmware.games.omaha.codes import OUT_BUTTON_SET
from tests.firmware.fakes import FakeLCD, FakeMachine, FakeNeoPixelModule
from tests.firmware.scratch import ScratchDir


def _boot(state, game):
    FakeLCD.missing = ()
    machine = FakeMachine()
    machine.usb = machine.UART(9)
    ctx = main.boot(machine, FakeNeoPixelModule(), "boards/pico.json", "boards/tables/sim-%s.json" % game,
                    state, FakeLCD, machine.usb)
    for _ in range(60):                            # the boot lamp test, then READY
        main.poll_inputs(ctx, 100)
        main.refresh_outputs(ctx, True)
    return ctx


def _game_modules_counted(table):
    calls = [0]
    plain = table.game_modules

    def counting():
        calls[0] += 1
        return plain()
    table.game_modules = counting
    return calls


def test_a_tables_game_reports_look_its_game_modules_up_once():
    # game_modules() is an import statement: ~14 us of the VM a call, four times the making of a card's
    # report. A table looks its reports module up at its first game report, never again.
    cases = (("baccarat", OUT_SHOE, 0, 8, ("shoe", {"shoe": "new", "decks": 8})),
             ("craps", OUT_PUCK, 6, 0, ("puck", {"puck": "on", "point": 6})),
             ("omaha", OUT_BUTTON_SET, 3, 0, ("dealer_button", {"seat": "3"})))
    for game, code, a, b, wanted in cases:
        with ScratchDir() as state:
            table = _boot(state, game).table
            table.game_report(code, a, b)
            calls = _game_modules_counted(table)
            for _ in range(3):
                assert table.game_report(code, a, b) == wanted, game
            assert calls[0] == 0, (game, calls[0])


def test_a_table_looks_its_game_modules_up_at_its_first_game_report():
    with ScratchDir() as state:
        table = _boot(state, "craps").table
        table._game_reports = None                 # as a table that has made no game report yet
        calls = _game_modules_counted(table)
        assert table.game_report(OUT_PUCK, 0, 0) == ("puck", {"puck": "off", "point": None})
        assert table.game_report(OUT_PUCK, 4, 0) == ("puck", {"puck": "on", "point": 4})
        assert calls[0] == 1
