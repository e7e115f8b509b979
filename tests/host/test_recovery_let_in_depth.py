"""The recovery at the end of a boot's lamp test runs at the pass's own level, not nested in the dispatch of the
event that ended the lamp test: its let-in (the events that waited, a RECALL answered from flash among them) is
the table's deepest C stack on a board, where every Python call nests C frames (docs/performance-log.md, "C stack
depth"). CPython only: it reads the Python call stack, which MicroPython does not show (bench/stack_depth.py
measures the bytes there)."""
import sys

from firmware.link import frame as fm
from tests.firmware.scratch import ScratchDir
from tests.firmware.test_main import _boot, _host, _run
from tests.firmware.test_recovery import _at_a_point, _lamp_test_but_its_last_pass


def _calls_from_the_pass(frame):
    """The function names from firmware.main.poll_inputs down to `frame`, outermost first."""
    names = []
    while frame is not None and frame.f_code.co_name != "poll_inputs":
        names.append(frame.f_code.co_name)
        frame = frame.f_back
    return ["poll_inputs"] + names[::-1]


def test_the_events_that_waited_for_the_lamp_test_are_let_in_from_the_pass_not_from_the_dispatch_that_ended_it():
    with ScratchDir() as state:
        _at_a_point(state)                                   # a journalled throw: the next boot recovers
        ctx, machine, _ = _boot(state)
        host = machine.uarts[1]
        _lamp_test_but_its_last_pass(ctx, lambda i: i == 1 and host.feed(fm.encode(0, 0, "RECALL", "1")))
        table = ctx.table
        dispatch = table.dispatch
        let_in = []

        def recording(kind, a, b):
            if ctx.journal.letting_in is not None:
                let_in.append(_calls_from_the_pass(sys._getframe(1)))
            return dispatch(kind, a, b)

        table.dispatch = recording                           # (the table's own, restored in place)
        try:
            _run(ctx, 1)                                     # the pass that ends the lamp test
        finally:
            del table.dispatch
        assert let_in, "no event was let in"
        # Before: poll_inputs > _dispatch > TableJournal.after > recover > _dispatch (two frames deeper).
        assert set(map(tuple, let_in)) == {("poll_inputs", "recover", "_dispatch")}, let_in
        _run(ctx, 5)
        assert [r["asked"] for r in _host(machine) if r["event"] == "recall" and r["index"] == 1] == [1]
