# Omaha snapshots between hands (docs/journal.md, "What the table keeps"): at every boundary of a
# scripted session, a snapshot restored into a fresh table plays the rest exactly as the table it was
# taken from (the last hand's result shown, keys half keyed); a snapshot that does not fit is refused.
from firmware.errors import RestoreError
from firmware.events import CARD, SHOE, SHOE_HELLO
from firmware.games.omaha import rules, screens
from firmware.games.omaha.codes import DEALING
from firmware.table_codes import FAULTED, READY
from tests.firmware.expect import raises_match
from tests.firmware.omaha_fixtures import deck
from tests.firmware.omaha_rig import CONFIG, Rig
from tests.firmware.snapshot_check import check, journal_check

WHOLE_DECK = deck(["As Kd 2c 3d", "Ah Kh 2h 3h", "Ac Ks 2s 3s"], "Qc Qd Qh 4d 5c", burns=("6s", "7s", "9s"))
ACTIONS = [(1, "call"), (3, "call"), (7, "check"),
           (3, "bet", 20), (7, "call"), (1, "raise", 60), (3, "call"), (7, "fold"),
           (3, "check"), (1, "check"), (3, "check"), (1, "bet", 100), (3, "call")]


class _Script:
    """Steps (functions of a rig), each also run on a builder rig, so a step can be chosen from the
    table's state (the card or action the hand asks for next)."""

    def __init__(self, make_rig):
        self.rig = make_rig()
        self.steps = []

    def step(self, f):
        self.steps.append(f)
        f(self.rig)

    def keys(self, text):
        for word in text.split():
            self.step(lambda r, word=word: r.keys(word))

    def play(self, shoe, policy, stop_after_cards=None):
        """Cards from shoe and actions from policy(hand) as the hand asks for them."""
        shoe = list(shoe)
        dealt = 0
        table = self.rig.table
        while table.state in (DEALING, rules.EXPECT_ACTION) or table.hand_runs():
            kind, seat = table.hand.expected()
            if kind == rules.EXPECT_ACTION:
                act = policy(table.hand, seat)
                self.step(lambda r, act=act: r.act(act[0], act[1], act[2] if len(act) > 2 else None))
            else:
                if dealt == stop_after_cards:
                    return
                card = shoe.pop(0)
                self.step(lambda r, card=card: r.card(card))
                dealt += 1


def _scripted(actions):
    queue = list(actions)
    return lambda hand, seat: queue.pop(0)


def _fold_to_the_blind(hand, seat):
    return (seat, "fold")


def _check_down(hand, seat):
    return (seat, "check" if hand.legal().can_check else "call")


def _session():
    s = _Script(Rig)
    s.keys("1 stack 1000 enter 3 stack 1000 enter 7 stack 150 enter 1 button enter new enter")
    s.play(WHOLE_DECK, _scripted(ACTIONS))                  # hand 1 to showdown: the result stays shown
    s.keys("3 stack")                                       # half keyed at a boundary
    s.keys("clear 5 stack 400 enter 7 seat enter 3 button enter")
    s.step(lambda r: r.shoe(SHOE_HELLO))                    # between hands: reported
    s.step(lambda r: r.event(CARD, 40, 0))                  # a card between hands: held, CONFIRM discards
    s.step(lambda r: r.press("confirm"))
    s.keys("new enter")
    s.play(range(52), _fold_to_the_blind)                   # hand 2: folded round to the big blind
    s.keys("new enter")
    s.play(range(52), _check_down, stop_after_cards=5)
    s.step(lambda r: r.press("void", long=True))            # hand 3: misdeal (art. 9(2))
    s.keys("9 stack 12 enter")
    s.step(lambda r: r.host_hand({"hand": {"button": 4, "stacks": {"2": 500, "4": 300, "6": 80}}}))
    s.play(range(51, -1, -1), _check_down)                  # hand 4 from the host's stacks to showdown
    s.keys("2 stack 77")
    return s.steps


def test_a_restored_table_plays_the_rest_of_the_session_as_the_original_at_every_boundary():
    count, largest = check(Rig, _session(), screens, CONFIG)
    assert count >= 40, count                               # every key between hands is a boundary
    assert largest < 900, largest


def test_no_snapshot_in_a_hand_or_an_alarm():
    rig = Rig()
    rig.stacks({1: 100, 2: 100})
    rig.keys("new enter")
    assert rig.table.state == DEALING and not rig.table.at_boundary()
    raises_match(RestoreError, "only between hands", rig.table.snapshot)
    rig.press("void", long=True)
    assert rig.table.state == READY and rig.table.at_boundary()
    rig.card("As")
    assert rig.table.state == FAULTED and not rig.table.at_boundary()
    raises_match(RestoreError, "no alarm open", rig.table.snapshot)


def _played():
    rig = Rig()
    rig.stacks({1: 1000, 3: 1000, 7: 150})
    rig.keys("1 button enter new enter")
    for card in WHOLE_DECK[:12]:
        rig.card(card)
    rig.act(1, "fold")
    rig.act(3, "fold")
    return rig


def test_a_snapshot_from_other_settings_is_refused_and_nothing_changes():
    data = _played().table.snapshot()
    fresh = Rig(big_blind=20)
    before = list(fresh.lights.colours)
    raises_match(RestoreError, "big_blind = 10, this table has 20", fresh.table.restore, data)
    assert fresh.table.hand is None and fresh.table.hand_no == 0 and fresh.lights.colours == before
    raises_match(RestoreError, "seats = 10, this table has 6", Rig(seats=6).table.restore, data)
    raises_match(RestoreError, "freshly constructed", _played().table.restore, data)
    keyed = Rig()
    keyed.stacks({4: 100})                                  # a table keyed since it booted is no fresh one
    raises_match(RestoreError, "freshly constructed", keyed.table.restore, data)


def test_a_corrupted_snapshot_is_refused_whole():
    data = _played().table.snapshot()
    text = data.decode()
    assert '[1,[3,1000,7,150,1,1000],["332d0005","322e0206","302f0307"],"","",[[0,1,"fold",0],[0,3,"fold",5]],false]' \
        in text, text
    bad = [
        data[:-3],
        text.replace('"omaha"', '"baccarat"').encode(),
        text.replace('"332d0005"', '"332d0033"').encode(),          # a card dealt twice
        text.replace('"332d0005"', '"332d00"').encode(),            # a hand short of a hole card, not void
        text.replace('[0,3,"fold",5]', '[0,3,"fold",6]').encode(),  # not what the hand took
        text.replace('[0,3,"fold",5]', '[0,3,"muck",5]').encode(),
        text.replace('[0,3,"fold",5]', '[0,3,"fold",5],[0,7,"check",10]').encode(),   # after the hand was over
        text.replace('1,1000],', '1,-1000],').encode(),
        text.replace('"1111111111"', '"1111112111"').encode(),
        text.replace(',false]]', ',true]]').encode(),                # a misdeal after the payout
    ]
    for data_bad in bad:
        assert data_bad != data
        fresh = Rig()
        raises_match(RestoreError, "snapshot", fresh.table.restore, data_bad)
        assert fresh.table.hand is None and fresh.table.hand_no == 0 and fresh.table.state == READY


def test_twenty_seats_and_the_longest_hand_fit_the_stated_bound():
    # 20 seats (the settings' most) with 7-digit stacks; the last hand: 11 players (one deck's most), every
    # card dealt, pot limit's 3 raises on every street, everyone calling to the showdown.
    rig = Rig(seats=20, rake_percent=5)
    stacks = dict((seat, 9999999 - seat) for seat in range(1, 21))
    rig.stacks(stacks)
    for seat in range(12, 21):
        rig.keys("%d seat enter" % seat)
    rig.keys("new enter")
    hand = rig.table.hand

    while rig.table.hand_runs():
        kind, seat = hand.expected()
        if kind != rules.EXPECT_ACTION:
            rig.card(list(c for c in range(52) if not rig.table.seen[c])[0])
            continue
        legal = hand.legal()
        if legal.kind is not None and hand.betting.raises < 3:
            rig.act(seat, legal.kind, legal.min_to)
        else:
            rig.act(seat, "check" if legal.can_check else "call")
    assert rig.table.state == READY and rig.table.result is not None and not rig.table.result.void
    data = rig.table.snapshot()
    assert len(hand.history) >= 50 and len(data) <= 800 + 27 * len(hand.history), len(data)   # docs/journal.md
    fork = Rig(seats=20, rake_percent=5)
    fork.table.restore(data)
    assert fork.table.snapshot() == data and fork.lights.colours == rig.lights.colours
    assert screens.result_lines(fork.table, CONFIG, []) == screens.result_lines(rig.table, CONFIG, [])


def test_the_events_after_a_boundary_replayed_from_its_snapshot_give_the_same_reports_and_state():
    # What recovery does: the snapshot, then the journalled events (HOST_HAND with its parsed request).
    assert journal_check(Rig, _session()) >= 40


def test_a_host_request_parsed_but_not_yet_dispatched_goes_into_the_snapshot_with_stacks_alone_too():
    # The host's `hand` request is parsed as its line arrives and taken when its HOST event is dispatched: a
    # boundary's snapshot between the two carries it, so the event replayed after a reset starts the hand the
    # host asked for. A request of stacks alone (no button) was left out by a mutant that lived.
    from firmware.events import HOST
    from tests.firmware.table_rig import strip
    for request in ({"hand": {"stacks": {"2": 500, "4": 300}}}, {"hand": {"button": 4}},
                    {"hand": {"button": 2, "stacks": {"2": 500, "4": 300, "6": 80}}}):
        rig = Rig()
        rig.keys("1 stack 1000 enter 3 stack 1000 enter")
        a, b = rig.table.host_request(request)               # parsed; its HOST event not dispatched yet
        data = rig.table.snapshot()
        fresh = Rig()
        fresh.table.restore(data)
        assert (fresh.table.host_button, fresh.table.host_has_stacks, list(fresh.table.host_stacks)) == \
            (rig.table.host_button, rig.table.host_has_stacks, list(rig.table.host_stacks)), request
        for r in (rig, fresh):
            r.event(HOST, a, b)                               # the same hand starts on both
        assert strip(fresh.last("hand_start")) == strip(rig.last("hand_start")), request
        assert list(fresh.table.stacks) == list(rig.table.stacks)
