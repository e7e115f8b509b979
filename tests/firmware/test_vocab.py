# One word and one shape for one concept across games (brief x10-vocab, docs/protocol.md): Craps recall
# rounds in the live reports' words (old rounds on flash served in them), Omaha's `dealt` always with
# `face_up`, no meaningless fault `detail`, the bet reader's HELLO reported as the shoe's and the dice
# reader's are. Dual runtime.
from firmware.games.craps import recall as craps_recall
from firmware.link.recall import Recall
from firmware.round_recall import RoundRecall
from tests.firmware.scratch import ScratchDir


class _Reporter:
    def __init__(self):
        self.sent = []

    def emit(self, event, fields=None):
        self.sent.append((event, fields))


# -- 1. Craps recall words ----------------------------------------------------------------------------
def test_craps_rounds_kept_by_older_firmware_are_served_in_the_live_words():
    old = [{"round": 1, "shooter": 1, "dice": [3, 3], "result": "point-set", "point": 6},
           {"round": 2, "shooter": 1, "dice": [2, 2], "result": "no-roll", "no_roll": "off_table", "point": 6},
           {"round": 3, "shooter": 1, "dice": [4, 2], "result": "point-made", "point": None, "nets": {"1": 10}},
           {"round": 4, "shooter": 1, "dice": [4, 3], "result": "seven-out", "point": None}]
    with ScratchDir() as state:
        kept = Recall(state, "craps", None)            # as older firmware wrote them on the flash
        for entry in old:
            kept.add(entry)
        recall = RoundRecall(state, "craps", None, craps_recall)
        assert recall.lines(4) == ["throw 1 shooter 1 3-3 point_set point 6",
                                   "throw 2 shooter 1 2-2 no_roll (off_table) point 6",
                                   "throw 3 shooter 1 4-2 point_made  1:+10", "throw 4 shooter 1 4-3 seven_out"]
        reporter = _Reporter()
        assert recall.ask(4) is None
        recall.pump(reporter, None)
        assert [f["round"]["result"] for e, f in reporter.sent] == ["point_set", "no_roll", "point_made", "seven_out"]
