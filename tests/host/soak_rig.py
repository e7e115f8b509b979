"""Soak and fuzz rig: random table scripts for tools.replay and the invariants the host's view must keep.

A script is a list of replay input lines (docs/protocol.md, "Replay input") drawn from a seeded
random.Random: mostly legal play (a shuffled shoe dealt in order, bet readings), mixed with what a
floor throws at a table: unreadable cards, double pulls, garbled frames, sensor faults, shoe
restarts, bets that are illegal, raw garbage bytes on every port, console lines, buttons, waits and
power cuts. `run()` replays it in this process on fresh simulated flash and `check()` holds the
host's view (the reports, in order) to the invariants:

  - every boot numbers its reports 1, 2, 3, ... without a gap (the host client got every one);
  - no crash: no `crash_recorded` report, no `crashed` fault, no `internal error` anywhere;
  - every Baccarat result that is not void agrees with the rules judge (tools.judge_baccarat: the
    round's `card` reports, in their order, give the hands, totals, winner and pairs, Baccarat arts.
    7-9), its cards are those card reports, each once, and its nets are the judge's for the round's
    bets (arts. 16, 17);
  - after the closing lines (CONFIRM, a long VOID) no alarm stays open: the dealer can go on.

Used by tests/host/test_soak.py (a seed-fixed soak and a hypothesis fuzz) and by long runs
(`python -m tests.host.soak_rig baccarat SEEDS ROUNDS`).
"""
import json
import os
import random
import shutil
import sys
import tempfile

from hostsim.headless import board_path
from tools.judge_baccarat import judge_round
from tools.replay import replay

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RANKS = "23456789TJQKA"
SUITS = "cdhs"
BACCARAT_ZONES = ("player", "banker", "tie", "player_pair", "banker_pair")
PORTS = ("shoe", "bets", "dice", "host", "console")
CLOSING = [{"button": "confirm"}, {"button": "void", "long": True}, {"button": "confirm"}]


def table_file(game):
    return os.path.join(REPO, "boards", "tables", "sim-%s.json" % game)


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
            shoe = _shoe_cards(rng)
            lines += [{"shoe": "out"}, {"shoe": "new"}]
        if n >= 12 and rng.random() < 0.22:
            lines.append(baccarat_bets(rng))
        if rng.random() < mess:
            lines += _baccarat_mess(rng, shoe, cuts)
        lines.append({"card": shoe.pop()})
    return lines


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
    if roll < 0.50:
        return [{"shoe_fault": rng.randrange(70000)}, {"button": "confirm"}]
    if roll < 0.54:
        return [{"shoe": "hello"}, {"button": "confirm"}]
    if roll < 0.60:
        return [{"button": rng.choice(["confirm", "void", "deal", "shoe_change"]), "long": rng.random() < 0.3}]
    if roll < 0.66:
        return [{"console": rng.choice(["status", "help", "log", "recall 3", "zones", "crash", "sensors",
                                        "bogus", "lamp all", "x" * 200, "\u0003", "status\u007f\u007fxx"])}]
    if roll < 0.70:
        return [{"roads": True}]
    if roll < 0.74:
        return [{"wait_ms": rng.choice([0, 30, 170, 1000, 20000])}]
    if roll < 0.78:
        return [{"shoe": "out"}, {"button": "confirm"}, {"shoe": "new"}]
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
    if roll < 0.70:
        return [{"raw": {"port": "host", "hex": b"#0.0 0 RECALL 7*00000000\nroads\n".hex()}}]
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
    for _ in range(hands):
        seats = rng.sample(range(1, 11), rng.randrange(2, 6))
        lines += [{"button": "confirm"}, {"button": "void", "long": True},
                  {"hand": {"button": rng.choice(seats), "stacks": {str(s): rng.choice([60, 150, 1000]) for s in seats}}}]
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
            elif roll < 0.98:
                lines.append({"button": rng.choice(["confirm", "void", "deal"]), "long": rng.random() < 0.3})
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


GAME_EVENTS = ("round", "card", "result", "shoe", "throw", "puck", "shooter", "bet_refused", "bet_taken_down",
               "hand_start", "dealt", "action", "action_refused", "hand_result", "seat")


def game_view(seen, events=GAME_EVENTS):
    """The game's own reports without their seq: what must not change whatever else happens."""
    return [{k: v for k, v in r.items() if k != "seq"} for r in reports_only(seen) if r["event"] in events]


def first_difference(a, b):
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return "report %d: %r != %r" % (i, x, y)
    if len(a) != len(b):
        return "%d reports != %d reports (next: %r)" % (len(a), len(b), (a[len(b):] or b[len(a):])[:1])
    return None


# -- running ---------------------------------------------------------------------------------------
def run(lines, game="baccarat", table=None, closing=True, **options):
    """Replay `lines` (dicts) on fresh simulated flash -> the reports as dicts (console lines left out)."""
    out = []
    state = tempfile.mkdtemp(prefix="soak-")
    raw = [json.dumps(line).encode() for line in list(lines) + (CLOSING if closing else [])]
    try:
        replay(raw, table or table_file(game), board_path("sim"), state, out.append, **options)
    finally:
        shutil.rmtree(state, ignore_errors=True)
    return [json.loads(line) for line in out]


def reports_only(seen):
    return [r for r in seen if "seq" in r]


# -- invariants ------------------------------------------------------------------------------------
class Broken(AssertionError):
    pass


def check_common(seen):
    """Numbered without gaps per boot; no crash; no internal error. -> the reports (console lines out)."""
    reports = reports_only(seen)
    expected = None
    for i, r in enumerate(reports):
        if r["event"] == "boot":
            expected = 1
        if r["seq"] != expected:
            raise Broken("report %d: seq %r, expected %r: %r" % (i, r["seq"], expected, r))
        expected += 1
        if r["event"] == "crash_recorded" or r.get("fault") == "crashed":
            raise Broken("a crash: %r" % (r,))
    for r in seen:
        if "internal error" in json.dumps(r) or "Traceback" in json.dumps(r):
            raise Broken("an internal error: %r" % (r,))
    return reports


def check_baccarat(seen, settings=None):
    """Every settled round agrees with the judge; its cards are the round's card reports; the table is
    not left held in an alarm. -> the list of (round, winner, nets) settled."""
    settings = settings or {"method": 1, "commission": "A", "tie_option": "returned"}
    reports = check_common(seen)
    dealt, bets, settled = [], None, []
    for r in reports:
        ev = r["event"]
        if ev == "round":
            dealt, bets = [], r.get("bets")
        elif ev == "card" and r["to"] in ("player", "banker"):
            dealt.append((r["to"], r["card"]))
        elif ev == "result":
            if r["void"] or r["winner"] is None:
                if r.get("nets") and any(v for z in r["nets"].values() for v in z.values()):
                    raise Broken("a void round with nets not 0: %r" % (r,))
                settled.append((r["round"], None, r.get("nets")))
                continue
            _check_result(r, dealt, bets, settings)
            settled.append((r["round"], r["winner"], r.get("nets")))
    check_stuck(reports)
    return settled


def _check_result(r, dealt, bets, settings):
    player, banker = r["player"], r["banker"]
    mine = [c for to, c in dealt if to == "player"], [c for to, c in dealt if to == "banker"]
    if mine != (player, banker):
        raise Broken("round %s: the result's cards %r / %r are not the card reports %r" % (r["round"], player,
                                                                                          banker, dealt))
    request = dict(settings, game="baccarat", cards=[c for _to, c in dealt])
    judged = judge_round(dict(request))
    for key in ("player", "banker", "player_total", "banker_total", "winner", "player_pair", "banker_pair"):
        if judged[key] != r[key]:
            raise Broken("round %s: %s is %r, the judge says %r: %r" % (r["round"], key, r[key], judged[key], r))
    if judged["cards_used"] != len(player) + len(banker):
        raise Broken("round %s: the judge uses %d cards, the table %d" % (r["round"], judged["cards_used"],
                                                                       len(player) + len(banker)))
    if (bets is None) != ("nets" not in r):
        raise Broken("round %s: bets %r but nets %r" % (r["round"], bets, r.get("nets")))
    for seat, zones in (bets or {}).items():
        net = judge_round(dict(request, bets=zones))["net"]
        if r["nets"].get(seat) != net:
            raise Broken("round %s seat %s: nets %r, the judge says %r" % (r["round"], seat, r["nets"].get(seat),
                                                                          net))


def check_stuck(reports):
    states = [r["state"] for r in reports if r["event"] == "state"]
    if states and states[-1] == "fault":
        raise Broken("the table is still held in an alarm after CONFIRM and a long VOID: %r"
                     % ([r for r in reports if r["event"] == "fault"][-1:],))


def check_omaha(seen):
    """Every hand's chips are conserved (the stacks before it = the stacks after + the rake; a void hand
    gives every chip back), each hand_start has its hand_result, the table is not left held."""
    reports = check_common(seen)
    start, done = None, 0
    for r in reports:
        if r["event"] == "hand_start":
            if start is not None and start["hand"] != r["hand"]:
                raise Broken("hand %s started before hand %s ended" % (r["hand"], start["hand"]))
            start = r
        elif r["event"] == "hand_result":
            if start is None or start["hand"] != r["hand"]:
                raise Broken("a result without its start: %r" % (r,))
            before, after = sum(start["stacks"].values()), sum(r["stacks"].values())
            if before != after + r["rake"] or (r["void"] and (r["rake"] or start["stacks"] != r["stacks"])):
                raise Broken("hand %s: chips not conserved: %d before, %d after + %d rake"
                             % (r["hand"], before, after, r["rake"]))
            start, done = None, done + 1
    check_stuck(reports)
    return done


def check_craps(seen):
    reports = check_common(seen)
    check_stuck(reports)
    return sum(1 for r in reports if r["event"] == "throw")


def main(argv):
    """python -m tests.host.soak_rig baccarat FIRST_SEED COUNT ROUNDS [--no-cuts]: long runs, one line a seed."""
    game, first, count, rounds = argv[0], int(argv[1]), int(argv[2]), int(argv[3])
    cuts = "--no-cuts" not in argv
    failed = 0
    for seed in range(first, first + count):
        rng = random.Random(seed)
        lines = baccarat_script(rng, rounds, cuts=cuts)
        try:
            seen = run(lines)
            settled = check_baccarat(seen)
            print(json.dumps({"seed": seed, "lines": len(lines), "reports": len(reports_only(seen)),
                              "settled": len(settled), "void": sum(1 for s in settled if s[1] is None),
                              "boots": sum(1 for r in seen if r.get("event") == "boot")}), flush=True)
        except Exception as exc:  # keep going: every seed's verdict
            failed += 1
            print(json.dumps({"seed": seed, "error": "%s: %s" % (type(exc).__name__, str(exc)[:2000])}),
                  flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
