# The people at a simulated Baccarat table: the dealer working the shoe and the bettors, through TableIO.
#
# Dealer(io, settings, seats, seed, pace) deals the table's shoe card by card
# (hostsim.shoe.BaccaratDemo: the table's decks, burns, cut card, demo rounds,
# shuffler) and, before each round, puts the bettors' chips on the bet reader
# (hostsim.bettors), all on the virtual clock: call tick(now_ms) often and
# hand it every host report (on_report). It follows the table, as a dealer
# watches the displays: chips go on when the table reports `betting` and
# before the round's first card; nothing is dealt while the table is held in
# an alarm, unless it is the dealer's own correction of a fault it was asked
# to make (inject()):
#
#   unreadable   the shoe sends UNREAD for the next card; after pace.fix_ms the
#                dealer rescans it: the same card is read and dealt where due
#   double_pull  the next two cards of a round come out together (two CARD
#                frames back to back); after pace.fix_ms the dealer presses
#                CONFIRM and the held card is dealt on
#   garbled      the next CARD frame is damaged on the line (frame_crc); after
#                pace.fix_ms the dealer rescans the card
#
# A person may close the alarm first (CONFIRM, a long VOID); the dealer then
# drops its correction and follows what the table did. Used by hostsim.sim
# (the live view) and hostsim.autoplay (headless runs).
import collections
import random

from firmware import cards
from hostsim.bettors import Bettors
from hostsim.shoe import BaccaratDemo
from hostsim.table_io import BETS_PORT, SHOE_PORT

# card_ms: a card every this long; bets_lead_ms: the chips this long before a round's first card;
# fix_ms: how long the dealer looks at an alarm it caused before correcting it.
Pace = collections.namedtuple("Pace", ("card_ms", "bets_lead_ms", "fix_ms"))
LIVE_PACE = Pace(1500, 1000, 3000)      # watchable: a card every 1.5 s of virtual time
# As fast as the table takes it: a card every 250 ms keeps clear of the controller's double-pull
# window (150 ms) and leaves the bet reader's frames (one a pass) time to be read.
FAST_PACE = Pace(250, 200, 250)

UNREADABLE = "unreadable"
DOUBLE_PULL = "double_pull"
GARBLED = "garbled"
FAULTS = (UNREADABLE, DOUBLE_PULL, GARBLED)
# Live view keys of the injected faults (hostsim.sim), with their legend text.
FAULT_KEYS = (("1", UNREADABLE, "unreadable card"), ("2", DOUBLE_PULL, "double pull"), ("3", GARBLED, "garbled frame"))

# The table states in which the dealer deals on; anything else (starting, fault, lamp_check) waits.
_DEALING_STATES = ("ready", "burning", "betting", "dealing", "shoe_closed")
KEEP_ROUNDS = 1000        # the dealing sequences kept (tests compare results with them)
_RESCAN = "rescan"
_CONFIRM = "confirm"


class Dealer:
    """Deals one Baccarat table through a hostsim.table_io.TableIO; seats: the layout's seat zones (0: no bets)."""

    def __init__(self, io, settings, seats, seed=None, pace=LIVE_PACE):
        root = random.Random(seed)
        self.io = io
        self.settings = settings
        self.pace = pace
        self.shoe_rng = random.Random(root.getrandbits(64))
        self.fault_rng = random.Random(root.getrandbits(64))
        bettor_rng = random.Random(root.getrandbits(64))
        has_reader = BETS_PORT in io.board.ports
        self.bettors = Bettors(seats, bettor_rng) if seats and has_reader else None
        self.demo = BaccaratDemo(settings, rng=self.shoe_rng)
        self.state = None           # the table's last reported state
        self.next_at = None         # virtual time (ms) of the next card
        self.bets_placed = False    # the chips for the coming round are on the reader
        self.pending = []           # faults asked for, not injected yet
        self.fix = None             # (due ms, _RESCAN or _CONFIRM): the dealer's correction of its own fault;
                                    # due None once made, until the table's fault_ack report closes it
        self.held = None            # (card, step): a drawn card the reader has not read yet
        self.rounds = collections.deque(maxlen=KEEP_ROUNDS)   # card codes of each round dealt to the end
        self._completed = 0
        self.injected = collections.Counter()
        self.boots = 0

    # -- what the tester asks ---------------------------------------------------------------
    def inject(self, fault):
        """Make the next suitable card go wrong this way (one of FAULTS)."""
        if fault not in FAULTS:
            raise ValueError("unknown fault %r: expected one of %s" % (fault, ", ".join(FAULTS)))
        self.pending.append(fault)

    def waits_for_person(self):
        """The table holds an alarm the dealer leaves to a person (none of its own it will correct)."""
        return self.fix is None and self.state == "fault"

    def status(self, now):
        """One short line on what the dealer is about to do (for the live view), or ""."""
        if self.fix is not None:
            if self.fix[0] is None:
                return "dealer waits for the table to close the alarm"
            what = "rescans the card" if self.fix[1] == _RESCAN else "presses CONFIRM"
            return "dealer %s in %.1f s" % (what, max(0, self.fix[0] - now) / 1000.0)
        if self.waits_for_person():
            return "dealer waits: close the alarm (c confirm, v void)"
        if self.pending:
            return "dealer: next card %s" % self.pending[0].replace("_", " ")
        return ""

    # -- what the table says -------------------------------------------------------------------
    def on_report(self, report):
        """Follow the table: one host report (a dict)."""
        event = report.get("event")
        if event == "boot":
            self.boots += 1
            if self.boots > 1:
                self._table_restarted()
        elif event == "state" or event == "recovered":    # (a recovered report says the state the boot left)
            state = report.get("state")
            if self.state == "fault" and state != "fault":
                self.next_at = None          # the table goes on: the next card a whole card_ms later
            self.state = state
        elif event == "round":
            self.bets_placed = False
        elif event == "result":
            if self.demo.round is not None:     # the table ended the round early (void): so does the shoe
                self.demo.abandon_round()
        elif event == "fault_ack" and self.fix is not None:
            self._closed_by_someone(report.get("by"))

    def _closed_by_someone(self, by):
        """The alarm was closed before the dealer's correction (or by it): drop the correction. A card
        in hand that the table never read (VOID held, or CONFIRM on a damaged frame) is discarded
        unseen: the table gives its place to the next card, and so does the dealer's shoe."""
        action = self.fix[1]
        self.fix = None
        if action == _RESCAN and by == "rescan":
            return                               # the dealer's own rescan (it cleared self.held)
        if self.held is not None:
            # A voided unreadable card was seen to leave the shoe (UNREAD): an art. 8 burn card is
            # burned all the same. A damaged frame CONFIRMed away was never seen: its place goes on.
            self.demo.forget(self.held[1], burned=by == "void")
        self.held = None

    def _table_restarted(self):
        """The board booted again mid-game: the table has no shoe; the dealer brings a fresh one."""
        self.demo = BaccaratDemo(self.settings, rng=self.shoe_rng)
        self.fix = None
        self.held = None
        self.next_at = None
        self.bets_placed = False
        self._completed = 0

    # -- the dealer's hands ------------------------------------------------------------------------
    def tick(self, now):
        """Do what is due at virtual time now (ms)."""
        if self.fix is not None:
            due, action = self.fix
            if due is not None and now >= due and self._quiet():
                self._correct()
                # Made once: the table's fault_ack report, which comes with its other reports at its next
                # output pass, closes it (_closed_by_someone); until then the dealer does nothing more.
                self.fix = (None, action)
                self.next_at = now + self.pace.card_ms
            return
        if self.state not in _DEALING_STATES:
            return
        if self.next_at is None:
            self.next_at = now + self.pace.card_ms
        wants_bets = self.state == "betting" and self.bettors is not None and not self.bets_placed
        if wants_bets and now >= self.next_at - self.pace.bets_lead_ms and self._quiet():
            self.io.bets(self.bettors.reading())
            self.bets_placed = True
            return
        if now < self.next_at or wants_bets or not self._quiet():
            return
        self._next_card(now)
        self.next_at = now + self.pace.card_ms

    def _quiet(self):
        """The table has read everything sent to it (order on two ports is kept by waiting)."""
        io = self.io
        return not io.waiting(SHOE_PORT) and (BETS_PORT not in io.board.ports or not io.waiting(BETS_PORT))

    def _next_card(self, now):
        fault = self.pending[0] if self.pending else None
        if fault == DOUBLE_PULL and self._mid_round():
            self.pending.pop(0)
            self.injected[fault] += 1
            self._say(self.demo.next_messages() + self.demo.next_messages())
            self.fix = (now + self.pace.fix_ms, _CONFIRM)
            return
        if fault in (UNREADABLE, GARBLED):
            self.pending.pop(0)
            self.injected[fault] += 1
            card, step, before = self.demo.draw()
            self._say(before)
            if fault == UNREADABLE:
                self.io.unreadable()
            else:
                self.io.garbled_card(cards.name(card), self.demo.face_up, self.fault_rng)
            self.held = (card, step)
            self.fix = (now + self.pace.fix_ms, _RESCAN)
            return
        self._say(self.demo.next_messages())

    def _mid_round(self):
        """True when the next two cards both belong to the round in play (its 2nd-3rd or 3rd-4th card):
        every round has at least four, so a double pull never straddles two rounds."""
        rnd = self.demo.round
        return rnd is not None and 1 <= len(rnd.order) <= 2

    def _correct(self):
        action = self.fix[1]
        if action == _CONFIRM:
            self.io.press("confirm")
            return
        card, step = self.held
        self.held = None
        self._say([self.demo.read(card, step)])  # the rescan

    def _say(self, messages):
        """Send the shoe's messages through TableIO; note the cards dealt to the hands."""
        io = self.io
        for message in messages:
            if message[0] == "IN":
                io.shoe_new()
            elif message[0] == "CUT":
                io.cut_card()
            else:
                io.card(message[1], message[2])
                self._dealt()

    def _dealt(self):
        demo = self.demo
        if demo.completed != self._completed:
            self._completed = demo.completed
            self.rounds.append(tuple(cards.name(c) for c in demo.last_cards))
