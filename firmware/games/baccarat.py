# Baccarat (万家乐) round engine: values, dealing order, art. 9 draws, outcome, pairs, payouts.
#
# Pure logic after the Macau regulation of 2007-07-03 (RULES.md, "Baccarat").
# The caller feeds one card at a time (Round.deal) and asks which hand the next
# card belongs to (Round.expected); settle() turns a result and the bets into
# integer net amounts per zone. Shoe procedure: baccarat_shoe.py; roads:
# baccarat_roads.py. Hands are small ints (PLAYER, BANKER), cards are
# firmware.cards ints (rank_index * 4 + suit).
from collections import namedtuple

from firmware.compat import const
from firmware.errors import RuleError, SettingsError

PLAYER = const(0)
BANKER = const(1)
TIE = const(2)
NONE = const(-1)  # "no hand may draw": the round is complete

HAND_NAMES = ("player", "banker", "tie")

# Art. 5: point value by rank index (0 = deuce .. 12 = ace): tens and pictures
# count 0, the ace 1, the others their face value.
VALUES = bytes((2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0, 1))

# Bet zones (art. 12) in the order every report lists them.
ZONES = ("player", "banker", "tie", "player_pair", "banker_pair")

# --- table settings (art. 18: regulated options, validated at load) ----------

# (name, allowed values, article). Order matters for messages and reports.
SETTINGS_SPEC = (
    ("method", (1, 2), "art. 9"),
    ("commission", ("A", "B"), "art. 17"),
    ("tie_option", ("returned", "standing", "changeable"), "art. 11"),
    ("decks", (6, 7, 8, 9, 10, 11, 12), "art. 1"),
    ("burn", ("decks", "first_card", "first_card_points"), "art. 2(1)"),
    ("cut_card", ("last_round", "one_more"), "art. 3(1)"),
    ("demo_rounds", (0, 1, 2, 3), "art. 2(2)"),
    ("dealer", ("shoe", "auto_shuffler"), "arts. 2(3), 7(2)"),
)
ROUND_SETTINGS = ("method", "commission", "tie_option")
SETTING_NAMES = tuple(spec[0] for spec in SETTINGS_SPEC)


class Settings:
    """Validated Baccarat table settings; build with load_settings()."""

    def __init__(self, values):
        for name, value in values:
            setattr(self, name, value)

    def as_list(self):
        out = []
        for name in SETTING_NAMES:
            if hasattr(self, name):
                out.append((name, getattr(self, name)))
        return out


def _check_setting(name, value):
    for spec_name, allowed, article in SETTINGS_SPEC:
        if spec_name != name:
            continue
        # bool is an int subclass: True must not pass as method 1.
        ok = type(value) is type(allowed[0]) and value in allowed
        if not ok:
            raise SettingsError("setting %r = %r not allowed: expected one of %s (Baccarat %s)"
                                % (name, value, ", ".join(repr(a) for a in allowed), article))
        return value
    raise SettingsError("unknown Baccarat setting %r: expected %s" % (name, ", ".join(SETTING_NAMES)))


def load_settings(values, required=SETTING_NAMES):
    """Dict of settings -> Settings. Every name in `required` must be present:
    regulated options are never silently defaulted (art. 18)."""
    if not isinstance(values, dict):
        raise SettingsError("Baccarat settings must be a dict of name -> value")
    checked = []
    for name in values:
        checked.append((name, _check_setting(name, values[name])))
    for name in required:
        if name not in values:
            raise SettingsError("Baccarat setting %r missing: it is a regulated option and has no default"
                                % (name,))
    return Settings(checked)


def round_settings(method, commission, tie_option="returned"):
    """Settings for one round only (judge, odds): method, commission, tie option."""
    return load_settings({"method": method, "commission": commission, "tie_option": tie_option},
                         ROUND_SETTINGS)


# --- art. 5 values, art. 9 draws ----------------------------------------------

def value(card):
    """Art. 5: point value of a card int."""
    return VALUES[card >> 2]


def total(cards):
    """Art. 5: hand total = sum of point values modulo 10."""
    t = 0
    for c in cards:
        t += VALUES[c >> 2]
    return t % 10


def first_drawer(player_two, banker_two):
    """Art. 9, both methods, on the two-card totals: NONE if either is a natural
    (9(1), 8 or 9: decided), PLAYER if equal (9(2): both draw, Player first),
    otherwise the lower hand (9(3): the lower draws first)."""
    if player_two >= 8 or banker_two >= 8:
        return NONE
    if player_two <= banker_two:
        return PLAYER
    return BANKER


def other_draws(method, player_two, banker_two, drawer_total):
    """Art. 9 after the first drawer's third card (total now drawer_total):
    does the other hand draw too?"""
    if player_two == banker_two:
        return True  # 9(2): both draw
    other = banker_two if player_two < banker_two else player_two
    if drawer_total < other:
        return False  # 9(3)(i) both methods: still lower, the other wins standing
    if drawer_total == other:
        return method == 1  # Method 1 9(3)(ii) ">= -> other draws"; Method 2 9(3)(ii) tie
    return True  # Method 1 (ii) / Method 2 (iii): greater -> the other must draw


def winner_of(player_total, banker_total):
    """Arts. 9(1)-(3): the higher final total wins, equal is a tie."""
    if player_total > banker_total:
        return PLAYER
    if banker_total > player_total:
        return BANKER
    return TIE


def is_pair(first, second):
    """Art. 12: same rank, whatever the suit (J+J yes, J+Q no)."""
    return (first >> 2) == (second >> 2)


Result = namedtuple("Result", ("winner", "player_total", "banker_total", "player_pair",
                               "banker_pair", "player_cards", "banker_cards", "cards_used"))


class Round:
    """One round, fed card by card in dealing order (art. 7: P, B, P, B, then art. 9)."""

    def __init__(self, settings):
        self.method = settings.method
        self.settings = settings
        self.player = []
        self.banker = []
        self.order = []  # hand of each card in dealing order
        self.face_up = 0  # art. 4: face-up cards stay valid; counted for the log
        self._two = (0, 0)
        self._next = PLAYER

    def expected(self):
        """Hand due the next card: PLAYER, BANKER, or NONE when the round is complete."""
        return self._next

    @property
    def complete(self):
        return self._next == NONE

    def _advance(self):
        n = len(self.order)
        if n < 4:
            self._next = PLAYER if n % 2 == 0 else BANKER  # art. 7(1)
            return
        if n == 4:
            self._two = (total(self.player), total(self.banker))
            self._next = first_drawer(self._two[0], self._two[1])
            return
        if n == 5:
            drawer = self.order[4]
            hand = self.player if drawer == PLAYER else self.banker
            if other_draws(self.method, self._two[0], self._two[1], total(hand)):
                self._next = BANKER if drawer == PLAYER else PLAYER
            else:
                self._next = NONE
            return
        self._next = NONE  # art. 9(1): at most one third card each

    def deal(self, card, hand=None, face_up=False):
        """Give the next card to the hand that is due. `hand`, if the table
        senses where the card was placed, must match expected(), else RuleError
        (a dealing error, art. 10: the caller corrects or voids)."""
        due = self._next
        if due == NONE:
            raise RuleError("round complete: no hand may draw another card (Baccarat art. 9(1))")
        if hand is not None and hand != due:
            raise RuleError("dealing error: the next card is due to %s, not %s (Baccarat arts. 7, 9, 10)"
                            % (HAND_NAMES[due], HAND_NAMES[hand] if hand in (0, 1) else hand))
        if due == PLAYER:
            self.player.append(card)
        else:
            self.banker.append(card)
        self.order.append(due)
        if face_up:
            self.face_up += 1
        self._advance()
        return due

    def totals(self):
        return total(self.player), total(self.banker)

    def result(self):
        if self._next != NONE:
            raise RuleError("round not complete: the next card is due to %s" % HAND_NAMES[self._next])
        pt, bt = self.totals()
        return Result(winner_of(pt, bt), pt, bt,
                      is_pair(self.player[0], self.player[1]),
                      is_pair(self.banker[0], self.banker[1]),
                      tuple(self.player), tuple(self.banker), len(self.order))


def play(settings, cards):
    """Whole round from a dealing sequence (extra cards ignored) -> Result."""
    rnd = Round(settings)
    for card in cards:
        if rnd.complete:
            break
        rnd.deal(card)
    if not rnd.complete:
        raise RuleError("need more cards: %d given, the %s hand is due another card (Baccarat art. 9)"
                        % (len(rnd.order), HAND_NAMES[rnd.expected()]))
    return rnd.result()


# --- art. 16 payouts, art. 17 commission, art. 11 ties -----------------------

def tie_odds(method):
    """Art. 16: Tie pays 14:1 under Method 1, 9:1 under Method 2."""
    return 14 if method == 1 else 9


PAIR_ODDS = const(11)  # art. 16: each Pair pays 11:1


def commission(option, winning_total, win):
    """Art. 17 on a Banker/Player win of `win` units. Option A: 5% when the
    winning total is 7, 8 or 9; option B: 50% when it is 4. Rounding: the
    commission is rounded DOWN to a whole unit (the fraction goes to the player)."""
    if option == "A":
        if winning_total >= 7:
            return win * 5 // 100
        return 0
    if winning_total == 4:
        return win // 2
    return 0


def _amount(zone, amount):
    if type(amount) is not int or amount < 0:
        raise RuleError("bet on %s must be a whole number of units >= 0, got %r" % (zone, amount))
    return amount


def settle_zone(settings, result, zone, amount):
    """Net of one bet on one zone given a Result -> (net, status).
    status: "win", "lose", or for Banker/Player on a tie the art. 11 option."""
    amount = _amount(zone, amount)
    winner = result.winner
    if zone == "player" or zone == "banker":
        side = PLAYER if zone == "player" else BANKER
        if winner == TIE:
            return 0, settings.tie_option  # art. 11: not lost; returned / standing / changeable
        if winner != side:
            return -amount, "lose"
        won_total = result.player_total if side == PLAYER else result.banker_total
        return amount - commission(settings.commission, won_total, amount), "win"
    if zone == "tie":
        if winner == TIE:
            return amount * tie_odds(settings.method), "win"
        return -amount, "lose"
    if zone == "player_pair" or zone == "banker_pair":
        hit = result.player_pair if zone == "player_pair" else result.banker_pair
        if hit:
            return amount * PAIR_ODDS, "win"
        return -amount, "lose"
    raise RuleError("unknown bet zone %r: expected one of %s" % (zone, ", ".join(ZONES)))


def settle(settings, result, bets):
    """bets: list of (zone, amount) -> list of (zone, net, status), same order."""
    out = []
    for zone, amount in bets:
        net, status = settle_zone(settings, result, zone, amount)
        out.append((zone, net, status))
    return out


def settle_void(bets):
    """Art. 10: a void round returns every bet."""
    out = []
    for zone, amount in bets:
        if zone not in ZONES:
            raise RuleError("unknown bet zone %r: expected one of %s" % (zone, ", ".join(ZONES)))
        _amount(zone, amount)
        out.append((zone, 0, "void"))
    return out
