# Emulated bettors at a simulated Baccarat table: what the bet reader sees on the layout before a round.
#
# Bettors(seats, rng).reading() is one reading, {seat: {zone: amount}}, ready
# for hostsim.table_io.TableIO.bets(): random but always legal, so a fair run
# of the simulator raises no bet-reader fault (docs/protocol.md, "Bet reader"):
# - seats are 1..seats, the seat1..seatN zones of the board's baccarat layout;
# - zones are the Baccarat bets of art. 12 (payouts.ZONES), each once per seat;
#   a seat backs Banker or Player, not both (a bettor's choice, not a rule:
#   art. 13 lets the house accept unbalanced stakes up to the table limit);
# - amounts are whole multiples of UNIT from MIN_STAKE to MAX_STAKE in the
#   table's unit, far inside the reader's 1..999 999 999.
# Seeded with a random.Random, so a seed replays the same bets.
import random

from firmware.games.baccarat.payouts import ZONES

UNIT = 10                 # the smallest chip, in the table's unit
MIN_STAKE = UNIT
MAX_STAKE = 500
SEATED = 0.6              # chance that a seat has chips on it this round
SIDE_BET = 0.25           # chance of each of tie, player_pair, banker_pair on a seat that plays
MAIN_ZONES = ("banker", "player")
SIDE_ZONES = ("tie", "player_pair", "banker_pair")


class Bettors:
    """The bettors on seats 1..seats of one table; reading() places the next round's chips."""

    def __init__(self, seats, rng=None, seated=SEATED, side_bet=SIDE_BET):
        if not isinstance(seats, int) or seats < 0:
            raise ValueError("seats must be a whole number >= 0, got %r" % (seats,))
        self.seats = seats
        self.rng = rng if rng is not None else random.Random()
        self.seated = seated
        self.side_bet = side_bet
        self.readings = 0

    def stake(self):
        """One bet: a multiple of UNIT from MIN_STAKE to MAX_STAKE."""
        return UNIT * self.rng.randint(MIN_STAKE // UNIT, MAX_STAKE // UNIT)

    def seat_bets(self):
        """The chips of one seat that plays: one of Banker/Player, or side bets only, or both; never empty."""
        rng = self.rng
        bets = {}
        if rng.random() < 0.9:
            bets[rng.choice(MAIN_ZONES)] = self.stake()
        for zone in SIDE_ZONES:
            if rng.random() < self.side_bet:
                bets[zone] = self.stake()
        if not bets:
            bets[rng.choice(ZONES)] = self.stake()
        return dict((zone, bets[zone]) for zone in ZONES if zone in bets)     # the layout's order

    def reading(self):
        """{seat: {zone: amount}} of the seats with chips (seats with none are left out)."""
        self.readings += 1
        out = {}
        for seat in range(1, self.seats + 1):
            if self.rng.random() < self.seated:
                out[seat] = self.seat_bets()
        return out
