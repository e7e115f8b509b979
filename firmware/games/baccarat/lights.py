# Bet-zone and seat lights of the Baccarat table (a part of BaccaratTable: zone colours only).
#
# Bets open: zones white, seats with chips blue. Dealing: zones dimmed. Result:
# the winning zones (winner, pairs) green (gold in a demo round), the others
# off; seats green (net > 0), white (push) or off (net < 0). A void round:
# every zone white (bets returned). Alarms are the table core's red.
from firmware.drivers import pixels
from firmware.games.baccarat import rules
from firmware.games.baccarat.codes import DEALING, SHOE_CLOSED


class BaccaratLights:
    def _render_lights(self):
        if self.showing_result:
            self._result_lights()
            return
        lights = self.lights
        lights.set_all(pixels.OFF)
        colour = pixels.DIM if self.state == DEALING else pixels.WHITE
        if self.state == SHOE_CLOSED:
            colour = pixels.DIM
        for i in self.zone_light:
            if i >= 0:
                lights.set(i, colour)
        bets = self.round_bets if self.state == DEALING else None
        for seat in range(self.seats):
            if self.seat_light[seat] >= 0 and self._seat_has_chips(seat, bets):
                lights.set(self.seat_light[seat], pixels.BLUE)

    def _seat_has_chips(self, seat, amounts):
        width = len(rules.ZONES)
        if amounts is None:
            if not self.bets_ready:
                return False
            amounts = self.reading.amounts
        for z in range(width):
            if amounts[seat * width + z]:
                return True
        return False

    def _result_lights(self):
        lights = self.lights
        lights.set_all(pixels.OFF)
        record = self.record
        win = pixels.GOLD if record.demo else pixels.GREEN
        if record.void:
            for i in self.zone_light:
                if i >= 0:
                    lights.set(i, pixels.WHITE)
            return
        result = record.result
        hits = (result.winner == rules.PLAYER, result.winner == rules.BANKER, result.winner == rules.TIE,
                result.player_pair, result.banker_pair)
        for z in range(len(hits)):
            i = self.zone_light[z]
            if i >= 0:
                lights.set(i, win if hits[z] else pixels.OFF)
        if not self.has_bets:
            return
        width = len(rules.ZONES)
        for seat in range(self.seats):
            i = self.seat_light[seat]
            if i < 0 or not self._seat_has_chips(seat, self.round_bets):
                continue
            net = 0
            for z in range(width):
                net += self.nets[seat * width + z]
            lights.set(i, win if net > 0 else (pixels.WHITE if net == 0 else pixels.OFF))
