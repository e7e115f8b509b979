# Baccarat scoreboard on a monochrome pixel display: bead plate, big road and derived roads from a Roads.
#
# Draws on any FrameBuffer-like canvas (fill, fill_rect, rect, hline, vline,
# line, pixel, text): the SSD1306 driver itself, or a framebuf.FrameBuffer.
# Its only game dependency is firmware.games.baccarat.roads' public API.
#
# Layout on 128x64 (cells of 5 px for the bead plate and big road, 4 px for
# the derived roads):
#   y 0-7    header: "#<rounds> B<n> P<n> T<n>" in the 8x8 font
#   y 8-37   bead plate (6 columns, x 0-29) | big road (19 columns, x 32-126)
#   y 39-62  big eye boy | small road | cockroach pig (10 columns each)
# A display too short for the derived roads (128x32) shows the header, the
# bead plate and the big road in smaller cells. Each road shows its most
# recent columns when it is longer than its part of the screen.
#
# Marks, for a display with one colour (the print's red and blue become
# filled and hollow):
#   Banker   filled disc             Player   hollow ring
#   Tie      "/" slash (bead plate); on the big road a slash across the
#            entry the tie followed (pixels inverted, so it shows on a disc too)
#   Pairs    a dot in the cell's top-left corner (banker pair) or bottom-right
#            corner (player pair), as the print puts its red and blue dots
#   Derived  red = filled square, blue = hollow square, in every derived road
#            (the print's hollow circle / dot / slash only tell the roads apart,
#            which their places on the screen do here)
#
# Allocation: one redraw builds the header string and a small tuple per
# visible bead and big-road entry, nothing the size of the shoe (the roads'
# cells go into buffers made once).
from firmware.compat import const
from firmware.games.baccarat.roads import BANKER, MAX_ROUNDS, PLAYER, RED, ROWS, TIE, place_into

HEADER_HEIGHT = const(8)            # one line of the 8x8 font
BEAD_COLUMNS = const(6)
DERIVED_ROADS = const(3)
_CELL = const(5)                    # bead plate and big road cell (glyph + 1 px gap)
_MARK_CELL = const(4)               # derived-road cell
_MIN_CELL = const(4)                # 3 px glyphs still tell disc, ring, slash and pair dots apart
_GAP = const(2)                     # a separator line and the blank beside it
_CHAR = const(8)


class Scoreboard:
    """Scoreboard(canvas, width, height); draw(roads) paints the whole picture (the caller shows it)."""

    def __init__(self, canvas, width, height):
        body = height - HEADER_HEIGHT
        self.cell = _CELL if body >= ROWS * _CELL else body // ROWS
        if self.cell < _MIN_CELL or width < (BEAD_COLUMNS + 1) * self.cell + _GAP:
            raise ValueError("a %dx%d display is too small for the scoreboard" % (width, height))
        self.canvas = canvas
        self.width = width
        self.height = height
        self.road_y = HEADER_HEIGHT
        self.bead_columns = BEAD_COLUMNS
        self.big_x = BEAD_COLUMNS * self.cell + _GAP
        self.big_columns = (width - self.big_x) // self.cell
        self.derived_y = self.road_y + ROWS * self.cell + _GAP - 1
        fits = self.derived_y + ROWS * _MARK_CELL <= height
        self.strip_width = (width + _GAP) // DERIVED_ROADS
        self.derived_columns = (self.strip_width - _GAP) // _MARK_CELL if fits else 0
        # cells of one road at a time, laid out by place_into (made once: redraws allocate none of this)
        self._cols = bytearray(MAX_ROUNDS)
        self._rows = bytearray(MAX_ROUNDS)
        self._ceiling = bytearray(MAX_ROUNDS)
        self._lengths = bytearray(MAX_ROUNDS)
        self._roads = None              # the shoe counted so far
        self._counted = 0               # beads already in the counts below (a shoe only grows)
        self.counts = [0, 0, 0]         # indexed by PLAYER, BANKER, TIE

    def draw(self, roads):
        c = self.canvas
        c.fill(0)
        self._header(roads)
        bottom = self.road_y + ROWS * self.cell
        c.vline(self.big_x - _GAP, self.road_y, bottom - self.road_y, 1)
        self._bead_plate(roads)
        self._big_road(roads)
        if self.derived_columns:
            c.hline(0, bottom, self.width, 1)
            for i in range(1, DERIVED_ROADS):
                c.vline(i * self.strip_width - _GAP, bottom, self.height - bottom, 1)
            for i in range(DERIVED_ROADS):
                self._derived(roads, i)

    # header
    def _header(self, roads):
        n = roads.bead_count()
        if roads is not self._roads or n < self._counted:      # a new shoe: count again
            self._roads = roads
            self._counted = 0
            self.counts[0] = self.counts[1] = self.counts[2] = 0
        while self._counted < n:
            self.counts[roads.bead(self._counted)[0]] += 1
            self._counted += 1
        text = "#%d B%d P%d T%d" % (n, self.counts[BANKER], self.counts[PLAYER], self.counts[TIE])
        if len(text) * _CHAR > self.width:
            text = text.replace(" ", "")
        self.canvas.text(text, 0, 0, 1)

    # bead plate: bead i at column i // 6, row i % 6
    def _bead_plate(self, roads):
        n = roads.bead_count()
        first = (n + ROWS - 1) // ROWS - self.bead_columns
        first = first * ROWS if first > 0 else 0
        g = self.cell - 1
        for i in range(first, n):
            winner, player_pair, banker_pair = roads.bead(i)
            x = ((i - first) // ROWS) * self.cell
            y = self.road_y + (i % ROWS) * self.cell
            if winner == TIE:
                self.canvas.line(x, y + g - 1, x + g - 1, y, 1)
            else:
                self._entry(x, y, winner)
            self._pairs(x, y, player_pair, banker_pair)

    # big road: columns of one winner, ties as slashes, dragon tails turning right
    def _big_road(self, roads):
        n = roads.big_road_cells_into(self._cols, self._rows, self._ceiling)
        first = self._first_column(n, self.big_columns)
        g = self.cell - 1
        for k in range(n):
            if self._cols[k] < first:
                continue
            x = self.big_x + (self._cols[k] - first) * self.cell
            y = self.road_y + self._rows[k] * self.cell
            winner, ties, player_pair, banker_pair = roads.entry(k)
            self._entry(x, y, winner)
            if ties:
                for d in range(g):      # invert along the slash: visible on a disc and on a ring
                    self.canvas.pixel(x + d, y + g - 1 - d, 1 - self.canvas.pixel(x + d, y + g - 1 - d))
            self._pairs(x, y, player_pair, banker_pair)

    # derived roads: runs of one colour down a column, laid out like the big road
    def _derived(self, roads, index):
        n = roads.mark_count(index)
        lengths = self._lengths
        runs = 0
        previous = -1
        for k in range(n):
            m = roads.mark(index, k)
            if m != previous:
                lengths[runs] = 0
                runs += 1
                previous = m
            lengths[runs - 1] += 1
        n = place_into(lengths, runs, self._cols, self._rows, self._ceiling)
        first = self._first_column(n, self.derived_columns)
        x0 = index * self.strip_width
        for k in range(n):
            if self._cols[k] < first:
                continue
            x = x0 + (self._cols[k] - first) * _MARK_CELL
            y = self.derived_y + self._rows[k] * _MARK_CELL
            self.canvas.rect(x, y, _MARK_CELL - 1, _MARK_CELL - 1, 1, roads.mark(index, k) == RED)

    def _first_column(self, n, visible):
        """First display column to show so that the last one is on screen."""
        last = 0
        for k in range(n):
            if self._cols[k] > last:
                last = self._cols[k]
        return last + 1 - visible if last >= visible else 0

    # glyphs, each in the top-left (cell - 1) x (cell - 1) pixels of its cell
    def _entry(self, x, y, winner):
        """Banker: filled disc; Player: hollow ring."""
        c = self.canvas
        g = self.cell - 1
        if winner == BANKER:
            c.fill_rect(x + 1, y, g - 2, g, 1)
            c.fill_rect(x, y + 1, g, g - 2, 1)
        else:
            c.hline(x + 1, y, g - 2, 1)
            c.hline(x + 1, y + g - 1, g - 2, 1)
            c.vline(x, y + 1, g - 2, 1)
            c.vline(x + g - 1, y + 1, g - 2, 1)

    def _pairs(self, x, y, player_pair, banker_pair):
        g = self.cell - 1
        if banker_pair:
            self.canvas.pixel(x, y, 1)
        if player_pair:
            self.canvas.pixel(x + g - 1, y + g - 1, 1)
