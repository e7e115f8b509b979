"""What a power cut takes from the simulated board's RAM (hostsim/flash.py unjournalled()): the inputs
its table journal had taken but not written, which the simulator gives the next boot again."""
from firmware.event_bytes import behind
from firmware.events import BETS, HOST
from firmware.link import frame as fm
from hostsim.flash import unjournalled
from tests.firmware.expect import raises
from tests.firmware.scratch import ScratchDir
from tests.firmware.test_journal import _FailingFiles      # a write that fails: OSError, as a power cut's
from tests.firmware.test_main import _boot, _run
from tests.firmware.test_recovery import _lamp_test_but_its_last_pass
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


class _Cut(Exception):
    pass


def test_a_cut_while_the_recovery_lets_in_the_events_that_waited_gives_back_the_rest():
    # The recovery dispatches the events that waited for the lamp test one by one; those not yet let in
    # lived in a local list, which unjournalled() did not see: a cut while the second of three RECALLs
    # was journalled gave back the second only, the third lost (found by review).
    with ScratchDir() as state:
        ctx, machine, _ = _boot(state, "omaha")
        _run(ctx)
        ctx, machine, _ = _boot(state, "omaha")
        _lamp_test_but_its_last_pass(ctx, lambda i: i in (1, 3, 5) and machine.uarts[1].feed(
            fm.encode(0, 0, "RECALL", str(i))))
        waiting = [held[:3] for held in ctx.journal.held]
        assert [kind for kind, _, _ in waiting] == [HOST] * 3
        journal = ctx.journal
        write = journal.journal.append_in_place
        writes = []

        def append_in_place(kind, buf, n):
            if not journal.pending:
                writes.append(kind)
                if len(writes) == 2:               # the power goes as the second is journalled
                    raise _Cut()
            return write(kind, buf, n)
        journal.journal.append_in_place = append_in_place
        raises(_Cut, _run, ctx, 1)
        assert [event[:3] for event in unjournalled(journal, ctx.table, ctx.queue)] == waiting[1:]
