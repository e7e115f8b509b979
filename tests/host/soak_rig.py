"""Soak and fuzz rig: the unchanged firmware on long random scripts, and the invariants of the host's view.

The scripts are tests/host/soak_scripts.py's (replay input lines drawn from a seeded random.Random).
`run()` replays one in this process (tools.replay, fresh simulated flash) and the checks hold the
host's view (the reports, in order) to the invariants:

  - every boot numbers its reports 1, 2, 3, ... without a gap (the host client got every one);
  - no crash: no `crash_recorded` report, no `crashed` fault, no `internal error` anywhere;
  - nothing lost: every recovery after a power cut resumed from the journal, no queue_full,
    report_overflow, journal_bad, fault_record_unsaved or recall_unsaved fault; but for a table journal
    that filled in a long alarm (the soak's dealer may leave one open for a hundred throws), which the
    table says (`journal_bad` and a recovery's `full: true`) and which loses no bet it accepted (below);
  - every Baccarat result that is not void agrees with the rules judge (tools.judge_baccarat: the
    round's `card` reports, in their order, give the hands, totals, winner and pairs, Baccarat arts.
    7-9), its cards are those card reports, each once, and its nets are the judge's for the round's
    bets (arts. 16, 17); a void round nets 0;
  - every Omaha hand's chips are conserved, every hand_start has its hand_result, and every hand that is
    not void agrees with the rules judge (tools.judge_omaha: the hand's `dealt` cards and `action` reports,
    under the settings it started with, give its board, hole cards, pots, winners, rake and final stacks,
    Omaha arts. 5-16);
  - every Craps bet the table placed nets what the rules judge says over the rolls it saw (odds, come points and
    take-downs too: tests/host/soak_craps.py; each bet under the settings in force when its reading came, a
    take-down in action one the take_down setting allows), up to a lost report; every one-roll
    Craps bet a reading placed right before a valid roll nets what the judge says, a reset between them or not
    (a bet the table accepted is never lost);
  - every recovery that resumed left the table in the state the host last heard of before the reset (the last
    `state` report before `recovered`, unless a lost report may hide a later one);
  - after the closing lines (CONFIRM, a long VOID) no alarm stays open: the dealer can go on (the last `state`
    report, and the state the console's closing `status` shows).
  - the host's closing `RECALL 100`, and each one it sends mid-play, is answered with the rounds the live reports gave
    before it, each once, in order (Baccarat results with their cards as dealt, Craps throws numbered on by one
    across boots, Omaha hands: tests/host/soak_recall.py), up to a lost report.

`game_view` and `first_difference` compare two runs' game reports (garbage and power cuts must change
none). Used by tests/host/test_soak.py and by long runs (docs/hostsim.md, "Soak and fuzz"):
`python -m tests.host.soak_rig GAME FIRST_SEED COUNT SIZE`.
"""
import json
import random
import shutil
import sys
import tempfile

from firmware.console.pins import provision
from hostsim.headless import board_path
from tests.host import soak_scripts as scripts
# LOST: tools.replay's notice of a LOST frame, that many reports the board's full link store refused (host away)
from tests.host.soak_craps import LOST, BetMismatch, judge_every_bet
from tests.host.soak_displays import check_displays, sim_display_roles, with_display_pulls
from tests.host.soak_recall import check_recall
from tests.host.soak_sends import Sends
from tests.host.soak_scripts import CLOSING, table_file
from tools.judge_baccarat import judge_round
from tools.replay import replay

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
def run(lines, game="baccarat", table=None, closing=True, pin=None, **options):
    """Replay `lines` (dicts) on fresh simulated flash -> what it printed as dicts: the reports, the host client's
    notices and the console's lines ({"console": ...}, no seq: reports_only leaves them out)."""
    out = []
    state = tempfile.mkdtemp(prefix="soak-")
    if pin is not None:
        provision(state, pin)                  # the technician's PIN on the board's flash (console `login`)
    raw = [json.dumps(line).encode() for line in list(lines) + (CLOSING if closing else [])]
    try:
        with Sends() as sends:              # the board's side of the lost-report counts (soak_sends.py)
            replay(raw, table or table_file(game), board_path("sim"), state, out.append, **options)
    finally:
        shutil.rmtree(state, ignore_errors=True)
    seen = [json.loads(line) for line in out]
    sends.check(seen)
    return seen


def reports_only(seen):
    return [r for r in seen if "seq" in r]


def _host_view(seen):
    """The host's lines: the reports and the host client's notices, console lines left out."""
    return [r for r in seen if "console" not in r]


# The answers to the host's requests: paced by the link's room (a RECALL's one report at a time while the store is
# below half full: firmware/recall_answer.py), which the host's acknowledgements make, so the noise moves them among
# the other reports (and so their seq).
_ANSWERS = ("recall", "open_bets", "roads")


def answers_apart(view):
    """(the host's lines but the answers, each without its seq; {(kind, tag): that request's answers in order})."""
    rest = []
    answers = {}
    for r in view:
        line = {k: v for k, v in r.items() if k != "seq"}
        if r.get("event") in _ANSWERS:
            answers.setdefault((r["event"], r.get("tag")), []).append(line)
        else:
            rest.append(line)
    return rest, answers


def noise_difference(noisy, quiet):
    """The first difference of two runs' host lines, the answers to requests compared request by request."""
    rest, answers = answers_apart(_host_view(noisy))
    quiet_rest, quiet_answers = answers_apart(_host_view(quiet))
    difference = first_difference(rest, quiet_rest)
    for key in sorted(set(answers) | set(quiet_answers), key=repr):
        difference = difference or first_difference(answers.get(key, []), quiet_answers.get(key, []))
    return difference


# -- invariants ------------------------------------------------------------------------------------
class Broken(AssertionError):
    pass


# Faults that say an event, a report or the journal was lost: none may come up on a healthy flash.
_LOSING = ("queue_full", "report_overflow", "journal_bad", "fault_record_unsaved", "recall_unsaved")


def _recovers(reports, at):
    """The boot whose first report is reports[at] reports `recovered` (before the next boot's reports)."""
    for r in reports[at + 1:]:
        if r["event"] == "boot":
            return False
        if r["event"] == "recovered":
            return True
    return False


def check_common(seen):
    """Numbered without gaps per boot, but for the reports a link_lost notice counts; no crash; nothing lost; no
    internal error. -> the reports (no console lines), with the link_lost notices in their places (no seq)."""
    reports = [r for r in seen if "seq" in r or r.get("event") == LOST]
    expected, counted, carried, recovering = None, 0, 2, False
    for i, r in enumerate(reports):
        if r["event"] == LOST:
            counted += r["reports"]
            continue
        if r["event"] == "boot" or r["seq"] < (expected or 0):
            # (a boot whose boot report its full store refused: seq back)
            expected, carried, recovering = 1, 2, _recovers(reports, i)
        missing = r["seq"] - expected
        # A boot's counts may hold more than its own gaps: the reports the boot before it refused that no replay
        # makes again, in at most two counts (docs/host-link.md, "When the host is away"): the sender's own count
        # carried on flash (its first LOST frame, as soon as its store has room), and the snapshot's REFUSED count
        # the recovery adds before the replay's reports (docs/journal.md, "Snapshot"): before `recovered`, in a
        # boot that recovers. Every count after them is exact.
        if missing != counted and not (counted > missing and carried and (carried == 2 or recovering)):
            raise Broken("report %d: seq %r, expected %r, %d counted lost: %r" % (i, r["seq"], expected, counted, r))
        if counted > 0:
            carried = max(0, carried - 1)
        if r["event"] == "recovered":
            recovering = False          # (a count just before it is still the recovery's)
        expected, counted = r["seq"] + 1, 0
        if r["event"] == "crash_recorded" or r.get("fault") == "crashed":
            raise Broken("a crash: %r" % (r,))
        if r.get("full") is True or (r["event"] == "fault_ack" and r["fault"] == "journal_bad"):
            continue                 # a log filled in a long alarm, said so (recovered, journal_bad: "Full")
        if r["event"] == "recovered" and not r["resumed"] or r.get("fault") in _LOSING:
            raise Broken("lost: %r" % (r,))
    for r in seen:
        if "internal error" in json.dumps(r) or "Traceback" in json.dumps(r):
            raise Broken("an internal error: %r" % (r,))
        if "tag" in r and "seq" in r:           # the answer to a tagged request: of its kind (soak_scripts.tagged)
            kind = scripts.tag_kind(r["tag"])
            answer = scripts.TAG_ANSWERS[kind]
            refusal = r["event"] == "host_error" and (r.get("request") == kind      # (refused for its words: them)
                                                      or r.get("bytes", "").lstrip('{"').startswith(kind))
            if r["event"] != answer and not refusal:
                raise Broken("tag %r is a %s request's, given back in %r" % (r["tag"], kind, r))
    check_recovered_state(reports)
    return reports


def check_recovered_state(reports):
    """Every recovery that resumed left the table in the state the host last heard of before it: the last `state`
    report before the `recovered` one (the dead boot's, or one its replay sent before `recovered`: the reports the
    dead board made but had not stored; not the new boot's own `starting` and `ready`), unless a link_lost notice
    after it may hide a later one. A replay that decides otherwise than the table did (a round the table refused,
    taken) shows here first (found: a come-out the backed-up link held, rolled after the cut; docs/journal.md).
    A boot starts at its `boot` report, or where the seq goes back: a third boot in a row with the host away
    finds the store's kept slots taken and its `boot` report refused (docs/host-link.md, "If the store fills
    anyway"; Omaha seed 3108: its `ready`, seq 3, after the boot before's seq 3)."""
    last, own, hidden, expected = None, None, False, 0
    for i, r in enumerate(reports):
        event = r["event"]
        if event == LOST:
            hidden = True
            continue
        seq = r.get("seq", expected)
        if event == "boot" or seq < expected:
            own = []                               # the boot's own lamp test states, its first `starting` and `ready`
        expected = seq + 1
        if event == "state":
            state = r.get("state")
            if own is not None and state in ("starting", "ready") and state not in own:
                own.append(state)                  # (either may be the one a full store refused)
                continue
            last, hidden = state, False
        elif event == "recovered":
            own = None
            if r.get("resumed") and not hidden and last not in (None, "lamp_check") and last != r.get("state"):
                raise Broken("report %d: the recovery resumed in %r, the table was in %r before the reset: %r"
                             % (i, r["state"], last, r))


def check_baccarat(seen, settings=None):
    """Every settled round agrees with the judge; its cards are the round's card reports; the table is
    not left held in an alarm. -> the list of (round, winner, nets) settled."""
    followed = Followed("baccarat", settings)
    reports = check_common(seen)
    dealt, bets, settled = [], None, []
    for r in reports:
        ev = r["event"]
        followed.see(r)
        if ev == "round":
            dealt, bets = [], r.get("bets")
        elif ev == LOST:
            dealt = None                  # the round's reports not all here: its result is not judged
        elif ev == "card" and r["to"] in ("player", "banker") and dealt is not None:
            dealt.append((r["to"], r["card"]))
        elif ev == "result":
            if r["void"] or r["winner"] is None:
                if r.get("nets") and any(v for z in r["nets"].values() for v in z.values()):
                    raise Broken("a void round with nets not 0: %r" % (r,))
                settled.append((r["round"], None, r.get("nets")))
                continue
            if dealt is not None and followed.known:
                _check_result(r, dealt, bets, {k: followed.values[k] for k in _ROUND_OPTIONS})
            settled.append((r["round"], r["winner"], r.get("nets")))
    check_stuck(reports, seen)
    check_recall(reports, "baccarat")
    return settled


_ROUND_OPTIONS = ("method", "commission", "tie_option")     # what a Baccarat round is judged under


class Followed:
    """The settings a check judges under: the table file's (or `settings` over them), then each settings_changed
    report's changes, whose digest (the new table file's, firmware.host_port.settings_digest) they must give.
    `known` while they are surely the table's: reports lost (a link_lost notice) may hide a change; they are
    known again once a boot or settings_changed report's digest is theirs."""

    def __init__(self, game, settings=None):
        with open(table_file(game)) as f:
            self.file = json.load(f)
        self.values = dict(self.file["settings"], **(settings or {}))
        self.known = True

    def see(self, r):
        event = r["event"]
        if event == LOST:
            self.known = False
        elif event == "settings_changed":
            _follow(self.values, r)
            same = _same_settings(self.file, self.values, r["settings"])
            if self.known and not same:
                raise Broken("settings_changed %r: the settings followed, %r, are not the table's (digest %s)" % (
                    r["changes"], self.values, r["settings"]))
            self.known = same
        elif event == "boot" and not self.known:
            self.known = _same_settings(self.file, self.values, r["settings"])


def _follow(settings, changed):
    """A settings change the table applied (settings_changed): the judge's options from here on."""
    for key, (_old, new) in changed["changes"].items():
        settings[key] = new


def _same_settings(table, settings, digest):
    """Whether `settings` in the table file `table` are the ones whose digest a report gives."""
    from firmware.host_port import settings_digest
    return settings_digest(dict(table, settings=settings)) == digest


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


def check_stuck(reports, seen=()):
    """No alarm left after the closing lines: the last `state` report is not `fault`, unless a `link_lost` notice
    after it may hide a later one (the store full on a noisy line or with the host away); and the state the
    console's closing `status` line shows (soak_scripts.CLOSING: the console is no host report, nothing hides it)
    is not `fault`."""
    state, hidden = None, False
    for r in reports:
        if r["event"] == "state":
            state, hidden = r["state"], False
        elif r["event"] == LOST:
            hidden = True
    shown = [r["console"].rsplit(" state ", 1)[1] for r in seen
             if "console" in r and r["console"].startswith("table ") and " state " in r["console"]]
    if (state == "fault" and not hidden) or shown[-1:] == ["fault"]:
        raise Broken("the table is still held in an alarm after CONFIRM and a long VOID: %r"
                     % ([r for r in reports if r["event"] == "fault"][-1:],))


def check_omaha(seen, settings=None):
    """Every hand's chips are conserved (the stacks before it = the stacks after + the rake; a void hand
    gives every chip back); every hand that is not void is the rules judge's (tools.judge_omaha) for the
    hand's `dealt` cards and `action` reports under the settings it started with: its board, hole cards,
    pots (amounts, eligible seats, winners), rake (art. 16: the percent of each pot, capped once) and final
    stacks; each hand_start has its hand_result; the table is not left held. -> hands ended."""
    followed = Followed("omaha", settings)
    reports = check_common(seen)
    start, done = None, 0
    for r in reports:
        followed.see(r)
        if r["event"] == LOST:
            start = False                 # a hand's reports not all here: its result is not checked
        elif r["event"] == "hand_start":
            if start and start["hand"] != r["hand"]:
                raise Broken("hand %s started before hand %s ended" % (r["hand"], start["hand"]))
            start, deck, actions, under = r, [], [], dict(followed.values) if followed.known else None
        elif r["event"] == "dealt" and start and r["to"] != "discard":
            deck.append(r["card"])
        elif r["event"] == "action" and start:
            actions.append([r["seat"], r["act"]] + ([r["amount"]] if r["act"] in ("bet", "raise") else []))
        elif r["event"] == "hand_result":
            if start is False:
                start, done = None, done + 1
                continue
            if start is None or start["hand"] != r["hand"]:
                raise Broken("a result without its start: %r" % (r,))
            before, after = sum(start["stacks"].values()), sum(r["stacks"].values())
            if before != after + r["rake"] or (r["void"] and (r["rake"] or start["stacks"] != r["stacks"])):
                raise Broken("hand %s: chips not conserved: %d before, %d after + %d rake"
                             % (r["hand"], before, after, r["rake"]))
            if not r["void"] and under is not None:
                _check_hand(r, start, deck, actions, under)
            start, done = None, done + 1
    check_stuck(reports, seen)
    check_recall(reports, "omaha")
    return done


def _check_hand(r, start, deck, actions, settings):
    from tools.judge_omaha import judge_round as judge_hand
    rake = {"percent": settings["rake_percent"], "cap_big_blinds": settings["rake_cap_big_blinds"]}
    request = {"game": "omaha_round", "button": start["button"], "stacks": start["stacks"], "deck": deck,
               "actions": actions, "rake": rake if float(settings["rake_percent"]) else None}
    request.update((k, settings[k]) for k in ("structure", "small_blind", "big_blind", "odd_chip", "heads_up",
                                              "seats"))
    judged = judge_hand(request)
    if "error" in judged:
        raise Broken("hand %s: the judge refuses the table's actions %r: %s" % (r["hand"], actions, judged["error"]))
    pots = [{k: p[k] for k in ("amount", "eligible", "winners")} for p in r["pots"]]
    mine = {"hole": r["hole"], "board": r["board"], "pots": pots, "rake": r["rake"], "stacks": r["stacks"]}
    for key, value in mine.items():
        if judged[key] != value:
            raise Broken("hand %s: %s is %r, the judge says %r (%r)" % (r["hand"], key, value, judged[key], r))


ONE_ROLL = ("field", "any_craps", "any_seven", "eleven", "ace_deuce", "aces", "boxcars", "horn")


def check_craps(seen, settings=None):
    """The common invariants, no alarm left; every bet the table placed nets what the rules judge says over the
    rolls it saw, up to a link_lost notice, under the settings in force when its reading came
    (tests/host/soak_craps.py: odds, come points and take-downs too); every one-roll bet (Craps art. 5(3),
    (7)-(12)) a reading placed right before a valid roll nets what the judge says for that roll, under the
    settings it was placed under, a reset between them or not (the journal keeps every reading the table
    accepted). -> throws reported."""
    from tools.judge_craps import judge
    followed = Followed("craps", settings)
    reports = check_common(seen)
    try:
        judge_every_bet(reports, followed.values)
    except BetMismatch as exc:
        raise Broken(str(exc))
    placed, placed_under = {}, None
    for r in reports:
        followed.see(r)
        if r["event"] == LOST:
            placed = {}                   # a reading's report may be among them: the next throw is not judged
        elif r["event"] == "bets" and "placed" in r:
            placed = {(seat, zone): amount for seat, zones in r["placed"].items() for zone, amount in zones.items()
                      if zone in ONE_ROLL}
            # Judged under the settings they were placed under: a change may apply before the roll (a come-out
            # with only one-roll bets open, none an option decides: docs/console.md), and a stake the new minimum
            # would refuse stands.
            placed_under = dict(followed.values) if followed.known else None
        elif r["event"] == "throw":
            if r["valid"] and placed and placed_under is not None:
                request = dict(placed_under, game="craps", rolls=[r["dice"]],
                               bets=[{"id": "%s %s" % k, "type": k[1], "amount": v, "at": 0} for k, v in placed.items()])
                for bet in judge(request)["bets"]:
                    seat, zone = bet["id"].split()
                    got = r.get("nets", {}).get(seat, {}).get(zone)
                    if got != bet["net"]:
                        raise Broken("throw %r: seat %s %s nets %r, the judge says %r" % (r["dice"], seat, zone, got,
                                                                                      bet["net"]))
            placed = {} if r["valid"] or r.get("no_roll") == "alarm" else placed
    check_stuck(reports, seen)
    check_recall(reports, "craps")
    return sum(1 for r in reports if r["event"] == "throw")


_GAMES = {"baccarat": (scripts.baccarat_script, lambda seen: len(check_baccarat(seen))),
          "craps": (scripts.craps_script, lambda seen: check_craps(seen)),
          "omaha": (scripts.omaha_script, lambda seen: check_omaha(seen))}
# --clean: legal play, and the game's reports that garbage and power cuts must not change
_CLEAN = {"baccarat": (scripts.clean_baccarat_script, ("round", "card", "result", "shoe"),
                       ("shoe", "dice", "host", "console")),
          "craps": (scripts.clean_craps_script, ("throw", "puck", "shooter", "bet_taken_down"),
                    ("dice", "bets", "host", "console")),
          "omaha": (scripts.clean_omaha_script, ("hand_start", "dealt", "action", "hand_result"),
                    ("shoe", "bets", "host", "console"))}


def clean_differential(rng, lines, game, seen, pin=None, refused=None):
    """The clean script again with garbage put between its lines (on `_CLEAN`'s ports, a reader's alarm confirmed),
    again with power cuts, and (`refused`: the same script with bets or entries the rules refuse among it, the
    Craps and Omaha scripts' `refusals`) again so, and with all of these at once: each held to the invariants, and
    none changes a game report of `seen`'s (the plain run's), unless either backed the link up (the host away: the
    table then holds its next round) -> the boots of the run with the cuts. Where the plain run itself held an
    alarm with settings changes among its legal play (a new shoe held for a change while the shoe's
    end raised one), the CONFIRM after a reader's garbage may close that alarm before the script does, and the
    cards after it are the table's alarm rather than discards (Baccarat seed 3302, --clean --settings-changes
    --write-cuts): the runs with garbage are then held to the invariants only."""
    _make, events, ports = _CLEAN[game]
    check = _GAMES[game][1]
    if any(line.get("host") == "away" for line in lines):
        ports = tuple(p for p in ports if p != "host")    # (no bytes on a line cut both ways: a replay error)
    alarmed = (any(r.get("event") == "settings_pending" for r in seen)            # (legal play alone raises none)
               and any(r.get("event") == "state" and r.get("state") == "fault" for r in seen))
    cut = scripts.with_power_cuts(rng, lines, rate=0.08)
    # and all of it at once: refused input, garbage and power cuts in one run
    together = scripts.with_power_cuts(rng, scripts.with_garbage(rng, refused or lines, ports=ports), rate=0.05)
    for messed in (scripts.with_garbage(rng, lines, ports=ports), cut) + ((refused,) if refused else ()) + (together,):
        messed_seen = run(messed, game=game, pin=pin)
        check(messed_seen)
        if messed is cut:
            boots = sum(1 for r in messed_seen if r.get("event") == "boot")
        if alarmed and messed is not cut and messed is not refused:
            continue
        difference = game_difference(seen, messed_seen, events)
        if difference:
            raise Broken("garbage, power cuts or refused entries changed a game report: " + difference)
    return boots


def game_difference(seen, other, events):
    """The first game report (`events`, and settings_changed) where `other` differs from `seen`, or None; None too
    where either backed the link up (the host away: the table then holds its next round) or they applied other
    settings changes (a mess hit a technician's lines: garbage on the console, a cut in the session)."""
    if any(r.get("fault") == "link_backlog" for r in other + seen):
        return None
    if game_view(seen, ("settings_changed",)) != game_view(other, ("settings_changed",)):
        return None
    return first_difference(game_view(seen, events + ("settings_changed",)),
                            game_view(other, events + ("settings_changed",)))


def _open_bets_held(seen):
    """The open_bets answers before the first link_lost notice: those tests/host/soak_craps.py holds to its ledger."""
    held = 0
    for r in seen:
        if r.get("event") == LOST:
            break
        held += r.get("event") == "open_bets"
    return held


def main(argv):
    """python -m tests.host.soak_rig GAME FIRST_SEED COUNT SIZE [--clean] [--host-away] [--settings-changes]
    [--write-cuts] [--line-noise P] [--display-pulls]: one JSON line a seed; 1 if any broke. SIZE: Baccarat rounds (about), Craps
    throws, Omaha hands.
    --clean: legal play (clean_baccarat_script, clean_craps_script, clean_omaha_script: all of it judged), then the
    same script with garbage and again with power cuts put in, and at Craps and Omaha (without --host-away and
    --settings-changes) with bets or entries the rules refuse among it, then all of them in one run: none may
    change a game report (`boots`: the run with the cuts'). --host-away: the
    host away around some lines (soak_scripts.with_host_absences); `lost`: the reports the board's full store
    refused. --settings-changes: a technician's settings change at the console now and then
    (soak_scripts.with_settings_changes: Baccarat's method and commission, Craps' minimum, maximum, odds limits,
    Field's 12, bets off on a come-out, take-downs and shooter's rule, Omaha's rake and blinds; the checks judge
    under the settings each settings_changed report gives); `changed`: how many the table applied. `recalled`: the
    rounds the host's RECALLs were answered with (held to the live reports); `open_bets`: a Craps table's answers
    to the host's open_bets held to the ledger (those before a link_lost notice); `tagged`: the answers giving a
    request's tag back (each held to its request's kind: check_common).
    --write-cuts: each script also replayed with the power cut in the middle of a flash write (after 20-400 writes,
    the write torn half done or not done, then 0-2 cuts more in the next boots' recoveries: hostsim.flash.FlashFS,
    seeded by the seed), held to the invariants and, with --clean, to the plain run's game reports (`write_cut`:
    [writes, torn, the cuts after, boots]).
    --line-noise P: each script also replayed on a host line that hits each byte with probability P (seeded by the
    seed), held to the same invariants and, without --host-away and unless either run backed the link up
    (`backlog`), to the quiet line's host reports and notices, one for one (docs/protocol.md), but each request's
    answers as a stream of their own (noise_difference); console lines are not compared.
    --display-pulls: each script also replayed with display cables pulled and put back now and then
    (tests/host/soak_displays.py), held to the invariants and to its display reports (`displays`: how many came
    back) and, with --clean, to the plain run's game reports (each pull's alarm confirmed before play goes on)."""
    away = "--host-away" in argv
    pulls = "--display-pulls" in argv
    changes = "--settings-changes" in argv
    clean = "--clean" in argv
    write_cuts = "--write-cuts" in argv
    argv = [a for a in argv if a not in ("--host-away", "--settings-changes", "--clean", "--write-cuts",
                                         "--display-pulls")]
    noise = 0.0
    if "--line-noise" in argv:
        at = argv.index("--line-noise")
        noise = float(argv[at + 1])
        del argv[at:at + 2]
    game, first, count, size = argv[0], int(argv[1]), int(argv[2]), int(argv[3])
    make, check = _GAMES[game]
    if clean:
        if game not in _CLEAN:
            raise SystemExit("--clean: legal-play scripts for %s only" % " and ".join(sorted(_CLEAN)))
        make = _CLEAN[game][0]
    failed = 0
    for seed in range(first, first + count):
        lines = make(random.Random(seed), size)
        if changes:
            lines = scripts.with_settings_changes(random.Random(seed + 2000003), lines, game)
        if away:
            lines = scripts.with_host_absences(random.Random(seed + 1000003), lines)
        pin = scripts.SOAK_PIN if changes else None
        try:
            seen = run(lines, game=game, pin=pin)
            done = check(seen)
            verdict = {"seed": seed, "lines": len(lines), "reports": len(reports_only(seen)), "done": done,
                       "changed": sum(1 for r in seen if r.get("event") == "settings_changed"),
                       "boots": sum(1 for r in seen if r.get("event") == "boot"),
                       "lost": sum(r["reports"] for r in seen if r.get("event") == LOST),
                       "recalled": sum(1 for r in seen if r.get("event") == "recall" and r["round"] is not None),
                       "open_bets": _open_bets_held(seen),
                       "tagged": sum(1 for r in seen if "tag" in r and "seq" in r)}
            if clean:
                refused = None
                if game != "baccarat" and not changes and not away:
                    refused = make(random.Random(seed), size, refusals=random.Random(seed + 4000037))
                verdict["boots"] = clean_differential(random.Random(seed + 3000017), lines, game, seen, pin, refused)
            if write_cuts:
                # The power cut in the middle of a flash write (hostsim.flash.FlashFS): after n writes, the next one
                # torn half done or not done, then 0-2 cuts more in the boots after it (their recoveries).
                cuts = random.Random(seed + 5000011)
                n, torn = cuts.randrange(20, 400), cuts.random() < 0.5
                more = [cuts.randrange(5, 200) for _ in range(cuts.randrange(3))]
                cut_seen = run(lines, game=game, pin=pin, cut_after_writes=n, torn=torn, then_cut_after=more)
                check(cut_seen)
                difference = game_difference(seen, cut_seen, _CLEAN[game][1]) if clean else None
                if difference:
                    raise Broken("a cut in a flash write changed a game report: " + difference)
                verdict["write_cut"] = [n, torn, more, sum(1 for r in cut_seen if r.get("event") == "boot")]
            if pulls:
                pulled = with_display_pulls(random.Random(seed + 6000011), lines, sim_display_roles())
                pulled_seen = run(pulled, game=game, pin=pin)
                check(pulled_seen)
                verdict["displays"] = check_displays(pulled_seen, pulled)
                # (a CONFIRM of a pull's alarm may close an alarm the plain run held: clean_differential's case)
                alarmed = (any(r.get("event") == "settings_pending" for r in seen)
                           and any(r.get("event") == "state" and r.get("state") == "fault" for r in seen))
                difference = game_difference(seen, pulled_seen, _CLEAN[game][1]) if clean and not alarmed else None
                if difference:
                    raise Broken("a display's cable pulled changed a game report: " + difference)
            if noise:
                noisy = run(lines, game=game, line_noise=noise, seed=seed, pin=pin)
                check(noisy)
                # With the host away now and then, or where either run backed the link up (link_backlog: the table
                # holds its next round, then the store refuses reports and bet readings), the noise decides how much
                # room the store has when: the invariants. Else the quiet line's host lines, one for one (the
                # console's fall among them as the host gets its frames, and its `status` counts the noise).
                backlog = any(r.get("fault") == "link_backlog" for r in noisy + seen)
                difference = None if backlog or away else noise_difference(noisy, seen)
                if difference:
                    raise Broken("the noisy line's output differs from the quiet one's: " + difference)
                verdict["backlog"] = backlog
            print(json.dumps(verdict), flush=True)
        except Exception as exc:  # keep going: every seed's verdict
            failed += 1
            print(json.dumps({"seed": seed, "error": "%s: %s" % (type(exc).__name__, str(exc)[:2000])}),
                  flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
