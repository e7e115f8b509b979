# Craps snapshots between throws (docs/journal.md, "What the table keeps"): at every boundary of a
# scripted session, a snapshot restored into a fresh table plays the rest exactly as the table it was
# taken from; a snapshot that does not fit is refused whole.
from firmware import faults
from firmware.errors import RestoreError
from firmware.events import BUTTON, BUTTON_LONG, BUTTON_PRESSED, BUTTON_RELEASED, DICE_READER_HELLO, FAULT, TICK
from firmware.games.craps import screens
from firmware.games.craps.codes import COME_OUT, POINT
from firmware.table_codes import FAULTED, READY
from tests.firmware.craps_rig import BUTTONS, Rig
from tests.firmware.expect import raises_match
from tests.firmware.snapshot_check import check, journal_check

CONFIG = {"table_id": "C01", "game": "craps"}


def _session():
    """Come-outs, a point with odds, come bets travelling with their odds, hard ways and big numbers,
    refused bets, take-downs, no rolls, a seven-out, the dealer's new shooter, reader alarms."""
    steps = []

    def ev(kind, a=0, b=0):
        steps.append(lambda r: r.event(kind, a, b))

    def throw(d1, d2, flags=(), cocked=()):
        steps.append(lambda r: r.throw(d1, d2, flags, cocked))

    def bets(table):
        steps.append(lambda r: r.bets(table))

    bets({1: {"pass": 10, "field": 5}, 2: {"dont_pass": 10, "come": 10}})   # the come bet is refused
    bets({1: {"pass": 10, "field": 10}, 2: {"dont_pass": 10}})               # replaces the pending reading
    throw(1, 1)                                 # craps: pass loses, don't pass wins, field pays double
    bets({1: {"pass": 20}, 2: {"dont_pass": 10, "hard_8": 5}, 3: {"big_number_6": 30}})
    ev(TICK, 700)
    throw(2, 4)                                 # point 6
    bets({1: {"pass_odds": 50, "come": 10}, 3: {"hard_6": 5}})
    throw(3, 3, flags=("off_table",))           # no roll (art. 3(2)(1))
    throw(2, 2, flags=("short",))               # no roll (art. 3(2)(2)): its reason is 47 characters
    throw(6, 1, flags=("invalid",))             # no roll, flagged by the reader: 47 characters too
    throw(4, 5)                                 # the come bet travels to 9
    bets({1: {"come_odds_9": 30}, 2: {"hard_8": "down"}, 3: {"field": 7}})   # a take-down; 7 refused
    ev(DICE_READER_HELLO, 0, 0)
    throw(4, 4)                                 # hard 8: the hard way was taken down
    ev(FAULT, faults.DICE_SENSOR, 3)            # the reader cannot be vouched for
    throw(5, 5)                                 # seen while held: reported, never decided
    steps.append(lambda r: r.press("confirm"))
    bets({3: {"any_seven": 5, "eleven": 5}})
    throw(1, 2, cocked=(0,))
    throw(3, 4)                                 # seven-out: the shooter changes
    bets({1: {"pass": 10}, 2: {"big": 10}})
    ev(FAULT, faults.DICE_BAD_FLAG, 0)
    steps.append(lambda r: r.press("void", long=True))   # the throw in doubt is void
    ev(BUTTON, BUTTONS["deal"], BUTTON_PRESSED)
    ev(BUTTON, BUTTONS["deal"], BUTTON_LONG)    # the dealer's NEW SHOOTER (art. 4(1))
    ev(BUTTON, BUTTONS["deal"], BUTTON_RELEASED)
    steps.append(lambda r: r.bets_fault(faults.BETS_BAD_ZONE))
    throw(5, 6)                                 # natural
    throw(1, 4, flags=("short", "wall"))        # short but a wall: counts, point 5
    bets({1: {"pass_odds": 20}, 2: {"come": 10}})
    throw(6, 6)
    throw(2, 3)                                 # the point is made
    return steps


def test_a_restored_table_plays_the_rest_of_the_session_as_the_original_at_every_boundary():
    count, largest = check(Rig, _session(), screens, CONFIG)
    assert count >= 25, count                  # every step leaves a boundary outside an alarm
    assert largest < 1200, largest


def test_every_boundary_state_is_reached_and_an_alarm_is_none():
    rig = Rig()
    assert rig.table.at_boundary() and rig.table.state == READY
    seen = set()
    for step in _session():
        step(rig)
        assert rig.table.at_boundary() == (rig.table.state != FAULTED)
        seen.add(rig.table.state)
    assert COME_OUT in seen and POINT in seen and FAULTED in seen
    rig.event(FAULT, faults.DICE_SENSOR, 1)
    raises_match(RestoreError, "no alarm open", rig.table.snapshot)


def _played():
    rig = Rig()
    rig.bets({1: {"pass": 10}, 2: {"hard_6": 5}})
    rig.throw(2, 4)
    rig.bets({1: {"pass_odds": 20}})
    return rig


def test_a_snapshot_from_a_table_with_other_settings_or_seats_is_refused_and_nothing_changes():
    data = _played().table.snapshot()
    fresh = Rig(minimum=10)
    before = list(fresh.lights.colours)
    raises_match(RestoreError, "minimum = 5, this table has 10", fresh.table.restore, data)
    assert fresh.table.state == READY and not fresh.table.engine.bets and fresh.lights.colours == before
    raises_match(RestoreError, "seats", Rig(seats=2).table.restore, data)
    raises_match(RestoreError, "freshly constructed", _played().table.restore, data)


def test_a_corrupted_snapshot_is_refused_whole():
    data = _played().table.snapshot()
    text = data.decode()
    assert '[1,0,0,10,6,0,1,0,3,0,2,20,6,1,0,2]' in text, text       # pass 10 on 6, odds 20 behind it
    bad = [
        data[:-2],
        text.replace('"craps"', '"omaha"').encode(),
        text.replace('[1,0,0,10,6,0,1,0,', '[1,0,0,10,6,0,2,0,').encode(),     # in action neither 0 nor 1
        text.replace('[1,0,0,10,6,0,1,0,', '[1,0,0,-10,6,0,1,0,').encode(),    # a stake below zero
        text.replace('1,0,3,0,2,20,6,1,0,2]', '1,0,1,0,2,20,6,1,0,2]').encode(),  # an id twice
        text.replace(',6,1,0,2]', ',6,3,0,2]').encode(),                       # odds behind a bet not open
        text.replace(',6,1,0,2]', ',6,0,0,2]').encode(),                       # odds behind nothing
        text.replace('[6,4,', '[7,4,').encode(),                               # 7 is no point
        text.replace('[6,4,', '[0,4,').encode(),                               # no point, yet state point
        text.replace(',6,1,0,2]', ',6,1,0,2,5]').encode(),                     # a bet cut short
        text.replace('[["hard_6","lose"]]', '[["hard_6","lost"]]').encode(),
        text.replace('[6],[1,1],', '[6],[0,1],').encode(),                     # shooter 0
        text.replace('[6],[1,1],false]', '[6],[1,1],0]').encode(),             # bets_unread not a flag
        text.replace('[6],[1,1],false]', '[6],[1,1],false,false]').encode(),   # a field too many
    ]
    for data_bad in bad:
        assert data_bad != data
        fresh = Rig()
        raises_match(RestoreError, "snapshot", fresh.table.restore, data_bad)
        assert fresh.table.state == READY and not fresh.table.engine.bets and fresh.table.bet_zone == {}


def test_a_table_full_of_bets_fits_the_stated_bound():
    # 14 seats (the default), 256 open bets (max_open_bets, the default): the largest Craps snapshot.
    rig = Rig(seats=14)
    rig.throw(2, 4)                             # point 6: come bets may be placed
    zones = ("come", "dont_come", "field", "hard_4", "hard_6", "hard_8", "hard_10", "big_number_4",
             "big_number_5", "big_number_6", "big_number_8", "big_number_9", "big_number_10")
    stakes = {"big_number_6": 999990, "big_number_8": 999990, "big_number_4": 999995, "big_number_10": 999995,
              "big_number_5": 999995, "big_number_9": 999995}
    n = 0
    while True:
        rig.bets({n % 14 + 1: dict((z, stakes.get(z, 999995)) for z in zones)})
        if len(rig.table.engine.bets) == 256:
            break
        rig.throw(1, 4)                        # a 5: come bets travel, one-roll bets go, the rest stays
        n += 1
        assert n < 60
    data = rig.table.snapshot()
    assert len(rig.table.engine.bets) == 256 and len(data) <= 8000, len(data)   # docs/journal.md
    fork = Rig(seats=14)
    fork.table.restore(data)
    assert fork.table.snapshot() == data and fork.lights.colours == rig.lights.colours


def test_the_events_after_a_boundary_replayed_from_its_snapshot_give_the_same_reports_and_state():
    # What recovery does: the snapshot, then the journalled events (each BETS with its reading).
    assert journal_check(Rig, _session()) >= 25


def test_the_table_core_alone_keeps_no_snapshot():
    from firmware.table import Table
    core = Table(Rig().lights)
    assert not core.at_boundary()
    raises_match(RestoreError, "keeps no snapshot", core.snapshot)
    raises_match(RestoreError, "keeps no snapshot", core.restore, _played().table.snapshot())


def _placed_slots(table):
    """placed_slots as they must be: one a bet id in placed, ascending, each an open bet's."""
    slots, ids = table.placed_slots, table.placed
    assert len(slots) == len(ids) and slots == sorted(set(slots)), (slots, ids)
    open_ids = [b.bet_id for b in table.engine.bets]
    return [slots[k] for k in range(len(slots)) if ids[k] in open_ids]


def test_placed_slots_follow_the_placed_bets_through_the_session_and_every_restore():
    # Issue 14: the controller keeps the slots of its pending reading's bets as it places them
    # (placed_slots, the bets report's walk: 50 slots, not seats x zones); after every step and
    # after a restore at every boundary they are the slots of placed holding a bet, ascending.
    rig = Rig()
    fresh = 0
    for step in _session():
        step(rig)
        assert rig.table.placed_slots == _placed_slots(rig.table)
        if rig.table.at_boundary():
            fork = Rig()
            fork.table.restore(rig.table.snapshot())
            assert fork.table.placed_slots == _placed_slots(fork.table) == rig.table.placed_slots
            fresh += len(fork.table.placed_slots) > 0
    assert fresh >= 3
