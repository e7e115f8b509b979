# Profiling aid, not a bench: the Craps controller's share of a CLOSE (50 bets from one reading of
# 10 seats) and of the throw deciding them, and their parts, each the best of N tries in us of the
# VM (bench/table_vm.py's clock), on a controller built alone (tests/firmware/craps_rig.py's lights,
# the settings of boards/tables/sim-craps.json). No reports: the report path is not timed here.
#   .venv/bin/python -m tools.mpvm --script bench/craps_close_vm.py   (copies bench/: see whole_table)
import tests.firmware  # noqa: F401
import gc

from bench.table_vm import now_us as now
from firmware import event_bytes, throws
from firmware.bets import BetReading
from firmware.drivers.pixels import ZoneLights
from firmware.events import BETS, THROW
from firmware.games.craps import controller as cc
from firmware.games.craps.zones import ZONES
from tests.firmware.craps_rig import BUTTONS, LAYOUT, PIXELS
from tests.firmware.fakes import FakeStrip

SETTINGS = {"minimum": 5, "maximum": 5000, "field_12": 2, "max_odds": [3, 4, 5], "seats": 14,
            "off_on_come_out": [], "take_down": ["dont_pass", "dont_come", "pass_odds", "dont_pass_odds",
                                                 "come_odds", "dont_come_odds", "hard", "big_number"],
            "shooter_change_on_come_out_craps": False}
BETS_OF_A_SEAT = ("pass", "field", "any_seven", "any_craps", "hard_6")
TRIES = 25


def controller():
    lights = ZoneLights(FakeStrip(PIXELS), PIXELS, sorted((z, [[2 * i, 2 * i + 1]]) for i, z in enumerate(LAYOUT)))
    reading = BetReading(ZONES, 14)
    t = cc.CrapsController(lights, BUTTONS, SETTINGS, reading, 14)
    t.state = cc.COME_OUT                    # the lamp test skipped (not timed)
    width = len(ZONES)
    for seat in range(10):
        for zone in BETS_OF_A_SEAT:
            reading.amounts[seat * width + ZONES.index(zone)] = 10
    reading.reading_id = 1
    return t


def best(label, make, run, tries=TRIES):
    b = None
    for _ in range(tries):
        x = make()
        gc.collect()
        t0 = now()
        run(x)
        d = now() - t0
        if b is None or d < b:
            b = d
    print("%-40s %6.0f us" % (label, b))
    return b


def placed(t):
    t.dispatch(BETS, 1, 10)
    t.outbox.clear() if hasattr(t.outbox, "clear") else None
    return t


def main():
    from firmware.games.craps import rules
    best("clock (empty window)", lambda: None, lambda x: None)
    best("CLOSE: dispatch(BETS) 50 bets", controller, lambda t: t.dispatch(BETS, 1, 10))
    best("  behind() of the reading (journal bytes)", controller, lambda t: event_bytes.behind(t, BETS, 1, 10))
    best("  50 x engine.place_bet", lambda: controller().engine,
         lambda e: [e.place_bet(s, k, 10, n) for s in range(10) for k, n in ((0, 0), (15, 0), (9, 0), (8, 0), (18, 6))])
    best("  render_lights (50 bets open)", lambda: placed(controller()), lambda t: t._render_lights())
    best("THROW: dispatch(THROW 3,4) 50 bets", lambda: placed(controller()),
         lambda t: t.dispatch(THROW, throws.pack(3, 4), 0))
    best("  engine.roll (3,4)", lambda: placed(controller()).engine, lambda e: e.roll((3, 4)))
    best("  render_lights (50 bets decided)", lambda: thrown(placed(controller())), lambda t: t._render_lights())
    best("  50 x Bet()", lambda: None, lambda x: [rules.Bet(i, 0, 0, 10, 0, None) for i in range(50)])


def thrown(t):
    t.dispatch(THROW, throws.pack(3, 4), 0)
    return t


main()
