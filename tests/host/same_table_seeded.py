# Seeded play for tests/host/same_table_play.py: many rounds of random input, legal and refused, at each
# table, drawn from a generator that gives the same numbers on every runtime; with cuts, the board's power
# cut inside flash writes drawn at random (torn or not), the board booted again on the same flash each time.
from bench import table_vm as tv
from firmware import cards
from tests.host.same_table_rig import CutFS, Played, PowerCut, close_alarm, state, trailer


class Rand:
    """A linear congruential generator: the same numbers on every runtime (random's are not)."""

    def __init__(self, seed):
        self.state = seed

    def below(self, n):
        self.state = (self.state * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.state >> 8) % n

    def pick(self, items):
        return items[self.below(len(items))]

    def shuffled(self, items):
        items = list(items)
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
        return items


class Cuts:
    """Power cuts at flash writes drawn from r (none where not enabled): each step of the play runs through
    step(); a cut inside it (or inside the boot after one) boots the board again, as often as it takes."""

    def __init__(self, r, enabled):
        self.r = r
        self.enabled = enabled
        self.count = 0
        self.fs = None

    def next_fs(self):
        self.fs = CutFS(20 + self.r.below(300), self.r.below(2) == 1) if self.enabled else None
        return self.fs

    def step(self, p, act):
        try:
            act()
            close_alarm(p)
        except PowerCut:
            self.count += 1
            self._boot_again(p)

    def _boot_again(self, p):
        while True:
            try:
                p.power_cut(self.next_fs())
                close_alarm(p)                              # the reset's alarm: the dealer vouches
                return
            except PowerCut:
                self.count += 1

    def reports(self, p):
        """The play's end: no cut after it; the host's view, and how many cuts there were."""
        if self.fs is not None:
            self.fs.cut_after = None
        return p.reports() + (["cuts: %d" % self.count] if self.enabled else [])


def _played(game, r, cuts):
    c = Cuts(r, cuts)
    return Played(game, c.next_fs()), c


def baccarat_seeded(seed=11, rounds=60, cuts=False):
    """A shuffled 8-deck shoe: random readings (a zone the layout has not, now and then), each round dealt
    card by card until its result, noise on the shoe line now and then (closed by CONFIRM)."""
    r = Rand(seed)
    p, c = _played("baccarat", r, cuts)
    shoe = r.shuffled([rank + suit for rank in "23456789TJQKA" for suit in "cdhs"] * 8)

    def card(ms):
        p.t.card_frame(shoe.pop())
        p.t.passes(1, ms)

    c.step(p, lambda: p.t.shoe_frame("IN") or p.t.passes(3))
    for _ in range(8):                                      # art. 2(1): as many burned as decks
        c.step(p, lambda: card(100) or p.t.passes(4, 100))
    zones = ("player", "banker", "tie", "player_pair", "banker_pair", "player", "banker", "nowhere")
    for _ in range(rounds):
        reading = []
        for seat in range(1, 8):
            if r.below(3):
                bets = [(r.pick(zones), r.pick((5, 10, 25, 100, 250, 1)))]
                if bets[0][0] == "nowhere" and r.below(2):
                    bets = [("banker", 10)]
                reading.append((seat, bets))
        if reading:
            c.step(p, lambda: p.t.bet_reading(reading))
        if r.below(8) == 0:
            noise = r.pick((b"\x00\x13 static\n", b"S1 zz CARD\n", p.t.shoe("CARD", "Xx", "D") + b"\n"))
            c.step(p, lambda: p.raw(noise))
        dealt = 0
        while dealt < 6 and state(p.t) in ("betting", "dealing"):
            c.step(p, lambda: card(400))
            dealt += 1
            if dealt >= 4 and state(p.t) == "betting":
                break
    return c.reports(p)


def craps_seeded(seed=23, throws=250, cuts=False):
    """Random readings every few throws (any zone, stakes the table refuses too), random dice, a face 7 or
    noise on the dice line now and then (closed by CONFIRM)."""
    from firmware.games.craps.zones import ZONES
    r = Rand(seed)
    p, c = _played("craps", r, cuts)

    def throw(d1, d2):
        p.t.throw_frame(d1, d2)
        p.t.passes(3)

    for k in range(throws):
        if k % 4 == 0:
            reading = []
            for seat in range(1, 11):
                if r.below(3) == 0:
                    reading.append((seat, [(r.pick(ZONES), r.pick((5, 10, 15, 20, 30, 6, 3)))
                                           for _ in range(r.below(3) + 1)]))
            if reading:
                c.step(p, lambda: p.t.bet_reading(reading))
        if r.below(30) == 0:
            noise = r.pick((p.t.dice("THROW", "7", str(r.below(6) + 1)) + b"\n", b"D1 ?? THROW\n"))
            c.step(p, lambda: p.raw(noise))
        dice = (r.below(6) + 1, r.below(6) + 1)
        c.step(p, lambda: throw(*dice))
    return c.reports(p)


def omaha_seeded(seed=37, hands=10, cuts=False):
    """Six players keyed 500 each (again once broke), hands dealt from a shuffled deck, each action drawn at
    random: checks, bets, calls, folds, raises and all-ins, legal or refused (too small, over the pot)."""
    from firmware.games.omaha import rules
    r = Rand(seed)
    p, c = _played("omaha", r, cuts)

    def card(code):
        p.t.card_frame(code)
        p.t.passes(1)

    for _ in range(hands):
        for seat in range(1, 7):
            if p.t.ctx.table.stacks[seat] < 20:
                c.step(p, lambda: p.t.keys(tv.keys_of("%d stack 500 enter" % seat)))
        c.step(p, lambda: p.t.keys(tv.keys_of("new enter")))
        deck = r.shuffled(range(52))
        for _ in range(600):
            hand = p.t.ctx.table.hand
            if hand is None:
                break                                       # (a cut took the hand's start: none to play)
            kind, seat = hand.expected()
            if kind == rules.EXPECT_DONE or kind == rules.EXPECT_VOID:
                break
            if kind == rules.EXPECT_ACTION:
                amount = r.pick((10, 20, 35, 50, 120, 400))
                if hand.legal().can_check:
                    text = r.pick(("check enter", "check enter", "bet %d enter" % amount))
                else:
                    text = r.pick(("call enter", "call enter", "fold enter", "raise %d enter" % amount,
                                   "allin enter"))
                c.step(p, lambda: p.t.keys(tv.keys_of(text)))
            else:
                code = cards.name(deck.pop())
                c.step(p, lambda: card(code))
        c.step(p, lambda: p.t.passes(5))
    return c.reports(p)


def play_seeds(first, count):
    """Each game's seeded play for seeds first .. first + count - 1, without and with power cuts, as
    tests/host/same_table_play.py prints it ("== GAME_seeded SEED", "== GAME_cuts SEED", then its lines);
    tests/host/same_table_runs.py sweeps with it."""
    for seed in range(first, first + count):
        for name, play in (("baccarat", baccarat_seeded), ("craps", craps_seeded), ("omaha", omaha_seeded)):
            for kind, cuts in (("seeded", False), ("cuts", True)):
                print("== %s_%s %d" % (name, kind, seed))
                for text in play(seed, cuts=cuts):
                    print(text)
    trailer()
