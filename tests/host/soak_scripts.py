"""Soak scripts: seeded random replay input (docs/protocol.md, "Replay input") for tests/host/soak_rig.py.

Legal play (`clean_baccarat_script`: each round exactly the cards the rules call for, the judge says
how many; `clean_craps_script`: readings of the bets the rules engine takes; `clean_omaha_script`: hands
of 2 to 10 players, every action one the rules engine allows) and play mixed with what a casino floor
throws at a table (`baccarat_script`,
`craps_script`, `omaha_script`): unreadable cards, double pulls, damaged frames, sensor faults,
restarts, illegal bets and throws, raw garbage bytes on every port, console lines, buttons, waits and
power cuts; `with_garbage` and `with_power_cuts` put garbage or cuts between the lines of a script,
`with_host_absences` the host's absences ({"host": "away"} ... {"host": "back"}) around some of them.
"""
import json
import os

from tests.firmware.console_rig import PIN
from tools.judge_baccarat import judge_round
from tools.replay_input import needs_the_host

RANKS = "23456789TJQKA"
SUITS = "cdhs"
BACCARAT_ZONES = ("player", "banker", "tie", "player_pair", "banker_pair")
PORTS = ("shoe", "bets", "dice", "host", "console")
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# How many rounds the messy scripts' host asks for mid-play (drawn from a roll already made: the rest of a seed's
# script stays as it was); 0 and 101 are refused (host_error).
RECALLS = (1, 3, 20, 100, 0, 101)
# The dealer closes what is open; the console's `status` then shows the table's state (soak_rig.check_stuck: a
# state report the full link store refused may hide it from the host); the host asks for the last 100 rounds kept
# (tests/host/soak_recall.py holds them to the live reports) and for the open bets (a Craps table's answer held to
# the ledger, tests/host/soak_craps.py; the other games refuse it: not served).
CLOSING = [{"button": "confirm"}, {"button": "void", "long": True}, {"button": "confirm"},
           {"console": "\u0003status"}, {"recall": 100, "tag": 7497},  # (Ctrl-C first: a line garbage began is dropped)
           {"open_bets": True, "tag": 2499}]                  # (the tags: the last of their kinds' quarters, below)

# The host's requests in these scripts carry a tag (docs/host-link.md, "Host to board") two times in three, from
# its kind's quarter of 1..9999, worked out from the roll that chose the line (an Omaha hand's: from its number;
# no draw more: a seed's script is the one it was but for the tags). soak_rig.check_common holds every
# tagged answer to its request's kind (TAG_ANSWERS: kind -> the report that answers it; else a host_error naming it).
TAG_ANSWERS = {"open_bets": "open_bets", "roads": "roads", "recall": "recall", "hand": "hand_start"}
TAG_KINDS = tuple(TAG_ANSWERS)
_TAG_SPAN = 2499


def tagged(line, kind, roll):
    """The request line `line` (a dict) of `kind`, tagged or not as `roll` says."""
    k = int(roll * 1000003)
    if k % 3:
        line["tag"] = 1 + TAG_KINDS.index(kind) * _TAG_SPAN + k % _TAG_SPAN
    return line


def tag_kind(tag):
    """The kind of request (TAG_KINDS) a tag of these scripts went with."""
    return TAG_KINDS[(tag - 1) // _TAG_SPAN]


def _hand_tagged(line, number):
    """The request of an Omaha script's hand `number`, tagged or not by that number (a golden-ratio step: no
    draw; the same in a script with refused entries among its hands, which the clean runs compare to it)."""
    return tagged(line, "hand", (number + 1) * 0.6180339887 % 1.0)


def table_file(game):
    """The soak's table: boards/tables/sim-<game>.json."""
    return os.path.join(REPO, "boards", "tables", "sim-%s.json" % game)


def table_settings(game):
    """Its settings, as the file gives them (the scripts play by them, the checks judge by them)."""
    with open(table_file(game)) as f:
        return json.load(f)["settings"]


# -- scripts -------------------------------------------------------------------------------------
def garbage(rng, ports=PORTS):
    """Raw bytes a damaged line or a crossed cable brings: random bytes, frame-like text, long lines."""
    kind = rng.randrange(5)
    if kind == 0:
        data = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40)))
    elif kind == 1:
        data = bytes(rng.randrange(256) for _ in range(rng.randrange(100, 300))) + b"\n"
    elif kind == 2:
        dev = rng.choice("SBDX#")
        data = ("%s1 %02X %s*%04X\n" % (dev, rng.randrange(256), rng.choice(["CARD Ah D", "THROW 3 4", "OPEN 1",
                                                                            "CLOSE 1 0", "HELLO x", "IN", "OUT"]),
                                        rng.randrange(65536))).encode()
    elif kind == 3:
        data = b"\r\n" * rng.randrange(1, 4) + b"\x00\xff\x03\x1b[A"
    else:
        data = bytes(rng.choice(b"0123456789ABCDEF *#.\n") for _ in range(rng.randrange(1, 60)))
    return {"raw": {"port": rng.choice(ports), "hex": data.hex()}}


def baccarat_bets(rng, illegal=0.1):
    """A bet reading: seats 1..7 with chips on the Baccarat zones; now and then a bad one."""
    reading = {}
    for seat in rng.sample(range(1, 8), rng.randrange(0, 4)):
        zones = rng.sample(BACCARAT_ZONES, rng.randrange(1, 4))
        reading[str(seat)] = {z: rng.choice([5, 10, 25, 50, 100, 101, 1000, 33]) for z in zones}
    if reading and rng.random() < illegal:
        seat = rng.choice(list(reading))
        bad = rng.randrange(4)
        if bad == 0:
            reading[seat]["craps_pass"] = 10
        elif bad == 1:
            reading[seat][rng.choice(BACCARAT_ZONES)] = rng.choice([0, 1000000000])
        elif bad == 2:
            reading["99"] = {"banker": 10}
        else:
            reading[seat][rng.choice(BACCARAT_ZONES)] = "down"
    return {"bets": reading}


def _shoe_cards(rng, decks=8):
    shoe = [r + s for r in RANKS for s in SUITS] * decks
    rng.shuffle(shoe)
    return shoe


def baccarat_script(rng, rounds, mess=0.15, cuts=True):
    """Lines for about `rounds` Baccarat rounds at the default table (8 decks, burn "decks" = the first
    card's value... as the table says: the script just deals the shoe in order; the table decides)."""
    shoe = _shoe_cards(rng)
    lines = [{"shoe": "new"}]
    # Enough cards for `rounds` rounds (at most 6 a round) plus the burn.
    for n in range(rounds * 5 + 12):
        if not shoe:
            shoe = _shoe_change(rng, lines)
        if n >= 12 and rng.random() < 0.22:
            lines.append(baccarat_bets(rng))
        if rng.random() < mess:
            lines += _baccarat_mess(rng, shoe, cuts)
        if not shoe:                          # a double pull in the mess took the shoe's last card
            shoe = _shoe_change(rng, lines)
        lines.append({"card": shoe.pop()})
    return lines


def _shoe_change(rng, lines):
    """The empty shoe taken out and a new one put in (its lines added); the new shoe's cards."""
    lines += [{"shoe": "out"}, {"shoe": "new"}]
    return _shoe_cards(rng)


def _baccarat_mess(rng, shoe, cuts):
    roll = rng.random()
    if roll < 0.25:
        return [garbage(rng)]
    if roll < 0.32:
        return [{"shoe": "unreadable"}, rng.choice([{"button": "confirm"}, {"button": "void", "long": True}])]
    if roll < 0.40:   # a double pull: the second card held until CONFIRM
        return [{"card": shoe.pop(), "after_ms": 20}, {"button": "confirm"}] if shoe else []
    if roll < 0.46:
        return [{"raw": {"port": "shoe", "hex": "5331203041204355542a303030300a"}}, {"button": "confirm"}]
    if roll < 0.48:
        return [{"shoe_fault": rng.randrange(70000)}, {"button": "confirm"}]
    if roll < 0.50:   # a new shoe put in during the alarm (held for a settings change pending: docs/console.md)
        return [{"shoe_fault": rng.randrange(70000)}, {"shoe": "new"}, {"button": "confirm"}]
    if roll < 0.54:
        return [{"shoe": "hello"}, {"button": "confirm"}]
    if roll < 0.60:
        return [{"button": rng.choice(["confirm", "void", "deal", "shoe_change"]), "long": rng.random() < 0.3}]
    if roll < 0.66:
        return [{"console": rng.choice(["status", "help", "log", "recall 3", "zones", "crash", "sensors",
                                        "bogus", "lamp all", "x" * 200, "\u0003", "status\u007f\u007fxx"])}]
    if roll < 0.70:                   # the host asks for the roads, or for the last rounds (drawn from roll)
        return [tagged({"roads": True}, "roads", roll) if roll < 0.68
                else tagged({"recall": RECALLS[int(roll * 10000) % len(RECALLS)]}, "recall", roll)]
    if roll < 0.74:
        return [{"wait_ms": rng.choice([0, 30, 170, 1000, 20000])}]
    if roll < 0.76:
        return [{"shoe": "out"}, {"button": "confirm"}, {"shoe": "new"}]
    if roll < 0.78:   # a new shoe straight over the one in play (art. 3(2); a settings change pending runs first)
        return [{"shoe": "new"}]
    if roll < 0.82:
        return [{"card": rng.choice(RANKS) + rng.choice(SUITS), "after_ms": rng.choice([0, 400])},
                {"button": "void", "long": True}]
    if roll < 0.86:
        return [baccarat_bets(rng, illegal=0.5)]
    if roll < 0.90:
        return [{"raw": {"port": "host", "hex": b"#0.0 0 RECALL 5*00000000\nroads\n{\"hand\": {}}\n".hex()}}]
    if cuts:
        return [{"power_cut": True}]
    return [garbage(rng)]


CRAPS_ZONES = ("pass", "dont_pass", "pass_odds", "dont_pass_odds", "come", "dont_come", "come_6", "dont_come_8",
               "come_odds_6", "dont_come_odds_8", "any_craps", "any_seven", "eleven", "ace_deuce", "aces",
               "boxcars", "horn", "field", "big", "small", "hard_4", "hard_6", "hard_8", "hard_10", "big_number_6",
               "big_number_8")
FLAGS = ("off_table", "short", "wall", "not_rolled", "invalid")


def craps_throw(rng):
    """A throw: mostly fair dice; now and then a no roll, a cocked die, or what true dice cannot show."""
    line = {"dice": [rng.randint(1, 6), rng.randint(1, 6)]}
    roll = rng.random()
    if roll < 0.08:
        line["flags"] = sorted(rng.sample(FLAGS, rng.randrange(1, 3)), key=FLAGS.index)
    elif roll < 0.12:
        line["cocked"] = rng.randrange(2)
    elif roll < 0.14:
        line["dice"][rng.randrange(2)] = rng.choice([None, 7, 9])
    elif roll < 0.15:
        line["flags"] = ["wall", "short"]
    return line


def craps_bets(rng):
    reading = {}
    for seat in rng.sample(range(1, 15), rng.randrange(0, 4)):
        zones = rng.sample(CRAPS_ZONES, rng.randrange(1, 4))
        reading[str(seat)] = {z: rng.choice([5, 10, 15, 20, 25, 30, 50, 7, 6000, "down"]) for z in zones}
    if rng.random() < 0.05:
        reading["15"] = {"pass": 10}
    return {"bets": reading}


def craps_script(rng, throws, mess=0.15, cuts=True):
    lines = []
    for _ in range(throws):
        if rng.random() < 0.5:
            lines.append(craps_bets(rng))
        if rng.random() < mess:
            lines += _craps_mess(rng, cuts)
        lines.append(craps_throw(rng))
    return lines


def _craps_mess(rng, cuts):
    roll = rng.random()
    if roll < 0.35:
        return [garbage(rng)]
    if roll < 0.45:
        return [{"raw": {"port": "dice", "hex": b"D1 0A THROW 3 4*0000\n".hex()}},
                rng.choice([{"button": "confirm"}, {"button": "void", "long": True}])]
    if roll < 0.55:
        return [{"button": rng.choice(["confirm", "void", "deal", "shoe_change"]), "long": rng.random() < 0.4}]
    if roll < 0.62:
        return [{"console": rng.choice(["status", "recall 5", "log", "bogus", "\u0003"])}]
    if roll < 0.70:                   # a RECALL line noise hit (a bad CRC) and a plain request, or a real RECALL,
        if roll < 0.67:               # or the open bets (tests/host/soak_craps.py holds the answer to its ledger)
            return [{"raw": {"port": "host", "hex": b"#0.0 0 RECALL 7*00000000\nroads\n".hex()}}]
        if roll < 0.685:
            return [tagged({"open_bets": True}, "open_bets", roll)]
        return [tagged({"recall": RECALLS[int(roll * 10000) % len(RECALLS)]}, "recall", roll)]
    if roll < 0.76:
        return [{"wait_ms": rng.choice([0, 50, 3000, 15000])}]
    if roll < 0.82:
        return [{"raw": {"port": "dice", "hex": b"D1 00 HELLO dice-9*0000\n".hex()}}, {"button": "confirm"}]
    if cuts and roll < 0.92:
        return [{"power_cut": True}]
    return [garbage(rng)]


OMAHA_KEYS = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "clear", "enter", "fold", "check", "call", "bet",
              "raise", "allin", "new", "button", "seat", "stack")


def omaha_script(rng, hands, cuts=True):
    """Omaha hands started by the host (2 to 5 players), every card dealt, the dealer keying mostly
    checks and calls, mixed with illegal entries, stray keys, misdeals, garbage and power cuts."""
    lines = []
    for number in range(hands):
        seats = rng.sample(range(1, 11), rng.randrange(2, 6))
        lines += [{"button": "confirm"}, {"button": "void", "long": True},
                  _hand_tagged({"hand": {"button": rng.choice(seats),
                                         "stacks": {str(s): rng.choice([60, 150, 1000]) for s in seats}}}, number)]
        deck = _shoe_cards(rng, 1)
        lines += [{"card": deck.pop()} for _ in range(len(seats) * 4 - rng.randrange(2))]
        for _ in range(8 + len(seats) * 4):
            roll = rng.random()
            if roll < 0.3 and deck:
                lines.append({"card": deck.pop()})
            elif roll < 0.80:
                lines.append({"action": {"act": rng.choice(["check", "call", "call", "check", "fold", "raise", "bet",
                                                            "allin"])}})
            elif roll < 0.85:
                lines.append({"action": {"act": rng.choice(["bet", "raise"]), "amount": rng.choice([10, 20, 35, 1000])}})
            elif roll < 0.89:
                lines.append({"keys": " ".join(rng.choice(OMAHA_KEYS) for _ in range(rng.randrange(1, 6)))})
            elif roll < 0.94:
                lines += [garbage(rng), {"button": "confirm"}]
            elif roll < 0.96:
                lines += [{"shoe": rng.choice(["unreadable", "hello"])}, {"button": "confirm"}]
            elif roll < 0.97:
                lines.append({"button": rng.choice(["confirm", "void", "deal"]), "long": rng.random() < 0.3})
            elif roll < 0.98:             # the host asks for the last hands (tests/host/soak_recall.py)
                lines.append(tagged({"recall": RECALLS[int(roll * 10000) % len(RECALLS)]}, "recall", roll))
            elif cuts:
                lines.append({"power_cut": True})
    return lines


def clean_baccarat_script(rng, rounds, bets=0.7):
    """Legal play only, each round exactly the cards the rules call for (the judge says how many): a
    new shoe burned (8 decks, burn "decks"), a legal bet reading before most rounds, the cut card about
    14 cards from the end (art. 2(1)), its round the last (art. 3(1)), then the shoe out and a new one."""
    lines = []
    shoe = []
    for _ in range(rounds):
        if len(shoe) < 6:
            if lines:
                lines.append({"shoe": "out"})
            shoe = _shoe_cards(rng)
            lines.append({"shoe": "new"})
            lines += [{"card": shoe.pop()} for _ in range(8)]
        if rng.random() < bets:
            lines.append(baccarat_bets(rng, illegal=0))
        used = judge_round({"game": "baccarat", "method": 1, "commission": "A", "cards": shoe[-1:-7:-1]})["cards_used"]
        if len(shoe) - used <= 14 < len(shoe):
            lines.append({"cut_card": True})
            lines += [{"card": shoe.pop()} for _ in range(used)]
            shoe = []
        else:
            lines += [{"card": shoe.pop()} for _ in range(used)]
    return lines


def clean_craps_script(rng, throws, refusals=None, rate=0.3):
    """Legal play at the default table (boards/tables/sim-craps.json): before most rolls a reading of the bets the
    rules take then (the engine says which: firmware.games.craps.rules), line bets on the come-out, come and
    don't-come bets with a point, odds behind a seat's line and come bets, one-roll bets, the Field, big and
    small, hard ways and big numbers, now and then a take-down the take_down setting allows; fair dice.
    `refusals` (a random.Random of its own: `rng` draws the same legal play with it or without): before a roll
    now and then (`rate`), bets the rules refuse put in its reading (`_craps_refused`), which the table must
    refuse and play on as if they were not there."""
    from firmware.games.craps import bets as kinds, rules, zones
    from firmware.games.craps.settings import load_settings
    table = rules.CrapsTable(load_settings(table_settings("craps")))
    line_kinds = {kinds.kind_code(name): name for name in ("pass", "dont_pass", "come", "dont_come")}
    # chips go on any zone but the come points (placement refuses them) and the odds (behind a bet, below)
    placeable = [z for z in zones.ZONES if "odds" not in z and not z.startswith(("come_", "dont_come_"))]
    lines = []
    for _ in range(throws):
        reading = {}
        seats = set(rng.sample(range(1, 15), rng.randrange(1, 5))) if rng.random() < 0.7 else set()
        seats |= {b.seat + 1 for b in table.bets if b.kind in line_kinds and b.number and rng.random() < 0.3}
        for seat in sorted(seats):
            bets = {}
            down = [b for b in table.bets if b.seat == seat - 1 and b.in_action and table.down_refusal(b) is None]
            if down and rng.random() < 0.15:         # a zone's chips: every bet of the seat on it comes down
                bet = rng.choice(down)
                zone = zones.zone_of(bet.kind, bet.number)
                for b in down:
                    if zones.zone_of(b.kind, b.number) == zone and table.find(b.bet_id) is not None:
                        table.take_down(b.bet_id)
                bets[zones.ZONES[zone]] = "down"
            # odds behind the seat's line bets that have a point (its pass and don't-pass bets, its come bets
            # that travelled), now and then
            # (the first such bet of a point: the one the table backs, firmware/games/craps/readings.py `_backed`)
            odds = {}
            for b in table.bets:
                if b.seat == seat - 1 and b.kind in line_kinds and b.number:
                    zone = zones.ZONES[zones.zone_of(kinds.kind_code(line_kinds[b.kind] + "_odds"), b.number)]
                    if zone not in odds:
                        odds[zone] = b.bet_id
            odds = {zone: bet_id for zone, bet_id in odds.items() if rng.random() < 0.5}
            wanted = set(rng.sample(placeable, rng.randrange(1, 4))) | set(odds)
            if rng.random() < 0.4:       # a line bet: Pass or Don't Pass on the come-out, Come or Don't Come after
                wanted.add(rng.choice(("come", "dont_come") if table.point else ("pass", "dont_pass")))
            for zone in sorted(wanted, key=zones.ZONES.index):
                if zone in bets:
                    continue                 # taken down in this reading (a reading gives a zone one entry)
                kind, number = zones.KIND_NUMBER[zones.ZONES.index(zone)]
                on, amount = None, rng.choice([5, 10, 15, 20, 25, 30, 60])
                if zone in odds:
                    on, number, amount = odds[zone], 0, rng.choice([10, 20, 30, 60, 100])
                if table.place_bet(seat - 1, kinds.KIND_NAMES[kind], amount, number, on)[1] is None:
                    bets[zone] = amount
            if bets:
                reading[str(seat)] = bets
        while refusals is not None and refusals.random() < rate:
            seat, zone, amount = _craps_refused(refusals, table, reading)
            reading.setdefault(str(seat), {})[zone] = amount
        if reading:
            lines.append({"bets": reading})
        dice = [rng.randint(1, 6), rng.randint(1, 6)]
        table.roll(dice)
        lines.append({"dice": dice})
    return lines


def _craps_refused(rng, table, reading):
    """(seat, zone, amount) of a bet the rules refuse now, on a zone the seat's entry in `reading` leaves free:
    chips on a come point (art. 5(2)(5), (6)), a stake not a multiple of the minimum (art. 5(6)) or over the
    table's maximum, Pass or Don't Pass with a point, Come or Don't Come on the come-out, odds with no line bet
    of that point to back."""
    from firmware.games.craps import bets as kinds, zones
    come = kinds.kind_code("come")
    while True:
        seat = rng.randrange(1, 15)
        entry = reading.get(str(seat), {})
        how = rng.randrange(5)
        if how == 0:
            zone, amount = rng.choice(("come_", "dont_come_")) + str(rng.choice((4, 5, 6, 8, 9, 10))), 10
        elif how == 1:
            zone, amount = rng.choice(("field", "hard_6", "big", "any_seven")), rng.choice((7, 12, 3))
        elif how == 2:
            zone, amount = rng.choice(("field", "hard_8", "small", "eleven")), 6000
        elif how == 3:
            zone, amount = rng.choice(("pass", "dont_pass") if table.point else ("come", "dont_come")), 10
        else:
            number = rng.choice((4, 5, 6, 8, 9, 10))
            zone, amount = "come_odds_%d" % number, 10
            if any(b.seat == seat - 1 and b.kind == come and b.number == number for b in table.bets):
                continue                                 # (its come bet on that point is there: not refused)
        if zone in entry:
            continue
        if how in (1, 2, 3):                             # the rules' own verdict, nothing placed
            kind, number = zones.KIND_NUMBER[zones.ZONES.index(zone)]
            if table.refusal(seat - 1, kind, amount, number, None) is None:
                continue
        return seat, zone, amount


def clean_omaha_script(rng, hands, refusals=None, rate=0.2):
    """Legal play only at the default table (boards/tables/sim-omaha.json: pot limit, blinds 5/10): each hand
    started by the host (2 to 10 players, stacks apart, so that all-ins for less make side pots), every card the
    hand calls for, every action one the rules allow (the engine says which: firmware.games.omaha.rules), keyed
    with the seat or without it, an all-in now and then with ALLIN, few folds: most hands reach a showdown.
    `refusals` (a random.Random of its own: `rng` draws the same legal play with it or without): before an action
    now and then (`rate`), an entry the rules refuse (`_omaha_refused`), which the table must refuse and go on as
    if never keyed."""
    from firmware import cards
    from firmware.games.omaha import rules
    from firmware.games.omaha.settings import load_settings
    settings = load_settings(table_settings("omaha"))
    lines = []
    for number in range(hands):
        seats = sorted(rng.sample(range(1, 11), rng.randrange(2, 11)))
        stacks = [(s, rng.choice([15, 40, 150, 400, 1000])) for s in seats]
        button = rng.choice(seats)
        lines.append(_hand_tagged({"hand": {"button": button, "stacks": {str(s): chips for s, chips in stacks}}}, number))
        hand = rules.OmahaHand(settings, button=button, stacks=stacks)
        deck = _shoe_cards(rng, 1)
        while True:
            expected, seat = hand.expected()
            if expected in (rules.EXPECT_HOLE, rules.EXPECT_BURN, rules.EXPECT_BOARD):
                card = deck.pop()
                hand.deal(cards.parse(card))
                lines.append({"card": card})
            elif expected == rules.EXPECT_ACTION:
                while refusals is not None and refusals.random() < rate:
                    lines.append({"action": _omaha_refused(refusals, hand.legal(), seats)})
                legal = hand.legal()
                act, amount = _omaha_action(rng, legal)
                # An all-in keyed as ALLIN every other time (docs/omaha.md, "The dealer keypad"): a bet or raise to
                # the whole stack, or a call that is all the seat has where it may not raise; else by its amount.
                all_in = amount == legal.all_in_to or (act == "call" and legal.kind is None
                                                       and 0 < legal.call == hand.stack[legal.index])
                hand.act(seat, act, amount)
                action = {"act": act} if amount is None else {"act": act, "amount": amount}
                if all_in and len(lines) % 2:
                    action = {"act": "allin"}
                if rng.random() < 0.5:
                    action["seat"] = seat
                lines.append({"action": action})
            else:
                break
    return lines


def _omaha_refused(rng, legal, seats):
    """An entry the rules refuse the player to act (`legal`): another seat keyed (art. 6(3)-(5)), a check with a
    bet to call, a bet or raise past the pot limit (art. 11; past the stack it is the all-in: docs/omaha.md) or under
    the least (art. 12)."""
    entries = [{"seat": rng.choice([s for s in seats if s != legal.seat]), "act": rng.choice(["call", "fold"])}]
    if not legal.can_check:
        entries.append({"act": "check"})
    if legal.kind is not None:
        act = "bet" if legal.kind == "bet" else "raise"
        if legal.max_to < legal.all_in_to:      # (past the stack, past a most the stack sets, is the all-in)
            entries.append({"act": act, "amount": legal.max_to + rng.randrange(1, legal.all_in_to - legal.max_to + 1)})
        if legal.min_to < legal.max_to:
            entries.append({"act": act, "amount": legal.min_to - 1})
    return rng.choice(entries)


def _omaha_action(rng, legal):
    """A legal action for the player to act -> (act, amount or None): mostly check or call, now and then a bet
    or raise (its least, its most or between), rarely a fold."""
    roll = rng.random()
    if roll < 0.05:
        return "fold", None
    if roll < 0.25 and legal.kind is not None:
        to = rng.choice([legal.min_to, legal.max_to, rng.randrange(legal.min_to, legal.max_to + 1)])
        return ("bet" if legal.kind == "bet" else "raise"), to
    return ("check" if legal.can_check else "call"), None


def with_garbage(rng, lines, rate=0.2, ports=PORTS):
    """`lines` with raw garbage put between them: on the bet reader, host and console ports as it is;
    on the shoe and dice ports followed by the dealer's CONFIRM of the alarm it raises."""
    out = []
    for line in lines:
        while rng.random() < rate:
            junk = garbage(rng, ports)
            out.append(junk)
            if junk["raw"]["port"] in ("shoe", "dice"):
                out.append({"button": "confirm"})
        out.append(line)
    return out


def with_power_cuts(rng, lines, rate=0.05):
    """`lines` with {"power_cut": true} put between them."""
    out = []
    for line in lines:
        if rng.random() < rate:
            out.append({"power_cut": True})
        out.append(line)
    return out


def with_host_absences(rng, lines, rate=0.08, span=6):
    """`lines` with the host away around some of them: from a line on (chance `rate`), for 1 to `span`
    lines, then back (sometimes a wait after it: the host catching up); back before a line the host sends.
    The board holds its frames meanwhile; a long enough absence fills its store (link_lost notices), and
    raises its link_backlog alarm, which the host's catch-up clears (a wait at the end: before it, the
    closing CONFIRM could not close the alarm)."""
    out, left = [], 0
    for line in lines:
        if left and needs_the_host(line):
            out.append({"host": "back"})
            left = 0
        if not left and not needs_the_host(line) and rng.random() < rate:
            out.append({"host": "away"})
            left = rng.randrange(1, span + 1)
        out.append(line)
        if left:
            left -= 1
            if not left:
                out.append({"host": "back"})
                if rng.random() < 0.5:
                    out.append({"wait_ms": rng.choice([100, 2000, 10000])})
    if left:
        out.append({"host": "back"})
    if len(out) > len(lines):
        out.append({"wait_ms": 10000})     # the host catches up before what follows (a script's closing CONFIRM)
    return out


# Settings a technician may change at the console mid-play (docs/console.md, "Changing the settings"): every one the
# console takes but the table's size (seats) and Craps' max_open_bets and long take_down lists (a console line is at
# most 96 bytes), and Baccarat's shoe options (decks, burn, cut card, dealer, demo rounds: the scripts' shoes are 8
# decks); the checks (soak_rig.Followed, soak_craps) follow each settings_changed report. SOAK_PIN is the PIN soak_rig.run(pin=...) provisions: the test
# tables' technician PIN.
SOAK_PIN = PIN
CHANGEABLE = {"baccarat": (("method", ("1", "2")), ("commission", ("A", "B")),
                           ("tie_option", ("returned", "standing", "changeable"))),
              "craps": (("field_12", ("2", "3")), ("minimum", ("5", "10")), ("maximum", ("0", "1000", "5000")),
                        ("max_odds", ("3,4,5", "1,1,1", "2,2,2", "10,10,10")),
                        ("off_on_come_out", ("none", "hard", "come_odds,hard,big_number")),
                        ("take_down", ("hard,big_number", "none", "dont_pass,dont_come,pass_odds,come_odds,hard",
                                       "dont_pass_odds,dont_come_odds,big_number")),
                        ("shooter_change_on_come_out_craps", ("true", "false"))),
              "omaha": (("rake_percent", ("3", "4.5", "5")), ("small_blind", ("5", "10")),
                        ("big_blind", ("10", "20")), ("structure", ("pot_limit", "no_limit")),
                        ("rake_cap_big_blinds", ("1", "3", "5")),
                        ("odd_chip", ("croupier", "button")), ("heads_up", ("no_raise_cap", "no_limit")))}


def with_settings_changes(rng, lines, game, rate=0.04):
    """`lines` with a technician's settings change put between them now and then: login, one or more `set`s of the
    game's CHANGEABLE settings, `commit` with a reference, logout (Ctrl-C first: a line garbage began is dropped).
    The table applies it at its next safe boundary (a Baccarat shoe out, a Craps come-out with no option bet)."""
    out, n = [], 0
    for line in lines:
        if rng.random() < rate:
            n += 1
            out += [{"console": "\u0003login"}, {"console": SOAK_PIN}]
            for key, values in rng.sample(CHANGEABLE[game], rng.randrange(1, len(CHANGEABLE[game]) + 1)):
                out.append({"console": "set %s %s" % (key, rng.choice(values))})
            out += [{"console": "commit SOAK-%d" % n}, {"console": "logout"}]
        out.append(line)
    return out
