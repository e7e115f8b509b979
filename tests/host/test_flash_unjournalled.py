"""What a power cut takes from the simulated board's RAM (hostsim/flash.py unjournalled()): the inputs
its table journal had taken but not written, which the simulator gives the next boot again."""
from firmware.event_bytes import behind
from firmware.events import BETS, HOST, LINK_BACKLOG, THROW
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


def test_the_link_alarm_that_waited_for_the_lamp_test_dies_with_the_board_not_given_again():
    # The link's alarm (LINK_BACKLOG) is the dead board's sender's, not an input: a cut during the boot
    # after another cut (the store full, the host away then back) gave its held raise to the next boot,
    # after that boot's own clear, and nothing ever cleared it: every come-out refused for good, the
    # host present and every frame acknowledged (host-away double cuts, Craps; found by a sweep).
    with ScratchDir() as state:
        ctx, machine, _ = _boot(state, "craps")
        _run(ctx)
        ctx, machine, _ = _boot(state, "craps")
        _lamp_test_but_its_last_pass(ctx, lambda i: i == 1 and (ctx.queue.put(LINK_BACKLOG, 1, 64),
                                                                  ctx.queue.put(THROW, 2 * 8 + 3, 0)))
        assert [held[:3] for held in ctx.journal.held] == [(LINK_BACKLOG, 1, 64), (THROW, 19, 0)]
        assert [event[:3] for event in unjournalled(ctx.journal, ctx.table, ctx.queue)] == [(THROW, 19, 0)]


def test_a_held_shoe_the_table_lets_in_itself_is_not_given_again_a_shoe_put_in_is():
    # A shoe held for a settings change keeps its file until its IN is in the journal; the next boot lets it in
    # from there (firmware/settings_change.py). Given again by the simulator too, it came in twice: a second
    # shoe over the first, removed and new again. The shoe's own IN (b 0) is the dealer's: given again.
    from firmware.events import SHOE, SHOE_HELLO, SHOE_IN, SHOE_LET_IN, SHOE_OUT
    with ScratchDir() as state:
        ctx, machine, _ = _boot(state, "baccarat")
        _run(ctx)
        ctx.queue.put(SHOE, SHOE_IN, SHOE_LET_IN)
        ctx.queue.put(SHOE, SHOE_OUT, SHOE_LET_IN)          # the shoe in play taken out for it: the table's too
        assert unjournalled(ctx.journal, ctx.table, ctx.queue) == []
        ctx.queue.put(SHOE, SHOE_IN, 0)
        ctx.queue.put(SHOE, SHOE_OUT, 0)
        ctx.queue.put(SHOE, SHOE_HELLO, SHOE_LET_IN)        # a HELLO's b is its evidence handle: 1 is one
        assert [event[:3] for event in unjournalled(ctx.journal, ctx.table, ctx.queue)] == [
            (SHOE, SHOE_IN, 0), (SHOE, SHOE_OUT, 0), (SHOE, SHOE_HELLO, 1)]


def test_a_power_cut_while_a_round_is_kept_loses_no_input_read_in_its_pass():
    # The round's write at the next pass's start comes before the queued inputs are taken: a cut there
    # leaves them on the queue, which the simulator gives the next boot again (a board loses them with its
    # RAM, as any input not yet journalled: the dealer repeats them; docs/journal.md).
    from firmware import main
    from firmware.throws import pack

    class Cut(Exception):
        pass

    def add(*args):
        raise Cut()
    with ScratchDir() as state:
        ctx, machine, _ = _boot(state, "craps")
        _run(ctx)
        ctx.queue.put(THROW, pack(5, 6), 0)
        ctx.queue.put(THROW, pack(3, 3), 0)
        main.poll_inputs(ctx, 100)
        ctx.recall.recall.add = add                # the power goes at the first round's write
        try:
            main.poll_inputs(ctx, 100)
            raise AssertionError("no cut")
        except Cut:
            pass
        assert [event[:3] for event in unjournalled(ctx.journal, ctx.table, ctx.queue)] == [(THROW, pack(3, 3), 0)]

