# The whole table played the same way on every runtime: tests/host/test_same_table.py runs this script
# on CPython, in MicroPython's WebAssembly VM and on its Unix port (native code: the board's viper CRC
# and Omaha showdown) and compares what each printed: every host report of a Baccarat, a Craps and an
# Omaha table (tests/host/same_table_rig.py), fed through the devices' wire formats, bad input included,
# first in the scripts below, then in seeded play (tests/host/same_table_seeded.py), with and without power
# cuts inside flash writes.
#
#   .venv/bin/python tests/host/same_table_play.py [GAME ...]       (CPython; default: every game)
#
# Prints "== GAME" and then each report as the firmware made it (the REPORT frames' payloads, PARTs
# joined, each once), a LOST frame's count ("lost: N") and what the console wrote ("console: ...").
import sys

if sys.implementation.name != "micropython":
    import os
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from bench import table_vm as tv  # noqa: E402  (its rounds, run untimed)
from firmware import cards  # noqa: E402
from tests.host.same_table_rig import PIN, Played, trailer  # noqa: E402
from tests.host.same_table_seeded import baccarat_seeded, craps_seeded, omaha_seeded  # noqa: E402


def play_on(t, deck, most):
    """The hand played on (at most `most` inputs): each card the table expects from the deck, each action
    a check where one is legal, else a call."""
    from firmware.games.omaha import rules
    for _ in range(most):
        hand = t.ctx.table.hand
        kind, seat = hand.expected()
        if kind == rules.EXPECT_DONE:
            return
        if kind == rules.EXPECT_ACTION:
            t.keys(tv.keys_of("check enter" if hand.legal().can_check else "call enter"))
        else:
            t.card_frame(cards.name(deck.pop()))
            t.passes(1)


def baccarat():
    p = Played("baccarat")
    t = p.t
    tv.baccarat_shoe(t)
    for k in range(4):                                      # naturals, a draw each, then both draw
        tv.baccarat_round(t, k, timed=False)
    t.bet_reading(tv.BACCARAT_BETS)
    t.card_frame("9h")
    t.passes(1, 400)
    t.card_frame("9d")                                      # Player and Banker naturals of 9: a tie
    t.passes(1, 400)
    t.card_frame("Tc")
    t.passes(1, 400)
    t.card_frame("Td")
    t.passes(3, 400)
    p.raw(b"\x00\xffnoise on the shoe line\n")              # not a frame: the shoe's fault, its bytes shown
    p.press("confirm")
    p.raw(t.shoe("CARD", "1x", "D") + b"\n")                # not a card code
    p.press("confirm")
    t.card_frame("Kh")
    t.passes(1, 400)
    p.raw(t.shoe("CARD", "5s", "D")[:-2] + b"00\n")         # its checksum damaged
    p.press("confirm")
    t.card_frame("5s")
    t.passes(1, 400)
    for code in ("4h", "2c", "3d", "Ac"):                  # Player 4 draws to 7, so Banker's 7 draws (art. 9
        t.card_frame(code)                                  # Method 1 (3)(ii)): 8 wins
        t.passes(1, 400)
    t.passes(3, 400)
    t.bet_reading([(1, [("player", 20)]), (2, [("banker", 40), ("tie", 5)])])
    for code in ("8c", "6d"):
        t.card_frame(code)
        t.passes(1, 400)
    p.power_cut()                                           # mid-round: the recovery resumes the deal
    t = p.t
    for code in ("Qh", "Kd"):                               # Player 8, a natural (art. 9 Method 1 (1))
        t.card_frame(code)
        t.passes(1, 400)
    t.passes(3, 400)
    p.host_request(b"roads", tag=17)                        # the answer gives the host's tag back
    p.host_request(b"3", "RECALL", 9999)                    # the last 3 rounds, read back from flash
    p.host_request(b"open_bets")                            # not served at Baccarat
    t.bet_reading([(3, [("banker", 100), ("nowhere", 5)])])  # a zone the layout has not: refused whole
    # A technician: refused without a login, a wrong PIN, then a regulated setting changed (art. 18): it
    # applies at the next shoe, which pays a Banker win under commission B (art. 17).
    p.type(b"lamp all", b"login", b"111111", b"login", PIN.encode(), b"set decks 13", b"set commission B",
           b"commit CAB-2026-17", b"settings")
    t.shoe_frame("OUT")
    t.passes(5, 100)
    p.type(b"settings", b"audit 4", b"\xff\xfe garbage \x01", b"x" * 200, b"logout")
    tv.baccarat_shoe(t)
    tv.baccarat_round(t, 2, timed=False)                    # Banker 8 against Player 5 (round_cards(2))
    return p.reports()


def craps():
    p = Played("craps")
    t = p.t
    t.bet_reading(tv.CRAPS_BETS)                            # 50 bets, 10 seats
    for d1, d2 in ((3, 4), (2, 2), (5, 6), (1, 1), (3, 1)):  # a natural, point 4, field, 2, the point made
        t.throw_frame(d1, d2)
        t.passes(3)
    p.host_away()                                           # the link store fills: its backlog alarm holds the
    for _ in range(70):                                     # come-outs, then it refuses reports (a LOST count)
        t.throw_frame(1, 2)
        t.passes(3)
    p.host_back()
    p.press("confirm")                                      # the backlog cleared: the alarm closed
    t.bet_reading([(1, [("pass", 10)]), (2, [("dont_pass", 20), ("field", 5)]), (3, [("hard_8", 5)])])
    for d1, d2 in ((4, 4), (2, 6), (3, 3)):                 # point 8, an easy 8 (hard 8 loses), a 6
        t.throw_frame(d1, d2)
        t.passes(3)
    t.bet_reading([(1, [("pass_odds", 20), ("come", 10)]), (4, [("big_number_6", 6), ("pass", 5)])])
    p.raw(t.dice("THROW", "7", "3") + b"\n")                # a face 7 (art. 1(2)): the reader's fault
    p.press("confirm")
    p.raw(b"D1 garbage\n")
    p.press("confirm")
    p.host_request(b"open_bets", tag=4242)
    p.power_cut()                                           # bets on the layout: the recovery keeps them
    t = p.t
    p.host_request(b"open_bets")
    p.press("confirm")                                      # the reset's alarm closed: the throws count again
    for d1, d2 in ((5, 5), (2, 5)):                         # a 10 (the come bet travels), the seven-out
        t.throw_frame(d1, d2)
        t.passes(3)
    p.press("deal", 110)                                    # a long DEAL: a new shooter (art. 4(1))
    p.host_request(b"roads", tag=5)                         # not served at Craps
    p.host_request(b"2", "RECALL", 31)
    # The Field's 12 changed at the console (art. 6(12)): at once, the new shooter not having thrown yet.
    p.type(b"login", PIN.encode(), b"set field_12 4", b"set field_12 3", b"commit FLD-2026-3")
    t.bet_reading([(5, [("field", 10), ("pass", 10)])])
    for d1, d2 in ((6, 6), (4, 4), (3, 4), (6, 6)):         # 12 (the Field 3:1), point 8, seven-out, 12 again
        t.throw_frame(d1, d2)
        t.passes(3)
        if (d1, d2) == (3, 4):
            t.bet_reading([(5, [("field", 10)])])
    p.type(b"settings", b"logout")
    return p.reports()


def omaha():
    p = Played("omaha")
    t = p.t
    tv.omaha_hand(t, 1, timed=False)                        # 10 seats, two short stacks all in: side pots
    for text in ("new", "99 stack 5 enter", "3 bet 10 enter", "clear"):   # refused entries, then cleared
        t.keys(tv.keys_of(text))
    t.passes(3)
    p.host_request(b'{"hand": {"button": 2}}', tag=55)     # hand 2, the stacks carried
    deck = tv.shuffled(7)
    play_on(t, deck, 9)                                     # its first 9 hole cards
    p.power_cut()                                           # mid-deal: the recovery resumes the hand
    p.press("confirm")
    play_on(p.t, deck, 200)                                 # to its end: every action checked or called
    p.host_request(b"2", "RECALL", 77)
    p.raw(b"S1 not a frame\n")
    p.press("confirm")
    p.type(b"login", PIN.encode(), b"set rake_percent 6", b"set rake_percent 3.5", b"commit RAKE-2026-35",
           b"settings", b"logout")
    return p.reports()


GAMES = {"baccarat": baccarat, "craps": craps, "omaha": omaha,
         "baccarat_seeded": baccarat_seeded, "craps_seeded": craps_seeded, "omaha_seeded": omaha_seeded,
         # the power cut inside flash writes (torn or not), the board booted again on the same flash each time
         "baccarat_cuts": lambda: baccarat_seeded(13, 25, cuts=True),
         "craps_cuts": lambda: craps_seeded(29, 100, cuts=True),
         "omaha_cuts": lambda: omaha_seeded(41, 6, cuts=True)}


def main(games):
    for game in games:
        print("== " + game)
        for text in GAMES[game]():
            print(text)
    trailer()


if __name__ == "__main__":
    main(sys.argv[1:] if sys.implementation.name != "micropython" and len(sys.argv) > 1 else sorted(GAMES))
