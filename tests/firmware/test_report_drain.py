# The Reporter's drain (firmware/report.py): what each kind of outbox entry costs before its report's
# frames (issue 14: the Baccarat last card's pass makes a card, a result and a state report).
# (Runs on MicroPython too: .venv/bin/python -m tools.mpvm tests.firmware.test_report_drain)
from firmware.report import Reporter
from firmware.round_recall import RoundRecall
from firmware.statemachine import EventQueue
from firmware.table_codes import OUT_GAME_FIRST, OUT_STATE
from tests.firmware.expect import count_calls
from tests.firmware.scratch import ScratchDir

_ROUND_END = OUT_GAME_FIRST + 1          # as a Baccarat result, a Craps throw, an Omaha hand's result
_RUN = OUT_GAME_FIRST + 2                # a run (Table.REPORT_RUNS: one entry, b reports)


class _Rounds:
    ROUND_MAX = 640
    ALWAYS = ()
    ROUND_CODES = (_ROUND_END,)

    def __init__(self):
        self.made = []

    def round_of(self, table, code, a, b, previous, fields=None):
        self.made.append((code, a, fields))
        return None                      # (nothing written)


class _Table:
    report_runs = (_RUN,)
    STATE_NAMES = ("starting", "ready")

    def __init__(self):
        self.outbox = EventQueue(8)

    def game_report(self, code, a, b):
        return ("card", "result", "bet")[code - OUT_GAME_FIRST], {"n": a}


def test_only_a_report_that_ends_a_round_is_told_to_recall():
    # noted() was called for every game report (a call of the VM's ~5 us for a card's, each of a
    # Craps reading's bets): the Reporter calls it for a code of ROUND_CODES only, a run's as drain's.
    rounds = _Rounds()
    with ScratchDir() as state:
        reporter = Reporter(None, "T1", [])
        reporter.recall = RoundRecall(state, "baccarat", None, rounds)
        calls, plain = count_calls(reporter.recall, "noted")
        table = _Table()
        outbox = table.outbox
        outbox.put(OUT_GAME_FIRST, 4, 0)      # a card
        outbox.put(_RUN, 7, 2)                # two bets, one entry
        outbox.put(OUT_STATE, 1, 0)
        assert reporter.drain(table) == 3
        assert calls[0] == 0 and rounds.made == []
        outbox.put(OUT_GAME_FIRST, 5, 0)
        outbox.put(_ROUND_END, 9, 0)          # the round's end: noted, made at the drain's end (commit)
        outbox.put(OUT_STATE, 0, 0)
        assert reporter.drain(table) == 3
        assert calls[0] == 1 and rounds.made == [(_ROUND_END, 9, {"n": 9})]
    assert reporter.recent.last() == [(1, "card", ""), (2, "bet", ""), (3, "bet", ""), (4, "state", ""),
                                      (5, "card", ""), (6, "result", ""), (7, "state", "")]


def test_a_state_entry_reports_the_state_by_name():
    # drain's own branch (not _send_outbox_entry's): the same report as before
    reporter = Reporter(None, "T1", [])
    seen = []
    plain = reporter.emit

    def emit(event, fields=None):
        seen.append((event, fields))
        return plain(event, fields)
    reporter.emit = emit
    table = _Table()
    table.outbox.put(OUT_STATE, 1, 0)
    table.outbox.put(OUT_STATE, 0, 0)
    assert reporter.drain(table) == 2
    assert seen == [("state", {"state": "ready"}), ("state", {"state": "starting"})]
