# Bet readings at the Craps table (a part of CrapsController): each reading's bets placed through
# the engine, or refused; its take-downs; a newer reading before the throw replacing the last.
#
# A bet reading lists the bets placed since the last throw, per seat and zone (zones.ZONES); a
# newer reading before the throw replaces it (its bets are taken down first: none has stood through
# a roll). Each bet is placed through the engine; a refusal (closed phase, uneven stake, over the
# limit, no line bet to back) is reported with the engine's reason and lit, never played. A
# take-down in a reading (the reader's "zone=-", bets.TAKE_DOWN) returns the seat's bets in play on
# that zone through the engine, if the table's take_down setting and the rules allow it (never
# Pass/Come with a point, art. 5(2)(1)); it is final, so a newer reading before the throw repeating
# it changes nothing. The controller's fields used here are made in its __init__.
from firmware.bets import TAKE_DOWN
from firmware.errors import RuleError
from firmware.games.craps import bets as B
from firmware.games.craps import rules
from firmware.games.craps.codes import (OUT_BET_DOWN, OUT_BET_DOWN_MORE, OUT_BET_REFUSED, OUT_BET_REFUSED_MORE, OUT_BETS,
                                        REFUSALS_ITEMIZED, TAKE_DOWNS_ITEMIZED)
from firmware.games.craps.zones import KIND_NUMBER, ZONES
from firmware.table import FAULTED

NO_BET = -1                  # no zone: a bet the readings did not place (bet_zone's default)
_WIDTH = len(ZONES)          # zones a seat: a reading's and placed's rows


class Readings:
    def _bets(self, reading_id):
        if self.reading is None or reading_id != self.reading.reading_id:
            return                                       # overtaken by a newer reading in the same pass
        pending = self._take_down_pending()
        self.placed_slots = []
        self.placed = []
        self.refusals = []
        self.downs = []
        amounts = self.reading.amounts
        slots = self.seats * _WIDTH                      # the reader's seats past the engine's: not read
        chips = self.reading.slots()                     # the slots with chips or a take-down, in order
        if self.reading.may_take_down():                 # (a reading told to hold none: not looked at)
            for i in chips:                              # chips taken off before chips put down
                if i >= slots:
                    break
                if amounts[i] == TAKE_DOWN:
                    self._take_down(i // _WIDTH, i % _WIDTH, pending)
        self._place_all(chips, amounts, slots)
        self._emit(OUT_BETS, reading_id, len(self.refusals))
        downs = len(self.downs)
        if downs:                                        # one outbox entry each, for all of them (REPORT_RUNS)
            self._emit(OUT_BET_DOWN, 0, min(downs, TAKE_DOWNS_ITEMIZED))
        if downs > TAKE_DOWNS_ITEMIZED:                  # the rest, with their stakes, in one report
            self._emit(OUT_BET_DOWN_MORE, reading_id, downs - TAKE_DOWNS_ITEMIZED)
        refused = len(self.refusals)
        if refused:
            self._emit(OUT_BET_REFUSED, 0, min(refused, REFUSALS_ITEMIZED))
        if refused > REFUSALS_ITEMIZED:                  # the rest counted in one report (codes.REFUSALS_ITEMIZED)
            self._emit(OUT_BET_REFUSED_MORE, reading_id, refused - REFUSALS_ITEMIZED)
        self.display_dirty = True
        if self.state != FAULTED:                        # an alarm's red stays until it is closed
            self._render_lights()

    def _place_all(self, chips, amounts, slots):
        """The reading's chips on those slots (seat * zones + zone, below slots) placed through the
        engine in slot order, or refused. The engine places them a run at a time (place_reading:
        each bet's rule checks as place_known makes them, the settings read once a reading), up to
        an odds bet: the line bet it backs is found here (its zone's kind and number come from
        zones.KIND_NUMBER, so the call's form is known good)."""
        engine = self.engine
        place_reading = engine.place_reading
        placed = self.placed
        placed_slots = self.placed_slots
        bet_zone = self.bet_zone
        refusals = self.refusals
        n = len(chips)
        at = 0
        while True:
            at = place_reading(chips, at, amounts, slots, _WIDTH, KIND_NUMBER, placed, placed_slots, bet_zone,
                               refusals)
            if at >= n:
                return
            slot = chips[at]                             # odds (below slots, with chips: place_reading's)
            at += 1
            amount = amounts[slot]
            seat = slot // _WIDTH
            z = slot - seat * _WIDTH
            kind, number = KIND_NUMBER[z]
            on = self._backed(seat, kind, number)
            if on is None:
                refusals.append((seat, z, amount, "%s: no %s bet of this seat with a point%s to back (art. 5(2))"
                                 % (ZONES[z], B.KIND_NAMES[B.odds_parent_kind(kind)],
                                    (" on %d" % number) if number else ""), False))
                continue
            try:
                bet_id, reason = engine.place_known(seat, kind, amount, 0, on)
            except RuleError as exc:                     # a bet the table cannot hold at all
                bet_id, reason = None, str(exc)
            if reason is not None:
                refusals.append((seat, z, amount, reason, False))
                continue
            placed.append(bet_id)
            placed_slots.append(slot)
            bet_zone[bet_id] = z

    def _backed(self, seat, kind, number):
        """The id of the seat's line bet these odds stand behind (come odds: the come point number)."""
        want = B.odds_parent_kind(kind)
        for bet in self.engine.bets:
            if bet.seat == seat and bet.kind == want and bet.number and (not number or bet.number == number):
                return bet.bet_id
        return None

    def _take_down_pending(self):
        """A newer reading replaces the one since the last throw: its bets come down (none has rolled).
        Returns the seat-zone slots that held one (the list placed_slots was: the caller starts a new one)."""
        slots = self.placed_slots
        placed = self.placed
        for k in range(len(slots)):
            down, _reason = self.engine.take_down(placed[k])     # odds came down with their line bet
            for r in down or ():
                self.bet_zone.pop(r[rules.BET_ID], None)
        return slots

    def _take_down(self, seat, z, pending):
        """The chips on the seat's zone were taken off: its bets in play there come down through the
        engine (with any odds behind them), or stay with the engine's reason."""
        slot = seat * len(ZONES) + z
        if slot in self.down_slots:
            return                                       # a newer reading repeats a take-down already done
        mine = [b for b in self.engine.bets if b.seat == seat and self.bet_zone.get(b.bet_id, NO_BET) == z]
        if not mine:
            if slot not in pending:                      # a pending bet there just came down with its reading
                self.refusals.append((seat, z, 0, "%s: no bet of this seat there to take down" % ZONES[z], True))
            return
        for bet in mine:
            if self.engine.find(bet.bet_id) is None:
                continue                                 # came down already, behind its line bet
            down, reason = self.engine.take_down(bet.bet_id)
            if reason is not None:
                self.refusals.append((seat, z, bet.amount, reason, True))
                continue
            for r in down:
                self._down(seat, self.bet_zone.pop(r[rules.BET_ID], z), r[rules.STAKE])

    def _down(self, seat, z, stake):
        slot = seat * len(ZONES) + z
        if slot not in self.down_slots:
            self.down_slots.append(slot)                 # odds that came down behind their line bet too
        for row in self.downs:
            if row[0] == seat and row[1] == z:
                row[2] += stake
                return
        self.downs.append([seat, z, stake])
