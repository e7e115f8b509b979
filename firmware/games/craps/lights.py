# Layout lights of the Craps table (a part of CrapsController: zone colours only).
#
# Every zone of the layout DIM; a zone holding a bet WHITE (it stays); after a
# roll, each zone a bet was decided in GREEN (won), OFF (lost) or WHITE (push);
# the hard way just rolled GOLD; the come points where come bets travelled
# BLUE and the puck's point GOLD (puck OFF: no point lit); a refused bet's zone
# (or take-down) RED until the next roll. Alarms are the table core's red over everything.
from firmware import throws
from firmware.drivers import pixels
from firmware.games.craps import bets as B
from firmware.games.craps.zones import KIND_NUMBER

_RESULT_COLOUR = {"win": pixels.GREEN, "lose": pixels.OFF, "push": pixels.WHITE}


class CrapsLights:
    def _light(self, zone, colour):
        i = self.lights.index(zone)
        if i >= 0:
            self.lights.set(i, colour)

    def _render_lights(self):
        lights = self.lights
        lights.set_all(pixels.DIM)
        engine = self.engine
        for bet in engine.bets:
            zone = B.zone_name(bet.kind, bet.number)
            self._light(zone, pixels.WHITE)
            if (bet.kind == B.COME or bet.kind == B.DONT_COME) and bet.number:
                self._light(zone, pixels.BLUE)           # a come point where a come bet travelled
        for zone, result in self.decided:
            self._light(zone, _RESULT_COLOUR[result])
        if self.thrown and not self.no_roll:
            d1 = throws.face(self.throw_a, 0)
            if d1 == throws.face(self.throw_a, 1) and d1 * 2 in B.HARD_NUMBERS:
                self._light("hard_%d" % (d1 * 2), pixels.GOLD)   # the hard way hit (art. 5(4)(1))
        if engine.point:
            self._light("point_%d" % engine.point, pixels.GOLD)  # the puck ON its point
        for refusal in self.refusals:                    # a refused placement or take-down
            kind, number = KIND_NUMBER[refusal[1]]
            self._light(B.zone_name(kind, number), pixels.RED)
