"""The soak's Craps ledger: every bet the table placed, judged by the rules judge over the rolls it saw.

`judge_every_bet(reports, settings)` rebuilds one tools.judge_craps request from the host's reports: each
valid `throw` is a roll; the bets of the last accepted reading before it (its `bets` report's `placed`: a
newer reading before the roll replaces the one before, a reading refused whole leaves it standing;
docs/craps.md "The table") are placed before that roll, line bets before the odds that back them (the zones'
order), each odds bet on the seat's first open line bet of its point (as the table's readings back it:
firmware/games/craps/readings.py `_backed`); a `bet_taken_down` (or
`bets_taken_down_more`) takes the seat's open bets of that zone out of the request, with the odds behind
them. Then every throw's `nets` must be the judge's for that roll, bet by bet summed by seat and zone, a
come bet under its come point's zone once it travelled (Craps arts. 5, 6). Multi-roll bets, odds and
come points included, across power cuts and resets.

Every `settings_changed` report is followed (the soak's technician changes the minimum, the maximum, the odds
limits, the Field's 12, the bets off on a come-out, the take-downs and the shooter's change on come-out craps;
docs/console.md): each bet is judged under the options in force when its reading came (the table applies a
change only with no bet open that an option decides, and decides a bet under the options it was placed under),
its outcome under that reading's Field's 12, bets off on a come-out and shooter's rule, the limits of every
reading at once (the least common stake unit, the highest odds and maximum), and its placement under its own
reading's limits, odds with the bet they back. A bet taken down once it stood through a roll must be of a kind
the take_down setting in force then allows (Craps art. 5(2)(1), (5); odds may come down with their line bet).
The ledger stops at a `link_lost` notice (reports the store refused may hide a reading or a roll): the throws
before it are judged.

Every `open_bets` answer (the host's request, mid-play and in the closing lines) before that notice must list the
bets the ledger holds open then: those the judge leaves open over the rolls so far (not taken down; a come bet on
its come point's zone), and those of the last accepted reading not yet rolled; summed by seat and zone, with their
count, the point of the last throw report and the shooter of the last shooter report.
"""
from math import gcd

from firmware.games.craps import bets as kinds, settings as craps_settings
from firmware.games.craps.zones import KIND_NUMBER, ZONES, zone_of
from tools.judge_craps import judge

LOST = "link_lost"                             # tools.replay's notice of reports the board's store refused
# the options that decide a placed bet's outcome (the rest bound a placement: limits, or a take-down)
OUTCOME = ("field_12", "off_on_come_out", "shooter_change_on_come_out_craps")
_OPEN_BETS = dict(craps_settings._HOUSE_DEFAULTS)["max_open_bets"]     # a table file's default


class BetMismatch(AssertionError):
    pass


def judge_every_bet(reports, settings):
    """-> the number of throws judged; BetMismatch at the first net that is not the judge's."""
    options = {k: v for k, v in settings.items() if k in craps_settings.SETTING_NAMES}
    ledger = _Ledger(options)
    nets = []                                  # each valid roll's reported nets, in order
    pending, under = {}, 0
    point, shooter = None, 1
    for r in reports:
        event = r["event"]
        if event == LOST:
            break
        if event == "settings_changed":
            options = dict(options)
            for key, (_old, new) in r["changes"].items():
                options[key] = new
            ledger.epochs.append(options)
        elif event == "bets" and "placed" in r:
            ledger.check_downs()
            pending, under = r["placed"], len(ledger.epochs) - 1
        elif event == "bet_taken_down":
            ledger.take_down(int(r["seat"]), r["zone"])
        elif event == "bets_taken_down_more":
            for seat, zones in r["bets"].items():
                for zone in zones:
                    ledger.take_down(int(seat), zone)
        elif event == "open_bets":
            ledger.check_downs()
            _check_open_bets(r, ledger.open_bets(pending), point, shooter)
        elif event == "shooter":
            shooter = r["shooter"]
        elif event == "throw" and r["valid"]:
            ledger.check_downs()
            for seat, zones in sorted(pending.items(), key=lambda item: int(item[0])):
                for zone in sorted(zones, key=ZONES.index):
                    ledger.place(int(seat), zone, zones[zone], under)
            pending = {}
            ledger.rolls.append(r["dice"])
            nets.append(r.get("nets", {}))
        if event == "throw":
            point = r["point"]
    ledger.check_downs()
    ledger.check_placements()
    judged = ledger.nets_by_roll()
    for k, reported in enumerate(nets):
        if reported != judged[k]:
            raise BetMismatch("roll %d %r: the table's nets %r, the judge says %r" % (k, ledger.rolls[k], reported,
                                                                               judged[k]))
    return len(nets)


def _check_open_bets(answer, held, point, shooter):
    """BetMismatch unless the table's open_bets answer is the ledger's (held: (bets, count))."""
    bets, count = held
    if (answer["bets"], answer["count"], answer["point"], answer["shooter"]) != (bets, count, point, shooter):
        raise BetMismatch("open_bets seq %s: the table answered %r (count %r, point %r, shooter %r), the ledger "
                          "holds %r (count %d, point %r, shooter %r)" % (
                              answer.get("seq"), answer["bets"], answer["count"], answer["point"], answer["shooter"],
                              bets, count, point, shooter))


def _most(a, b):
    """The looser of two maximums (0: none)."""
    return 0 if not a or not b else max(a, b)


class _Ledger:
    def __init__(self, options):
        self.epochs = [dict(options)]          # the options in force from each settings change on
        self.rolls = []
        self.bets = []                         # the judge request's bets (dicts), ids 0, 1, ...
        self.downs = []                        # odds taken down in the reading now: (bet, take_down in force)

    def _loosest(self, epochs):
        """Options with the limits of all `epochs` at once: every stake of theirs a multiple of the minimum, none
        over the maximum or the odds limits."""
        first = self.epochs[epochs[0]]
        loose = dict(first)
        for e in epochs[1:]:
            o = self.epochs[e]
            loose["minimum"] = gcd(loose["minimum"], o["minimum"])
            loose["maximum"] = _most(loose.get("maximum", 0), o.get("maximum", 0))
            loose["max_odds"] = [max(a, b) for a, b in zip(loose["max_odds"], o["max_odds"])]
            loose["max_open_bets"] = max(loose.get("max_open_bets", _OPEN_BETS), o.get("max_open_bets", _OPEN_BETS))
        return loose

    def _run(self, bets, options):
        request = [dict({k: v for k, v in b.items() if k not in ("zone", "down", "epoch")}, seat=b["seat"] - 1)
                   for b in bets]                  # (the engine's seats count from 0, the reports' from 1)
        out = judge(dict(options, game="craps", rolls=self.rolls, bets=request))
        if "error" in out:
            raise BetMismatch("the judge refuses the rolls: %s" % out["error"])
        return out["bets"]

    def _judge(self, bets):
        """The judge's outcome of each of `bets` (none taken down) over the rolls so far: each under its reading's
        OUTCOME options, every reading's limits at once (one judge run for each set of OUTCOME options)."""
        loose = self._loosest(list(range(len(self.epochs))))
        keys = [repr([self.epochs[b["epoch"]][k] for k in OUTCOME]) for b in bets]
        runs = {}
        for key, b in zip(keys, bets):
            if key not in runs:
                runs[key] = self._run(bets, dict(loose, **{k: self.epochs[b["epoch"]][k] for k in OUTCOME}))
        return [runs[key][i] for i, key in enumerate(keys)]

    def zone_after(self, bet, rolls):
        """The bet's zone after `rolls` rolls: a come / don't-come bet is on its come point's once its first
        roll gave it one (art. 5(2)(5), (6))."""
        zone = bet["zone"]
        if zone in ("come", "dont_come") and rolls > bet["at"]:
            total = sum(self.rolls[bet["at"]])
            if total in kinds.POINTS:
                return "%s_%d" % (zone, total)
        return zone

    def _open(self, seat):
        """The seat's bets open now (placed, not decided, not taken down), with their zones now."""
        kept = [b for b in self.bets if not b.get("down")]
        n = len(self.rolls)
        return [(b, self.zone_after(b, n)) for b, o in zip(kept, self._judge(kept))
                if b["seat"] == seat and o["result"] == "open"]

    def open_bets(self, pending):
        """({seat: {zone: amount}}, count) of the bets open now: those the judge leaves open over the rolls so far
        (their zones now) and the pending reading's (`placed`, not yet rolled), seats and zones in ZONES' order."""
        kept = [b for b in self.bets if not b.get("down")]
        n = len(self.rolls)
        held = [(b["seat"], self.zone_after(b, n), b["amount"]) for b, o in zip(kept, self._judge(kept))
                if o["result"] == "open"]
        held += [(int(seat), zone, amount) for seat, zones in pending.items() for zone, amount in zones.items()]
        out = {}
        for seat, zone, amount in sorted(held, key=lambda h: (h[0], ZONES.index(h[1]))):
            row = out.setdefault(str(seat), {})
            row[zone] = row.get(zone, 0) + amount
        return out, len(held)

    def place(self, seat, zone, amount, epoch):
        bet = {"id": len(self.bets), "seat": seat, "amount": amount, "at": len(self.rolls), "zone": zone,
               "epoch": epoch}
        kind, number = KIND_NUMBER[ZONES.index(zone)]
        name = kinds.KIND_NAMES[kind]
        if name in ("hard", "big_number"):
            bet.update(type=name, number=number)
        elif name in ("big", "small"):
            bet.update(type="big_or_small", side=name)
        elif kinds.is_odds(kind):
            wanted = ZONES[zone_of(kinds.odds_parent_kind(kind), number)]   # come_odds_6: come_6; pass_odds: pass
            backed = [b for b, now in self._open(seat) if now == wanted]
            if not backed:
                raise BetMismatch("seat %d %s %d: the table placed odds with no open %s bet to back" % (seat, zone,
                                                                                              amount, wanted))
            bet.update(type=name, on=backed[0]["id"])
        else:
            bet.update(type=name)
        self.bets.append(bet)

    def take_down(self, seat, zone):
        allowed = self.epochs[-1]["take_down"]
        for bet, now in self._open(seat):
            if now != zone:
                continue
            if len(self.rolls) > bet["at"]:          # in action: it stood through a roll (else always withdrawn)
                if bet["type"] in ("pass", "come"):     # open after a roll: it has a point
                    raise BetMismatch("seat %d %s: the table took down a contract bet (art. 5(2)(1), (5))" % (seat,
                                                                                                        zone))
                if "on" in bet:
                    self.downs.append((bet, allowed))  # odds: allowed with their line bet, else by the setting
                elif bet["type"] not in allowed:
                    raise BetMismatch("seat %d %s: the table took it down in action, take_down is %r" % (seat, zone,
                                                                                                       allowed))
            bet["down"] = True
            for odds in self.bets:
                if odds.get("on") == bet["id"]:
                    odds["down"] = True

    def check_downs(self):
        """The reading's odds taken down on their own (their line bet still up) in action: their kind allowed."""
        for bet, allowed in self.downs:
            parent = self.bets[bet["on"]]
            if not parent.get("down") and bet["type"] not in allowed:
                raise BetMismatch("seat %d %s: the table took it down in action, take_down is %r" % (
                    bet["seat"], bet["zone"], allowed))
        self.downs = []

    def check_placements(self):
        """Every bet placed within its own reading's limits (a stake a multiple of the minimum, art. 5(6), none over
        the maximum, odds within max_odds of the bet they back): judged per reading's options; odds behind a bet of
        an earlier reading's, with that bet, under both readings' minimum and maximum."""
        kept = [b for b in self.bets if not b.get("down")]
        for e in sorted({b["epoch"] for b in kept}):
            mine = [b for b in kept if b["epoch"] == e]
            across = [b for b in mine if "on" in b and self.bets[b["on"]]["epoch"] != e]
            self._placed_within([b for b in mine if b not in across], [e], e)
            for odds in across:
                backed = self.bets[odds["on"]]
                self._placed_within([backed, odds], [e, backed["epoch"]], e)

    def _placed_within(self, group, epochs, e):
        """BetMismatch if the judge rejects a bet of reading options `e` in `group`, under the limits of `epochs`
        at once and e's odds limits."""
        options = dict(self._loosest(epochs), max_odds=self.epochs[e]["max_odds"],
                       **{k: self.epochs[e][k] for k in OUTCOME})
        for b, o in zip(group, self._run(group, options)):
            if b["epoch"] == e and o["result"] == "rejected":
                raise BetMismatch("the judge rejects a bet the table placed: %r under %r (%s)" % (
                    b, {k: options[k] for k in ("minimum", "maximum", "max_odds") if k in options}, o.get("reason")))

    def nets_by_roll(self):
        """{seat: {zone: net}} of each roll, as the judge decides the bets not taken down."""
        kept = [b for b in self.bets if not b.get("down")]
        by_roll = [{} for _ in self.rolls]
        for bet, o in zip(kept, self._judge(kept)):
            if o["result"] == "rejected":
                raise BetMismatch("the judge rejects a bet the table placed: %r (%s)" % (bet, o.get("reason")))
            if o["roll"] is None:
                continue
            row = by_roll[o["roll"]].setdefault(str(bet["seat"]), {})
            zone = self.zone_after(bet, o["roll"])
            row[zone] = row.get(zone, 0) + o["net"]
        return by_roll
