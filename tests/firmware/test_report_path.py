# The host report path does each piece of work once (issue 14: the report path on the MicroPython VM):
# what a report, a frame or a pass skips is counted here, so putting the repeated work back fails.
# (Runs on MicroPython too: .venv/bin/python -m tools.mpvm tests.firmware.test_report_path)
import json

from firmware import main
from firmware.games.baccarat import recall as bac_recall
from firmware.games.baccarat import reports as bac_reports
from firmware.games.craps import recall as craps_recall
from firmware.report import Reporter
from firmware.round_recall import RoundRecall
from firmware.table import OUT_GAME_FIRST
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
                round_bets=bets, nets=nets)


def test_a_baccarat_round_sums_the_result_reports_nets_instead_of_walking_the_bets_again():
    # Baccarat art. 10 (a void round returns every bet: nets 0) and the settled nets: the round kept for
    # recall has each seat's net, which the result report's nets by seat and zone already hold: summed
    # from there (11 us of the VM's 21 for 7 seats), the same entry as from the table's arrays.
    walks = [0]
    plain = bac_recall.seat_nets

    def counting(table):
        walks[0] += 1
        return plain(table)
    bac_recall.seat_nets = counting
    try:
        for void in (False, True):
            table = _baccarat_table(void)
            fields = bac_reports.result_fields(table, 12)
            from_table = bac_recall.round_of(table, bac_recall.OUT_RESULT, 12, 0, None)
            assert walks[0] == 1
            walks[0] = 0
            from_report = bac_recall.round_of(table, bac_recall.OUT_RESULT, 12, 0, None, fields)
            assert walks[0] == 0, void
            assert from_report == from_table and json.dumps(from_report) == json.dumps(from_table)
            assert list(from_report["nets"]) == list(fields["nets"])      # (MicroPython: in hash order)
            assert sorted(from_report["nets"], key=int) == ["1", "3", "5", "7"]
            assert from_report["nets"]["3"] == (0 if void else 93)
    finally:
        bac_recall.seat_nets = plain


def test_the_reporter_hands_the_result_reports_fields_to_the_round():
    seen = []

    class _Rounds:
        ROUND_MAX = 640

        def round_of(self, table, code, a, b, previous, fields=None):
            seen.append((code, fields))
            return None

    class _Table:
        def game_report(self, code, a, b):
            return "result", {"round": a}

    with ScratchDir() as state:
        reporter = Reporter(None, "T1", [])
        reporter.recall = RoundRecall(state, "baccarat", None, _Rounds())
        reporter._send_outbox_entry(_Table(), OUT_GAME_FIRST, 4, 0)
    assert seen == [(OUT_GAME_FIRST, {"round": 4})]


def test_a_craps_round_sums_each_seats_zones():
    nets = {"2": {"pass": 10, "field": -10, "hard_6": 90}, "10": {"any_seven": -5}}
    assert craps_recall.seat_nets(nets) == {"2": 90, "10": -5}
    assert list(craps_recall.seat_nets(nets)) == list(nets)
