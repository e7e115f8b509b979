# Bet-zone and seat lights of the Baccarat table (a part of BaccaratTable: zone colours only).
#
# Bets open: zones white, seats with chips blue (read, or left standing by a tie: art. 11). Dealing: zones dimmed. Result:
# the winning zones (winner, pairs) green (gold in a demo round), the others
# off; seats green (net > 0), white (push) or off (net < 0). A void round:
# every zone white (bets returned). Alarms are the table core's red.
#
# Each zone's colour is set once per render (the zones no rule lights, other_light, off): not the
# whole strip set off first and then the lit zones again (a set() per zone twice over, on the last
# card's pass). A result's colours go into a frame of every zone, set in one ZoneLights.set_frame().
from firmware.drivers import pixels
from firmware.games.baccarat.payouts import ZONES

# copies of firmware.games.baccarat.rules (tests/host/test_const_copies.py)
_BANKER = const(1)
_PLAYER = const(0)
_TIE = const(2)
# copies of firmware.games.baccarat.codes (tests/host/test_const_copies.py)
_DEALING = const(6)
_SHOE_CLOSED = const(7)


class BaccaratLights:
    def __init__(self, lights):
        self.zone_light = [lights.index(zone) for zone in ZONES]
        self.seat_light = [lights.index("seat%d" % seat) for seat in range(1, self.seats + 1)]
        self.other_light = [i for i in range(len(lights.names))       # zones no rule lights: off
                            if i not in self.zone_light and i not in self.seat_light]
        # The result's frame: a colour per zone, filled and then set in one ZoneLights.set_frame() call
        # (a set() call a zone, a dozen at a result, was a third of the render); other_light stay off.
        self._frame = [pixels.OFF] * len(lights.names)
        # The five zones' places in it when the layout has them all (every board's): the result fills them
        # in five statements, not a loop deciding each zone's hit (a layout without one takes the loop).
        self._zone_slots = tuple(self.zone_light) if min(self.zone_light) >= 0 else None

    def _render_lights(self):
        if self.showing_result:
            self._result_lights()
            return
        lights = self.lights
        for i in self.other_light:
            lights.set(i, pixels.OFF)
        colour = pixels.DIM if self.state == _DEALING else pixels.WHITE
        if self.state == _SHOE_CLOSED:
            colour = pixels.DIM
        for i in self.zone_light:
            if i >= 0:
                lights.set(i, colour)
        bets = self.round_bets if self.state == _DEALING else None
        for seat in range(self.seats):
            i = self.seat_light[seat]
            if i >= 0:
                lights.set(i, pixels.BLUE if self._seat_has_chips(seat, bets) else pixels.OFF)

    def _seat_has_chips(self, seat, amounts):
        width = len(ZONES)
        if amounts is None:
            if self.tie_kept and (self.tie_stakes[seat * 2] or self.tie_stakes[seat * 2 + 1]):
                return True                         # stakes a tie left for this round (art. 11)
            if not self.bets_ready:
                return False
            amounts = self.reading.amounts
        for z in range(width):
            if amounts[seat * width + z]:
                return True
        return False

    def _result_lights(self):
        # Every zone's colour into the frame (colours and zone numbers as locals, each seat's zones in one
        # range), then one set_frame(): off is the frame's background (most zones at a result).
        frame = self._frame
        off = pixels.OFF
        record = self.record
        win = pixels.GOLD if record.demo else pixels.GREEN
        zone_light = self.zone_light
        if record.void:
            white = pixels.WHITE
            for i in zone_light:
                if i >= 0:
                    frame[i] = white
            self._seats_off()
            return
        result = record.result
        winner = result.winner
        if self._zone_slots is not None:
            player, banker, tie, player_pair, banker_pair = self._zone_slots     # (ZONES' order)
            frame[player] = win if winner == _PLAYER else off
            frame[banker] = win if winner == _BANKER else off
            frame[tie] = win if winner == _TIE else off
            frame[player_pair] = win if result.player_pair else off
            frame[banker_pair] = win if result.banker_pair else off
        else:
            for z in range(len(zone_light)):
                i = zone_light[z]
                if i >= 0:
                    hit = winner == z if z <= _TIE else (result.player_pair if z == 3 else result.banker_pair)
                    frame[i] = win if hit else off
        if not self.has_bets:
            self._seats_off()
            return
        # Each seat's nets from the round's bet slots (14 of 35 in the bench's round), a seat's slots
        # ending at seat_slot_ends[seat] (found with them): no zone of a seat without a bet is visited.
        if self.slots_round is not self.hand:
            self._find_slots()                      # a restored table: round_bets walked once
        slots = self.bet_slots
        ends = self.seat_slot_ends
        j = 0
        nets = self.nets
        seat_light = self.seat_light
        white = pixels.WHITE
        for seat in range(self.seats):
            end = ends[seat]
            i = seat_light[seat]
            if j == end:                            # no chips
                colour = off
            else:
                net = 0
                while j < end:
                    net += nets[slots[j]]
                    j += 1
                colour = win if net > 0 else (white if net == 0 else off)
            if i >= 0:
                frame[i] = colour
        self.lights.set_frame(frame, off)

    def _seats_off(self):
        """The result's frame with every seat off, set."""
        frame = self._frame
        off = pixels.OFF
        for i in self.seat_light:
            if i >= 0:
                frame[i] = off
        self.lights.set_frame(frame, off)
