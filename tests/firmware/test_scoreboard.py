# The Baccarat scoreboard drawn into a plain FrameBuffer, on both runtimes (no simulated hardware).
#
# Pixels are read back glyph by glyph: a 4x4 glyph as four rows of "#" and ".".
import framebuf

from firmware.compat import IS_MICROPYTHON
from firmware.drivers.ssd1306 import SSD1306
from firmware.games.baccarat.rules import BANKER, PLAYER, TIE
from firmware.games.baccarat.road_layout import Layout
from firmware.games.baccarat.roads import BLUE, RED, Roads, place, place_into
from firmware.games.baccarat.scoreboard import Scoreboard
from tests.firmware.expect import count_calls, raises

B, P, T = BANKER, PLAYER, TIE
DISC = ".##.|####|####|.##."
RING = ".##.|#..#|#..#|.##."
SLASH = "...#|..#.|.#..|#..."
BLANK = "....|....|....|...."
RING_TIE = ".###|#.##|##.#|###."          # ring with the tie slash inverted across it
DISC_TIE = ".###|##.#|#.##|###."          # disc with the slash inverted across it


def board(width=128, height=64):
    buf = bytearray(width * height // 8)
    fb = framebuf.FrameBuffer(buf, width, height, framebuf.MONO_VLSB)
    return fb, Scoreboard(fb, width, height)


def roads_of(*results):
    r = Roads()
    for res in results:
        if isinstance(res, tuple):
            r.add(*res)
        else:
            r.add(res)
    return r


def glyph(fb, x, y, size=4):
    return "|".join("".join("#" if fb.pixel(x + dx, y + dy) else "." for dx in range(size))
                    for dy in range(size))


def corner(pattern, banker_pair=False, player_pair=False):
    """A glyph pattern with the pair dots lit (top-left banker, bottom-right player)."""
    cells = list(pattern)
    if banker_pair:
        cells[0] = "#"
    if player_pair:
        cells[-1] = "#"
    return "".join(cells)


def bead_xy(i, first=0):
    return ((i - first) // 6) * 5, 8 + (i % 6) * 5


def road_xy(col, row):
    return 32 + col * 5, 8 + row * 5


def test_bead_plate_shows_each_result_in_order_with_pairs():
    fb, sb = board()
    sb.draw(roads_of((B, False, True), B, (P, True, False), (T, True, True), B))
    assert glyph(fb, *bead_xy(0)) == corner(DISC, banker_pair=True)
    assert glyph(fb, *bead_xy(1)) == DISC
    assert glyph(fb, *bead_xy(2)) == corner(RING, player_pair=True)
    assert glyph(fb, *bead_xy(3)) == corner(SLASH, True, True)
    assert glyph(fb, *bead_xy(4)) == DISC
    assert glyph(fb, *bead_xy(5)) == BLANK
    assert glyph(fb, *bead_xy(6)) == BLANK                 # next column: nothing yet


def test_big_road_breaks_columns_on_a_change_and_slashes_ties():
    fb, sb = board()
    sb.draw(roads_of(B, (B, True, False), P, T, B))
    assert glyph(fb, *road_xy(0, 0)) == DISC
    assert glyph(fb, *road_xy(0, 1)) == corner(DISC, player_pair=True)
    assert glyph(fb, *road_xy(1, 0)) == RING_TIE            # the tie sits on the Player before it
    assert glyph(fb, *road_xy(1, 1)) == BLANK
    assert glyph(fb, *road_xy(2, 0)) == DISC
    assert glyph(fb, *road_xy(3, 0)) == BLANK


def test_tie_on_a_banker_entry_shows_inverted_across_the_disc():
    fb, sb = board()
    sb.draw(roads_of(B, T, T))
    assert glyph(fb, *road_xy(0, 0)) == DISC_TIE
    assert glyph(fb, *bead_xy(1)) == SLASH and glyph(fb, *bead_xy(2)) == SLASH


def test_dragon_tail_turns_right_along_the_bottom_row():
    fb, sb = board()
    sb.draw(roads_of(*([B] * 8 + [P])))
    for row in range(6):
        assert glyph(fb, *road_xy(0, row)) == DISC
    assert glyph(fb, *road_xy(1, 5)) == DISC and glyph(fb, *road_xy(2, 5)) == DISC
    assert glyph(fb, *road_xy(1, 0)) == RING                # the Player starts the next column at the top
    assert glyph(fb, *road_xy(1, 1)) == BLANK


def test_long_roads_show_their_most_recent_columns():
    fb, sb = board()
    results = [B if i % 2 else P for i in range(50)]      # 50 columns of one entry each
    sb.draw(roads_of(*results))
    first_bead = (9 - 6) * 6                               # 50 beads fill 9 columns; 6 fit
    assert glyph(fb, *bead_xy(first_bead, first_bead)) == (DISC if results[first_bead] == B else RING)
    assert glyph(fb, *bead_xy(49, first_bead)) == DISC
    first_col = 50 - sb.big_columns
    assert sb.big_columns == 19
    assert glyph(fb, *road_xy(0, 0)) == (DISC if results[first_col] == B else RING)
    assert glyph(fb, *road_xy(18, 0)) == DISC               # the latest column, at the right edge


def test_derived_roads_red_filled_blue_hollow_in_their_own_strips():
    fb, sb = board()
    roads = roads_of(B, B, P, B, P, P, B, B, B, P, B, P)
    sb.draw(roads)
    for index in range(3):
        marks = roads.derived(index)
        assert marks, "the sequence must give every derived road a mark"
        x, y = index * sb.strip_width, sb.derived_y
        assert glyph(fb, x, y, 3) == ("###|###|###" if marks[0] == RED else "###|#.#|###")
    assert glyph(fb, 0, sb.derived_y, 3) != glyph(fb, 0, sb.derived_y - 5, 3)
    blue_first = [i for i in range(3) if roads.derived(i)[0] == BLUE]
    red_first = [i for i in range(3) if roads.derived(i)[0] == RED]
    assert blue_first or red_first


def header_shows(fb, text):
    want = bytearray(128)
    framebuf.FrameBuffer(want, 128, 8, framebuf.MONO_VLSB).text(text, 0, 0, 1)
    got = bytearray(128)
    framebuf.FrameBuffer(got, 128, 8, framebuf.MONO_VLSB).blit(fb, 0, 0)
    return got == want


def test_header_counts_rounds_and_winners():
    fb, sb = board()
    sb.draw(roads_of(B, B, P, T, B))
    assert header_shows(fb, "#5 B3 P1 T1")


def test_a_new_shoe_is_counted_afresh_even_when_longer():
    fb, sb = board()
    sb.draw(roads_of(B, B, B))
    sb.draw(roads_of(P, P, P, P))
    assert header_shows(fb, "#4 B0 P4 T0")


def test_128x32_shows_bead_plate_and_big_road_in_smaller_cells():
    fb, sb = board(128, 32)
    assert sb.cell == 4 and sb.derived_columns == 0
    sb.draw(roads_of((B, False, True), P, T))
    assert glyph(fb, 0, 8, 3) == "##.|###|.#."             # 3 px disc (a plus) with the banker-pair dot
    assert glyph(fb, 0, 12, 3) == ".#.|#.#|.#."
    assert glyph(fb, 0, 16, 3) == "..#|.#.|#.."


def test_too_small_a_display_is_refused():
    raises(ValueError, Scoreboard, None, 128, 16)
    raises(ValueError, Scoreboard, None, 24, 64)


def _lcg(seed):
    state = [seed]

    def next_int(n):
        state[0] = (state[0] * 1103515245 + 12345) & 0x7FFFFFFF
        return (state[0] >> 8) % n
    return next_int


def test_place_into_lays_out_exactly_as_place():
    rnd = _lcg(7)
    cols, rows, ceiling = bytearray(200), bytearray(200), bytearray(200)
    for trial in range(150):
        lengths = bytearray(rnd(9) + 1 if rnd(4) else rnd(14) + 1 for _ in range(rnd(30) + 1))
        want = place(lengths)
        n = place_into(lengths, len(lengths), cols, rows, ceiling)
        got = [(cols[k], rows[k]) for k in range(n)]
        assert got == want, (list(lengths), got, want)


def test_layout_places_entry_by_entry_as_place_into():
    rnd = _lcg(5)
    layout = Layout()
    cols, rows, ceiling = bytearray(156), bytearray(156), bytearray(156)
    for trial in range(60):
        lengths = bytearray(rnd(9) + 1 if rnd(4) else rnd(14) + 1 for _ in range(rnd(20) + 1))
        while sum(lengths) > 156:
            lengths = lengths[:-1]
        n = place_into(lengths, len(lengths), cols, rows, ceiling)
        layout.reset()
        k = 0
        for length in lengths:
            for i in range(length):
                visible = 1 + rnd(25)
                first = layout.add(i == 0, visible)
                assert (layout.col, layout.row) == (cols[k], rows[k]), (trial, k)
                assert first == layout.first(visible), (trial, k, visible)     # add() says where a view starts
                k += 1
        assert layout.n == n and layout.last == max(cols[:n])


def test_a_redraw_allocates_no_more_late_in_the_shoe_than_early():
    """Drawn after every result as at the table: allocation follows what is on screen, not the
    shoe's length (measured on MicroPython; building the whole roads' lists would take ~15 KB)."""
    rnd = _lcg(11)
    kinds = (B, B, B, B, P, P, P, P, T)
    fb, sb = board()
    roads = Roads()
    used = {}
    for n in range(1, 151):
        roads.add(kinds[rnd(9)])
        if IS_MICROPYTHON and n in (60, 150):
            import gc
            gc.collect()
            gc.disable()
            before = gc.mem_alloc()
            sb.draw_all(roads)                  # the whole picture (a draw after a result paints less)
            used[n] = gc.mem_alloc() - before
            gc.enable()
        else:
            sb.draw(roads)
    if IS_MICROPYTHON:
        assert used[150] < 4000, used
        assert used[150] < used[60] + 800, used


def test_roads_accessors_agree_with_the_lists_and_refuse_what_is_not_there():
    roads = roads_of((B, True, False), T, P, (P, False, True), B, T, T, B, P, B, B, P)
    assert [roads.bead(i) for i in range(roads.bead_count())] == roads.bead_plate()
    flat = [e for column in roads.big_road() for e in column]
    assert [roads.entry(i) for i in range(roads.entry_count())] == flat
    for index in range(3):
        assert [roads.mark(index, i) for i in range(roads.mark_count(index))] == roads.derived(index)
        raises(IndexError, roads.mark, index, roads.mark_count(index))
    raises(IndexError, roads.bead, roads.bead_count())
    raises(IndexError, roads.entry, -1)
    cols, rows, ceiling = bytearray(156), bytearray(156), bytearray(156)
    n = roads.big_road_cells_into(cols, rows, ceiling)
    assert [(cols[k], rows[k]) for k in range(n)] == roads.big_road_cells()
    for visible in (1, 2, 5, 19):
        last = max(cols[k] for k in range(n))
        assert Layout().lay(roads.entries, n, 3, visible) == (last + 1 - visible if last >= visible else 0)
    for index in range(3):
        marks = roads.derived(index)
        runs = []
        for i in range(len(marks)):
            if i == 0 or marks[i] != marks[i - 1]:
                runs.append(0)
            runs[-1] += 1
        n = roads.derived_cells_into(index, bytearray(156), cols, rows, ceiling)
        assert n == len(marks) and [(cols[k], rows[k]) for k in range(n)] == place(runs)


class _Counting:
    """A FrameBuffer's drawing calls counted (the scoreboard's canvas), passed on to it."""

    def __init__(self, fb):
        self.fb = fb
        self.calls = 0

    def _count(name):
        def call(self, *args):
            self.calls += 1
            return getattr(self.fb, name)(*args)
        return call

    fill = _count("fill")
    fill_rect = _count("fill_rect")
    rect = _count("rect")
    hline = _count("hline")
    vline = _count("vline")
    line = _count("line")
    pixel = _count("pixel")
    text = _count("text")
    blit = _count("blit")


def _shoe_results(rnd, n):
    """Results of a shoe with long streaks (dragon tails), ties and pairs: every road scrolls."""
    out = []
    while len(out) < n:
        winner = (B, P, T)[rnd(3) if rnd(5) else 2]
        for _ in range(rnd(9) + 1 if rnd(4) == 0 else 1):
            out.append((winner, rnd(6) == 0, rnd(7) == 0))
    return out[:n]


class _Bus:
    """An I2C bus that takes every transaction (the SSD1306 driver's, for its RAM image alone)."""

    def writeto(self, addr, data, stop=True):
        return len(data)

    def readfrom_into(self, addr, buf, stop=True):      # (the driver's setup asks for the status byte)
        raise OSError(5)


def _screen(width, height):
    """The SSD1306 driver without a display, its scroll_part() calls counted (.scrolls): the scoreboard
    scrolls a part by moving its bytes in the driver's RAM image (.buffer)."""
    oled = SSD1306(_Bus(), 0x3C, width, height)
    oled.scrolls = 0
    scroll_part = oled.scroll_part

    def counted(*args):
        oled.scrolls += 1
        return scroll_part(*args)
    oled.scroll_part = counted
    return oled


def _whole_redraw(width, height):
    """A scoreboard on a plain framebuffer, for draw_all(): the picture a draw must leave (its buffer)."""
    buf = bytearray(width * height // 8)
    return Scoreboard(framebuf.FrameBuffer(buf, width, height, framebuf.MONO_VLSB), width, height), buf


def _drawn_beside_a_whole_redraw():
    """(screen, its Scoreboard with an empty Roads drawn, the Roads, the whole redraw's Scoreboard and
    buffer): a 128x64 SSD1306 whose draws are compared with draw_all()'s picture result by result."""
    screen = _screen(128, 64)
    sb = Scoreboard(screen, 128, 64)
    want, want_buf = _whole_redraw(128, 64)
    roads = Roads()
    sb.draw(roads)
    return screen, sb, roads, want, want_buf


def _same_as_a_whole_redraw(width, height, seed, every, screen=True):
    rnd = _lcg(seed)
    buf = bytearray(width * height // 8)
    if screen:
        fb = _screen(width, height)
        buf = fb.buffer
    else:
        fb = framebuf.FrameBuffer(buf, width, height, framebuf.MONO_VLSB)
    sb = Scoreboard(fb, width, height)
    want, want_buf = _whole_redraw(width, height)
    roads = Roads()
    sb.draw(roads)
    for n, result in enumerate(_shoe_results(rnd, 150)):
        roads.add(*result)
        if n % every:
            continue                        # draws may skip results (the displays redraw at most every 100 ms)
        sb.draw(roads)
        want.draw_all(roads)
        assert bytes(buf) == want_buf, (width, height, seed, n + 1)
    assert not screen or fb.scrolls > 0         # the screen's parts scrolled in its RAM image
    return sb


def test_a_draw_after_each_result_paints_what_a_whole_redraw_paints():
    for screen in (True, False):
        for seed in (1, 2, 3, 4, 5):
            sb = _same_as_a_whole_redraw(128, 64, seed, 1, screen)
            assert sb.full_draws == 1, sb.full_draws      # the whole picture once, then what changed
        for seed in (6, 7):
            _same_as_a_whole_redraw(128, 32, seed, 1, screen)


def test_draws_that_skip_results_paint_what_a_whole_redraw_paints():
    for screen in (True, False):
        for seed, every in ((8, 2), (9, 3), (10, 7), (13, 40)):
            _same_as_a_whole_redraw(128, 64, seed, every, screen)
        _same_as_a_whole_redraw(128, 32, 11, 2, screen)


def test_a_tie_after_an_undrawn_entry_is_painted_on_it():
    fb, sb = board()
    roads = roads_of(B)
    sb.draw(roads)
    roads.add(P)
    roads.add(T)                            # on the Player entry, which was not painted yet
    sb.draw(roads)
    assert glyph(fb, *road_xy(1, 0)) == RING_TIE
    roads.add(T)
    roads.add(P)
    sb.draw(roads)
    assert glyph(fb, *road_xy(1, 0)) == RING_TIE and glyph(fb, *road_xy(1, 1)) == RING


def test_a_draw_late_in_the_shoe_paints_only_what_the_result_added():
    rnd = _lcg(12)
    fb, sb = board()
    canvas = _Counting(fb)
    sb.canvas = canvas
    roads = Roads()
    sb.draw(roads)
    calls = []
    for n, result in enumerate(_shoe_results(rnd, 120)):
        roads.add(*result)
        canvas.calls = 0
        sb.draw(roads)
        if n >= 40:
            calls.append(canvas.calls)
            canvas.calls = 0
            sb.draw_all(roads)
            assert calls[-1] < canvas.calls, (n, calls[-1], canvas.calls)     # never more than the whole
    # The whole picture takes 250 to 550 calls there (~36 beads, up to 114 big-road cells, 3 x 30 marks);
    # a result adds a bead, a cell and 3 marks (a part that scrolls is painted again: the rarer draws).
    calls.sort()
    assert calls[len(calls) // 2] < 30, calls


def test_a_draw_reads_the_new_beads_and_entries_in_place():
    # The last card's pass paints a new bead, big-road cell and marks from the Roads' buffers and counts
    # (no call to the Roads, no tuple made); the picture is a whole redraw's, pairs and ties too.
    bufs = [bytearray(128 * 64 // 8) for _ in range(2)]
    sb, whole = [Scoreboard(framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB), 128, 64) for buf in bufs]
    roads = Roads()
    sb.draw(roads)
    asked = [count_calls(roads, name)[0] for name in ("bead", "entry", "bead_count", "entry_count", "mark_count")]
    for result in ((B, True, False), (B, False, True), (T, False, False), (P, True, True), (P, False, False),
                   (T, True, False), (B, False, False), (B, False, False), (P, False, False), (P, False, False)):
        roads.add(*result)
        sb.draw(roads)
    assert sum(calls[0] for calls in asked) == 0 and sb.full_draws == 1 and roads.n_marks[0]
    whole.draw(roads)
    assert bufs[0] == bufs[1]


def test_a_results_new_derived_marks_are_painted_by_draw_without_a_call_a_road_scrolling_or_not():
    # Issue 14: a result adds one mark to a derived road at most; draw() places it, moves the road a
    # column where it scrolls and paints it, itself (_new_marks only where draws skipped results); the
    # picture is a whole redraw's.
    rnd = _lcg(7)
    screen, sb, roads, want, want_buf = _drawn_beside_a_whole_redraw()
    calls, plain = count_calls(sb, "_new_marks")
    painted = scrolled = 0
    for result in _shoe_results(rnd, 120):
        before = bytes(roads.n_marks)
        firsts = bytes(sb._derived_first)
        roads.add(*result)
        sb.draw(roads)
        assert calls[0] == 0
        painted += sum(roads.n_marks[i] - before[i] for i in range(3))
        scrolled += sum(1 for i in range(3) if sb._derived_first[i] != firsts[i])
        want.draw_all(roads)
        assert bytes(screen.buffer) == want_buf
    assert painted > 100 and scrolled > 10 and sb.full_draws == 1
    roads.add(B)                                            # draws that skip results: _new_marks
    roads.add(P)
    sb.draw(roads)
    want.draw_all(roads)
    assert calls[0] > 0 and bytes(screen.buffer) == want_buf


def test_a_results_new_big_road_entry_is_placed_and_painted_without_the_cell_buffers_scrolling_or_not():
    # Issue 14: a result adds one big-road entry at most: placed in the road's Layout, the road moved a
    # column where it scrolls, and the cell painted, with no cell buffer (the scoreboard keeps none: a
    # whole redraw walks the Layout too); the picture is a whole redraw's.
    rnd = _lcg(11)
    screen, sb, roads, want, want_buf = _drawn_beside_a_whole_redraw()
    entries = scrolled = 0
    assert not hasattr(sb, "_cols") and not hasattr(sb, "_ceiling")
    for result in _shoe_results(rnd, 120):
        roads.add(*result)
        first = sb._big_first
        sb.draw(roads)
        entries += result[0] != T
        scrolled += sb._big_first != first
        want.draw_all(roads)
        assert bytes(screen.buffer) == want_buf
    assert entries > 60 and scrolled > 5 and sb.full_draws == 1


def test_the_pair_dots_are_drawn_only_for_a_cell_with_a_pair():
    # A bead or big-road cell without a pair makes no _pairs call (most have none); the picture is
    # still a whole redraw's, pair dots included.
    bufs = [bytearray(128 * 64 // 8) for _ in range(2)]
    sb, whole = [Scoreboard(framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB), 128, 64) for buf in bufs]
    roads = Roads()
    sb.draw(roads)
    calls = []
    pairs = sb._pairs

    def counted(x, y, player_pair, banker_pair):
        calls.append((player_pair != 0, banker_pair != 0))
        pairs(x, y, player_pair, banker_pair)
    sb._pairs = counted
    for result in ((B, False, False), (P, False, False), (B, True, False), (T, False, False), (P, False, True),
                   (B, True, True), (B, False, False)):
        roads.add(*result)
        sb.draw(roads)
    assert calls and all(player_pair or banker_pair for player_pair, banker_pair in calls), calls
    assert (True, True) in calls and (False, True) in calls and (True, False) in calls
    whole.draw(roads)
    assert bufs[0] == bufs[1]


def test_a_part_that_scrolls_moves_in_the_screen_buffer_not_painted_again():
    rnd = _lcg(12)
    canvas = _Counting(_screen(128, 64))
    canvas.scroll_part = canvas.fb.scroll_part      # (its calls in the screen: not counted here)
    sb = Scoreboard(canvas, 128, 64)
    roads = Roads()
    sb.draw(roads)
    most = 0
    for n, result in enumerate(_shoe_results(rnd, 120)):
        roads.add(*result)
        canvas.calls = 0
        sb.draw(roads)
        if n >= 40:
            most = max(most, canvas.calls)
    assert most < 40, most                  # painting a scrolled part again took up to ~400 calls


def test_a_scroll_moves_the_rows_of_a_shared_page_by_framebuf_calls():
    # The big road's and bead plate's bottom rows share a byte row (page) with the derived roads' top:
    # a scroll moves the part's rows there by framebuf calls (blit of a scratch page, in C), not a
    # Python loop a column; the other part's rows stay, and the picture is a whole redraw's.
    rnd = _lcg(12)
    screen, sb, roads, want, want_buf = _drawn_beside_a_whole_redraw()
    buf = screen.buffer
    blits = []
    blit = screen.blit

    def counted(*args):
        blits.append(args[0])
        return blit(*args)
    screen.blit = counted                       # (scroll_part() blits through it: an instance's own first)
    scrolled = 0
    for result in _shoe_results(rnd, 120):
        roads.add(*result)
        first = (sb._bead_first, sb._big_first, bytes(sb._derived_first))
        blits[:] = []
        sb.draw(roads)
        if first != (sb._bead_first, sb._big_first, bytes(sb._derived_first)):
            scrolled += 1
            assert blits and all(page in screen._pages.values() for page in blits)
        want.draw_all(roads)
        assert bytes(buf) == want_buf
    assert scrolled > 10 and sb.full_draws == 1


def test_a_part_scrolls_in_the_ssd1306_and_is_painted_again_on_a_plain_framebuffer():
    # The scoreboard asks the canvas to move a part that scrolls (the SSD1306's scroll_part()); a canvas
    # without it (a framebuf.FrameBuffer) has the part cleared, and the scoreboard paints it again.
    screen = _screen(128, 64)
    plain = _Counting(framebuf.FrameBuffer(bytearray(128 * 64 // 8), 128, 64, framebuf.MONO_VLSB))
    on_screen = Scoreboard(screen, 128, 64)
    on_plain = Scoreboard(plain, 128, 64)
    roads = roads_of(*([B] * 36))
    on_screen.draw(roads)
    on_plain.draw(roads)
    roads.add(P)                                # the 37th bead: the bead plate scrolls a column
    plain.calls = 0
    on_screen.draw(roads)
    on_plain.draw(roads)
    assert screen.scrolls == 1 and on_screen._bead_first == on_plain._bead_first == 6
    assert plain.calls > 36                     # the plate's 36 beads painted again (and the rest)
    assert bytes(screen.buffer) == fb_bytes(plain.fb)


def test_forget_paints_the_whole_picture_over_what_else_was_drawn():
    fb, sb = board()
    roads = roads_of(B, P, P, T, B)
    sb.draw(roads)
    picture = bytearray(fb_bytes(fb))
    fb.fill(1)                              # the console's display test
    sb.forget()
    roads.add(B)
    sb.draw(roads)
    want_fb, want = board()
    want.draw(roads)
    assert fb_bytes(fb) == fb_bytes(want_fb) and fb_bytes(fb) != picture


def test_a_new_roads_paints_the_whole_picture():
    fb, sb = board()
    sb.draw(roads_of(*([B] * 40)))
    roads = roads_of(P)
    sb.draw(roads)
    want_fb, want = board()
    want.draw(roads)
    assert fb_bytes(fb) == fb_bytes(want_fb) and sb.full_draws == 2


def fb_bytes(fb):
    out = bytearray(128 * 64 // 8)
    framebuf.FrameBuffer(out, 128, 64, framebuf.MONO_VLSB).blit(fb, 0, 0)
    return out
