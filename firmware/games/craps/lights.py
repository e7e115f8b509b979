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

# copies of firmware.games.craps.codes (tests/host/test_const_copies.py)
_COME = const(4)
_COME_ODDS = const(6)
_DONT_COME = const(5)
_DONT_COME_ODDS = const(7)

_RESULT_COLOUR = {"win": pixels.GREEN, "lose": pixels.OFF, "push": pixels.WHITE}


class CrapsLights:
    # A zone's light is looked up once (ZoneLights.index searches the layout's names, zone_name
    # builds a string): self._zone_lights by zone name, self._bet_lights by a bet's kind and number
    # (the controller makes both dicts). A render of 50 open bets took 1 ms in the VM without them.
    # A render works every zone's colour out in self._frame (a list, one colour a zone) and then sets
    # each zone that changes, once: 50 bets on 5 zones were 50 calls of ZoneLights.set on top of the
    # DIM of every zone. The last roll's decided bets (50: mostly the same few zones) stay lit until
    # the next roll: their lights are worked out once a roll (self._decided_marks, for the list
    # self._decided_of), not at every render (a reading's CLOSE renders them again).
    def _frame_light(self, frame, zone, colour):
        i = self._zone_lights.get(zone)
        if i is None:
            i = self.lights.index(zone)
            self._zone_lights[zone] = i
        if i >= 0:
            frame[i] = colour

    def _bet_light(self, kind, number):
        """(light index or -1, colour) of an open bet of this kind and number, worked out once."""
        key = kind * 16 + number                          # number: 0..12
        entry = self._bet_lights.get(key)
        if entry is None:
            if ((kind == _COME or kind == _DONT_COME) and number) or kind == _COME_ODDS or kind == _DONT_COME_ODDS:
                # A come point where a come bet travelled; odds stand only behind one there, and share
                # its box: lit WHITE they turned the come point white (the bet after it won the light).
                colour = pixels.BLUE
            else:
                colour = pixels.WHITE
            entry = self._bet_lights[key] = (self.lights.index(B.zone_name(kind, number)), colour)
        return entry

    def _marks_of(self, decided):
        """{light: colour} of the (zone, result) pairs decided: each light once, with the colour of the
        last pair that lights it (as setting them in turn would leave it); unlit zones left out."""
        marks = {}
        zone_lights = self._zone_lights
        for zone, result in decided:
            try:
                i = zone_lights[zone]                    # (a subscript: no method call a pair)
            except KeyError:
                i = zone_lights[zone] = self.lights.index(zone)
            if i >= 0:
                marks[i] = _RESULT_COLOUR[result]
        return marks

    def _render_lights(self):
        lights = self.lights
        shown = lights.colours                           # what each zone has now (ZoneLights)
        frame = self._frame
        zones = len(shown)
        if frame is None or len(frame) != zones + 1:
            # One entry more than the zones: a bet without a light (index -1) sets that last one,
            # never shown, instead of a test of its index a bet.
            frame = self._frame = [pixels.DIM] * (zones + 1)
            self._dim_frame = [pixels.DIM] * (zones + 1)
        else:
            frame[:] = self._dim_frame                   # (one store in C, lists of one length)
        engine = self.engine
        bet_lights = self._bet_lights
        for bet in engine.bets:
            try:                                         # the cache _bet_light fills, asked first (a
                i, colour = bet_lights[bet.kind * 16 + bet.number]   # subscript: no method call a bet)
            except KeyError:
                i, colour = self._bet_light(bet.kind, bet.number)
            frame[i] = colour                            # (-1: the entry past the zones)
        decided = self.decided
        if decided:
            marks = self._decided_marks
            if self._decided_of is not decided:          # a new roll's (or a restored) list: worked out once
                marks = self._decided_marks = self._marks_of(decided)
                self._decided_of = decided
            for i in marks:                              # each lit zone once (50 bets decided: a few zones)
                frame[i] = marks[i]
        if self.thrown and not self.no_roll:
            d1 = throws.face(self.throw_a, 0)
            if d1 == throws.face(self.throw_a, 1) and d1 * 2 in B.HARD_NUMBERS:
                self._frame_light(frame, "hard_%d" % (d1 * 2), pixels.GOLD)   # the hard way hit (art. 5(4)(1))
        if engine.point:
            self._frame_light(frame, "point_%d" % engine.point, pixels.GOLD)  # the puck ON its point
        for refusal in self.refusals:                    # a refused placement or take-down
            kind, number = KIND_NUMBER[refusal[1]]
            self._frame_light(frame, B.zone_name(kind, number), pixels.RED)
        for i in range(zones):
            colour = frame[i]
            if shown[i] is not colour:                   # ZoneLights.set's own test, without its call
                lights.set(i, colour)
