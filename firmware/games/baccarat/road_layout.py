# Where a road's cells go on the scoreboard's grid as its results come, entry by entry (Layout), and the
# first display column to show: the display's side of the roads' placement (roads.place, place_into, with
# their dragon tails), imported by firmware/games/baccarat/scoreboard.py only (a table without a scoreboard
# keeps none of it). A whole redraw walks a road's Layout too: the scoreboard keeps no cell buffers.

# copies of firmware.games.baccarat.roads (tests/host/test_const_copies.py)
_MAX_ROUNDS = const(156)
_ROWS = const(6)


class Layout:
    """place_into()'s walk kept between calls: one road's cells placed as its entries come, so a new
    entry's cell costs a step, not a walk over the road (a display's redraw after each result)."""

    def __init__(self):
        self.ceiling = bytearray(_MAX_ROUNDS)        # as place_into's: the highest tail row per column
        self.reset()

    def reset(self):
        ceiling = self.ceiling
        for c in range(_MAX_ROUNDS):
            ceiling[c] = _ROWS
        self.start = -1                 # the column the last streak started in
        self.col = 0                    # the last cell placed
        self.row = 0
        self.turned = False
        self.n = 0                      # cells placed
        self.last = 0                   # the rightmost column used

    def lay(self, codes, n, mask, visible):
        """Lay out anew the cells of codes[:n], a new column where code & mask changes (a big road's entries:
        their winner; a derived road's marks) -> first(visible)."""
        self.reset()
        for k in range(n):
            self.add(k == 0 or codes[k] & mask != codes[k - 1] & mask)
        return self.first(visible)

    def add(self, new_column, visible=1):
        """Place the next cell: the first of a new logical column (a new streak) or the next of the last.
        Returns first(visible) after it (a display placing a cell asks where its view starts: one call)."""
        ceiling = self.ceiling
        # Only what changes is stored (a result's draw places four cells: each attribute store ~0.3 us in the VM)
        if new_column:
            col = self.start + 1
            while ceiling[col] == 0:
                col += 1
            self.start = col
            self.row = 0
            self.turned = False
        else:
            col = self.col
            row = self.row
            if not self.turned and row + 1 < _ROWS and ceiling[col] > row + 1:
                self.row = row + 1
            else:
                self.turned = True
                col += 1
                if row < ceiling[col]:
                    ceiling[col] = row
        self.col = col
        self.n += 1
        last = self.last
        if col > last:
            self.last = last = col
        return last + 1 - visible if last >= visible else 0

    def first(self, visible):
        """First display column to show so that the last one is on screen ."""
        last = self.last
        return last + 1 - visible if last >= visible else 0
