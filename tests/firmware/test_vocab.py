# One word and one shape for one concept across games (brief x10-vocab, docs/protocol.md): Craps recall
# rounds in the live reports' words (old rounds on flash served in them), Omaha's `dealt` always with
# `face_up`, no meaningless fault `detail`, the bet reader's HELLO reported as the shoe's and the dice
# reader's are. Dual runtime.
from firmware import recall_answer
from firmware.games.craps import recall as craps_recall
from firmware.link.recall import Recall
from firmware.round_recall import RoundRecall
from tests.firmware.scratch import ScratchDir


class _Reporter:
    def __init__(self):
        self.sent = []

    def emit(self, event, fields=None):
        self.sent.append((event, fields))


# -- 1. Craps recall words ----------------------------------------------------------------------------
def test_craps_rounds_kept_by_older_firmware_are_served_in_the_live_words():
    old = [{"round": 1, "shooter": 1, "dice": [3, 3], "result": "point-set", "point": 6},
           {"round": 2, "shooter": 1, "dice": [2, 2], "result": "no-roll", "no_roll": "off_table", "point": 6},
           {"round": 3, "shooter": 1, "dice": [4, 2], "result": "point-made", "point": None, "nets": {"1": 10}},
           {"round": 4, "shooter": 1, "dice": [4, 3], "result": "seven-out", "point": None}]
    with ScratchDir() as state:
        kept = Recall(state, "craps", None)            # as older firmware wrote them on the flash
        for entry in old:
            kept.add(entry)
        recall = RoundRecall(state, "craps", None, craps_recall)
        assert recall_answer.lines(recall, 4) == ["throw 1 shooter 1 3-3 point_set point 6",
                                   "throw 2 shooter 1 2-2 no_roll (off_table) point 6",
                                   "throw 3 shooter 1 4-2 point_made  1:+10", "throw 4 shooter 1 4-3 seven_out"]
        reporter = _Reporter()
        assert recall_answer.ask(recall, 4) is None
        recall_answer.pump(recall, reporter, None)
        assert [f["round"]["result"] for e, f in reporter.sent] == ["point_set", "no_roll", "point_made", "seven_out"]


# -- 3. no "detail" that means nothing -------------------------------------------------------------
def _fault_report(code, b, kind=None):
    from firmware.events import FAULT
    from tests.firmware import baccarat_rig
    rig = baccarat_rig.Rig()
    rig.event(FAULT if kind is None else kind, code, b)
    return strip(rig.last("fault"))


def strip(report):
    return {k: report[k] for k in report if k not in ("seq", "table")}


def test_a_fault_whose_detail_is_always_0_is_reported_without_it_and_journal_full_says_so():
    from firmware import fault_kinds, faults
    from firmware.events import FAULT_RESTORED
    for code in (faults.RESET_IN_ROUND, faults.JOURNAL_BAD, faults.DISPLAY_MISSING, faults.CRASHED,
                 faults.FAULT_RECORD_BAD):
        assert _fault_report(code, 0) == {"event": "fault", "fault": fault_kinds.name(code)}, code
        assert _fault_report(code, 0, FAULT_RESTORED) == {"event": "fault", "fault": fault_kinds.name(code),
                                                          "restored": True}, code
    # the journal filled with no boundary to checkpoint at (firmware/recovery.py): a detail that means it
    assert _fault_report(faults.JOURNAL_BAD, 1) == {"event": "fault", "fault": "journal_bad", "full": True}
    # a detail that means something stays: events refused, the fault not saved
    assert _fault_report(faults.QUEUE_FULL, 5) == {"event": "fault", "fault": "queue_full", "detail": 5}
    assert _fault_report(faults.FAULT_RECORD_UNSAVED, faults.CRASHED) == {
        "event": "fault", "fault": "fault_record_unsaved", "detail": faults.CRASHED}


# -- 4. the bet reader's HELLO ------------------------------------------------------------------------
_BETS_HELLO = b"B1 00 HELLO rfid-1.4*A1F6"


def test_the_bet_readers_hello_between_readings_is_reported_with_its_line_and_inside_one_refuses_it():
    from firmware import faults
    from firmware.drivers.bet_reader import BetReader
    from firmware.events import BETS, BETS_FAULT
    from firmware.statemachine import EventQueue
    from firmware.evidence import Evidence
    from firmware.games.baccarat.payouts import ZONES
    from tests.firmware.device_helpers import Sender, drain, kinds
    reader = BetReader(None, EventQueue(64), Evidence(slots=16, size=96), ZONES, 7)
    s = Sender("B")
    reader.handle(s.hello("rfid-1.4"))                    # at power-up: no reading under way
    events = drain(reader.queue)
    assert kinds(events) == [(BETS_FAULT, faults.BETS_RESTARTED)]
    assert reader.evidence.text(events[0][2]) == s.hello("rfid-1.4").rstrip(b"\r\n").decode()
    for line in (s("OPEN", "1"), s("SEAT", "1", "tie=5"), s("CLOSE", "1", "1")):
        reader.handle(line)
    assert drain(reader.queue) == [(BETS, 1, 1)]
    reader.handle(s.hello())                              # between readings: reported, the reading stands
    assert kinds(drain(reader.queue)) == [(BETS_FAULT, faults.BETS_RESTARTED)]
    assert reader.reading.as_dict() == {1: {"tie": 5}} and reader.refused == 0
    for line in (s("OPEN", "2"), s("SEAT", "1", "tie=5"), s.hello()):
        reader.handle(line)                               # inside a reading: it is cut short, refused (once)
    assert kinds(drain(reader.queue)) == [(BETS_FAULT, faults.BETS_INCOMPLETE)]


def test_a_bet_reader_restart_is_reported_at_baccarat_and_craps_and_a_reading_accepted_stands():
    from firmware import faults
    from firmware.events import BETS_FAULT
    from tests.firmware import baccarat_rig, craps_rig
    for rig in (baccarat_rig.Rig(), craps_rig.Rig()):
        rig.bets({1: {"tie": 10} if isinstance(rig, baccarat_rig.Rig) else {"pass": 10}})
        rig.event(BETS_FAULT, faults.BETS_RESTARTED, rig.table.evidence.keep(_BETS_HELLO, 0, len(_BETS_HELLO)))
        assert strip(rig.last("bet_reader")) == {"event": "bet_reader", "bet_reader": "restarted",
                                                 "bytes": _BETS_HELLO.decode()}
        assert rig.last("fault") is None and [r for r in rig.reports("bets") if not r["accepted"]] == []
    bac = baccarat_rig.Rig()
    bac.bets({1: {"tie": 10}})
    bac.event(BETS_FAULT, faults.BETS_RESTARTED, 0)
    assert bac.table.bets_ready                           # the reading the reader sent before it restarted
