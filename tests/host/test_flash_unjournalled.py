"""What a power cut takes from the simulated board's RAM (hostsim/flash.py unjournalled()): the inputs
its table journal had taken but not written, which the simulator gives the next boot again."""
from firmware.event_bytes import behind
from firmware.events import BETS
from firmware.link import journal as jn
from hostsim.flash import unjournalled
from tests.firmware.expect import raises
from tests.firmware.scratch import ScratchDir
from tests.firmware.test_table_journal_records import _fill, _journal


class _Queue:
    def get(self):
        return False


class _FailingFiles(jn.FlashFiles):
    """The board's files, but a write fails (what the simulator's power cut raises is an OSError too)."""

    def __init__(self):
        self.fail = False

    def open(self, name, mode="rb"):
        f = open(name, mode)
        return _Failing(f, self) if mode == "ab" else f


class _Failing:
    def __init__(self, f, files):
        self.f = f
        self.files = files

    def write(self, data):
        if self.files.fail:
            raise OSError(5)
        return self.f.write(data)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.f.close()
        return False


def test_an_event_whose_in_place_record_failed_is_given_back_with_its_bytes():
    # unjournalled() (the simulator after a power cut) gives the event being written with the bytes
    # behind it: a record built in place keeps none apart, so they are read from the table again.
    with ScratchDir() as state:
        files = _FailingFiles()
        tj, table = _journal(state, files)
        _fill(table.reading, 12, 9)
        files.fail = True
        raises(OSError, tj.before, table, BETS, 9, 2)
        assert unjournalled(tj, table, _Queue()) == [(BETS, 9, 2, behind(table, BETS, 9, 2))]
