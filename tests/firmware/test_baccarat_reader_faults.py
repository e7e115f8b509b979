# The bet reader's faults at a Baccarat table: the real driver (firmware.drivers.bet_reader) on the
# table's own BetReading and evidence, its events fed to the controller. A reading the driver accepted
# is the next round's bets whatever bad line comes after it (as at Craps, where it is placed at once):
# the bad line is reported as the fault it is, and the chips read stay on the layout.
from firmware import faults
from firmware.drivers import pixels
from firmware.drivers.bet_reader import BetReader
from firmware.events import BETS_FAULT
from firmware.statemachine import EventQueue
from firmware.games.baccarat import payouts
from tests.firmware.baccarat_rig import Rig
from tests.firmware.table_rig import strip
from tests.firmware.device_helpers import Sender, drain

NETS = {"3": {"banker": -100, "tie": -10}}        # P 9 (9h Kc), B 5 (2d 3s): Player's natural (art. 9(1))


def _table_and_reader():
    rig = Rig()
    reader = BetReader(None, EventQueue(16), rig.table.evidence, payouts.ZONES, 3, rig.reading)
    rig.new_shoe()
    return rig, reader, Sender("B")


def _lines(rig, reader, lines):
    """Each line through the driver, then its events to the table."""
    for line in lines:
        reader.handle(line)
        for kind, a, b in drain(reader.queue):
            rig.event(kind, a, b)


def _accepted(rig, reader, s):
    _lines(rig, reader, [s.hello("rfid-1.4"), s("OPEN", "7"), s("SEAT", "3", "banker=100", "tie=10"),
                         s("CLOSE", "7", "1")])
    assert rig.last("bets")["accepted"] is True and rig.colour("seat3") == pixels.BLUE


def _round_keeps_the_reading(rig):
    assert rig.colour("seat3") == pixels.BLUE                # the chips read are still lit
    rig.cards("9h 2d Kc 3s")
    assert rig.last("round")["bets"] == {"3": {"banker": 100, "tie": 10}}
    assert rig.last("result")["nets"] == NETS


def test_garbage_on_the_reader_port_after_an_accepted_reading_is_reported_and_the_bets_stay():
    # Regression: the garbage line's fault cleared the table's "reading taken": round 1 was dealt
    # without the 110 the reader had accepted (no bets, no nets), though the driver kept the reading.
    rig, reader, s = _table_and_reader()
    _accepted(rig, reader, s)
    _lines(rig, reader, [b"zz"])
    fault = rig.last("bets")
    assert (fault["accepted"], fault["reason"], fault["bytes"]) == (False, "frame_syntax", "zz")
    assert "reading" not in fault
    _round_keeps_the_reading(rig)


def test_a_refused_reading_after_an_accepted_one_leaves_the_accepted_ones_bets_for_the_round():
    for bad in (("SEAT", "2", "dragon=5"),                  # bets_bad_zone
                ("SEAT", "9", "player=5"),                  # bets_bad_seat (3 seats)
                ("FAULT", "3")):                            # bets_sensor: the reader's own fault
        rig, reader, s = _table_and_reader()
        _accepted(rig, reader, s)
        _lines(rig, reader, [s("OPEN", "8"), s(*bad), s("CLOSE", "8", "1")])
        assert rig.last("bets")["accepted"] is False, bad
        _round_keeps_the_reading(rig)


def test_a_frame_lost_after_an_accepted_reading_leaves_its_bets():
    rig, reader, s = _table_and_reader()
    _accepted(rig, reader, s)
    opened = s("OPEN", "8")
    s.counter += 1                                          # a SEAT frame never arrived
    _lines(rig, reader, [opened, s("SEAT", "1", "player=5"), s("CLOSE", "8", "2")])
    assert [r.get("reason") for r in rig.reports("bets")[1:]] == ["frame_lost", "bets_incomplete"]
    _round_keeps_the_reading(rig)


def test_a_line_dropped_inside_a_reading_refuses_it_showing_the_dropped_bytes():
    # Regression: the refusal a dropped line causes carried no evidence (handle 0) and was reported with
    # "bytes": "", as if the reader had sent nothing; it shows the bytes the serial line dropped.
    rig, reader, s = _table_and_reader()
    _accepted(rig, reader, s)
    _lines(rig, reader, [s("OPEN", "8")])
    reader.line_dropped(faults.PARTIAL_LINE, rig.table.evidence.keep(b"B1 06 SEAT 1 pla"))
    for kind, a, b in drain(reader.queue):
        rig.event(kind, a, b)
    refused = [(r["reason"], r["bytes"]) for r in rig.reports("bets")[1:]]
    assert refused == [("partial_line", "B1 06 SEAT 1 pla"), ("bets_incomplete", "B1 06 SEAT 1 pla")]
    _round_keeps_the_reading(rig)


def test_a_bad_line_after_the_round_used_the_reading_brings_no_bets_back():
    # The next round has only what a reading since says: a fault is no reading.
    rig, reader, s = _table_and_reader()
    _accepted(rig, reader, s)
    rig.cards("9h 2d Kc 3s")
    _lines(rig, reader, [b"zz"])
    assert rig.colour("seat3") == pixels.OFF
    rig.cards("5h 9d 2c Ks")
    assert "bets" not in rig.last("round") and "nets" not in rig.last("result")


def test_a_device_fault_or_refusal_with_no_evidence_kept_has_no_bytes_not_an_empty_string():
    # "bytes": "" would say the line was empty; a fault whose bytes were not kept (handle 0) says nothing.
    rig, reader, s = _table_and_reader()
    rig.event(BETS_FAULT, faults.BETS_INCOMPLETE, 0)
    assert strip(rig.last("bets")) == {"event": "bets", "accepted": False, "reason": "bets_incomplete"}
    rig.fault(faults.FRAME_CRC, 0)
    assert strip(rig.last("fault")) == {"event": "fault", "fault": "frame_crc"}
    rig.fault(faults.FRAME_SYNTAX, rig.table.evidence.keep(b"K?"))
    assert strip(rig.last("fault")) == {"event": "fault", "fault": "frame_syntax", "bytes": "K?"}


def test_a_reading_refused_after_the_shoe_closed_shows_bets_not_read_with_the_new_shoe():
    # The finished shoe's prompt keeps its four lines; the note waits for the new shoe (docs/baccarat.md).
    from firmware.events import SHOE_CUT
    from firmware.games.baccarat import screens
    from firmware.games.baccarat.codes import SHOE_CLOSED
    from firmware.screens import BETS_NOT_READ
    config = {"table_id": "T01", "game": "baccarat"}
    rig = Rig()                                             # cut_card "last_round"
    rig.new_shoe()
    rig.cards("9h 5d")
    rig.shoe(SHOE_CUT)                                      # round 1 is the last
    rig.cards("Kc 2s")
    assert rig.table.state == SHOE_CLOSED
    rig.event(BETS_FAULT, faults.BETS_SENSOR, 0)
    assert BETS_NOT_READ not in screens.dealer_lines(rig.table, config, [])
    rig.new_shoe(burn="")
    assert screens.dealer_lines(rig.table, config, [])[3] == BETS_NOT_READ
