# The dealer of a simulated Omaha table: stacks and hands keyed on the keypad, cards through the shoe.
#
# OmahaDealer(io, settings, players, seed, pace) runs one Omaha table through a
# hostsim.table_io.TableIO, on the virtual clock: call tick(now_ms) often and
# hand it every host report (on_report). Everything it does is what a dealer
# does at the table, and it knows the hand only from the table's reports:
#
#   seating   the shoe switched on (its HELLO) before anything else, then
#             each emulated player's buy-in keyed as `<seat> STACK <amount> ENTER`
#             (at the start, and again for a player who went broke: the rebuy);
#             the keypad rather than the host's `hand` request, because the dealer
#             is the one at the table who does it, and a rebuy between hands is
#             the same entry (the host request is covered by tools.replay's tests)
#   a hand    NEW ENTER; the table's hand_start report (button, players in
#             dealing order, stacks) builds the host-side copy of the hand
#             (hostsim.omaha_players.HandMirror: the firmware's own engine)
#             and a freshly shuffled deck for exactly those players
#             (hostsim.shoe.OmahaDeal.deal_to: four hole cards one at a time
#             from the button's left, burn, flop x3, burn, turn, burn, river)
#   cards     one at a time through the emulated shoe, each once the table has
#             reported the last one (`dealt`), while the copy expects a card
#   actions   while the copy expects an action, the seat to act picks one by the
#             players' seeded policy (always legal) and the dealer keys it:
#             `<seat> ACTION [amount] ENTER`, one key at a time
#   result    hand_result: stacks noted, the copy checked against it (its stacks,
#             its rake); broke players rebuy before the next hand
#
# Whatever the table reports differently from its own engine's copy is kept in
# `mismatches`; a refused entry is counted (`refused`); neither should ever
# happen. The dealer waits while the table is held in an alarm (`fault`).
# Used by hostsim.sim (the live view) and hostsim.omaha_autoplay (headless runs).
import collections
import random

from firmware import cards
from firmware.games.omaha.settings import MAX_PLAYERS
from firmware.main import POLL_MS
from hostsim.omaha_players import (
    HandMirror, MirrorError, Players, action_keys, new_hand_keys, stack_keys)
from hostsim.shoe import OmahaDeal
from hostsim.table_io import KEY_GAP_MS, SHOE_PORT, SHORT_PRESS_MS

# key_ms: a key every this long, held hold_ms of it; card_ms: a card every this long; think_ms: a player's
# time to decide; hand_gap_ms: between a result and the next hand's NEW; answer_ms: an entry the table has
# not answered (a report) after this long is cleared (CLEAR) and keyed again.
Pace = collections.namedtuple("Pace", ("key_ms", "hold_ms", "card_ms", "think_ms", "hand_gap_ms", "answer_ms"))
# Watchable. A key is held as a hand does (250 ms): the live view runs the firmware's passes 10 ms of
# real time apart, so at --speed 4 a 3-scan debounce takes 120 ms of virtual time, press and release.
LIVE_PACE = Pace(400, 250, 700, 1500, 4000, 5000)
# The live view at --speed X: its passes stay POLL_MS of *real* time apart, so a key held 250 ms of
# virtual time lasts 250 / X ms of real time, fewer scans than the keypad's debounce above X ~ 8 (keys
# missed or held over: "TOO MANY DIGITS"). live_pace() holds each key, and leaves it up, this many of
# the firmware's passes at least (its debounce takes 3).
_LIVE_KEY_PASSES = 6


def live_pace(speed):
    """LIVE_PACE for a live view running `speed` times real time: each key down and up long enough, in
    real time, for the keypad to read it (the rest of the pace is virtual time, as the dealer's)."""
    least = _LIVE_KEY_PASSES * POLL_MS * speed        # virtual ms for that many real passes
    hold = max(LIVE_PACE.hold_ms, least)
    return LIVE_PACE._replace(hold_ms=hold, key_ms=max(LIVE_PACE.key_ms, hold + least))


# As fast as the keypad and shoe take it: a key held SHORT_PRESS_MS, then KEY_GAP_MS for its release to debounce.
FAST_PACE = Pace(SHORT_PRESS_MS + KEY_GAP_MS, SHORT_PRESS_MS, 150, 0, 100, 2000)
CLEAR = "clear"

PLAYERS = 6                       # emulated players by default
BUY_INS_BB = (15, 40, 100, 200)   # buy-ins in big blinds (short stacks beside deep ones: all-ins, side pots)
MAX_REFUSED_IN_A_ROW = 3          # then the dealer stops keying: the table and its copy disagree

_PLAYING_STATES = ("ready", "dealing", "betting")
_SEAT = "seat"
_HAND_START = "hand_start"
_DEALT = "dealt"
_ACTION = "action"
_ENTRY_ANSWERS = (_SEAT, _HAND_START, _ACTION)


def most_players(settings):
    """How many players this table can deal to: its seats, and what one deck holds (Omaha art. 2)."""
    return min(settings.seats, MAX_PLAYERS)


def player_seats(count, seats):
    """The seats of `count` players spread around a table of `seats` (seat 1 always among them)."""
    if not 2 <= count <= seats:
        raise ValueError("an Omaha table of %d seats takes 2..%d players, got %r" % (seats, seats, count))
    return [1 + (i * seats) // count for i in range(count)]


class OmahaDealer:
    """Deals one Omaha table through a TableIO; players: how many emulated players sit at it."""

    def __init__(self, io, settings, players=PLAYERS, seed=None, pace=LIVE_PACE):
        root = random.Random(seed)
        self.io = io
        self.settings = settings
        self.pace = pace
        if players > most_players(settings):
            raise ValueError("%d players: one deck deals %d at most at this table" % (players, most_players(settings)))
        self.seats = player_seats(players, settings.seats)
        self.deal = OmahaDeal(settings.seats, rng=random.Random(root.getrandbits(64)))
        self.players = Players(random.Random(root.getrandbits(64)))
        self.buy_in_rng = random.Random(root.getrandbits(64))
        self.state = None             # the table's last reported state
        self.stacks = {}              # seat -> chips, as the table last reported them
        self.mirror = None            # HandMirror of the hand in play (or the last one)
        self.deck = []                # [(card, what)] of the hand in play
        self.next_card = 0
        self.keys = collections.deque()   # legends still to press for the entry being keyed
        self.awaiting = None          # the report the last entry or card waits for
        self.next_at = None           # virtual time (ms) of the next step (None: due now)
        self.delay = 0                # how long after the next tick the next step is due
        self.entry = ""               # what is being keyed (live view)
        self.hands = 0                # hand_result reports seen
        self.refused = 0              # action_refused reports
        self.refused_in_a_row = 0
        self.unanswered = 0           # entries the table did not answer within pace.answer_ms (cleared, keyed again)
        self.keyed_at = 0             # when the last key of the entry was pressed
        self.mismatches = []          # where a report differed from the engine's copy
        self.lost = None              # why the dealer stopped following the table (MirrorError), or None
        self.boots = 0
        self.shoe_on = False          # the shoe has said its HELLO (TableIO.shoe_on)

    # -- the live view -----------------------------------------------------------------------
    def waits_for_person(self):
        """The table holds an alarm the dealer leaves to a person."""
        return self.lost is None and self.state == "fault"

    def status(self, now):
        """One short line on what the dealer does (for the live view)."""
        if self.lost is not None:
            return "dealer stopped: %s" % self.lost
        if self.waits_for_person():
            return "dealer waits: close the alarm (c confirm, v void)"
        if self.entry:
            return "dealer keys: %s" % self.entry
        if self.mirror is not None and not self.mirror.done():
            seat = self.mirror.to_act()
            return "seat %d to act" % seat if seat is not None else "dealing"
        return ""

    # -- what the table says -------------------------------------------------------------------
    def on_report(self, report):
        """Follow the table: one host report (a dict)."""
        event = report.get("event")
        try:
            self._follow(event, report)
        except (MirrorError, KeyError, ValueError, TypeError) as exc:
            self.lost = "hand %s: %s" % (report.get("hand"), exc)
            self.mirror = None

    def _follow(self, event, report):
        if event == "boot":
            self.boots += 1
            if self.boots > 1:
                self._table_restarted()
        elif event == "state":
            self.state = report.get("state")
        elif event == "recovered":
            # The state the boot left (an alarm still open from before the reset: no report of its own says so).
            self.state = report.get("state")
            if report.get("resumed"):
                # The table kept what was keyed before its reset (its journal gives the keys back): a half-keyed
                # entry of a run stopped mid-entry would lead this dealer's next one (`6`, then `1 STACK 1000`:
                # seat 61 refused). A dealer starting over reads the display and clears it first.
                self.keys.appendleft(CLEAR)
        elif event == "seat":
            self.stacks[int(report["seat"])] = report["stack"]
            self._answered(_SEAT)
        elif event == "hand_start":
            self.mirror = HandMirror(self.settings, report)
            self.deck = self.deal.deal_to(self.mirror.players)
            self.next_card = 0
            self._answered(_HAND_START)
        elif event == "dealt" and self.mirror is not None:
            self.mirror.dealt(report)
            self._answered(_DEALT, self.pace.card_ms)
        elif event == "action" and self.mirror is not None:
            self.mirror.acted(report)
            self.refused_in_a_row = 0
            self._answered(_ACTION, self.pace.think_ms)
        elif event == "action_refused":
            self.refused += 1
            self.refused_in_a_row += 1
            self.awaiting = None
            self.keys.clear()
            self.entry = ""
        elif event == "hand_result":
            self._settled(report)

    def _answered(self, what, delay=0):
        if self.awaiting == what:
            self.awaiting = None
            self.entry = ""
            self.delay = delay

    def _settled(self, report):
        self.hands += 1
        for seat, chips in report.get("stacks", {}).items():
            self.stacks[int(seat)] = chips
        if self.mirror is not None:
            self.mirror.settled(report)
            self.mismatches.extend(self.mirror.mismatches)
            del self.mirror.mismatches[:]
        self.awaiting = None
        self.keys.clear()
        self.entry = ""
        self.delay = self.pace.hand_gap_ms

    def _table_restarted(self):
        """The board booted again: the dealer starts over (stacks keyed again, a new hand)."""
        self.stacks = {}
        self.mirror = None
        self.deck = []
        self.keys.clear()
        self.awaiting = None
        self.entry = ""
        self.next_at = None

    # -- the dealer's hands ------------------------------------------------------------------------
    def tick(self, now):
        """Do what is due at virtual time now (ms)."""
        if self.lost is not None or self.state not in _PLAYING_STATES:
            return
        if self.delay:
            self.next_at = now + self.delay
            self.delay = 0
        if self.next_at is not None and now < self.next_at:
            return
        if self.keys:
            if self.io.holding():
                return                    # a key (or a button) is still down
            self.io.press_key(self.keys.popleft(), self.pace.hold_ms)
            self.next_at = now + self.pace.key_ms
            if not self.keys:
                self.keyed_at = now
            return
        if self.awaiting in _ENTRY_ANSWERS and now - self.keyed_at >= self.pace.answer_ms:
            self._unanswered(now)
            return
        if self.awaiting is not None or self.io.waiting(SHOE_PORT):
            return
        self._next_step(now)

    def _unanswered(self, now):
        """The table said nothing to the entry (a key it did not see): CLEAR, then key the step again."""
        self.unanswered += 1
        self.awaiting = None
        self.entry = ""
        self.io.press_key(CLEAR, self.pace.hold_ms)
        self.next_at = now + self.pace.key_ms

    def _next_step(self, now):
        mirror = self.mirror
        if mirror is None or mirror.done():
            if self.state != "ready":
                return
            if not self.shoe_on:
                # The shoe is on before the first hand: its power-up HELLO during a hand would be the
                # table's shoe_restarted alarm (docs/protocol.md). tick() waits until the table read it.
                self.shoe_on = True
                self.io.shoe_on()
                return
            broke = [s for s in self.seats if not self.stacks.get(s)]
            if broke:
                amount = self.buy_in_rng.choice(BUY_INS_BB) * self.settings.big_blind
                self._key(now, stack_keys(broke[0], amount), _SEAT, "%d STACK %d" % (broke[0], amount))
            elif self.refused_in_a_row < MAX_REFUSED_IN_A_ROW:
                self._key(now, new_hand_keys(), _HAND_START, "NEW")
            return
        if mirror.wants_card():
            card, _ = self.deck[self.next_card]
            self.next_card += 1
            self.awaiting = _DEALT
            self.io.card(cards.name(card))
            return
        if self.refused_in_a_row >= MAX_REFUSED_IN_A_ROW:
            self.lost = "%d entries refused in a row: the table and its engine's copy disagree" % self.refused_in_a_row
            return
        seat, choice = mirror.choose(self.players)
        text = "%d %s" % (seat, choice.act.upper()) + ("" if choice.amount is None else " %d" % choice.amount)
        self._key(now, action_keys(seat, choice), _ACTION, text)

    def _key(self, now, legends, answer, text):
        """Start keying an entry (a key now, the others each key_ms later); `answer`: the report it waits for."""
        self.keys.extend(legends)
        self.awaiting = answer
        self.entry = text
        self.next_at = None
        self.tick(now)
