# Dealer keypad: matrix scan, debounce, one KEY per press, ghosting refused, no allocation in poll.
from firmware.compat import heap_lock, heap_unlock
from firmware.board_keypad import LEGENDS
from firmware.drivers.keypad import Keypad
from firmware.events import KEY
from firmware.statemachine import EventQueue
from tests.firmware.expect import heap_lock_catches_allocation, raises
from tests.firmware.fakes import FakeMatrix, FakePin

ROWS, COLS = 6, 4


def _rig(stable_scans=3):
    matrix = FakeMatrix(ROWS, COLS)
    return matrix, Keypad(matrix.rows, matrix.cols, stable_scans), EventQueue(16)


def _events(queue):
    out = []
    while queue.get():
        out.append((queue.kind, queue.a, queue.b))
    return out


def _polls(keypad, queue, n):
    for _ in range(n):
        keypad.poll(queue)


def test_index_is_row_times_columns_plus_column():
    for row in range(ROWS):
        for col in range(COLS):
            matrix, keypad, queue = _rig()
            matrix.press(row, col)
            _polls(keypad, queue, 3)
            assert _events(queue) == [(KEY, row * COLS + col, 0)]


def test_a_press_is_posted_on_the_third_consecutive_scan_only():
    matrix, keypad, queue = _rig()
    matrix.press(2, 1)
    _polls(keypad, queue, 2)
    assert _events(queue) == []
    keypad.poll(queue)
    assert _events(queue) == [(KEY, 9, 0)]


def test_a_bounce_shorter_than_the_debounce_is_no_press():
    matrix, keypad, queue = _rig()
    for _ in range(5):                # contact chatter: down 2 scans, up 1 scan, again
        matrix.press(0, 0)
        _polls(keypad, queue, 2)
        matrix.release(0, 0)
        keypad.poll(queue)
    _polls(keypad, queue, 5)
    assert _events(queue) == []


def test_a_held_key_is_one_press_and_never_repeats():
    matrix, keypad, queue = _rig()
    matrix.press(5, 3)
    _polls(keypad, queue, 500)        # 5 s held
    assert _events(queue) == [(KEY, 23, 0)]
    matrix.release(5, 3)
    _polls(keypad, queue, 3)
    assert _events(queue) == []       # releases are not events
    matrix.press(5, 3)                # a new press after the release is a new event
    _polls(keypad, queue, 3)
    assert _events(queue) == [(KEY, 23, 0)]


def test_a_release_shorter_than_the_debounce_does_not_rearm_the_key():
    matrix, keypad, queue = _rig()
    matrix.press(1, 1)
    _polls(keypad, queue, 3)
    matrix.release(1, 1)
    _polls(keypad, queue, 2)          # a bounce while held
    matrix.press(1, 1)
    _polls(keypad, queue, 10)
    assert _events(queue) == [(KEY, 5, 0)]


def test_two_keys_in_one_column_are_two_presses():
    matrix, keypad, queue = _rig()
    matrix.press(1, 3)                # "fold" and "call" on the boards' keypad: one column
    matrix.press(3, 3)
    _polls(keypad, queue, 3)
    assert _events(queue) == [(KEY, 7, 0), (KEY, 15, 0)]
    # A key's reading is its row's alone: a column is read with one row low (the scan) or with all
    # of them (the idle probe, which names no key); open-drain rows short nothing either way.
    assert 1 in matrix.rows_low_at_reads
    assert all(n == 1 or n == ROWS for n in matrix.rows_low_at_reads)


def test_an_idle_keypad_reads_its_columns_once_with_every_row_low_and_scans_nothing():
    matrix, keypad, queue = _rig()
    pulls = [row.pulls for row in matrix.rows]
    _polls(keypad, queue, 4)
    assert matrix.rows_low_at_reads == [ROWS] * COLS * 4          # the probe only, every poll
    assert [row.level for row in matrix.rows] == [0] * ROWS       # the rows stay low while idle...
    assert [row.pulls for row in matrix.rows] == pulls            # ...so a poll reads the columns alone


def test_a_key_pressed_at_an_idle_keypad_is_scanned_until_it_is_released_and_settled():
    # The probe must hand over to the full scan while a key is down or pending (a stale idle flag
    # would miss the press, or the release and so the next press of the same key).
    matrix, keypad, queue = _rig()
    _polls(keypad, queue, 2)
    matrix.press(2, 1)
    _polls(keypad, queue, 2)
    matrix.release(2, 1)                  # a bounce: pending, then read up again
    _polls(keypad, queue, 3)
    assert _events(queue) == []
    matrix.press(2, 1)
    _polls(keypad, queue, 3)
    assert _events(queue) == [(KEY, 9, 0)]
    matrix.release(2, 1)
    _polls(keypad, queue, 4)              # the release debounced (3), a scan finds all settled (1)
    del matrix.rows_low_at_reads[:]
    keypad.poll(queue)
    assert matrix.rows_low_at_reads == [ROWS] * COLS
    matrix.press(2, 1)
    _polls(keypad, queue, 3)
    assert _events(queue) == [(KEY, 9, 0)]            # the same key again: one more press


def test_a_second_key_while_one_is_held_is_posted_alone():
    matrix, keypad, queue = _rig()
    matrix.press(0, 0)
    _polls(keypad, queue, 3)
    matrix.press(4, 2)
    _polls(keypad, queue, 3)
    assert _events(queue) == [(KEY, 0, 0), (KEY, 18, 0)]


def test_three_keys_at_a_rectangle_make_a_ghost_and_no_press_is_posted():
    matrix, keypad, queue = _rig()
    matrix.press(1, 0)
    matrix.press(1, 2)
    matrix.press(3, 0)                # the fourth corner (3, 2) reads down too: a ghost
    _polls(keypad, queue, 20)
    assert keypad._read[3 * COLS + 2] == 1        # the fake matrix really ghosts
    assert _events(queue) == []
    matrix.release(1, 2)              # back to two keys: they are real, debounced anew
    _polls(keypad, queue, 3)
    assert _events(queue) == [(KEY, 4, 0), (KEY, 12, 0)]


def test_a_ghost_reading_does_not_swallow_a_release():
    matrix, keypad, queue = _rig()
    matrix.press(0, 0)
    _polls(keypad, queue, 3)
    assert _events(queue) == [(KEY, 0, 0)]
    matrix.release(0, 0)
    for key in ((2, 1), (2, 3), (4, 1)):          # three others held at once
        matrix.press(*key)
    _polls(keypad, queue, 3)
    for key in ((2, 1), (2, 3), (4, 1)):
        matrix.release(*key)
    matrix.press(0, 0)                # pressed again: released during the ghost scans, so a new press
    _polls(keypad, queue, 3)
    assert _events(queue) == [(KEY, 0, 0)]


def test_rows_are_released_while_keys_are_scanned_and_low_again_once_idle():
    matrix, keypad, queue = _rig()
    assert [row.level for row in matrix.rows] == [0] * ROWS       # idle from the start
    matrix.press(2, 1)
    keypad.poll(queue)                                            # the probe finds it: one scan
    assert [row.level for row in matrix.rows] == [1] * ROWS
    assert [row.pulls for row in matrix.rows] == [2] * ROWS       # low at idle, then once in the scan
    _polls(keypad, queue, 3)
    assert _events(queue) == [(KEY, 9, 0)]
    assert [row.level for row in matrix.rows] == [1] * ROWS       # held: scanned every poll
    matrix.release(2, 1)
    _polls(keypad, queue, 4)                                      # the release debounced, all settled
    assert [row.level for row in matrix.rows] == [0] * ROWS
    del matrix.rows_low_at_reads[:]
    keypad.poll(queue)
    assert matrix.rows_low_at_reads == [ROWS] * COLS


def test_legends_are_the_dealer_keys():
    for word in ("clear", "enter", "fold", "check", "call", "bet", "raise", "allin", "new", "button", "seat",
                 "stack"):
        assert word in LEGENDS
    for digit in range(10):
        assert str(digit) in LEGENDS
    assert len(LEGENDS) == 22 and len(set(LEGENDS)) == 22
    assert len(Keypad([FakePin()], [FakePin(), FakePin()])) == 2


def test_a_keypad_without_rows_or_columns_is_refused():
    raises(ValueError, Keypad, [], [FakePin()])
    raises(ValueError, Keypad, [FakePin()], [])


def test_poll_allocates_nothing():
    # Plain FakePins (they allocate nothing themselves): a column held low reads its key down in every row.
    one_key = Keypad([FakePin()], [FakePin(1), FakePin(0)])       # one key down: the press path
    ghosts = Keypad([FakePin(), FakePin(), FakePin()], [FakePin(0), FakePin(1)])   # 3 down: the ghost path
    queue = EventQueue(8)
    assert heap_lock_catches_allocation()    # the lock is real: the block below proves something
    heap_lock()
    try:
        for _ in range(5):
            one_key.poll(queue)
            ghosts.poll(queue)
    finally:
        heap_unlock()
    assert _events(queue) == [(KEY, 1, 0)]
