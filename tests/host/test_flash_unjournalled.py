"""What a power cut takes from the simulated board's RAM (hostsim/flash.py unjournalled()): the inputs
its table journal had taken but not written, which the simulator gives the next boot again."""
from firmware.event_bytes import behind
from firmware.events import BETS
from hostsim.flash import unjournalled
from tests.firmware.expect import raises
from tests.firmware.scratch import ScratchDir
from tests.firmware.test_journal import _FailingFiles      # a write that fails: OSError, as a power cut's
from tests.firmware.test_table_journal_records import _fill, _journal


class _Queue:
    def get(self):
        return False


def test_an_event_whose_in_place_record_failed_is_given_back_with_its_bytes():
    # unjournalled() (the simulator after a power cut) gives the event being written with the bytes
    # behind it: a record built in place keeps none apart, so they are read from the table again.
    with ScratchDir() as state:
        files = _FailingFiles()
        tj, table = _journal(state, files)
        _fill(table.reading, 12, 9)
        files.fail_next = True
        raises(OSError, tj.before, table, BETS, 9, 2)
        assert unjournalled(tj, table, _Queue()) == [(BETS, 9, 2, behind(table, BETS, 9, 2))]
