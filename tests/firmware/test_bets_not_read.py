# The dealer sees a bet reading refused whole: "BETS NOT READ" on the dealer display until a reading is
# accepted (or, at Craps, the dice roll; at Baccarat, the round starts), kept across a snapshot (an older
# snapshot without it restores with none). Before, only the host was told (a `bets` report with
# accepted false) and the dealer display kept showing the reading before: the dealer did not know the
# chips on the layout were not taken. Dual runtime.
import json

from firmware import faults, table_codes
from firmware.events import BETS_FAULT, SHOE_IN
from firmware.games.baccarat import screens as bac_screens
from firmware.games.craps import screens as craps_screens
from firmware.screens import BETS_NOT_READ
from tests.firmware import baccarat_rig, craps_rig
from tests.firmware.table_rig import strip

CRAPS = {"table_id": "C01", "game": "craps"}
BACCARAT = {"table_id": "T01", "game": "baccarat"}


def _craps(rig):
    return craps_screens.dealer_lines(rig.table, CRAPS, [])


def _baccarat(rig):
    return bac_screens.dealer_lines(rig.table, BACCARAT, [])


def test_craps_a_reading_the_reader_refused_shows_bets_not_read_until_one_is_accepted():
    rig = craps_rig.Rig()
    rig.bets({1: {"pass": 10}})
    assert _craps(rig)[3] == ""
    rig.bets_fault(faults.BETS_BAD_ZONE)                 # a newer reading refused whole: pass 10 stands
    assert rig.last("bets")["accepted"] is False
    assert _craps(rig)[3] == BETS_NOT_READ and rig.table.display_dirty
    rig.bets({1: {"pass": 10, "field": 5}})
    assert _craps(rig)[3] == ""


def test_craps_a_reading_refused_for_no_room_shows_bets_not_read_until_the_dice_roll():
    rig = craps_rig.Rig()
    rig.bets({1: {"pass": 10}})
    rig.throw(2, 2)                                      # point 4
    rig.table.link_room = 12                             # no room for one bet's reports (OUT_BETS_NO_ROOM)
    rig.bets({1: {"field": 10}})
    assert rig.last("bets")["accepted"] is False and "field" not in str(rig.last("bets"))
    assert _craps(rig)[1:] == ["POINT 4", "2 + 2 = 4", BETS_NOT_READ]
    rig.throw(1, 2)                                      # the roll: a new reading's turn
    assert _craps(rig)[3] == ""


def test_craps_bets_not_read_comes_before_the_last_readings_refusals_and_in_ready():
    rig = craps_rig.Rig()
    assert rig.table.state == table_codes.READY and _craps(rig)[2] == ""   # no reading refused: nothing shown
    rig.bets_fault(faults.BETS_SENSOR)                   # before the table opened
    assert _craps(rig)[2] == BETS_NOT_READ
    rig.bets({1: {"pass": 7}})                           # uneven: refused by the rules (accepted reading)
    assert _craps(rig)[3] == "REFUSED 1: SEE HOST"
    rig.bets_fault(faults.BETS_INCOMPLETE)
    assert _craps(rig)[3] == BETS_NOT_READ


def test_craps_the_readers_hello_between_readings_refuses_no_reading():
    rig = craps_rig.Rig()
    rig.bets({1: {"pass": 10}})
    rig.bets_fault(faults.BETS_RESTARTED)
    assert _craps(rig)[3] == ""


def test_craps_bets_not_read_survives_a_snapshot_and_an_older_one_has_none():
    rig = craps_rig.Rig()
    rig.bets({1: {"pass": 10}})
    rig.bets_fault(faults.BETS_BAD_AMOUNT)
    data = rig.table.snapshot()
    fork = craps_rig.Rig()
    fork.table.restore(data)
    assert _craps(fork) == _craps(rig) and fork.table.snapshot() == data
    older = json.loads(data)[:-1]                        # the firmware before the field
    fork = craps_rig.Rig()
    fork.table.restore(json.dumps(older).encode())
    assert fork.table.bets_unread is False and _craps(fork)[3] == ""


def _bac_rig():
    rig = baccarat_rig.Rig()
    rig.new_shoe()
    return rig


def test_baccarat_a_refused_reading_shows_bets_not_read_until_one_is_accepted():
    rig = _bac_rig()
    rig.bets({3: {"banker": 100}})
    assert _baccarat(rig)[0] == "BETS OPEN R1"
    rig.event(BETS_FAULT, faults.BETS_BAD_SEAT, 0)
    assert _baccarat(rig)[0] == "BETS NOT READ R1" and rig.table.display_dirty
    rig.bets({3: {"banker": 100, "tie": 10}})
    assert _baccarat(rig)[0] == "BETS OPEN R1"


def test_baccarat_bets_not_read_goes_with_the_rounds_first_card_and_shows_over_the_last_result():
    rig = _bac_rig()
    rig.cards("9h 2d Kc 3s")                             # round 1: Player 9, Banker 5
    rig.event(BETS_FAULT, faults.BETS_SENSOR, 0)
    assert _baccarat(rig)[:2] == ["BETS NOT READ R2", "PLAYER WINS 9-5"]
    rig.cards("5h 9d")                                   # round 2's first cards: bets closed
    assert rig.table.bets_unread is False
    rig.event(BETS_FAULT, faults.BETS_SENSOR, 0)         # none would be read now: no note
    rig.cards("2c Ks")
    assert rig.table.bets_unread is False and _baccarat(rig)[0] == "BETS OPEN R3"


def test_baccarat_bets_not_read_in_ready_and_burning():
    rig = baccarat_rig.Rig()
    rig.event(BETS_FAULT, faults.BETS_INCOMPLETE, 0)
    assert _baccarat(rig)[2] == BETS_NOT_READ
    rig.shoe(SHOE_IN)
    assert _baccarat(rig)[3] == BETS_NOT_READ


def test_baccarat_the_readers_hello_between_readings_refuses_no_reading():
    rig = _bac_rig()
    rig.event(BETS_FAULT, faults.BETS_RESTARTED, 0)
    assert _baccarat(rig)[0] == "BETS OPEN R1"


def test_baccarat_bets_not_read_survives_a_snapshot_and_an_older_one_has_none():
    rig = _bac_rig()
    rig.event(BETS_FAULT, faults.BETS_DUP_ZONE, 0)
    data = rig.table.snapshot()
    fork = baccarat_rig.Rig()
    fork.table.restore(data)
    assert _baccarat(fork) == _baccarat(rig) and fork.table.snapshot() == data
    fields = json.loads(data)
    for i in range(len(fields)):                         # the flags, as the firmware before had them: five
        if isinstance(fields[i], list) and len(fields[i]) == 6 and fields[i][5] is True:
            fields[i] = fields[i][:5]
    fork = baccarat_rig.Rig()
    fork.table.restore(json.dumps(fields).encode())
    assert fork.table.bets_unread is False and _baccarat(fork)[0] == "BETS OPEN R1"


# -- a reading the table refused for its journal's room (firmware.main._dispatch; docs/journal.md, "Full") --

def test_baccarat_a_reading_refused_for_the_journal_takes_the_one_before_off_the_next_round():
    # The driver had copied the refused reading over the one taken: that one's chips are not known any
    # more, so the round that follows has no bets (before, it was dealt with the refused reading's).
    rig = _bac_rig()
    rig.bets({3: {"banker": 100}})
    rig.bets({3: {"player": 50}}, journal_full=True)
    assert strip(rig.last("bets")) == {"event": "bets", "reading": 2, "accepted": False,
                                       "reason": "journal_nearly_full"}
    assert _baccarat(rig)[0] == "BETS NOT READ R1" and rig.table.bets_ready is False
    rig.cards("9h 2d Kc 3s")                             # Player 9, Banker 5
    result = rig.last("result")
    assert result["winner"] == "player" and not result.get("nets")
    rig.bets({3: {"player": 50}})                        # the next reading is taken and played
    rig.cards("9c 2h Kd 3c")
    assert list(rig.last("result")["nets"]) == ["3"] and list(rig.last("result")["nets"]["3"]) == ["player"]


def test_craps_a_reading_refused_for_the_journal_leaves_the_bets_placed_before():
    rig = craps_rig.Rig()
    rig.bets({1: {"field": 10}})
    rig.bets({1: {"field": 25, "any_seven": 5}}, journal_full=True)
    assert rig.last("bets")["reason"] == "journal_nearly_full" and rig.last("bets")["reading"] == 2
    assert _craps(rig)[3] == BETS_NOT_READ
    rig.throw(1, 2)                                      # field pays 1:1 on 3: the 10 placed before
    assert rig.last("throw")["nets"] == {"1": {"field": 10}}
