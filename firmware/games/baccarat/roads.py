# Baccarat scoreboard roads: bead plate, big road, big eye boy, small road, cockroach pig.
#
# Fed one live result at a time (Roads.add). Memory is bounded by MAX_ROUNDS:
# a round uses at least 4 cards, so a 12-deck shoe (art. 1) holds at most
# 12 * 52 / 4 = 156 rounds; nothing is ever dropped. Every store is a
# bytearray of that size at most (all roads together, the 3-byte win counts too: 1,440 bytes kept on the VM,
# bench/scoreboard_vm.py).
from firmware.errors import RuleError

# copies of firmware.games.baccarat.rules (tests/host/test_const_copies.py)
_BANKER = const(1)
_PLAYER = const(0)
_TIE = const(2)

MAX_ROUNDS = const(156)  # 12 decks * 52 cards / 4 cards per round at least
ROWS = const(6)  # a scoreboard column is 6 cells high

RED = const(0)
BLUE = const(1)
MARK_NAMES = ("red", "blue")

# Derived roads: (name, k) -- compare with the column k to the left.
DERIVED = (("big_eye_boy", 1), ("small_road", 2), ("cockroach_pig", 3))
_DERIVED_K = b"\x01\x02\x03"    # DERIVED's k in turn (test_kept_literals): a literal, not made at import

# Bead / entry encoding: bits 0-1 winner (0 player, 1 banker, 2 tie),
# bit 2 player pair, bit 3 banker pair (a display reading beads and entries in place tests these).
WINNER_BITS = const(3)
PLAYER_PAIR_BIT = const(4)
BANKER_PAIR_BIT = const(8)
_PP = const(PLAYER_PAIR_BIT)     # (const: no global, folded in)
_BP = const(BANKER_PAIR_BIT)


def derived_mark(lengths, column, row, k):
    """Standard derivation of the mark for the big-road entry at (column, row),
    logical columns, lengths[i] = entries in column i. None if the road has no
    mark for that entry yet. A new column (row 0) compares the two columns
    before it, k apart: equal lengths -> red. Further down a column, look at the
    column k to the left: a cell at this row -> red; the cell above filled but
    this one empty (the column ended just there) -> blue; both empty -> red."""
    if row == 0:
        if column < k + 1:
            return None
        return RED if lengths[column - 1] == lengths[column - 1 - k] else BLUE
    if column < k:
        return None
    return BLUE if lengths[column - k] == row else RED


def place(lengths, rows=ROWS):
    """Grid cells (column, row) of every entry of columns with these lengths,
    with dragon tails: a streak longer than the board (or blocked by an earlier
    tail) turns right along its last row. A new streak starts at the top of the
    first free column after the previous streak's start."""
    cells = []
    taken = set()
    start = -1
    for n in lengths:
        col = start + 1
        while (col, 0) in taken:
            col += 1
        start = col
        row = 0
        turned = False
        for i in range(n):
            if i > 0:
                if not turned and row + 1 < rows and (col, row + 1) not in taken:
                    row += 1
                else:
                    turned = True
                    col += 1
            taken.add((col, row))
            cells.append((col, row))
    return cells


class Roads:
    """All roads of one shoe, updated incrementally."""

    def __init__(self):
        self.beads = bytearray(MAX_ROUNDS)  # bead plate: every result, ties included
        self.n_beads = 0
        self.entries = bytearray(MAX_ROUNDS)  # big road entries (no ties), encoded
        self.ties = bytearray(MAX_ROUNDS)  # ties counted on each entry
        self.n_entries = 0
        self.lengths = bytearray(MAX_ROUNDS)  # big road logical column lengths
        self.n_columns = 0
        self.leading_ties = 0  # ties before the first entry (shown on it once it exists)
        self.marks = [bytearray(MAX_ROUNDS), bytearray(MAX_ROUNDS), bytearray(MAX_ROUNDS)]
        self.n_marks = bytearray(3)  # MAX_ROUNDS < 256 fits a byte
        self.wins = bytearray(3)  # beads by winner (PLAYER, BANKER, TIE): the displays' counts

    def add(self, winner, player_pair=False, banker_pair=False):
        """One live round's result (demo and void rounds never go on the roads)."""
        # (fields read once into locals: this runs in the last card's pass)
        # The result's code (winner and pair bits), made here: a call fewer in the last card's pass (encode(),
        # its only user, gone: a function less in the heap).
        if winner != _PLAYER and winner != _BANKER and winner != _TIE:
            raise RuleError("bad road result %r: expected PLAYER, BANKER or TIE" % (winner,))
        code = winner | (_PP if player_pair else 0) | (_BP if banker_pair else 0)
        n = self.n_beads
        if n >= MAX_ROUNDS:
            raise RuleError("roads full: %d rounds is more than a 12-deck shoe can hold" % MAX_ROUNDS)
        self.beads[n] = code
        self.n_beads = n + 1
        self.wins[winner] += 1
        n = self.n_entries
        if winner == _TIE:
            if n == 0:
                self.leading_ties += 1
            else:
                self.ties[n - 1] += 1
            return
        columns = self.n_columns
        if columns and self.entries[n - 1] & 3 == winner:     # the last column's winner (_last_winner)
            column = columns - 1
        else:
            column = columns
            self.n_columns = columns + 1
        lengths = self.lengths
        row = lengths[column]
        lengths[column] = row + 1
        self.entries[n] = code
        if n == 0:
            self.ties[0] = self.leading_ties
        self.n_entries = n + 1
        n_marks = self.n_marks
        marks = self.marks
        for i in range(3):
            # derived_mark(lengths, column, row, k), inline (its three calls were ~15 % of add() in
            # the last card's pass): a new column compares the two columns before it, k apart; further
            # down a column, the column k to the left has a cell at this row or not.
            k = _DERIVED_K[i]
            if row == 0:
                if column <= k:
                    continue                        # no mark yet
                mark = RED if lengths[column - 1] == lengths[column - 1 - k] else BLUE
            else:
                if column < k:
                    continue
                mark = BLUE if lengths[column - k] == row else RED
            m = n_marks[i]
            marks[i][m] = mark
            n_marks[i] = m + 1

    def _last_winner(self):
        # The last column's winner is the last entry's.
        return self.entries[self.n_entries - 1] & 3

    def next_marks(self, winner):
        """Marks the three derived roads would get if `winner` (PLAYER/BANKER)
        won the next round: tuple of RED/BLUE/None."""
        if winner != _PLAYER and winner != _BANKER:
            raise RuleError("next mark is asked for a Banker or Player win")
        if self.n_columns and self._last_winner() == winner:
            column = self.n_columns - 1
            row = self.lengths[column]
        else:
            column = self.n_columns
            row = 0
        return tuple(derived_mark(self.lengths, column, row, k) for _name, k in DERIVED)

    def big_road(self):
        """Logical columns: list of lists of (winner, ties, player_pair, banker_pair)."""
        out = []
        i = 0
        for c in range(self.n_columns):
            col = []
            for _ in range(self.lengths[c]):
                code = self.entries[i]
                col.append((code & 3, self.ties[i], bool(code & _PP), bool(code & _BP)))
                i += 1
            out.append(col)
        return out

    def big_road_cells(self):
        """Display cells (column, row) of each big-road entry, with dragon tails."""
        return place(self.lengths[:self.n_columns])

    def derived(self, index):
        """Marks of derived road index (0 big eye boy, 1 small road, 2 cockroach pig)."""
        return list(self.marks[index][:self.n_marks[index]])

    def bead_plate(self):
        """Every result in order, ties included: list of (winner, player_pair, banker_pair);
        bead i sits at column i // 6, row i % 6."""
        return [(b & 3, bool(b & _PP), bool(b & _BP)) for b in self.beads[:self.n_beads]]

    # Read-only accessors for displays (firmware/games/baccarat/scoreboard.py): one item at a
    # time and caller-owned buffers, so a redraw builds no list the size of the shoe.

    def bead_count(self):
        return self.n_beads

    def count(self, winner):
        """Beads won by winner (PLAYER, BANKER or TIE): as many as bead_plate() holds."""
        return self.wins[winner]

    def bead(self, i):
        """Bead i as bead_plate()[i]: (winner, player_pair, banker_pair)."""
        if not 0 <= i < self.n_beads:
            raise IndexError("bead %d of %d" % (i, self.n_beads))
        b = self.beads[i]
        return (b & 3, bool(b & _PP), bool(b & _BP))

    def entry_count(self):
        return self.n_entries

    def entry(self, i):
        """Big-road entry i, counting down each column from the left: (winner, ties, player_pair, banker_pair)."""
        if not 0 <= i < self.n_entries:
            raise IndexError("entry %d of %d" % (i, self.n_entries))
        code = self.entries[i]
        return (code & 3, self.ties[i], bool(code & _PP), bool(code & _BP))

    def mark_count(self, index):
        return self.n_marks[index]

    def mark(self, index, i):
        """Mark i (RED or BLUE) of derived road index, as derived(index)[i]."""
        if not 0 <= i < self.n_marks[index]:
            raise IndexError("mark %d of %d" % (i, self.n_marks[index]))
        return self.marks[index][i]

    def big_road_cells_into(self, cols, rows, ceiling):
        """big_road_cells() written into bytearrays: entry i at (cols[i], rows[i]). Returns the entry count."""
        return place_into(self.lengths, self.n_columns, cols, rows, ceiling)

    def derived_cells_into(self, index, lengths, cols, rows, ceiling):
        """Derived road index's cells written as big_road_cells_into() writes the big road's: mark i at
        (cols[i], rows[i]), a run of one colour a column (lengths: scratch, a byte per run). Returns the
        mark count."""
        n = self.n_marks[index]
        marks = self.marks[index]
        runs = 0
        previous = -1
        for k in range(n):
            m = marks[k]
            if m != previous:
                lengths[runs] = 0
                runs += 1
                previous = m
            lengths[runs - 1] += 1
        return place_into(lengths, runs, cols, rows, ceiling)


def place_into(lengths, n, cols, rows, ceiling, max_rows=ROWS):
    """place(lengths[:n]) without allocating: cell k goes to (cols[k], rows[k]); returns the cell count.

    ceiling is scratch, one byte per display column (as long as the cell
    count): the highest row a dragon tail has taken in that column. place()
    only probes the column a streak starts in, and only top down, and a
    streak's own start column is never probed again, so the highest tail row
    per column answers every question place()'s set of cells does.
    """
    total = 0
    for j in range(n):
        total += lengths[j]
    for c in range(total):
        ceiling[c] = max_rows
    start = -1
    k = 0
    for j in range(n):
        col = start + 1
        while ceiling[col] == 0:
            col += 1
        start = col
        row = 0
        turned = False
        for i in range(lengths[j]):
            if i > 0:
                if not turned and row + 1 < max_rows and ceiling[col] > row + 1:
                    row += 1
                else:
                    turned = True
                    col += 1
            cols[k] = col
            rows[k] = row
            if turned and row < ceiling[col]:
                ceiling[col] = row
            k += 1
    return k
