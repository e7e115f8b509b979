# Seeded play for tests/host/same_table_play.py: many rounds of random input, legal and refused, at each
# table, drawn from a generator that gives the same numbers on every runtime.
from bench import table_vm as tv
from firmware import cards
from tests.host.same_table_rig import Played, close_alarm, state, trailer


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


def baccarat_seeded(seed=11, rounds=60):
    """A shuffled 8-deck shoe: random readings (a zone the layout has not, now and then), each round dealt
    card by card until its result, noise on the shoe line now and then (closed by CONFIRM)."""
    r = Rand(seed)
    p = Played("baccarat")
    t = p.t
    shoe = r.shuffled([rank + suit for rank in "23456789TJQKA" for suit in "cdhs"] * 8)
    t.shoe_frame("IN")
    t.passes(3)
    for _ in range(8):                                      # art. 2(1): as many burned as decks
        t.card_frame(shoe.pop())
        t.passes(5, 100)
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
            t.bet_reading(reading)
        if r.below(8) == 0:
            p.raw(r.pick((b"\x00\x13 static\n", b"S1 zz CARD\n", t.shoe("CARD", "Xx", "D") + b"\n")))
        close_alarm(p)
        dealt = 0
        while dealt < 6 and state(t) in ("betting", "dealing"):
            t.card_frame(shoe.pop())
            t.passes(1, 400)
            dealt += 1
            close_alarm(p)
            if dealt >= 4 and state(t) == "betting":
                break
    return p.reports()


def craps_seeded(seed=23, throws=250):
    """Random readings every few throws (any zone, stakes the table refuses too), random dice, a face 7 or
    noise on the dice line now and then (closed by CONFIRM)."""
    from firmware.games.craps.zones import ZONES
    r = Rand(seed)
    p = Played("craps")
    t = p.t
    for k in range(throws):
        if k % 4 == 0:
            reading = []
            for seat in range(1, 11):
                if r.below(3) == 0:
                    reading.append((seat, [(r.pick(ZONES), r.pick((5, 10, 15, 20, 30, 6, 3))) for _ in range(r.below(3) + 1)]))
            if reading:
                t.bet_reading(reading)
        if r.below(30) == 0:
            p.raw(r.pick((t.dice("THROW", "7", str(r.below(6) + 1)) + b"\n", b"D1 ?? THROW\n")))
        close_alarm(p)
        t.throw_frame(r.below(6) + 1, r.below(6) + 1)
        t.passes(3)
        close_alarm(p)
    return p.reports()


def omaha_seeded(seed=37, hands=10):
    """Six players keyed 500 each (again once broke), ten hands dealt from a shuffled deck, each action drawn at
    random: checks, bets, calls, folds, raises and all-ins, legal or refused (too small, over the pot)."""
    from firmware.games.omaha import rules
    r = Rand(seed)
    p = Played("omaha")
    t = p.t
    table = t.ctx.table
    for _ in range(hands):
        for seat in range(1, 7):
            if table.stacks[seat] < 20:
                t.keys(tv.keys_of("%d stack 500 enter" % seat))
        t.keys(tv.keys_of("new enter"))
        deck = r.shuffled(range(52))
        for _ in range(600):
            kind, seat = table.hand.expected()
            if kind == rules.EXPECT_DONE or kind == rules.EXPECT_VOID:
                break
            if kind == rules.EXPECT_ACTION:
                amount = r.pick((10, 20, 35, 50, 120, 400))
                if table.hand.legal().can_check:
                    text = r.pick(("check enter", "check enter", "bet %d enter" % amount))
                else:
                    text = r.pick(("call enter", "call enter", "fold enter", "raise %d enter" % amount,
                                   "allin enter"))
                t.keys(tv.keys_of(text))
            else:
                t.card_frame(cards.name(deck.pop()))
                t.passes(1)
            close_alarm(p)
        t.passes(5)
    return p.reports()




def play_seeds(first, count):
    """Each game's seeded play for seeds first .. first + count - 1, as tests/host/same_table_play.py prints
    it ("== GAME_seeded SEED", then its lines); tests/host/same_table_runs.py sweeps with it."""
    for seed in range(first, first + count):
        for name, play in (("baccarat", baccarat_seeded), ("craps", craps_seeded), ("omaha", omaha_seeded)):
            print("== %s_seeded %d" % (name, seed))
            for text in play(seed):
                print(text)
    trailer()
