# Game recall's reading side on demand (issue 14, heap kept): a table keeps each round at its end
# (firmware/round_recall.py, resident: it runs every round) and imports firmware/recall_answer.py only when
# the console's `recall N` or the host's RECALL asks; it leaves sys.modules when `recall`'s line is done or the
# host's answer is out (firmware/parts.py, RECALL_ON_DEMAND), and nothing the table keeps holds its objects.
# Before, RoundRecall carried the reading methods (lines, ask, pump...) for the whole run. The answers are
# the same (tests/firmware/test_recall_board.py). Fakes only: runs on MicroPython too.
import sys

from firmware.link import frame as fm
from firmware.parts import RECALL_ON_DEMAND, release
from firmware.round_recall import RoundRecall
from tests.firmware.console_rig import typed
from tests.firmware.scratch import ScratchDir
from tests.firmware.test_boot_release import _boot_only_objects, _none_kept
from tests.firmware.test_main import _boot, _host, _run
from tests.firmware.test_recall_board import _LINES, _throws


def _loaded():
    return [name for name in RECALL_ON_DEMAND if name in sys.modules]


def _fresh(state, game="craps"):
    """A table booted on `state` with the reader not imported before (this session imports it); the reader's
    objects as the table would find them, to check that nothing kept holds one."""
    found = _boot_only_objects(RECALL_ON_DEMAND)
    release(RECALL_ON_DEMAND)
    ctx, machine, _ = _boot(state, game)
    _run(ctx)
    return ctx, machine, found


def _released(ctx, found):
    assert _loaded() == [], _loaded()
    _none_kept(ctx, found, RECALL_ON_DEMAND)


def _answers(machine, asked):
    return [r for r in _host(machine) if r["event"] == "recall" and r["asked"] == asked]


def test_a_booted_table_keeps_no_reading_side_of_recall():
    for name in ("lines", "ask", "pump", "refusal", "answering", "_read_segment"):
        assert not hasattr(RoundRecall, name), name          # the class every table keeps
    for game in ("baccarat", "craps", "omaha"):
        with ScratchDir() as state:
            ctx, machine, found = _fresh(state, game)
            _run(ctx, 20)
            _released(ctx, found)


def test_console_recall_twice_in_a_row_from_a_fresh_boot_and_after_a_reboot_each_released_after():
    with ScratchDir() as state:
        ctx, machine, found = _fresh(state)
        assert typed(ctx, machine, "recall") == ["no craps round kept yet"]
        _released(ctx, found)
        _throws(ctx, machine)                     # rounds kept: the reader is not needed for that
        _released(ctx, found)
        for _ in range(2):
            found = _boot_only_objects(RECALL_ON_DEMAND)
            assert typed(ctx, machine, "recall") == _LINES
            _released(ctx, found)
        release(RECALL_ON_DEMAND)                 # the power cycled: the next boot imports it anew
        ctx, machine, found = _fresh(state)
        assert typed(ctx, machine, "recall 2") == _LINES[2:]
        _released(ctx, found)


def test_host_recall_twice_in_a_row_answered_then_released_and_after_a_reboot():
    with ScratchDir() as state:
        ctx, machine, found = _fresh(state)
        _throws(ctx, machine)
        for asked in (3, 2):
            found = _boot_only_objects(RECALL_ON_DEMAND)
            machine.uarts[1].feed(fm.encode(0, 0, "RECALL", "%d" % asked))
            _run(ctx, 5)
            answers = _answers(machine, asked)
            assert [(a["index"], a["of"]) for a in answers] == [(i + 1, asked) for i in range(asked)], answers
            assert [a["round"]["round"] for a in answers] == list(range(5 - asked, 5))
            assert ctx.recall.answer_of < 0
            _released(ctx, found)
        machine.uarts[1].feed(fm.encode(0, 0, "RECALL", "101"))      # refused: nothing under way, released
        _run(ctx, 3)
        refused = [r for r in _host(machine) if r["event"] == "host_error" and r.get("request") == "recall"]
        assert refused[-1]["error"] == "recall 101: ask for 1..100 rounds", refused
        _released(ctx, found)
        ctx, machine, found = _fresh(state)        # a reboot, the same flash
        machine.uarts[1].feed(fm.encode(0, 0, "RECALL", "4"))
        _run(ctx, 5)
        assert [a["round"]["round"] for a in _answers(machine, 4)][-4:] == [1, 2, 3, 4]
        _released(ctx, found)


def test_an_answer_under_way_keeps_the_reader_across_passes_and_a_console_recall_meanwhile():
    # The host's answer goes out as the link's room allows (firmware/recall_answer.py, pump): with the store
    # filled, it waits, and the reader stays until its last round is out.
    with ScratchDir() as state:
        ctx, machine, found = _fresh(state)
        _throws(ctx, machine)
        sender = ctx.sender
        real = sender.held
        sender.held = lambda: sender.store.capacity()          # the store full: no answer report goes out
        machine.uarts[1].feed(fm.encode(0, 0, "RECALL", "4"))
        _run(ctx, 5)
        assert ctx.recall.answer_of == 4 and _answers(machine, 4) == []
        assert _loaded() == list(RECALL_ON_DEMAND)
        assert typed(ctx, machine, "recall 1") == _LINES[3:]     # the console reads meanwhile
        assert _loaded() == list(RECALL_ON_DEMAND)             # the answer still under way keeps it
        found = _boot_only_objects(RECALL_ON_DEMAND)
        sender.held = real
        _run(ctx, 5)
        assert [a["round"]["round"] for a in _answers(machine, 4)] == [1, 2, 3, 4]
        _released(ctx, found)


def test_an_answer_waits_at_half_of_the_frames_reports_may_fill_not_counting_a_boots_kept_slots():
    # pump() sends a round while the longest recall report (7 frames of 128 bytes) leaves the store at most
    # half full: half of the 64 frames reports may fill (Sender.report_slots), not of the 70 with the 6 kept
    # for a boot's first frames (firmware/startup.py, HOST_BOOT_FRAMES), which it waited at 35 - 7 then.
    with ScratchDir() as state:
        ctx, machine, _ = _fresh(state)
        _throws(ctx, machine)
        sender = ctx.sender
        real = sender.held
        assert sender.report_slots == 64 and sender.store.capacity() == 70
        sender.held = lambda: 32 - 7 + 1                     # one frame over half with the answer's report
        machine.uarts[1].feed(fm.encode(0, 0, "RECALL", "4"))
        _run(ctx, 5)
        assert ctx.recall.answer_of == 4 and _answers(machine, 4) == []
        sender.held = lambda: 32 - 7                         # the answer's report fills it to half: it goes
        _run(ctx, 1)
        sender.held = real
        assert len(_answers(machine, 4)) >= 1
        _run(ctx, 5)
        assert [a["round"]["round"] for a in _answers(machine, 4)] == [1, 2, 3, 4]
