# Baccarat roads and scoreboard figures measured on MicroPython itself: RAM kept by a Roads (the
# preallocated road buffers) and what one whole scoreboard redraw (Scoreboard.draw_all()) allocates
# early and late in a shoe, with how many beads and big-road entries that redraw shows; and what the
# table's usual draw allocates there (Scoreboard.draw() after one result: it paints only what the
# result added, the header included). Prints "key: value" lines.
#
# In the MicroPython VM: python -m tools.mpvm --steps bench/scoreboard_vm.py. --steps runs each part
# between "# --- next run call ---" lines as its own VM run call: in the WebAssembly port a
# gc.collect() frees nothing allocated during its own call, so memory KEPT is measured by
# collecting in later calls, three times, the last two of which must agree (else a
# ram_unsteady_slot line says so). What a redraw ALLOCATES is measured inside one call with the
# collector disabled (gc.mem_alloc() before and after the call): nothing is freed meanwhile, so the
# difference is every byte the draw asked for. On a board (mpremote mount . run
# bench/scoreboard_vm.py) the file runs as one script.
import gc
import sys

MEM = [0] * 4    # by slot: the latest gc.mem_alloc() after gc.collect()
PREV = [0] * 4   # by slot: the one before, which must agree


def measure(slot):
    gc.collect()
    PREV[slot] = MEM[slot]
    MEM[slot] = gc.mem_alloc()


# --- next run call ---
from firmware.drivers.ssd1306 import SSD1306  # noqa: E402
from firmware.games.baccarat.rules import BANKER, PLAYER, TIE  # noqa: E402
from firmware.games.baccarat.roads import MAX_ROUNDS, ROWS, Roads  # noqa: E402
from firmware.games.baccarat.scoreboard import Scoreboard  # noqa: E402
WIDTH = 128
HEIGHT = 64
ROUNDS = 150                   # about a full 8-deck shoe (at most 156: roads.MAX_ROUNDS)
SAMPLES = (60, ROUNDS)         # redraws whose allocation is measured
KINDS = (BANKER, BANKER, BANKER, BANKER, PLAYER, PLAYER, PLAYER, PLAYER, TIE)
ROADS = None


def lcg(seed):
    # The result stream of tests/firmware/test_scoreboard.py's allocation test.
    state = [seed]

    def next_int(n):
        state[0] = (state[0] * 1103515245 + 12345) & 0x7FFFFFFF
        return (state[0] >> 8) % n
    return next_int


def visible_beads(n, columns):
    # What the bead plate shows: its last `columns` columns of ROWS beads.
    first = (n + ROWS - 1) // ROWS - columns
    return n - first * ROWS if first > 0 else n


def visible_entries(columns):
    # What the big road shows: the entries in its last `columns` columns.
    cols, rows, ceiling = bytearray(MAX_ROUNDS), bytearray(MAX_ROUNDS), bytearray(MAX_ROUNDS)
    n = ROADS.big_road_cells_into(cols, rows, ceiling)
    last = max(cols[k] for k in range(n)) if n else 0
    first = last + 1 - columns if last >= columns else 0
    return sum(1 for k in range(n) if cols[k] >= first)


class NoBus:
    # The SSD1306 driver's bus, taking every transaction: a part that scrolls is moved in the driver's
    # RAM image (scroll_part()), as on the table's display.
    def writeto(self, addr, data, stop=True):
        return len(data)

    def readfrom_into(self, addr, buf, stop=True):      # (the driver's setup asks for a status byte)
        raise OSError(5)


def allocated(call, roads):
    # Every byte call(roads) asks for: the collector off, nothing freed meanwhile.
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    call(roads)
    used = gc.mem_alloc() - before
    gc.enable()
    return used


def redraws():
    # A result, then a draw, as at the table; at SAMPLES that draw (what the result added) and then a
    # whole redraw of the same picture are measured.
    rnd = lcg(11)
    board = Scoreboard(SSD1306(NoBus(), 0x3C, WIDTH, HEIGHT), WIDTH, HEIGHT)
    for n in range(1, ROUNDS + 1):
        ROADS.add(KINDS[rnd(9)])
        if n in SAMPLES:
            print("draw_alloc_bytes_at_%d_rounds: %d" % (n, allocated(board.draw, ROADS)))
            print("redraw_alloc_bytes_at_%d_rounds: %d" % (n, allocated(board.draw_all, ROADS)))
            print("visible_beads_at_%d_rounds: %d" % (n, visible_beads(n, board.bead_columns)))
            print("visible_big_road_entries_at_%d_rounds: %d" % (n, visible_entries(board.big_columns)))
        else:
            board.draw(ROADS)


# --- next run call ---
measure(0)
# --- next run call ---
measure(0)
# --- next run call ---
measure(0)  # the modules, no Roads yet
# --- next run call ---
ROADS = Roads()
# --- next run call ---
measure(1)
# --- next run call ---
measure(1)
# --- next run call ---
measure(1)  # an empty Roads: its buffers are all there from the start
# --- next run call ---
redraws()
# --- next run call ---
measure(2)
# --- next run call ---
measure(2)
# --- next run call ---
measure(2)  # the same Roads holding ROUNDS results
# --- next run call ---
print("runtime: %s %s" % (sys.implementation.name, sys.platform))
for _slot in range(3):
    if MEM[_slot] != PREV[_slot]:
        print("ram_unsteady_slot_%d: %d" % (_slot, MEM[_slot] - PREV[_slot]))
print("ram_roads_empty_bytes: %d" % (MEM[1] - MEM[0]))
print("ram_roads_full_bytes: %d" % (MEM[2] - MEM[0]))
print("rounds: %d" % ROADS.bead_count())
