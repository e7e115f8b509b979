# Baccarat scoreboard on a monochrome pixel display: bead plate, big road and derived roads from a Roads.
#
# Draws on any FrameBuffer-like canvas (fill, fill_rect, rect, hline, vline, line, pixel, text): the
# SSD1306 driver itself, whose scroll_part() moves a part that scrolls in the display's RAM image, or a
# framebuf.FrameBuffer, where such a part is painted again. Its only game dependency is roads' public
# API (and the Roads' beads, entries, ties and marks buffers and counts, read in place: WINNER_BITS and
# the pair bits decode a code; the last result's draw makes no call to the Roads).
#
# Layout on 128x64 (a 128x32 display: no derived roads, smaller cells), and the marks (one colour for
# the print's red and blue: filled and hollow), as docs/scoreboard.md shows them:
#   y 0-7    header: "#<rounds> B<n> P<n> T<n>" in the 8x8 font
#   y 8-37   bead plate (6 columns of 5 px, x 0-29) | big road (19 columns, x 32-126)
#   y 39-62  big eye boy | small road | cockroach pig (10 columns of 4 px each)
#
# Allocation: one redraw builds the header's bytes, nothing the size of the shoe (each road's cells are
# placed by its Layout, made once). After a result, draw() paints the header and what the result added, not the
# whole picture (~0.1 ms of the VM's CPU late in a shoe, where a whole redraw was ~0.6 ms), and show() sends
# only the boxes it painted (scoreboard_changes.py).
from firmware.games.baccarat.road_layout import Layout
from firmware.games.baccarat.scoreboard_changes import ChangedParts

# copies of firmware.games.baccarat.rules (tests/host/test_const_copies.py)
_BANKER = const(1)
_PLAYER = const(0)
_TIE = const(2)
# copies of firmware.games.baccarat.roads (tests/host/test_const_copies.py)
_BANKER_PAIR_BIT = const(8)
_PLAYER_PAIR_BIT = const(4)
_RED = const(0)
_ROWS = const(6)
_WINNER_BITS = const(3)

_HEADER_HEIGHT = const(8)            # one line of the 8x8 font
_BEAD_COLUMNS = const(6)
_DERIVED_ROADS = const(3)
_CELL = const(5)                    # bead plate and big road cell (glyph + 1 px gap)
_MARK_CELL = const(4)               # derived-road cell
_MIN_CELL = const(4)                # 3 px glyphs still tell disc, ring, slash and pair dots apart
_GAP = const(2)                     # a separator line and the blank beside it
_CHAR = const(8)
_PAIR_BITS = const(_PLAYER_PAIR_BIT | _BANKER_PAIR_BIT)   # folded in: not a global (issue 14)
# the parts ChangedParts keeps a box of: the header, the bead plate, the big road, then the derived roads
_HEADER = const(0)
_BEADS = const(1)
_BIG = const(2)
_DERIVED = const(3)


class Scoreboard:
    """Scoreboard(canvas, width, height); draw(roads) paints the picture, show() sends it (the canvas's).

    After the first draw, draw() paints only what changed since the last one: the header, the new
    beads, big-road entries (and the last entry when a tie lands on it) and derived marks; a part that
    scrolls (its first column moves) is cleared and painted again alone. The picture is the one a
    whole redraw paints (tests/firmware/test_scoreboard.py compares them over whole shoes). It
    trusts the canvas to hold its last picture: whoever draws anything else on it calls forget(),
    and the next draw() paints everything. show() sends what the draws since the last show() painted
    (a window a part on a canvas with show_window(), the SSD1306's), the whole picture after a whole draw."""

    def __init__(self, canvas, width, height):
        body = height - _HEADER_HEIGHT
        self.cell = _CELL if body >= _ROWS * _CELL else body // _ROWS
        if self.cell < _MIN_CELL or width < (_BEAD_COLUMNS + 1) * self.cell + _GAP:
            raise ValueError("a %dx%d display is too small for the scoreboard" % (width, height))
        self.canvas = canvas
        self.width = width
        self.height = height
        self.road_y = _HEADER_HEIGHT
        self.bead_columns = _BEAD_COLUMNS
        self.big_x = _BEAD_COLUMNS * self.cell + _GAP
        self.big_columns = (width - self.big_x) // self.cell
        self.derived_y = self.road_y + _ROWS * self.cell + _GAP - 1
        fits = self.derived_y + _ROWS * _MARK_CELL <= height
        self.strip_width = (width + _GAP) // _DERIVED_ROADS
        self.derived_columns = (self.strip_width - _GAP) // _MARK_CELL if fits else 0
        # Each road's cells are placed by its Layout, entry by entry, a whole redraw's too (no cell buffers:
        # four of a shoe's length, 704 bytes, were kept: issue 14).
        # What the canvas shows (draw() paints only what changed since)
        self._shown = None              # the Roads on the canvas; None: paint everything next time
        self._beads = 0                 # beads painted
        self._bead_first = 0            # the first bead shown
        self._entries = 0               # big-road entries painted
        self._ties = 0                  # ties painted on the last of them
        self._big = Layout()            # the big road's cells, entry by entry
        self._big_first = 0             # its first display column shown
        self._marks = bytearray(_DERIVED_ROADS)      # derived marks painted, by road
        self._derived_layout = [Layout() for _ in range(_DERIVED_ROADS)] if self.derived_columns else []
        self._derived_first = bytearray(_DERIVED_ROADS)
        # A part that scrolls is moved on the canvas where it can (the SSD1306's scroll_part(): its bytes in
        # the display's RAM image), not every cell painted again; elsewhere it is cleared and painted again.
        self._scroll = getattr(canvas, "scroll_part", None) or self._clear_part
        self.changes = ChangedParts(canvas)     # what the draws painted, until show() sends it
        self._header_width = 0          # the header's text, in pixels
        self.full_draws = 0             # whole pictures painted (for tests)

    def show(self):
        """Send what the draws since the last show() painted (the canvas's show() or show_window())."""
        self.changes.send()

    def forget(self):
        """Something else was drawn on the canvas: the next draw() paints the whole picture."""
        self._shown = None

    def draw(self, roads):
        if roads is not self._shown or roads.n_beads < self._beads:     # (a Roads only grows)
            self.draw_all(roads)
            return
        c = self.canvas
        c.fill_rect(0, 0, self.width, _HEADER_HEIGHT, 0)
        was = self._header_width
        now = self._header(roads)
        if was > now:
            now = was                           # (a shorter text: what the longer one lit is cleared now)
        self.changes.touch(_HEADER, 0, 0, now if now < self.width else self.width, _HEADER_HEIGHT)
        self._new_beads(roads)
        self._new_entries(roads)
        visible = self.derived_columns
        n_marks = roads.n_marks
        done = self._marks
        firsts = self._derived_first
        strip = self.strip_width                # (read once, not in the loop)
        derived_y = self.derived_y
        i = 0
        for layout in self._derived_layout:
            d = done[i]
            if n_marks[i] == d + 1:
                # One new mark (a result adds one at most): placed, its road moved a column where it scrolls,
                # and painted, all here (no call a road; ~a third of a result's draw was the roads' calls, and
                # late in a shoe each road scrolls about every other result).
                marks = roads.marks[i]
                first = layout.add(d == 0 or marks[d] != marks[d - 1], visible)
                done[i] = d + 1
                old = firsts[i]
                if first != old:
                    firsts[i] = first
                    x0 = i * strip
                    if not self._moved(_DERIVED + i, x0, x0 + strip - _GAP, derived_y, self.height,
                                       (first - old) * _MARK_CELL):
                        self._derived(roads, i)         # scrolled out of sight: painted again
                        i += 1
                        continue
                if layout.col >= first:                 # (a streak may start left of a long tail's end)
                    x = i * strip + (layout.col - first) * _MARK_CELL
                    y = derived_y + layout.row * _MARK_CELL
                    c.rect(x, y, _MARK_CELL - 1, _MARK_CELL - 1, 1, marks[d] == _RED)
                    self.changes.touch(_DERIVED + i, x, y, x + _MARK_CELL, y + _MARK_CELL)
            elif n_marks[i] != d:
                self._new_marks(roads, i)               # several (draws that skipped results)
            i += 1

    def draw_all(self, roads):
        """The whole picture, whatever the canvas held."""
        c = self.canvas
        c.fill(0)
        self._header(roads)
        bottom = self.road_y + _ROWS * self.cell
        c.vline(self.big_x - _GAP, self.road_y, bottom - self.road_y, 1)
        self._bead_plate(roads)
        self._big_road(roads)
        if self.derived_columns:
            c.hline(0, bottom, self.width, 1)
            for i in range(1, _DERIVED_ROADS):
                c.vline(i * self.strip_width - _GAP, bottom, self.height - bottom, 1)
            for i in range(_DERIVED_ROADS):
                self._derived(roads, i)
        self._remember(roads)
        self.changes.all()
        self.full_draws += 1

    def _remember(self, roads):
        """After a whole picture: where each part stands (the roads' layouts: laid by the painting)."""
        self._shown = roads
        n = roads.bead_count()
        self._beads = n
        self._bead_first = self._first_bead(n)
        n = self._entries = roads.entry_count()
        self._ties = roads.ties[n - 1] if n else 0
        # the layouts, their first columns and the marks painted: _big_road()'s and _derived()'s

    # header
    def _header(self, roads):
        wins = roads.wins                       # Roads.count() of each (three calls fewer)
        # bytes, which text() takes as it takes a str: a str made is looked up among the interned ones
        # (~4 us in the VM), bytes are not (issue 14)
        text = b"#%d B%d P%d T%d" % (roads.n_beads, wins[_BANKER], wins[_PLAYER], wins[_TIE])
        if len(text) * _CHAR > self.width:
            text = text.replace(b" ", b"")
        self.canvas.text(text, 0, 0, 1)
        self._header_width = len(text) * _CHAR
        return self._header_width

    # bead plate: bead i at column i // 6, row i % 6
    def _first_bead(self, n):
        first = (n + _ROWS - 1) // _ROWS - self.bead_columns
        return first * _ROWS if first > 0 else 0

    def _bead_plate(self, roads):
        n = roads.bead_count()
        first = self._first_bead(n)
        for i in range(first, n):
            self._bead(roads, i, first)

    def _bead(self, roads, i, first):
        code = roads.beads[i]                   # Roads.bead(i), read in place (no tuple made)
        winner = code & _WINNER_BITS
        cell = self.cell
        x = ((i - first) // _ROWS) * cell
        y = _HEADER_HEIGHT + (i % _ROWS) * cell     # (road_y)
        if winner == _TIE:
            self.canvas.line(x, y + cell - 2, x + cell - 2, y, 1)
        else:
            self._entry(x, y, winner)
        if code & _PAIR_BITS:                   # (most beads have none: no call)
            self._pairs(x, y, code & _PLAYER_PAIR_BIT, code & _BANKER_PAIR_BIT)
        self.changes.touch(_BEADS, x, y, x + cell, y + cell)

    def _new_beads(self, roads):
        n = roads.n_beads
        if n == self._beads:
            return
        first = self._first_bead(n)
        old = self._bead_first
        self._bead_first = first
        start = self._beads
        self._beads = n
        cell = self.cell
        if first != old and not self._moved(_BEADS, 0, self.big_x - _GAP, self.road_y, self.road_y + _ROWS * cell,
                                            (first - old) // _ROWS * cell):
            self._bead_plate(roads)                 # scrolled out of sight: painted again
            return
        for i in range(start if start > first else first, n):
            self._bead(roads, i, first)

    # big road: columns of one winner, ties as slashes, dragon tails turning right
    def _big_road(self, roads):
        """Every entry's cell: the road laid out anew (its first column), then walked again, painting."""
        big = self._big
        entries = roads.entries
        n = roads.n_entries
        first = self._big_first = big.lay(entries, n, _WINNER_BITS, self.big_columns)
        big.reset()
        for k in range(n):
            big.add(k == 0 or entries[k] & _WINNER_BITS != entries[k - 1] & _WINNER_BITS)
            if big.col >= first:                        # a streak may start left of a long tail's end
                self._big_cell(roads, k, big.col - first, big.row)

    def _big_cell(self, roads, k, column, row):
        """Big-road entry k in display column `column` (counted from the first shown)."""
        cell = self.cell
        x = self.big_x + column * cell
        y = _HEADER_HEIGHT + row * cell         # (road_y)
        code = roads.entries[k]                 # Roads.entry(k), read in place (no tuple made)
        self._entry(x, y, code & _WINNER_BITS)
        c = self.canvas
        if roads.ties[k]:
            g = cell - 1
            for d in range(g):      # invert along the slash: visible on a disc and on a ring
                c.pixel(x + d, y + g - 1 - d, 1 - c.pixel(x + d, y + g - 1 - d))
        if code & _PAIR_BITS:
            self._pairs(x, y, code & _PLAYER_PAIR_BIT, code & _BANKER_PAIR_BIT)
        self.changes.touch(_BIG, x, y, x + cell, y + cell)

    def _new_entries(self, roads):
        n = roads.n_entries
        big = self._big
        done = self._entries
        old = self._big_first
        if done and roads.ties[done - 1] != self._ties and big.col >= old:
            # a tie landed on the last entry painted: paint its cell again
            x = self.big_x + (big.col - old) * self.cell
            y = self.road_y + big.row * self.cell
            self.canvas.fill_rect(x, y, self.cell - 1, self.cell - 1, 0)
            self._big_cell(roads, done - 1, big.col - old, big.row)
        self._ties = roads.ties[n - 1] if n else 0
        if n == done:
            return
        entries = roads.entries
        self._entries = n
        visible = self.big_columns
        for k in range(done, n):
            # One new entry (a result adds one at most; a draw that skipped results, one at a time): placed,
            # its road moved a column where it scrolls, and painted, with no cell buffer.
            first = big.add(k == 0 or entries[k] & 3 != entries[k - 1] & 3, visible)
            if first != old:
                self._big_first = first
                if not self._moved(_BIG, self.big_x, self.width, self.road_y, self.road_y + _ROWS * self.cell,
                                   (first - old) * self.cell):
                    self._big_road(roads)               # scrolled out of sight: painted again, up to entry n
                    return
                old = first
            if big.col >= first:                        # a streak may start left of a long tail's end
                self._big_cell(roads, k, big.col - first, big.row)

    # derived roads: runs of one colour down a column, laid out like the big road
    def _derived(self, roads, index):
        """Every mark of the road: laid out anew in its Layout (its first column), then walked again, painting."""
        layout = self._derived_layout[index]
        marks = roads.marks[index]
        n = self._marks[index] = roads.n_marks[index]
        first = self._derived_first[index] = layout.lay(marks, n, 0xFF, self.derived_columns)
        layout.reset()
        for k in range(n):
            layout.add(k == 0 or marks[k] != marks[k - 1])
            if layout.col >= first:
                self._mark(roads, index, k, layout.col - first, layout.row)

    def _mark(self, roads, index, k, column, row):
        x = index * self.strip_width + column * _MARK_CELL
        y = self.derived_y + row * _MARK_CELL
        self.canvas.rect(x, y, _MARK_CELL - 1, _MARK_CELL - 1, 1, roads.marks[index][k] == _RED)

    def _new_marks(self, roads, index):
        """The road's marks since the last draw where they are more than one (draw() places and paints one):
        one at a time, as draw() does a result's one (no cell buffer)."""
        n = roads.n_marks[index]
        done = self._marks[index]
        self._marks[index] = n
        layout = self._derived_layout[index]
        marks = roads.marks[index]
        visible = self.derived_columns
        old = self._derived_first[index]
        x0 = index * self.strip_width
        y0 = self.derived_y
        for k in range(done, n):
            first = layout.add(k == 0 or marks[k] != marks[k - 1], visible)
            if first != old:
                self._derived_first[index] = first
                if not self._moved(_DERIVED + index, x0, x0 + self.strip_width - _GAP, y0, self.height,
                                   (first - old) * _MARK_CELL):
                    self._derived(roads, index)         # scrolled out of sight: painted again, up to mark n
                    return
                old = first
            if layout.col >= first:                     # as _mark(), inlined
                x = x0 + (layout.col - first) * _MARK_CELL
                y = y0 + layout.row * _MARK_CELL
                self.canvas.rect(x, y, _MARK_CELL - 1, _MARK_CELL - 1, 1, marks[k] == _RED)
                self.changes.touch(_DERIVED + index, x, y, x + _MARK_CELL, y + _MARK_CELL)

    def _moved(self, part, x0, x1, y0, y1, d):
        """The part x0 <= x < x1, y0 <= y < y1 moved d pixels left (_scroll()), all of it changed."""
        self.changes.touch(part, x0, y0, x1, y1)
        return self._scroll(x0, x1, y0, y1, d)

    def _clear_part(self, x0, x1, y0, y1, d):
        """scroll_part() for a canvas without it (a plain FrameBuffer): the part left blank, painted again."""
        self.canvas.fill_rect(x0, y0, x1 - x0, y1 - y0, 0)
        return False

    # glyphs, each in the top-left (cell - 1) x (cell - 1) pixels of its cell
    def _entry(self, x, y, winner):
        """Banker: a filled disc; Player: a hollow ring, the disc with its inside cleared (its cell is blank
        before: three calls, not a disc's two or a ring's four lines)."""
        c = self.canvas
        g = self.cell - 1
        c.fill_rect(x + 1, y, g - 2, g, 1)
        c.fill_rect(x, y + 1, g, g - 2, 1)
        if winner != _BANKER:
            c.fill_rect(x + 1, y + 1, g - 2, g - 2, 0)

    def _pairs(self, x, y, player_pair, banker_pair):
        g = self.cell - 1
        if banker_pair:
            self.canvas.pixel(x, y, 1)
        if player_pair:
            self.canvas.pixel(x + g - 1, y + g - 1, 1)
