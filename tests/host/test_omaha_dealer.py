"""The simulated Omaha dealer (hostsim.omaha_dealer) against a stand-in table that keeps the documented
contract (docs/omaha.md "The table", docs/protocol.md "Omaha tables") on the firmware's engine: the
dealer keys the buy-ins and NEW, deals each hand's cards in the engine's order, keys only legal
actions, rebuys broke players, and the host-side checks of the reports hold."""

import pytest

from firmware import cards
from firmware.games.omaha import rules as omaha
from firmware.games.omaha.settings import OmahaSettings
from hostsim.omaha_autoplay import OmahaTally
from hostsim.omaha_dealer import FAST_PACE, LIVE_PACE, OmahaDealer, live_pace, player_seats

ACTS = ("fold", "check", "call", "bet", "raise", "allin")
COMMANDS = ACTS + ("new", "stack", "seat", "button")


class Clock:
    def __init__(self):
        self.ms = 0

    def now_ms(self):
        return self.ms


class StandInTable:
    """The table's side of the contract, on the engine: keys in, reports out (to `listeners`)."""

    def __init__(self, settings):
        self.settings = settings
        self.stacks = {}
        self.hand = None
        self.number = 0
        self.button = None
        self.entry = []
        self.listeners = []
        self.hw = type("HW", (), {"clock": Clock()})()
        self.keys_pressed = []
        self.cards_dealt = []
        self.refuse_next = False      # a test makes the table refuse one good entry
        self.deaf = None              # a test makes the table miss the next key with this legend
        self.shoe_hellos = 0

    # TableIO's side
    def press_key(self, legend, hold_ms=100):
        self.keys_pressed.append(legend)
        if legend == self.deaf:
            self.deaf = None              # a key the table did not see
            return
        if legend == "clear":
            self.entry = []
            return
        if legend != "enter":
            self.entry.append(legend)
            return
        entry, self.entry = self.entry, []
        if not any(k in COMMANDS for k in entry):
            self._say({"event": "action_refused", "seat": None, "act": None, "amount": None,
                       "reason": "no command keyed", "display": ""})
            return
        command = [k for k in entry if k in COMMANDS][0]
        at = entry.index(command)
        before = "".join(entry[:at])
        after = "".join(entry[at + 1:])
        self._enter(command, int(before) if before else None, int(after) if after else None)

    def waiting(self, role):
        return 0

    def holding(self):
        return False                  # a key is released at once here

    def shoe_on(self):
        assert self.hand is None, "the shoe said HELLO during a hand (shoe_restarted)"
        self.shoe_hellos += 1

    def card(self, code):
        card = cards.parse(code)
        self.cards_dealt.append(card)
        kind, seat = self.hand.deal(card)
        report = {"event": "dealt", "hand": self.number, "card": code, "to": kind}
        if kind == "hole":
            report["seat"] = str(seat)
        elif kind == "board":
            report["street"] = {3: "flop", 4: "turn", 5: "river"}[max(3, len(self.hand.board))]
        self._say(report)
        self._after()

    # the table
    def _say(self, report):
        for listener in self.listeners:
            listener(report)

    def _state(self, state):
        self._say({"event": "state", "state": state})

    def _enter(self, command, seat, amount):
        if command == "stack":
            self.stacks[seat] = amount
            self._say({"event": "seat", "seat": str(seat), "stack": amount, "in": True})
        elif command == "new":
            players = sorted(s for s, c in self.stacks.items() if c > 0)
            self.button = players[0] if self.button is None else omaha.next_button(self.button, players)
            self.number += 1
            self.hand = omaha.OmahaHand(self.settings, self.button, sorted(self.stacks.items()))
            self._say({"event": "hand_start", "hand": self.number, "button": str(self.button),
                       "players": [str(s) for s in self.hand.seats],
                       "stacks": dict((str(s), c) for s, c in zip(self.hand.seats, self.hand.start)),
                       "blinds": dict((str(self.hand.seats[i]), self.hand.betting.total[i]) for i in range(2))})
            self._state("dealing")
        else:
            self._act(command, seat, amount)

    def _act(self, command, seat, amount):
        hand = self.hand
        if self.refuse_next or hand.expected()[1] != seat:
            self.refuse_next = False
            self._say({"event": "action_refused", "seat": str(seat), "act": command, "amount": amount,
                       "reason": "stand-in refusal", "display": ""})
            return
        legal = hand.legal()
        if command == "allin":
            command, amount = (legal.kind, legal.all_in_to) if legal.kind and legal.max_to == legal.all_in_to \
                else ("call", None)
        street = omaha.STREETS[hand.street]
        i = hand.index_of(seat)
        behind = hand.stack[i] + hand.betting.total[i]
        hand.act(seat, command, amount)          # an illegal action raises: the test fails
        behind -= hand.betting.total[i]          # the chips left before any payout, as the table reports
        self._say({"event": "action", "hand": self.number, "street": street, "seat": str(seat), "act": command,
                   "amount": hand.history[-1][3], "stack": behind, "pot": hand.pot_total(),
                   "all_in": behind == 0 and command != "fold"})
        self._after()

    def _after(self):
        kind = self.hand.expected()[0]
        if kind == "done":
            r = self.hand.result()
            for s, c in r.stacks:
                self.stacks[s] = c
            self._say({"event": "hand_result", "hand": self.number, "void": False, "rake": r.rake,
                       "pots": [{"amount": p.amount} for p in r.pots],
                       "shown": dict((str(s), "x") for s, _ in r.values),
                       "stacks": dict((str(s), c) for s, c in r.stacks)})
            self._state("ready")
        elif kind == "action":
            self._state("betting")


def _settings(structure="pot_limit"):
    return OmahaSettings(structure=structure, small_blind=5, big_blind=10, rake_percent=5,
                         rake_cap_big_blinds=5, odd_chip="croupier", heads_up="no_raise_cap", seats=10)


def _run(seed, hands, players=6, structure="pot_limit", refuse_at=None, deaf=None):
    table = StandInTable(_settings(structure))
    dealer = OmahaDealer(table, table.settings, players, seed=seed, pace=FAST_PACE)
    tally = OmahaTally()
    tally.mismatches = lambda: dealer.mismatches
    table.listeners += [tally.add, dealer.on_report]
    dealer.on_report({"event": "state", "state": "ready"})
    steps = 0
    while tally.hands < hands:
        if refuse_at is not None and len(table.keys_pressed) == refuse_at:
            table.refuse_next = True
            refuse_at = None
        if deaf is not None and tally.hands == 1:
            table.deaf, deaf = deaf, None
        dealer.tick(table.hw.clock.ms)
        table.hw.clock.ms += 10
        steps += 1
        assert steps < 10 ** 6 and dealer.lost is None, dealer.lost
    return table, dealer, tally


@pytest.mark.parametrize("seed", range(6))
def test_the_dealer_plays_hands_with_only_legal_entries_and_chips_conserved(seed):
    table, dealer, tally = _run(seed, 40, players=2 + seed, structure=("pot_limit", "no_limit")[seed % 2])
    assert dealer.refused == 0 and dealer.mismatches == []
    assert tally.chips_conserved() and tally.results_missing == 0
    assert tally.bought_in > 0 and tally.rake > 0
    assert set(table.stacks) == set(player_seats(2 + seed, 10))
    assert table.shoe_hellos == 1                         # switched on once, before the first hand


def test_the_dealer_deals_each_hand_from_one_shuffled_deck():
    table, dealer, tally = _run(3, 30)
    assert tally.hands == 30
    assert len(table.cards_dealt) >= 30 * (4 * 2)       # at least the hole cards of two players a hand
    assert tally.showdowns and tally.won_by_folds and tally.side_pots and tally.all_ins


def test_broke_players_rebuy_so_the_table_keeps_going():
    table, dealer, tally = _run(11, 150)
    keyed = [k for k in "".join(table.keys_pressed).split("enter") if "stack" in k]
    assert len(keyed) > 6                                 # more buy-ins than the six first ones
    assert tally.chips_conserved()


def test_a_refused_entry_is_counted_and_the_dealer_keys_the_action_again():
    table, dealer, tally = _run(2, 3, refuse_at=40)
    assert dealer.refused == 1 == tally.refusals
    assert tally.hands == 3 and tally.chips_conserved()


def test_an_entry_the_table_did_not_answer_is_cleared_and_keyed_again():
    """The table missed an ENTER: no report comes; after answer_ms the dealer presses CLEAR and keys the
    step again, so the hand never waits for ever."""
    table, dealer, tally = _run(4, 4, deaf="enter")
    assert dealer.unanswered == 1 and table.keys_pressed.count("clear") == 1 and dealer.refused == 0
    assert tally.hands == 4 and tally.chips_conserved() and dealer.mismatches == []


@pytest.mark.parametrize("missed", ["new", "call", "fold", "check"])
def test_an_entry_refused_for_a_missed_command_is_keyed_again(missed):
    table, dealer, tally = _run(4, 4, deaf=missed)
    assert dealer.refused == 1 and dealer.unanswered == 0
    assert tally.hands == 4 and tally.chips_conserved() and dealer.mismatches == []


def test_player_seats_are_spread_around_the_table():
    assert player_seats(6, 10) == [1, 2, 4, 6, 7, 9]
    assert player_seats(10, 10) == list(range(1, 11))
    assert player_seats(2, 10) == [1, 6]
    with pytest.raises(ValueError):
        player_seats(1, 10)


def test_the_live_pace_is_watchable():
    assert LIVE_PACE.key_ms >= 200 and LIVE_PACE.card_ms >= 500 and LIVE_PACE.think_ms >= 1000
    # a key held, then released, each long enough for the 3-scan debounce at --speed 4 (a scan 40 ms)
    assert LIVE_PACE.hold_ms >= 3 * 40 and LIVE_PACE.key_ms - LIVE_PACE.hold_ms >= 3 * 40
    assert FAST_PACE.key_ms > FAST_PACE.hold_ms >= 100


def test_the_tally_counts_from_the_reports_and_fails_a_run_that_lost_chips_or_a_result():
    from hostsim.omaha_autoplay import failed

    tally = OmahaTally()
    for report in ({"event": "seat", "seat": "1", "stack": 100}, {"event": "seat", "seat": "2", "stack": 100},
                   {"event": "hand_start", "hand": 1},
                   {"event": "hand_result", "hand": 1, "void": False, "rake": 5, "pots": [{}, {}],
                    "shown": {"1": "flush"}, "stacks": {"1": 195, "2": 0}},
                   {"event": "seat", "seat": "2", "stack": 50}):          # the rebuy
        tally.add(report)
    summary = tally.summary(1, 1000, 1.0)
    assert (summary["bought_in"], summary["stacks"], summary["rake"], summary["side_pots"]) == (250, 245, 5, 1)
    assert summary["chips_conserved"] and not failed(summary)
    tally.add({"event": "hand_start", "hand": 2})
    tally.add({"event": "hand_start", "hand": 3})                    # hand 2 never got its hand_result
    assert failed(tally.summary(1, 1000, 1.0))
    lost = OmahaTally()
    lost.add({"event": "seat", "seat": "1", "stack": 100})
    lost.add({"event": "hand_result", "hand": 1, "void": False, "rake": 0, "pots": [], "shown": {},
              "stacks": {"1": 90}})
    assert not lost.chips_conserved() and failed(lost.summary(1, 1000, 1.0))


@pytest.mark.parametrize("speed", [1, 4, 8, 20, 50])
def test_the_live_views_keys_last_long_enough_in_real_time_at_any_speed(speed):
    # The live view's passes stay 10 ms of real time apart whatever --speed: a key down (and up again)
    # fewer than the keypad's 3 debounce scans of them is missed or held over (at --speed 20, the
    # pace of 250 ms held keyed "TOO MANY DIGITS"). live_pace keeps 6 passes either way.
    from firmware.main import POLL_MS
    pace = live_pace(speed)
    assert pace.hold_ms / speed >= 6 * POLL_MS
    assert (pace.key_ms - pace.hold_ms) / speed >= 6 * POLL_MS
    assert pace.hold_ms >= LIVE_PACE.hold_ms and pace.key_ms >= LIVE_PACE.key_ms
    if speed == 1:
        assert pace == LIVE_PACE


def test_a_dealer_starting_on_a_resumed_table_clears_a_half_keyed_entry_first():
    """A run stopped mid-entry: the table's journal gives the keys back at the next boot (`6`), and the new
    dealer's buy-in would follow them (`61 STACK`, refused). It presses CLEAR first, then plays on."""
    table = StandInTable(_settings())
    table.entry = ["6"]                                  # kept through the reset
    dealer = OmahaDealer(table, table.settings, 6, seed=1, pace=FAST_PACE)
    tally = OmahaTally()
    table.listeners += [tally.add, dealer.on_report]
    for report in ({"event": "boot"}, {"event": "state", "state": "ready"},
                   {"event": "recovered", "state": "ready", "resumed": True, "in_round": False}):
        dealer.on_report(report)
    while tally.hands < 2:
        dealer.tick(table.hw.clock.ms)
        table.hw.clock.ms += 10
        assert table.hw.clock.ms < 10 ** 7 and dealer.lost is None, dealer.lost
    assert table.keys_pressed[0] == "clear" and dealer.refused == 0 and tally.chips_conserved()


def test_a_dealer_on_a_fresh_table_presses_no_clear():
    table, dealer, tally = _run(1, 2)
    assert "clear" not in table.keys_pressed


def test_a_dealer_on_a_table_recovered_into_an_open_alarm_waits_for_a_person():
    """A run stopped with an alarm open: the next boot's `recovered` says `state: fault` and names the alarm,
    and no `state` report follows (it was reported before the reset). The dealer keys nothing until a person
    closes it (the stacks it keyed at once were refused: `ALARM OPEN`)."""
    table = StandInTable(_settings())
    dealer = OmahaDealer(table, table.settings, 6, seed=1, pace=FAST_PACE)
    for report in ({"event": "boot"}, {"event": "state", "state": "starting"}, {"event": "state", "state": "ready"},
                   {"event": "recovered", "state": "fault", "resumed": True, "in_round": True,
                    "fault": "reset_in_round"}):
        dealer.on_report(report)
    assert dealer.waits_for_person()
    for _ in range(500):
        dealer.tick(table.hw.clock.ms)
        table.hw.clock.ms += 10
    assert table.keys_pressed == []
