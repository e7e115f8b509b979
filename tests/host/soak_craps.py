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

A `settings_changed` report of the minimum or the Field's 12 (what the soak's technician changes) goes on:
each bet is judged under the Field's 12 in force when its reading came (the table changes it only with no
Field bet open, docs/console.md), and the stakes under the greatest common divisor of the minimums (the minimum
only bounds a placement, which the table's own checks and the one-roll check judge). The ledger stops at a
change of any other setting and at a `link_lost` notice (reports the store refused may hide a reading or a
roll): the throws before it are judged.
"""
from math import gcd

from firmware.games.craps import bets as kinds, settings as craps_settings
from firmware.games.craps.zones import KIND_NUMBER, ZONES, zone_of
from tools.judge_craps import judge

LOST = "link_lost"                             # tools.replay's notice of reports the board's store refused
FOLLOWED = ("minimum", "field_12")             # the settings changes the ledger follows


class BetMismatch(AssertionError):
    pass


def judge_every_bet(reports, settings):
    """-> the number of throws judged; BetMismatch at the first net that is not the judge's."""
    options = {k: v for k, v in settings.items() if k in craps_settings.SETTING_NAMES}
    ledger = _Ledger(options)
    nets = []                                  # each valid roll's reported nets, in order
    pending, field_12 = {}, options["field_12"]
    for r in reports:
        event = r["event"]
        if event == LOST:
            break
        if event == "settings_changed":
            if any(key not in FOLLOWED for key in r["changes"]):
                break
            for key, (_old, new) in r["changes"].items():
                options[key] = new
            ledger.minimum = gcd(ledger.minimum, options["minimum"])
        elif event == "bets" and "placed" in r:
            pending, field_12 = r["placed"], options["field_12"]
        elif event == "bet_taken_down":
            ledger.take_down(int(r["seat"]), r["zone"])
        elif event == "bets_taken_down_more":
            for seat, zones in r["bets"].items():
                for zone in zones:
                    ledger.take_down(int(seat), zone)
        elif event == "throw" and r["valid"]:
            for seat, zones in sorted(pending.items(), key=lambda item: int(item[0])):
                for zone in sorted(zones, key=ZONES.index):
                    ledger.place(int(seat), zone, zones[zone], field_12)
            pending = {}
            ledger.rolls.append(r["dice"])
            nets.append(r.get("nets", {}))
    judged = ledger.nets_by_roll()
    for k, reported in enumerate(nets):
        if reported != judged[k]:
            raise BetMismatch("roll %d %r: the table's nets %r, the judge says %r" % (k, ledger.rolls[k], reported,
                                                                               judged[k]))
    return len(nets)


class _Ledger:
    def __init__(self, options):
        self.options = dict(options)           # (the first settings: the minimum and Field's 12 go per bet)
        self.minimum = options["minimum"]      # every minimum's divisor: the stakes' check
        self.rolls = []
        self.bets = []                         # the judge request's bets (dicts), ids 0, 1, ...

    def _judge(self, bets, field_12=None):
        """The judge's outcome of each of `bets` (none taken down) over the rolls so far."""
        request = [dict({k: v for k, v in b.items() if k not in ("zone", "down", "field_12")}, seat=b["seat"] - 1)
                   for b in bets]                  # (the engine's seats count from 0, the reports' from 1)
        options = dict(self.options, minimum=self.minimum, field_12=field_12 or self.options["field_12"])
        out = judge(dict(options, game="craps", rolls=self.rolls, bets=request))
        if "error" in out:
            raise BetMismatch("the judge refuses the rolls: %s" % out["error"])
        return out["bets"]

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

    def place(self, seat, zone, amount, field_12):
        bet = {"id": len(self.bets), "seat": seat, "amount": amount, "at": len(self.rolls), "zone": zone,
               "field_12": field_12}
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
        for bet, now in self._open(seat):
            if now == zone:
                bet["down"] = True
                for odds in self.bets:
                    if odds.get("on") == bet["id"]:
                        odds["down"] = True

    def nets_by_roll(self):
        """{seat: {zone: net}} of each roll, as the judge decides the bets not taken down."""
        kept = [b for b in self.bets if not b.get("down")]
        by_roll = [{} for _ in self.rolls]
        # each bet's outcome under the Field's 12 its reading came under (only a Field bet's depends on it)
        under = {f: self._judge(kept, f) for f in {b["field_12"] for b in kept}}
        for i, bet in enumerate(kept):
            o = under[bet["field_12"]][i]
            if o["result"] == "rejected":
                raise BetMismatch("the judge rejects a bet the table placed: %r (%s)" % (bet, o.get("reason")))
            if o["roll"] is None:
                continue
            row = by_roll[o["roll"]].setdefault(str(bet["seat"]), {})
            zone = self.zone_after(bet, o["roll"])
            row[zone] = row.get(zone, 0) + o["net"]
        return by_roll
