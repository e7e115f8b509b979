# The light frame (ZoneLights.show()) on each layout of boards/pico.json, and what a ZoneLights keeps.
#
#     .venv/bin/python -m tools.mpvm --steps bench/lights_vm.py --copy bench
#
# Per layout, medians over 41 frames of each kind, in calibration-loop iterations (the loop timed
# between the frames: the host's speed cancels out; x 4.0 us on the RP2040 estimate, as
# bench/whole_table.py, against the wire time of 76 pixels x 30 us = 2,280 us, at most 10 %):
# - set_all: every zone changed, all one colour (bench/whole_table.py's lights_us frame);
# - result: set_all, then 9-10 zones lit otherwise (a Baccarat or Craps result: the games' lights
#   modules render so);
# - mixed: every zone set to another colour one by one, no set_all, neighbours different (the
#   worst a frame can be);
# - one zone: one zone changed.
# RAM: bytes a ZoneLights keeps, per layout (10 built, measured in run calls of their own: this VM's
# collector frees nothing inside one run call). Strip: neopixel.NeoPixel as its driver has it.
import gc
import json

from firmware.drivers import pixels as P

from bench.vmclock import calibrate, now_us  # the VM's CPU time; time.ticks_us() on a board (bench/vmclock.py)

CALIBRATION = 20000
FRAMES = 41
RESULT_ZONES = {"baccarat": ["player", "player_pair"] + ["seat%d" % s for s in range(1, 8)],
                "craps": ["pass", "field", "come", "any_seven", "any_craps", "hard_6", "big_6", "eleven",
                          "horn", "point_6"],
                "omaha": ["seat%d" % s for s in range(1, 10)] + ["pot"]}
PALETTE = (P.WHITE, P.DIM, P.RED, P.BLUE, P.GREEN, P.GOLD, P.OFF)


class Strip:
    """MicroPython's neopixel.NeoPixel as its driver has it (3 bytes a pixel, GRB)."""
    ORDER = (1, 0, 2, 3)

    def __init__(self, n):
        self.n = n
        self.bpp = 3
        self.buf = bytearray(3 * n)

    def write(self):
        pass                         # the bitstream: wire time, not computed here


def median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2]


def timed_show(lights, overhead):
    t0 = now_us()
    lights.show()
    return now_us() - t0 - overhead


def frames(layout, zones, overhead):
    lights = P.ZoneLights(Strip(76), 76, zones)
    lights.show()
    lit = [lights.index(z) for z in RESULT_ZONES[layout]]
    times = {"set_all": [], "result": [], "mixed": [], "one zone": []}
    cal = []
    for k in range(FRAMES):
        t0 = now_us()
        calibrate(CALIBRATION)
        cal.append(now_us() - t0)
        lights.set_all((P.RED, P.GREEN)[k & 1])
        times["set_all"].append(timed_show(lights, overhead))
        lights.set_all((P.DIM, P.OFF)[k & 1])
        for z in lit:
            lights.set(z, (P.GREEN, P.GOLD)[k & 1])
        times["result"].append(timed_show(lights, overhead))
        for z in range(len(zones)):
            lights.set(z, PALETTE[(z + k) % 7])
        times["mixed"].append(timed_show(lights, overhead))
        lights.set(0, PALETTE[(k + 3) % 7])
        times["one zone"].append(timed_show(lights, overhead))
    us_per_iteration = median(cal) / CALIBRATION
    print("%s (%d zones): %s" % (layout, len(zones), ", ".join(
        "%s %.0f" % (kind, median(times[kind]) / us_per_iteration) for kind in ("set_all", "result", "mixed", "one zone"))))


with open("boards/pico.json") as f:
    BOARD = json.loads(f.read())
LAYOUTS = ("baccarat", "craps", "omaha")
ZONES = dict((layout, sorted(BOARD["zones"][layout].items())) for layout in LAYOUTS)
_o = []
for _ in range(101):
    _t = now_us()
    _o.append(now_us() - _t)
OVERHEAD = median(_o)
print("frames, calibration-loop iterations (median of %d each):" % FRAMES)
for name in LAYOUTS:
    frames(name, ZONES[name], OVERHEAD)
KEPT = []
FREE = []
# --- next run call ---
gc.collect()
FREE.append(gc.mem_free())
# --- next run call ---
KEPT.append([P.ZoneLights(Strip(76), 76, ZONES["baccarat"]) for _ in range(10)])
# --- next run call ---
gc.collect()
FREE.append(gc.mem_free())
# --- next run call ---
KEPT.append([P.ZoneLights(Strip(76), 76, ZONES["craps"]) for _ in range(10)])
# --- next run call ---
gc.collect()
FREE.append(gc.mem_free())
# --- next run call ---
KEPT.append([P.ZoneLights(Strip(76), 76, ZONES["omaha"]) for _ in range(10)])
# --- next run call ---
gc.collect()
FREE.append(gc.mem_free())
print("kept by a ZoneLights, bytes (the strip's own 244 included): %s" % ", ".join(
    "%s %d" % (LAYOUTS[i], (FREE[i] - FREE[i + 1]) // 10) for i in range(3)))
