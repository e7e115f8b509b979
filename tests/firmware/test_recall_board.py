# Recall on the booted board (issues 12, 13): throws from the framed dice reader are kept, `recall N` on
# the console and a RECALL frame from the host give them back, and a reboot keeps them (both runtimes).
from firmware import faults
from firmware.link import frame as fm
from tests.firmware.console_rig import typed
from tests.firmware.device_helpers import Sender
from tests.firmware.scratch import ScratchDir
from tests.firmware.test_main import _boot, _host, _press_confirm, _run

_THROWS = (("5", "6"), ("3", "3"), ("4", "1"), ("4", "3"))
_LINES = ["throw 1 shooter 1 5-6 natural", "throw 2 shooter 1 3-3 point_set point 6",
          "throw 3 shooter 1 4-1 roll point 6", "throw 4 shooter 1 4-3 seven_out"]


def _throws(ctx, machine):
    dice = Sender("D")
    for d1, d2 in _THROWS:
        machine.uarts[0].feed(dice("THROW", d1, d2) + b"\n")
        _run(ctx, 3)


def test_console_recall_shows_the_last_rounds_and_refuses_a_bad_n_with_its_usage():
    with ScratchDir() as state:
        ctx, machine, _ = _boot(state, "craps")
        _run(ctx)
        assert typed(ctx, machine, "recall") == ["no craps round kept yet"]
        _throws(ctx, machine)
        assert typed(ctx, machine, "recall") == _LINES                    # no login: read-only
        assert typed(ctx, machine, "recall 2") == _LINES[2:]
        usage = ["error: usage: recall [N] (N 1..100, default 10)"]
        for bad in ("recall 0", "recall 101", "recall x", "recall 1 2", "recall -3"):
            assert typed(ctx, machine, bad) == usage, bad
        errors = [r for r in _host(machine) if r["event"] == "console_error"]
        assert len(errors) == 5 and errors[0]["error"] == "usage"
        assert all(len(line) < 80 for line in typed(ctx, machine, "recall 100"))


def _three_recalled(state):
    """A Craps table booted on `state`, its throws played, then the host's RECALL 3 taken: (ctx, machine)."""
    ctx, machine, _ = _boot(state, "craps")
    _run(ctx)
    _throws(ctx, machine)
    machine.uarts[1].feed(fm.encode(0, 0, "RECALL", "3"))
    _run(ctx, 5)
    return ctx, machine


def test_host_recall_frame_is_answered_one_report_a_round_and_a_reboot_keeps_the_rounds():
    with ScratchDir() as state:
        ctx, machine = _three_recalled(state)
        answers = [r for r in _host(machine) if r["event"] == "recall"]
        assert [(a["index"], a["of"], a["asked"], a["game"]) for a in answers] == [(1, 3, 3, "craps"),
                                                                                   (2, 3, 3, "craps"),
                                                                                   (3, 3, 3, "craps")]
        assert [a["round"]["round"] for a in answers] == [2, 3, 4] and answers[2]["round"]["result"] == "seven_out"
        throws = [r for r in _host(machine) if r["event"] == "throw"]
        assert throws[-1]["seq"] < answers[0]["seq"]
        ctx, machine, _ = _boot(state, "craps")                          # a reboot, the same flash
        _run(ctx)
        assert typed(ctx, machine, "recall") == _LINES
        machine.uarts[1].feed(fm.encode(0, 0, "RECALL", "100"))
        _run(ctx, 5)
        # The first boot's answer comes again too (the host never acknowledged it: the link's frames
        # are kept on flash across the reboot), then this boot's.
        answers = [r for r in _host(machine) if r["event"] == "recall" and r["asked"] == 100]
        assert [a["round"]["round"] for a in answers] == [1, 2, 3, 4] and answers[0]["of"] == 4
        # The reboot came with the dice in play: the table holds the throws (reset_in_round) until the dealer
        # vouches that none came while the board was off.
        assert ctx.table.fault_code == faults.RESET_IN_ROUND
        _press_confirm(ctx, machine)
        _throws(ctx, machine)
        # The throws are numbered on from the kept ones; the table resumed from its journal, so the
        # second shooter (after the first boot's seven-out) threw these.
        assert typed(ctx, machine, "recall 1") == ["throw 8 shooter 2 4-3 seven_out"]


def test_a_throws_round_is_written_at_the_start_of_the_next_pass_not_in_the_pass_that_reports_it():
    # Issue 14: the recall write (a flash program on a board) leaves the pass that shows and reports the
    # throw; the round waits one pass with its event in the table journal, so a power cut before the write
    # still keeps it (tests/host/test_power_cut_table.py cuts at every write).
    from firmware import main
    with ScratchDir() as state:
        ctx, machine, _ = _boot(state, "craps")
        _run(ctx)
        recall = ctx.recall.recall
        writes = recall.journal.writes
        machine.uarts[0].feed(Sender("D")("THROW", "5", "6") + b"\n")
        main.poll_inputs(ctx, 100)
        main.refresh_outputs(ctx, True)
        assert [r["dice"] for r in _host(machine) if r["event"] == "throw"] == [[5, 6]]
        assert recall.journal.writes == writes and recall.count == 0
        main.poll_inputs(ctx, 100)
        assert recall.journal.writes == writes + 1 and recall.last_event == ctx.journal.event_no
        assert typed(ctx, machine, "recall") == _LINES[:1]


def test_a_round_ended_in_a_pass_is_made_before_the_next_event_of_that_pass_changes_the_table():
    # Issue 14: the round is made (not only written) after the pass that reports it, so the main loop
    # makes it before any other event is dispatched: two throws read for one pass (one queued before the
    # pass, one read in it) are two rounds, the first made from the table as its own throw left it (a
    # natural, no point), not as the second left it (point 6). The second waits on the queue for the next
    # pass, which keeps the first round before it: taken off the queue before that write, a power cut during
    # it lost the throw unseen (the simulator gives queued inputs again, hostsim.flash.unjournalled).
    from firmware import main
    from firmware.events import THROW
    from firmware.throws import pack
    with ScratchDir() as state:
        ctx, machine, _ = _boot(state, "craps")
        _run(ctx)
        ctx.queue.put(THROW, pack(5, 6), 0)
        machine.uarts[0].feed(Sender("D")("THROW", "3", "3") + b"\n")
        main.poll_inputs(ctx, 100)
        main.send_reports(ctx, 0)                  # the output pass's link turn: the first's reports out
        assert [r["dice"] for r in _host(machine) if r["event"] == "throw"] == [[5, 6]]
        assert ctx.recall.recall.count == 0 and ctx.recall.waiting is not None and len(ctx.queue) == 2  # +tick
        main.refresh_outputs(ctx, True)
        main.poll_inputs(ctx, 100)                 # the first round kept, then the second throw
        main.send_reports(ctx, 0)
        assert [r["dice"] for r in _host(machine) if r["event"] == "throw"] == [[5, 6], [3, 3]]
        assert ctx.recall.recall.count == 1 and ctx.recall.waiting is not None   # the second waits
        main.refresh_outputs(ctx, True)
        main.poll_inputs(ctx, 100)
        assert typed(ctx, machine, "recall") == _LINES[:2]


def _ack_all(ctx, machine):
    boot, seq = ctx.sender.last_frame()
    machine.uarts[1].feed(fm.encode(boot, seq, "ACK"))
    _run(ctx, 3)
    assert ctx.sender.held() == 0


def test_a_recall_answered_before_a_reset_is_not_answered_again_by_the_recovery():
    # The RECALL is a journalled table event: the next boot's recovery replays it with the throws. Its
    # answer went out (whole, or cut short by the reset: the host asks again, tools.host --recall at
    # the board's new boot); the replay made a second, unasked one after the recovery, of the rounds
    # last then (the 4th throw in it, not the 1st the host was given).
    with ScratchDir() as state:
        ctx, machine = _three_recalled(state)
        assert [r["index"] for r in _host(machine) if r["event"] == "recall"] == [1, 2, 3]
        _ack_all(ctx, machine)
        ctx, machine, _ = _boot(state, "craps")                          # a reset, the same flash
        _run(ctx)
        after = _host(machine)
        assert [r["event"] for r in after if r["event"] in ("recovered", "recall")] == ["recovered"], after
        recovered = [r for r in after if r["event"] == "recovered"][0]
        assert recovered["events"] >= 5 and recovered["resumed"]     # the RECALL among the events replayed
        # (then the dice-in-play alarm, reset_in_round: a host's RECALL is answered all the same)
        assert [r["fault"] for r in after if r["event"] == "fault"] == ["reset_in_round"], after
        machine.uarts[1].feed(fm.encode(0, 0, "RECALL", "2"))          # asked again: answered, not busy
        _run(ctx, 5)
        answers = [r for r in _host(machine) if r["event"] in ("recall", "host_error")]
        assert [(r["event"], r.get("index"), r.get("asked")) for r in answers] == [("recall", 1, 2), ("recall", 2, 2)]
        assert [r["round"]["round"] for r in answers] == [3, 4]


def test_a_recall_refused_while_an_answer_goes_out_names_its_own_tag():
    """A RECALL tagged 4 (`#0.<tag>`, docs/host-link.md) waits for room on the link; one tagged 5 comes
    meanwhile and is refused `recall busy` with its own tag, so the host that sent it knows the answer
    under way is not its own (tools.host --recall asks again); the first is answered, each report tagged 4."""
    with ScratchDir() as state:
        ctx, machine, _ = _boot(state, "craps")
        _run(ctx)
        _throws(ctx, machine)
        ctx.sender.held = lambda: ctx.sender.report_slots // 2    # (as the store would count them): no room
        machine.uarts[1].feed(fm.encode(0, 4, "RECALL", "3"))
        _run(ctx, 2)
        machine.uarts[1].feed(fm.encode(0, 5, "RECALL", "1"))
        _run(ctx, 2)
        del ctx.sender.held
        _run(ctx, 5)
        seen = [r for r in _host(machine) if r["event"] in ("recall", "host_error")]
        assert [(r["event"], r.get("index"), r["tag"]) for r in seen] == [
            ("host_error", None, 5), ("recall", 1, 4), ("recall", 2, 4), ("recall", 3, 4)], seen
        assert seen[0]["error"].startswith("recall busy") and seen[0]["request"] == "recall"
