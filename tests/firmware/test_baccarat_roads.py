# Baccarat roads on hand-worked sequences: bead plate, big road (ties, pairs, dragon tail), derived roads.
from firmware.errors import RuleError
from firmware.games.baccarat.rules import PLAYER, BANKER, TIE
from firmware.games.baccarat import roads as br
from tests.firmware.expect import count_calls, raises, raises_match

RED, BLUE = br.RED, br.BLUE
W = {"B": BANKER, "P": PLAYER, "T": TIE}


def roads_of(seq):
    r = br.Roads()
    for ch in seq.split():
        r.add(W[ch])
    return r


def shape(roads):
    """Big road as strings of winners per column, e.g. ['BBB', 'PP']."""
    return ["".join("PBT"[w] for w, _t, _pp, _bp in col) for col in roads.big_road()]


def test_issue_example_sequence():
    r = roads_of("B P T B B")
    assert r.big_road() == [[(BANKER, 0, False, False)], [(PLAYER, 1, False, False)],
                            [(BANKER, 0, False, False), (BANKER, 0, False, False)]]
    assert r.derived(0) == [RED, BLUE]  # big eye boy: (2,0) 1 == 1 red; (2,1) col 1 ended at row 1 -> blue
    assert r.derived(1) == [BLUE]  # small road starts at column 3 row 2 (1-based)
    assert r.derived(2) == []
    assert r.next_marks(BANKER) == (RED, RED, None)
    assert r.next_marks(PLAYER) == (BLUE, BLUE, None)


def test_ties_at_shoe_start_go_on_first_entry():
    r = roads_of("T T")
    assert r.big_road() == [] and r.leading_ties == 2
    assert r.next_marks(BANKER) == (None, None, None)
    r.add(PLAYER)
    r.add(TIE)
    r.add(BANKER)
    assert r.big_road() == [[(PLAYER, 3, False, False)], [(BANKER, 0, False, False)]]
    assert [b[0] for b in r.bead_plate()] == [TIE, TIE, PLAYER, TIE, BANKER]


def test_pairs_marked_on_entry_and_bead():
    r = br.Roads()
    r.add(BANKER, True, False)
    r.add(TIE, False, True)
    assert r.big_road() == [[(BANKER, 1, True, False)]]
    assert r.bead_plate() == [(BANKER, True, False), (TIE, False, True)]


def test_hand_worked_derived_roads():
    # Columns BBB | PP | B | PPP | B, lengths 3 2 1 3 1.
    r = roads_of("B B B P P B P P P B")
    assert shape(r) == ["BBB", "PP", "B", "PPP", "B"]
    # big eye boy (k=1): (1,1) col0 has row1 -> red; (2,0) 2 vs 3 blue; (3,0) 1 vs 2 blue;
    # (3,1) col2 ends at row 1 -> blue; (3,2) col2 empty at rows 1,2 -> red; (4,0) 3 vs 1 blue.
    assert r.derived(0) == [RED, BLUE, BLUE, BLUE, RED, BLUE]
    # small road (k=2): (3,0) 1 vs 3 blue; (3,1) col1 has row1 red; (3,2) col1 ends at row 2 blue;
    # (4,0) 3 vs 2 blue.
    assert r.derived(1) == [BLUE, RED, BLUE, BLUE]
    # cockroach pig (k=3): (3,1) red; (3,2) red; (4,0) 3 vs 3 red.
    assert r.derived(2) == [RED, RED, RED]
    assert r.next_marks(BANKER) == (RED, BLUE, RED)
    assert r.next_marks(PLAYER) == (BLUE, RED, BLUE)


def test_derived_road_start_positions():
    # Big eye boy starts at column 2 row 2, or column 3 row 1 when column 2 has one entry.
    assert roads_of("B P").derived(0) == []
    assert roads_of("B P P").derived(0) == [BLUE]
    assert roads_of("B P B").derived(0) == [RED]
    # Small road: column 3 row 2, or column 4 row 1.
    assert roads_of("B P B").derived(1) == []
    assert roads_of("B P B B").derived(1) == [BLUE]
    assert roads_of("B P B P").derived(1) == [RED]
    # Cockroach pig: column 4 row 2, or column 5 row 1.
    assert roads_of("B P B P").derived(2) == []
    assert roads_of("B P B P P").derived(2) == [BLUE]
    assert roads_of("B P B P B").derived(2) == [RED]


def test_long_streak_red_after_blue():
    # BB | PPPP: (1,1) red, (1,2) col0 ended at row 2 -> blue, (1,3) both empty -> red.
    assert roads_of("B B P P P P").derived(0) == [RED, BLUE, RED]


def test_next_marks_are_opposite_for_banker_and_player():
    r = roads_of("B B P B P P P B B T B P")
    nb, np_ = r.next_marks(BANKER), r.next_marks(PLAYER)
    for a, b in zip(nb, np_):
        assert a is not None and b is not None and a != b
    raises(RuleError, r.next_marks, TIE)


def test_dragon_tail_turns_right_on_bottom_row():
    cells = br.place([8])
    assert cells == [(0, 0), (0, 1), (0, 2), (0, 3), (0, 4), (0, 5), (1, 5), (2, 5)]


def test_dragon_tail_blocks_later_streak():
    # 8 banker, 2 player, 7 banker: the third streak meets the first one's tail at (2,5).
    r = roads_of(" ".join(["B"] * 8 + ["P"] * 2 + ["B"] * 7))
    assert shape(r) == ["B" * 8, "PP", "B" * 7]  # logical columns are never wrapped
    cells = r.big_road_cells()
    assert cells[8:10] == [(1, 0), (1, 1)]
    assert cells[10:] == [(2, 0), (2, 1), (2, 2), (2, 3), (2, 4), (3, 4), (4, 4)]


def test_new_streak_skips_column_taken_at_top():
    # Each streak meets the previous tail one row higher, until a tail runs
    # along row 0 at (6,0): the next streak must start one column further, at (7,0).
    cells = br.place([8, 6, 5, 4, 3, 2, 1])
    assert cells[8:14] == [(1, 0), (1, 1), (1, 2), (1, 3), (1, 4), (2, 4)]
    assert cells[-3:] == [(5, 0), (6, 0), (7, 0)]


def test_bounded_memory_cap():
    assert br.MAX_ROUNDS == 12 * 52 // 4
    r = br.Roads()
    for i in range(br.MAX_ROUNDS):
        r.add(BANKER if i % 3 else PLAYER)
    raises_match(RuleError, "roads full", r.add, PLAYER)
    assert len(r.bead_plate()) == br.MAX_ROUNDS


def test_bad_result_refused():
    raises(RuleError, br.Roads().add, 5)


def test_counts_by_winner_agree_with_the_bead_plate_and_refusals_change_none():
    r = roads_of("T B P P T B B B P T")
    for winner in (PLAYER, BANKER, TIE):
        assert r.count(winner) == len([b for b in r.bead_plate() if b[0] == winner])
    raises(RuleError, r.add, 7)
    assert (r.count(PLAYER), r.count(BANKER), r.count(TIE)) == (3, 4, 3)
    full = br.Roads()
    for i in range(br.MAX_ROUNDS):
        full.add(TIE if i % 2 else BANKER)
    raises(RuleError, full.add, TIE)
    assert full.count(TIE) == br.MAX_ROUNDS // 2 and full.count(BANKER) == br.MAX_ROUNDS // 2


def test_the_result_display_counts_without_a_list_of_the_shoe():
    # Its counts line is redrawn after every result: Roads.count, not bead_plate() (a list the size of the shoe).
    from firmware.games.baccarat import screens

    class Table:
        state = 5
        roads = roads_of("B B P T B")
        record = type("Record", (), {"number": 5, "demo": False, "void": True})()
        shoe = object()
        last_hand = None

    def refused():
        raise AssertionError("bead_plate() built for the result display")
    Table.roads.bead_plate = refused
    assert screens.result_lines(Table, {}, [])[3] == "B3 P1 T1"


def test_add_marks_the_derived_roads_as_derived_mark_does_without_calling_it():
    # add() derives each road's mark in line (the last card's pass: no call a road); its marks are the
    # ones derived_mark() gives, which next_marks() asks before the result: over random shoes.
    state = [9]

    def rnd(n):
        state[0] = (state[0] * 1103515245 + 12345) & 0x7FFFFFFF
        return (state[0] >> 8) % n

    calls, derived_mark = count_calls(br, "derived_mark")
    counted = br.derived_mark
    br.derived_mark = derived_mark                          # next_marks() below asks the plain one
    for shoe in range(12):
        roads = br.Roads()
        for _ in range(70):
            winner = (PLAYER, BANKER, TIE)[0 if rnd(100) < 45 else (1 if rnd(100) < 85 else 2)]
            want = roads.next_marks(winner) if winner != TIE else (None, None, None)
            before = [roads.n_marks[i] for i in range(3)]
            br.derived_mark = counted
            try:
                roads.add(winner, rnd(10) == 0, rnd(10) == 0)
            finally:
                br.derived_mark = derived_mark
            got = tuple(roads.marks[i][before[i]] if roads.n_marks[i] > before[i] else None for i in range(3))
            assert got == want, (shoe, got, want)
            assert all(roads.n_marks[i] - before[i] == (want[i] is not None) for i in range(3))
    assert calls[0] == 0
