# The Craps table and its dice reader's restarts (HELLO): a throw the reader may have missed is never
# played over as if nothing happened (Craps art. 3: a throw is decided only as the reader saw it).
from firmware import faults
from firmware.events import DICE_HELLO_AGAIN, DICE_HELLO_FIRST, DICE_READER_HELLO
from firmware.games.craps import codes
from firmware.table_codes import FAULTED, READY
from tests.firmware.craps_rig import Rig, strip

_HELLO = b"D1 00 HELLO dice-1.2*675F"


def _hello(rig, again=True):
    """The reader's HELLO; again: it had spoken since the board booted (firmware.drivers.dice_reader)."""
    rig.event(DICE_READER_HELLO, DICE_HELLO_AGAIN if again else DICE_HELLO_FIRST,
              rig.table.evidence.keep(_HELLO, 0, len(_HELLO)))


def test_the_readers_first_hello_since_boot_and_one_before_the_table_opened_are_only_reported():
    rig = Rig()
    _hello(rig)                                         # at READY: the table is not open yet
    assert rig.table.state == READY
    assert strip(rig.last("dice_reader")) == {"event": "dice_reader", "dice_reader": "restarted",
                                              "bytes": _HELLO.decode()}
    rig = Rig()
    rig.bets({1: {"pass": 10}})                         # the reading opens the table; the reader powers up late
    _hello(rig, again=False)                            # its first frame since the board booted
    assert rig.table.state == codes.COME_OUT and rig.last("fault") is None
    assert rig.last("dice_reader")["dice_reader"] == "restarted"
    rig.throw(2, 4)                                     # the come-out is decided: point 6
    _hello(rig, again=False)                            # (a board reset resumes here: the reader's first frame)
    assert rig.table.state == codes.POINT and rig.last("fault") is None
    rig.throw(3, 3)
    assert strip(rig.last("throw"))["nets"] == {"1": {"pass": 10}}


def test_a_reader_restart_in_play_is_an_alarm_and_no_throw_is_decided_until_the_dealer_closes_it():
    # Regression: the HELLO was only reported, and the next throw was decided as if none had been missed
    # (a seven-out while the reader was off would have left the point and the bets standing).
    rig = Rig()
    rig.bets({1: {"pass": 10}})
    rig.throw(2, 4)                                     # point 6
    _hello(rig)
    assert rig.table.state == FAULTED
    assert strip(rig.last("fault")) == {"event": "fault", "fault": "dice_restarted", "bytes": _HELLO.decode()}
    rig.throw(3, 3)                                     # would win the pass line: held, never decided
    assert strip(rig.last("throw"))["no_roll"] == "alarm"
    assert rig.table.engine.point == 6 and len(rig.table.engine.bets) == 1
    rig.press("confirm")                                # the dealer vouches no throw was missed
    assert strip(rig.last("fault_ack")) == {"event": "fault_ack", "fault": "dice_restarted", "by": "confirm"}
    assert rig.table.state == codes.POINT
    rig.throw(3, 3)
    assert strip(rig.last("throw"))["nets"] == {"1": {"pass": 10}}


def test_a_reader_restart_on_the_come_out_after_a_throw_is_an_alarm_a_long_void_closes():
    rig = Rig()
    rig.throw(3, 4)                                     # a come-out seven: puck still OFF
    _hello(rig)
    assert rig.table.state == FAULTED and rig.table.fault_code == faults.DICE_RESTARTED
    rig.press("void", long=True)                        # the throw in doubt is void: the shooter throws again
    assert rig.table.state == codes.COME_OUT and strip(rig.last("fault_ack"))["by"] == "void"


def test_a_restart_before_any_throw_at_an_open_table_is_an_alarm():
    rig = Rig()
    _hello(rig, again=False)                            # its power-up
    rig.bets({1: {"pass": 10}})
    _hello(rig)                                         # it restarted while the table was open
    assert rig.table.state == FAULTED and rig.last("fault")["fault"] == "dice_restarted"


def test_a_reader_restart_during_an_alarm_in_play_is_reported_as_the_fault_and_the_alarm_in_force_stays():
    # Until stop 72 it was the dice_reader's `restarted` (the report of a restart before play), where a shoe's
    # restart held by an alarm in a Baccarat round or an Omaha hand is the `shoe_restarted` fault.
    rig = Rig()
    rig.throw(2, 4)
    rig.fault(faults.DICE_SENSOR)
    readers = len(rig.reports("dice_reader"))
    _hello(rig)
    assert rig.table.fault_code == faults.DICE_SENSOR   # throws are held already
    assert strip(rig.last("fault")) == {"event": "fault", "fault": "dice_restarted", "bytes": _HELLO.decode()}
    assert len(rig.reports("dice_reader")) == readers
    rig.press("confirm")
    assert rig.table.state == codes.POINT
    assert strip(rig.last("fault_ack"))["fault"] == "dice_sensor"
    rig = Rig()
    rig.fault(faults.DICE_SENSOR)                       # at READY: the table is not open, no throw to miss
    _hello(rig)
    assert rig.last("dice_reader")["dice_reader"] == "restarted" and rig.last("fault")["fault"] == "dice_sensor"
