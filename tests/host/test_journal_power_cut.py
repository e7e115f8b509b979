"""Power cut after every single flash write, and torn at each, for the journal and recall (issue 12).

For each cut point the board boots again on the same flash: what the journal
gives back must be exactly the content after the last operation that returned,
or after the one the cut interrupted (its write may have landed whole), never
anything else; the boot reports CLEAN or TORN, never CORRUPT (a cut is not
damage); and the journal goes on: the next append survives another reboot,
even when a second cut lands in that recovery's own writes.
"""
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware.link.journal import SNAPSHOT, Journal, JournalFull
from firmware.link.recall import Recall
from firmware.link.record import CLEAN, TORN
from hostsim.flash import FlashFS, PowerCut

_MAX = 1400
# Appends big and small (one over a write chunk), the first append starting a
# file, checkpoints and a compaction of several entries, and an append that
# does not fit (JournalFull, nothing written) followed by its checkpoint.
SCRIPT = [
    ("append", 1, b"first"),
    ("append", 2, b""),
    ("append", 3, b"x" * 300),
    ("checkpoint", b"snap" * 75),
    ("append", 4, b"after the checkpoint"),
    ("compact", [(1, b"a"), (SNAPSHOT, b"s" * 40), (2, b"b" * 280)]),
    ("append", 5, b"y" * 50),
    ("append", 6, b"z" * 300),
    ("append", 7, b"w" * 200),
    ("append", 8, b"v" * 100),       # full: refused, nothing written
    ("checkpoint", b"state"),
    ("append", 8, b"v" * 100),
]


def _apply(journal, model, op):
    """Do op on the journal; the model's content after it."""
    if op[0] == "append":
        try:
            journal.append(op[1], op[2])
        except JournalFull:
            return model
        return model + [(op[1], op[2])]
    if op[0] == "checkpoint":
        journal.checkpoint(op[1])
        return [(SNAPSHOT, op[1])]
    journal.compact(op[1])
    return list(op[1])


def _run(flash, script, max_bytes=_MAX):
    """(content after the last op that returned, content the op in flight would leave, cut?)."""
    journal = Journal(flash.root, "j", fs=flash, max_bytes=max_bytes)
    model = list(journal.records())
    for op in script:
        pending = _expected(model, op, journal)
        try:
            model = _apply(journal, model, op)
        except PowerCut:
            return model, pending, True
    return model, model, False


def _expected(model, op, journal):
    if op[0] == "append":
        fits = journal.used + len(op[2]) + 15 <= journal.capacity or journal.used == 0
        return model + [(op[1], op[2])] if fits else model
    return [(SNAPSHOT, op[1])] if op[0] == "checkpoint" else list(op[1])


def _boot(flash, max_bytes=_MAX):
    journal = Journal(flash.root, "j", fs=flash.rebooted(), max_bytes=max_bytes)
    return journal, list(journal.records())


def _writes(script, max_bytes=_MAX):
    with FlashFS() as flash:
        journal = Journal(flash.root, "j", fs=flash, max_bytes=max_bytes)
        model = []
        for op in script:
            model = _apply(journal, model, op)
        # the journal's own counters are the flash's: nothing written behind its back
        assert (journal.writes, journal.bytes_written) == (flash.writes, flash.bytes_written)
        assert list(_boot(flash, max_bytes)[1]) == model
        return flash.writes


def _check_cut(script, cut, torn, max_bytes=_MAX):
    with FlashFS(cut_after_writes=cut, torn=torn) as flash:
        done, pending, was_cut = _run(flash, script, max_bytes)
        assert was_cut
        journal, got = _boot(flash, max_bytes)
        assert got in (done, pending), (cut, torn)
        assert journal.status in (CLEAN, TORN), journal.detail
        journal.append(9, b"after the reboot")
        journal, again = _boot(flash, max_bytes)
        assert again == got + [(9, b"after the reboot")] and journal.status == CLEAN
        return got


def test_power_cut_after_every_flash_write_whole_and_torn():
    total = _writes(SCRIPT)
    points = 0
    for cut in range(total):
        for torn in (False, True):
            _check_cut(SCRIPT, cut, torn)
            points += 1
    print("journal: %d flash writes, %d cut points exercised (whole and torn)" % (total, points))
    assert total >= 15 and points == 2 * total


def test_second_cut_during_the_recovery_after_a_torn_write():
    """A torn append, reboot, and the recovery's own writes (repair, removes) cut one by one."""
    points = 0
    for first_cut in range(_writes(SCRIPT)):
        with FlashFS(cut_after_writes=first_cut, torn=True) as flash:
            _run(flash, SCRIPT)
            survivor, got = _boot(flash)
            writes_before = survivor.writes
            survivor.append(9, b"recovery")
            recovery_writes = survivor.writes - writes_before
            # the same boot again, from the same flash, cut inside the recovery
            for second in range(recovery_writes):
                with FlashFS(cut_after_writes=first_cut, torn=True) as replay:
                    _run(replay, SCRIPT)
                    again = Journal(replay.root, "j", fs=FlashFS(replay.root, second, torn=True), max_bytes=_MAX)
                    try:
                        again.append(9, b"recovery")
                    except PowerCut:
                        pass
                    journal, after = _boot(replay)
                    assert after in (got, got + [(9, b"recovery")]) and journal.status in (CLEAN, TORN)
                    journal.append(10, b"on")
                    assert _boot(replay)[1] == after + [(10, b"on")]
                    points += 1
    print("journal: %d second cut points inside recoveries exercised" % points)
    assert points > 0


_OPS = st.one_of(
    st.tuples(st.just("append"), st.integers(1, 255), st.binary(max_size=300)),
    st.tuples(st.just("checkpoint"), st.binary(max_size=400)),
    st.tuples(st.just("compact"), st.lists(st.tuples(st.integers(0, 255), st.binary(max_size=120)), max_size=4)),
)


@settings(max_examples=60, deadline=None)
@given(script=st.lists(_OPS, min_size=1, max_size=12), data=st.data())
def test_any_script_cut_anywhere_keeps_a_consistent_state(script, data):
    total = _writes(script)
    if total == 0:
        return
    _check_cut(script, data.draw(st.integers(0, total - 1)), data.draw(st.booleans()))


def test_recall_cut_after_every_flash_write_keeps_the_rounds_added():
    """Recall's ring compacts as it goes: a cut anywhere loses no round whose add() returned."""
    rounds = [{"round": n, "throws": [[n % 6 + 1, 3]], "result": "point", "nets": {"1": n}} for n in range(12)]

    def play(flash):
        recall = Recall(flash.root, "craps", fs=flash, keep=4, round_max=80)
        added = 0
        for r in rounds:
            try:
                recall.add(r)
            except PowerCut:
                return added
            added += 1
        return added

    with FlashFS() as flash:
        play(flash)
        total = flash.writes
    points = 0
    for cut in range(total):
        for torn in (False, True):
            with FlashFS(cut_after_writes=cut, torn=torn) as flash:
                added = play(flash)
                recall = Recall(flash.root, "craps", fs=flash.rebooted(), keep=4, round_max=80)
                got = recall.last()
                assert got in (rounds[:added][-4:], rounds[:added + 1][-4:]), (cut, torn)
                assert recall.status in (CLEAN, TORN)
                points += 1
    print("recall: %d flash writes, %d cut points exercised" % (total, points))
    assert points == 2 * total and total > len(rounds)


def test_recall_wear_figures_quoted_in_docs():
    """docs/journal.md's recall figures: 1000 Baccarat rounds of 120 bytes of JSON through the flash."""
    import os

    from firmware.link.recall import flash_bytes

    r = {"round": 0, "cards": ["AS", "KD", "9H", "2C", "TD", "5S"], "result": "banker",
         "nets": {"1": -100, "2": 95, "3": 0}}
    with FlashFS() as flash:
        recall = Recall(flash.root, "baccarat", fs=flash)
        for n in range(1000, 2000):
            r["round"] = n
            recall.add(r)
        on_flash = sum(os.path.getsize(os.path.join(flash.root, f)) for f in os.listdir(flash.root))
        figures = (flash.writes, flash.bytes_written, on_flash, flash_bytes())
    print("recall, 1000 rounds: %d writes, %d bytes written, %d bytes on flash, bound %d" % figures)
    assert figures == (1156, 177148, 20082, 104892)
