# Game recall (issue 12): the last rounds per game on flash, across reboots, damage detected.
# Dual runtime: files go to a scratch dir on CPython's disk or the VM's filesystem.
import json
import os

from firmware.link.recall import KEEP, ROUND_MAX, Recall, flash_bytes
from firmware.link.record import CLEAN, CORRUPT
from tests.firmware.expect import raises_match
from tests.firmware.scratch import ScratchDir


def _round(n):
    # The shape the table will store (docs/journal.md): round number, cards or throws, result, nets.
    return {"round": n, "cards": ["AS", "KD", "9H"][: 2 + n % 2], "result": "banker", "nets": {"1": -n, "2": n}}


def _flash_use(state):
    return sum(os.stat(state + "/" + name)[6] for name in os.listdir(state))


def test_rounds_come_back_oldest_first_after_a_reboot():
    with ScratchDir() as state:
        recall = Recall(state, "baccarat")
        assert recall.last() == [] and recall.count == 0
        for n in range(1, 6):
            recall.add(_round(n))
        assert recall.last(3) == [_round(3), _round(4), _round(5)]
        again = Recall(state, "baccarat")
        assert again.last() == [_round(n) for n in range(1, 6)] and again.status == CLEAN


def test_the_last_hundred_are_kept_and_flash_stays_bounded():
    """GLI-11 style recall: at least the last 10 games; we keep the last 100 (issue 12)."""
    with ScratchDir() as state:
        recall = Recall(state, "craps")
        for n in range(1, 351):
            recall.add(_round(n))
            assert _flash_use(state) <= flash_bytes()
        assert KEEP == 100 and recall.last() == [_round(n) for n in range(251, 351)]
        assert Recall(state, "craps").last(100) == [_round(n) for n in range(251, 351)]
        assert recall.journal.writes < 351 + 10          # about one write a round: compaction is rare


def test_a_small_ring_compacts_to_its_last_rounds():
    with ScratchDir() as state:
        recall = Recall(state, "omaha", keep=3, round_max=120)
        for n in range(1, 40):
            recall.add(_round(n))
            assert recall.last() == [_round(k) for k in range(max(1, n - 2), n + 1)]
        assert _flash_use(state) <= flash_bytes(3, 120)


def test_each_game_keeps_its_own_rounds():
    with ScratchDir() as state:
        Recall(state, "baccarat").add(_round(1))
        Recall(state, "omaha").add(_round(2))
        assert Recall(state, "baccarat").last() == [_round(1)]
        assert Recall(state, "omaha").last() == [_round(2)]


def test_bad_rounds_refused_with_nothing_written():
    with ScratchDir() as state:
        recall = Recall(state, "baccarat")
        raises_match(ValueError, "dict", recall.add, [1, 2])
        raises_match(ValueError, "at most %d" % ROUND_MAX, recall.add, {"cards": "x" * ROUND_MAX})
        raises_match(ValueError, "letters", Recall, state, "../x")
        assert recall.count == 0 and os.listdir(state) == []


def test_a_flipped_bit_is_detected_and_the_round_not_given_back():
    with ScratchDir() as state:
        recall = Recall(state, "baccarat")
        for n in range(1, 4):
            recall.add(_round(n))
        name = state + "/" + os.listdir(state)[0]
        with open(name, "rb") as f:
            data = bytearray(f.read())
        data[len(data) - 20] ^= 0x10                        # inside the third round
        with open(name, "wb") as f:
            f.write(data)
        again = Recall(state, "baccarat")
        assert again.status == CORRUPT and again.last() == [_round(1), _round(2)]
        again.add(_round(4))                                # and recall goes on, away from the damage
        assert Recall(state, "baccarat").last() == [_round(1), _round(2), _round(4)]


def test_make_room_compacts_only_when_a_round_might_not_fit_and_keeps_the_same_rounds():
    # make_room() (issue 14) makes, at a quiet moment, the compaction add() would make a few rounds
    # later: the last `keep` rounds stay, the next add() appends without compacting.
    with ScratchDir() as state:
        recall = Recall(state, "omaha", keep=3, round_max=120)
        assert not recall.make_room()                     # empty
        n = 0
        while recall.journal.room >= 120 + 19:          # a round's record: 15 bytes and its event number
            n += 1
            recall.add(_round(n))
            assert recall.journal.room < 120 + 19 or not recall.make_room()
        compactions = recall.journal.compactions
        assert recall.make_room() and recall.journal.compactions == compactions + 1
        assert recall.count == 3 and recall.last() == [_round(k) for k in (n - 2, n - 1, n)]
        assert not recall.make_room()                     # room again: nothing to do
        recall.add(_round(n + 1))
        assert recall.journal.compactions == compactions + 1      # the add paid for no compaction
        assert Recall(state, "omaha", keep=3, round_max=120).last() == [_round(k) for k in (n - 1, n, n + 1)]


def test_each_round_keeps_its_event_number_across_a_reboot_and_a_compaction():
    # The table journal's number of the event that ended a round (firmware/round_recall.py: a recovery
    # keeps again only the rounds of events after the newest kept one).
    with ScratchDir() as state:
        recall = Recall(state, "omaha", keep=3, round_max=120)
        assert recall.last_event == 0                       # none kept
        for n in range(1, 40):
            recall.add(_round(n), None, 1000 + n)
            assert recall.last_event == 1000 + n
        assert recall.journal.compactions > 0
        again = Recall(state, "omaha", keep=3, round_max=120)
        assert again.last_event == 1039 and again.last() == [_round(k) for k in (37, 38, 39)]
        raises_match(ValueError, "event number", again.add, _round(40), None, -1)
        assert again.last_event == 1039 and again.last() == [_round(k) for k in (37, 38, 39)]   # nothing written


def test_rounds_written_before_event_numbers_are_still_read_and_say_so():
    # A recall file of the firmware before event numbers: records of kind 1, the round's JSON alone.
    # Its rounds are served; last_event -1 says the newest has no number (the recovery's older rule).
    from firmware.link.journal import Journal
    with ScratchDir() as state:
        old = Journal(state, "recall-craps", None, flash_bytes())
        old.append(1, b'{"round": 1, "result": "natural"}')
        old.append(1, b'{"round": 2, "result": "craps"}')
        recall = Recall(state, "craps")
        assert recall.count == 2 and recall.last_event == -1
        assert recall.last() == [{"round": 1, "result": "natural"}, {"round": 2, "result": "craps"}]
        recall.add({"round": 3, "result": "point-set"}, None, 57)
        again = Recall(state, "craps")
        assert again.last_event == 57 and [r["round"] for r in again.last()] == [1, 2, 3]
        texts = [bytes(t) for t in again.texts(1)]         # the JSON alone, whatever the record's kind
        assert texts[0] == b'{"round": 2, "result": "craps"}' and json.loads(texts[1]) == {"round": 3, "result": "point-set"}
