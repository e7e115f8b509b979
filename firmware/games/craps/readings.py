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
# it changes nothing. A reading's reports must fit the host link's room for them: the room the store has
# now (table.link_room, firmware.main's before each reading), at most codes.READING_FRAMES. It places and
# takes down at most the bets that room carries, codes.READING_BETS_MOST when there is room (the rest
# refused), and its take-downs and refusals past the first few reported one by one are summed up in one
# report each; with no room for one bet it is refused whole in one short report (OUT_BETS_NO_ROOM). The
# controller's fields used here are made in its __init__.
from firmware.errors import RuleError
from firmware.games.craps import bets as B
from firmware.games.craps import rules
from firmware.games.craps.zones import KIND_NUMBER, ZONES

# copies of firmware.bets (tests/host/test_const_copies.py)
_TAKE_DOWN = const(-1)
# copies of firmware.games.craps.codes (tests/host/test_const_copies.py)
_OUT_BETS = const(33)
_OUT_BETS_NO_ROOM = const(43)
_OUT_BET_DOWN = const(40)
_OUT_BET_DOWN_MORE = const(42)
_OUT_BET_REFUSED = const(34)
_OUT_BET_REFUSED_MORE = const(41)
_READING_BETS_MOST = const(144)
_READING_FRAMES = const(56)
_REFUSALS_ITEMIZED = const(8)
_TAKE_DOWNS_ITEMIZED = const(8)
# copies of firmware.table_codes (tests/host/test_const_copies.py)
_FAULTED = const(2)

NO_BET = -1                  # no zone: a bet the readings did not place (bet_zone's default)
_WIDTH = len(ZONES)          # zones a seat: a reading's and placed's rows

# A reading's reports in the host link's frames, worst cases (codes.READING_FRAMES): what its money takes
# (14 frames and 36 bytes an entry placed or taken down), an itemized take-down, an itemized refusal.
_MONEY_FRAMES = const(14)
_ENTRY_BYTES = const(36)
_PIECE = const(128)          # firmware.startup HOST_PIECE
_DOWN_FRAMES = const(2)
_REFUSED_FRAMES = const(3)
# Kept free by a reading for the next one's refusal whole (OUT_BETS_NO_ROOM: 2 frames at most) and a state
# report (the first reading opens the table): a reading that comes before the host acknowledged the last
# one is still reported.
_WHOLE_FRAMES = const(3)
FULL_REASON = "over the %d bets one reading may place and take down (what its host reports carry)" % _READING_BETS_MOST
ROOM_REASON = "over the bets the host link's room carries now (the host has not acknowledged the last reports)"


class Readings:
    def _bets(self, reading_id):
        if self.reading is None or reading_id != self.reading.reading_id:
            return                                       # overtaken by a newer reading in the same pass
        frames = self._room_frames()
        most = (frames - _MONEY_FRAMES) * _PIECE // _ENTRY_BYTES - 1     # (a take-down's odds: a row more)
        if most < 1:
            return self._refuse_whole(reading_id)
        self.bets_unread = False                         # accepted (a refused bet or more is on REFUSED n)
        if most >= _READING_BETS_MOST:
            most = _READING_BETS_MOST
            self.full_reason = FULL_REASON
        else:
            self.full_reason = ROOM_REASON
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
                if amounts[i] == _TAKE_DOWN:
                    self._take_down(i // _WIDTH, i % _WIDTH, pending, most)
        self._place_all(chips, amounts, slots, most - len(self.downs))
        self._emit(_OUT_BETS, reading_id, len(self.refusals))
        downs = len(self.downs)
        refused = len(self.refusals)
        itemized_downs, itemized_refused = self._itemized(downs, refused, frames)
        if itemized_downs:                               # one outbox entry each, for all of them (REPORT_RUNS)
            self._emit(_OUT_BET_DOWN, 0, itemized_downs)
        if downs > itemized_downs:                       # the rest, with their stakes, in one report
            self._emit(_OUT_BET_DOWN_MORE, reading_id, downs - itemized_downs)
        if itemized_refused:
            self._emit(_OUT_BET_REFUSED, 0, itemized_refused)
        if refused > itemized_refused:                   # the rest counted in one report
            self._emit(_OUT_BET_REFUSED_MORE, reading_id, refused - itemized_refused)
        self.display_dirty = True
        if self.state != _FAULTED:                       # an alarm's red stays until it is closed
            self._render_lights()

    def _room_frames(self):
        """The frames this reading's reports may take: the host link's room now (link_room) less
        _WHOLE_FRAMES kept for the next reading, at most codes.READING_FRAMES (unknown: READING_FRAMES)."""
        room = self.link_room
        if room < 0:
            return _READING_FRAMES
        room -= _WHOLE_FRAMES
        return room if room < _READING_FRAMES else _READING_FRAMES

    def _refuse_whole(self, reading_id):
        """No room for the reports of one bet: the reading is refused whole, in one short report. Nothing
        of it is placed or taken down; the reading it would have replaced stands (as after a reading the
        bet reader's driver refused, BETS_FAULT), and the dealer display says BETS NOT READ (bets_unread)
        until a reading is accepted or the dice roll."""
        slots = self.seats * _WIDTH
        n = 0
        for i in self.reading.slots():
            if i < slots:
                n += 1
        self._emit(_OUT_BETS_NO_ROOM, reading_id, n)
        self.bets_unread = True                          # the dealer's BETS NOT READ until one is accepted
        self.display_dirty = True

    def _itemized(self, downs, refused, frames):
        """How many of the reading's take-downs and refusals are reported one by one: up to
        TAKE_DOWNS_ITEMIZED and REFUSALS_ITEMIZED, as many as the link's room for the reading
        (frames: _room_frames) holds past its money, the bets placed and taken down (worst cases)."""
        entries = len(self.placed) + downs
        left = frames - _MONEY_FRAMES - (entries * _ENTRY_BYTES + _PIECE - 1) // _PIECE
        if left < 0:                                     # (never: the reading's most is bounded by frames)
            left = 0
        itemized_downs = min(downs, _TAKE_DOWNS_ITEMIZED, left // _DOWN_FRAMES)
        left -= itemized_downs * _DOWN_FRAMES
        return itemized_downs, min(refused, _REFUSALS_ITEMIZED, left // _REFUSED_FRAMES)

    def _place_all(self, chips, amounts, slots, most):
        """The reading's chips on those slots (seat * zones + zone, below slots) placed through the
        engine in slot order, or refused; at most `most` of them placed (the room's, at most
        codes.READING_BETS_MOST), the rest refused: with the rules' reason where they refuse it, else
        full_reason (FULL_REASON, ROOM_REASON). The engine places them a run at a time (place_reading:
        each bet's rule checks as place_known makes them, the settings read once a reading), up to an
        odds bet or the most: the line bet odds back is found here (its zone's kind and number come from
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
                               refusals, most)
            if at >= n:
                return
            slot = chips[at]                             # odds, or a bet past the most the rules would take
            at += 1
            amount = amounts[slot]
            seat = slot // _WIDTH
            z = slot - seat * _WIDTH
            kind, number = KIND_NUMBER[z]
            if not B.is_odds(kind):                      # past the most (the rules' refusals: place_reading's)
                refusals.append((seat, z, amount, self.full_reason, False))
                continue
            on = self._backed(seat, kind, number)
            if on is None:
                refusals.append((seat, z, amount, "%s: no %s bet of this seat with a point%s to back (art. 5(2))"
                                 % (ZONES[z], B.KIND_NAMES[B.odds_parent_kind(kind)],
                                    (" on %d" % number) if number else ""), False))
                continue
            try:
                if len(placed) >= most:                  # past the most: the rules' reason first
                    bet_id, reason = None, engine.refusal(seat, kind, amount, 0, on) or self.full_reason
                else:
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

    def _take_down(self, seat, z, pending, most):
        """The chips on the seat's zone were taken off: its bets in play there come down through the
        engine (with any odds behind them), or stay with the engine's reason; past `most` rows taken
        down (the reading's reports are full) the engine's reason first, else full_reason."""
        slot = seat * len(ZONES) + z
        if slot in self.down_slots:
            return                                       # a newer reading repeats a take-down already done
        mine = [b for b in self.engine.bets if b.seat == seat and self.bet_zone.get(b.bet_id, NO_BET) == z]
        if not mine:
            if slot not in pending:                      # a pending bet there just came down with its reading
                self.refusals.append((seat, z, 0, "%s: no bet of this seat there to take down" % ZONES[z], True))
            return
        if len(self.downs) >= most:                      # its host reports are full
            stays = 0                                    # the stake the rules would let come down
            for bet in mine:
                reason = self.engine.down_refusal(bet)
                if reason is None:
                    stays += bet.amount
                else:
                    self.refusals.append((seat, z, bet.amount, reason, True))
            if stays:
                self.refusals.append((seat, z, stays, self.full_reason, True))
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
