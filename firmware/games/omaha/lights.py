# Seat, button and pot lights of the Omaha table (a part of OmahaTable: zone colours only).
#
# In a hand: the seat to act white, the other seats still in blue, all-in
# seats gold, folded seats dimmed; the button lit white, the pot green once it
# holds chips. Result: the winners of any pot green, the others of the hand off
# (a void hand: every seat of the hand white, bets returned). Between hands:
# seats that will be dealt in dimmed. Alarms are the table core's red.
from firmware.drivers import pixels
from firmware.games.omaha import rules

# copies of firmware.games.omaha.codes (tests/host/test_const_copies.py)
_NO_SEAT = const(0)

ZONES = ("button", "pot")          # the layout's lights besides its seats (seat1, seat2, ...)


class OmahaLights:
    def __init__(self, lights):
        self.seat_light = bytearray(self.seats + 1)     # zone index + 1 per seat (0: no light there)
        for seat in range(1, self.seats + 1):
            self.seat_light[seat] = lights.index("seat%d" % seat) + 1
        self.button_light = lights.index("button")
        self.pot_light = lights.index("pot")

    def _seat_colour(self, seat, colour):
        i = self.seat_light[seat] if 0 < seat <= self.seats else 0
        if i:
            self.lights.set(i - 1, colour)

    def _zone(self, i, colour):
        if i >= 0:
            self.lights.set(i, colour)

    def _render_lights(self):
        self.lights.set_all(pixels.OFF)
        hand = self.hand
        if hand is None or (not self.hand_runs() and not self.showing_result):
            for seat in range(1, self.seats + 1):
                if self.playing(seat):
                    self._seat_colour(seat, pixels.DIM)
            if self.next_button_seat != _NO_SEAT:
                self._zone(self.button_light, pixels.WHITE)
            return
        self._zone(self.button_light, pixels.WHITE)
        if self.showing_result:
            self._result_lights(hand)
            return
        kind, to_act = hand.expected()
        stack = hand.stack
        for i in range(hand.n):
            seat = hand.seats[i]
            if hand.folded[i]:
                colour = pixels.DIM
            elif stack[i] == 0:
                colour = pixels.GOLD
            elif kind == rules.EXPECT_ACTION and seat == to_act:
                colour = pixels.WHITE
            else:
                colour = pixels.BLUE
            self._seat_colour(seat, colour)
        if hand.pot_total():
            self._zone(self.pot_light, pixels.GREEN)

    def _result_lights(self, hand):
        result = self.result
        if result.void:
            for seat in hand.seats:
                self._seat_colour(seat, pixels.WHITE)
            return
        for pot in result.pots:
            for seat in pot.winners:
                self._seat_colour(seat, pixels.GREEN)
        self._zone(self.pot_light, pixels.GREEN)
