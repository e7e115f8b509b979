# The Omaha table controller: hands from the shoe and the dealer keypad, misdeal prompts, reports
# (Omaha arts. 1, 2, 5-13, 16; docs/omaha.md "The table", docs/protocol.md "Omaha tables").
from firmware import fault_kinds, faults
from firmware.compat import heap_lock, heap_unlock
from firmware.drivers import pixels
from firmware.events import HOST_HAND, KEY, LINK_BACKLOG, SHOE_UNREAD, TICK
from firmware.games.omaha import controller as oc
from firmware.games.omaha import rules, screens, whole_hand
from firmware.games.omaha.codes import BETTING, DEALING, NO_SEAT, OUT_HAND_START
from firmware.games.omaha.entry import MAX_DIGITS, Entry, key_code
from firmware.table_codes import FAULTED, OUT_GAME_FIRST, READY
from tests.firmware.expect import heap_lock_catches_allocation, raises_match
from tests.firmware.omaha_fixtures import deck
from tests.firmware.omaha_rig import CONFIG, LEGENDS, Rig
from tests.firmware.table_rig import strip

BURNS = ("6s", "7s", "9s")


def _start(rig, stacks, button=None):
    rig.stacks(stacks)
    if button is not None:
        rig.keys("%d button enter" % button)
    rig.keys("new enter")


def _play(rig, shoe, actions):
    """Feed cards and keyed actions as the hand asks for them (as whole_hand.play_hand does), until the hand
    is over or asks for what is not given."""
    shoe = list(shoe)
    actions = list(actions)
    hand = rig.table.hand
    while rig.table.state in (DEALING, BETTING):
        kind = hand.expected()[0]
        if kind == rules.EXPECT_ACTION:
            if not actions:
                break
            entry = actions.pop(0)
            rig.act(entry[0], entry[1], entry[2] if len(entry) > 2 else None)
        else:
            if not shoe:
                break
            rig.card(shoe.pop(0))
        _fits(rig)
    _fits(rig)
    assert not actions, "actions left over: %r" % actions


def _fits(rig):
    """Both displays show 4 lines of at most 20 characters (the LCDs), whatever the hand's state."""
    for lines in (screens.dealer_lines(rig.table, CONFIG, []), screens.result_lines(rig.table, CONFIG, [])):
        assert len(lines) == 4 and all(len(line) <= screens.COLS for line in lines), lines


def _engine(rig, button, stacks, shoe, actions):
    """The same hand on the bare engine: the independent expected result."""
    return whole_hand.play_hand(rig.settings, button, sorted(stacks.items()), shoe, actions)[1]


def _pots(result):
    return [{"amount": p.amount, "eligible": [str(s) for s in p.eligible], "winners": [str(s) for s in p.winners],
             "shares": dict((str(s), c) for s, c in p.shares)} for p in result.pots]


def _dealer(rig):
    return screens.dealer_lines(rig.table, CONFIG, [])


def test_outbox_codes_start_where_the_core_leaves_them():
    assert OUT_HAND_START == OUT_GAME_FIRST
    assert oc.OmahaTable.STATE_NAMES[DEALING] == "dealing" and oc.OmahaTable.STATE_NAMES[BETTING] == "betting"


def test_a_card_out_face_up_is_dealt_on_and_its_dealt_report_says_so():
    # A hole card or a board card that came out of the shoe face up was reported like any other: the
    # host could not tell an exposed hole card from a hidden one; `face_up` is always there, false for a
    # hidden card, as in Baccarat's card report (one shape for one concept).
    rig = Rig()
    _start(rig, {1: 1000, 3: 1000})
    rig.card("As")                                       # seat 3's first hole card
    rig.card("Kd", face_up=True)                         # seat 1's, exposed
    dealt = [strip(d) for d in rig.reports("dealt")]
    assert dealt == [{"event": "dealt", "hand": 1, "card": "As", "to": "hole", "seat": "3", "face_up": False},
                     {"event": "dealt", "hand": 1, "card": "Kd", "to": "hole", "seat": "1", "face_up": True}]
    assert rig.table.state == DEALING and rig.table.hand.expected() == (rules.EXPECT_HOLE, 3)


# -- a whole hand ------------------------------------------------------------------------------------
WHOLE_DECK = deck(["As Kd 2c 3d", "Ah Kh 2h 3h", "Ac Ks 2s 3s"], "Qc Qd Qh 4d 5c", burns=BURNS)


def test_art5_to_10_whole_hand_every_street_to_showdown():
    rig = Rig()
    _start(rig, {1: 1000, 3: 1000, 7: 150})
    start = strip(rig.last("hand_start"))
    # Art. 1: the first hand's button is the first seat in from the croupier's left; art. 5: blinds left of it.
    assert start == {"event": "hand_start", "hand": 1, "button": "1", "players": ["3", "7", "1"],
                     "stacks": {"1": 1000, "3": 1000, "7": 150}, "blinds": {"3": 5, "7": 10}}
    assert rig.table.state == DEALING and _dealer(rig)[1] == "DEAL HOLE SEAT 3"
    actions = [(1, "call"), (3, "call"), (7, "check"),
               (3, "bet", 20), (7, "call"), (1, "raise", 60), (3, "call"), (7, "fold"),
               (3, "check"), (1, "check"), (3, "check"), (1, "bet", 100), (3, "call")]
    shoe = WHOLE_DECK
    _play(rig, shoe[:12], [])                                      # art. 6(1): 4 hole cards one at a time
    assert rig.table.state == BETTING
    assert _dealer(rig) == ["H1 PREFLOP SEAT 1", "CALL 10 RAISE 20-35", "POT MAX 35", ""]
    _play(rig, shoe[12:], actions)
    expected = _engine(rig, 1, {1: 1000, 3: 1000, 7: 150}, shoe, actions)
    dealt = rig.reports("dealt")
    assert [d["to"] for d in dealt] == ["hole"] * 12 + ["burn", "board", "board", "board", "burn", "board",
                                                        "burn", "board"]
    assert [d.get("seat") for d in dealt[:4]] == ["3", "7", "1", "3"]
    assert [d.get("street") for d in dealt[12:]] == [None, "flop", "flop", "flop", None, "turn", None, "river"]
    acts = rig.reports("action")
    assert [(a["street"], a["seat"], a["act"], a["amount"]) for a in acts][3:6] == [
        ("flop", "3", "bet", 20), ("flop", "7", "call", 20), ("flop", "1", "raise", 60)]
    assert strip(acts[5]) == {"event": "action", "hand": 1, "street": "flop", "seat": "1", "act": "raise",
                              "amount": 60, "stack": 930, "pot": 130, "all_in": False}
    result = strip(rig.last("hand_result"))
    assert result["pots"] == _pots(expected) and result["rake"] == expected.rake == 0
    assert result["stacks"] == dict((str(s), c) for s, c in expected.stacks)
    assert result["board"] == ["Qc", "Qd", "Qh", "4d", "5c"] and result["void"] is False
    assert result["hole"] == {"3": ["As", "Kd", "2c", "3d"], "7": ["Ah", "Kh", "2h", "3h"],
                              "1": ["Ac", "Ks", "2s", "3s"]}
    # Art. 10(1): seats 1 and 3 both play A-K with the board's Q-Q-Q: a split; seat 7 folded.
    assert result["shown"] == {"1": "three_of_a_kind", "3": "three_of_a_kind"}
    assert result["pots"][0]["winners"] == ["1", "3"] and result["returned"] == {}
    assert rig.table.state == READY
    assert rig.colour("seat1") == pixels.GREEN and rig.colour("seat7") == pixels.OFF
    lines = screens.result_lines(rig.table, CONFIG, [])
    assert lines[1:] == ["P1 %s S1 S3" % screens.chips_text(result["pots"][0]["amount"]), "", "Qc Qd Qh 4d 5c"], lines


def test_the_dealer_display_asks_for_each_card_of_the_deal_in_turn():
    # Art. 6: the hole cards seat by seat, a burn before each street, the flop's three cards counted (a
    # mutant that counted them wrong lived: no test read the prompt past the hole cards).
    rig = Rig()
    _start(rig, {1: 1000, 3: 1000})
    shoe = list(WHOLE_DECK)
    hand = rig.table.hand
    asked = []
    while rig.table.state in (DEALING, BETTING):
        kind, seat = hand.expected()
        if kind == rules.EXPECT_ACTION:
            rig.act(seat, "check" if hand.legal().can_check else "call")
        else:
            asked.append(_dealer(rig)[1])
            rig.card(shoe.pop(0))
    assert asked == ["DEAL HOLE SEAT 3", "DEAL HOLE SEAT 1"] * 4 + [
        "DEAL BURN", "DEAL FLOP 1 OF 3", "DEAL FLOP 2 OF 3", "DEAL FLOP 3 OF 3", "DEAL BURN", "DEAL TURN",
        "DEAL BURN", "DEAL RIVER"]


def test_art6_lights_seat_to_act_folded_dimmed_all_in_marked():
    rig = Rig(structure="no_limit")
    _start(rig, {1: 1000, 2: 1000, 3: 40})
    _play(rig, deck(["As Kd 2c 3d", "Ah Kh 2h 3h", "Ac Ks 2s 3s"], "Qc Qd Qh 4d 5c", burns=BURNS)[:12], [])
    hand = rig.table.hand
    assert hand.expected() == (rules.EXPECT_ACTION, 1)            # button 1: blinds 2, 3; seat 1 first
    assert rig.colour("seat1") == pixels.WHITE and rig.colour("seat2") == pixels.BLUE
    assert rig.colour("pot") == pixels.GREEN and rig.colour("button") == pixels.WHITE
    rig.act(1, "raise", 100)
    rig.act(2, "fold")
    assert rig.colour("seat2") == pixels.DIM and rig.colour("seat3") == pixels.WHITE
    rig.act(3, "allin")
    assert rig.last("action")["all_in"] is True and rig.last("action")["act"] == "call"
    assert rig.colour("seat3") == pixels.GOLD


# -- side pots, heads-up, odd chips, rake ---------------------------------------------------------------
SIDE_DECK = deck(["Kc Kh 3d 4d", "8d 8h 6c 7c", "5c 5d Ah Qh", "Ac Qc Jd Td"], "Ks Kd 8c 5h 2s", burns=BURNS)
SIDE_STACKS = {1: 50, 2: 120, 3: 300, 4: 1000}
SIDE_ACTIONS = [(3, "allin"), (4, "call"), (1, "allin"), (2, "allin")]


def _side_pot_hand(rig):
    """SIDE_DECK's hand at these stacks, button 4 (blinds 1 and 2), three all in: its hand_result, stripped."""
    _start(rig, SIDE_STACKS, button=4)
    _play(rig, SIDE_DECK, SIDE_ACTIONS)
    return strip(rig.last("hand_result"))


def test_art13_side_pots_with_several_all_ins_run_out_and_match_the_engine():
    rig = Rig(structure="no_limit")
    stacks = SIDE_STACKS
    result = _side_pot_hand(rig)                                   # blinds: seats 1 and 2; seat 3 first
    keyed = [(a["seat"], a["act"], a["amount"], a["all_in"]) for a in rig.reports("action")]
    assert keyed == [("3", "raise", 300, True), ("4", "call", 300, False), ("1", "call", 50, True),
                     ("2", "call", 120, True)]
    assert [d["to"] for d in rig.reports("dealt")][16:] == ["burn", "board", "board", "board", "burn", "board",
                                                            "burn", "board"]           # the all-in run-out
    # Independent: main 4 x 50 (seat 1's quads), side 3 x 70 (seat 2's eights full), side 2 x 180 (fives full).
    assert [(p["amount"], p["eligible"], p["winners"]) for p in result["pots"]] == [
        (200, ["1", "2", "3", "4"], ["1"]), (210, ["2", "3", "4"], ["2"]), (360, ["3", "4"], ["3"])]
    expected = _engine(rig, 4, stacks, SIDE_DECK, [(3, "raise", 300), (4, "call"), (1, "call"), (2, "call")])
    assert result["pots"] == _pots(expected)
    assert result["stacks"] == {"1": 200, "2": 210, "3": 360, "4": 700}
    assert result["shown"]["1"] == "four_of_a_kind" and result["shown"]["2"] == "full_house"
    # Three pots on two lines: every pot's winners in turn, two a page for 2 seconds each (the dealer pays each).
    pages = []
    for second in range(6):
        rig.table.uptime_s = second
        pages.append(screens.result_lines(rig.table, CONFIG, [])[1:3])
    assert pages == [["P1 200 S1", "P2 210 S2"]] * 2 + [["P3 360 S3", ""]] * 2 + [["P1 200 S1", "P2 210 S2"]] * 2


def test_art12_4_heads_up_raises_beyond_three_but_three_handed_art12_2_caps_them():
    rig = Rig()
    _start(rig, {1: 5000, 2: 5000}, button=2)       # heads-up: seat 1 small blind, the button big (art. 5)
    _play(rig, deck(["As Kd 2c 3d", "Ah Kh 2h 3h"], "Qc Qd Qh 4d 5c", burns=BURNS)[:8], [])
    for seat, to in ((1, 20), (2, 40), (1, 60), (2, 80), (1, 100)):
        rig.act(seat, "raise", to)
    assert [a["amount"] for a in rig.reports("action")] == [20, 40, 60, 80, 100]
    assert not rig.refusals()
    rig = Rig()
    _start(rig, {1: 5000, 2: 5000, 3: 5000}, button=3)
    _play(rig, deck(["As Kd 2c 3d", "Ah Kh 2h 3h", "Ac Ks 2s 3s"], "Qc Qd Qh 4d 5c", burns=BURNS)[:12], [])
    for seat, to in ((3, 20), (1, 40), (2, 60)):
        rig.act(seat, "raise", to)
    rig.act(3, "raise", 80)
    refused = strip(rig.last("action_refused"))
    assert refused["reason"] == "seat 3 may not raise: 3 raises already in this round: call or fold (art. 12(2))"
    assert refused["display"] == "CALL 40" and rig.table.hand.expected() == (rules.EXPECT_ACTION, 3)


ODD_DECK = deck(["Jc 9d 3c 4c", "Ad Kd 7c 8c", "Ac Kc 7d 8d"], "Qh Jh 9c 5d 2s", burns=BURNS)


def _odd_chip_hand(odd_chip):
    # Button 1: seat 2 small blind folds its 5, seats 3 and 1 tie (the same ranks): a pot of 25.
    rig = Rig(odd_chip=odd_chip)
    _start(rig, {1: 500, 2: 500, 3: 500})
    _play(rig, ODD_DECK, [(1, "call"), (2, "fold"), (3, "check")] + [(3, "check"), (1, "check")] * 3)
    return strip(rig.last("hand_result"))["pots"][0]


def test_art10_5_odd_chip_to_the_first_tied_winner_from_the_croupiers_left():
    pot = _odd_chip_hand("croupier")
    assert pot["amount"] == 25 and pot["winners"] == ["1", "3"] and pot["shares"] == {"1": 13, "3": 12}


def test_art10_5_odd_chip_option_button_first_tied_winner_from_the_buttons_left():
    pot = _odd_chip_hand("button")
    assert pot["winners"] == ["3", "1"] and pot["shares"] == {"3": 13, "1": 12}


def test_art16_rake_per_pot_capped_once_per_hand():
    result = _side_pot_hand(Rig(structure="no_limit", rake_percent=5, rake_cap_big_blinds=1))
    stacks = SIDE_STACKS
    # 5% of 200, 210, 360 = 10 + 10 + 18: capped once at 1 big blind = 10 (art. 16).
    assert result["rake"] == 10
    assert sum(result["stacks"].values()) + 10 == sum(stacks.values())
    assert result["stacks"] == {"1": 190, "2": 210, "3": 360, "4": 700}


def test_art16_a_rake_of_3_5_percent_per_pot_rounded_down():
    # Art. 16: "3% to 5%" of each pot; an approved 3.5% (rake_percent 3.5, tenths of a percent) was no
    # setting. Each pot's rake is rounded down to the unit, in whole units (no float near the chips).
    result = _side_pot_hand(Rig(structure="no_limit", rake_percent=3.5, rake_cap_big_blinds=5))
    stacks = SIDE_STACKS
    # 3.5% of 200, 210, 360 = 7, 7.35, 12.6: 7 + 7 + 12 = 26, under the cap of 5 big blinds (50).
    assert [p["amount"] for p in result["pots"]] == [200, 210, 360] and result["rake"] == 26
    assert [sum(p["shares"].values()) for p in result["pots"]] == [193, 203, 348]
    assert sum(result["stacks"].values()) + 26 == sum(stacks.values())


# -- misdeal (art. 9) ------------------------------------------------------------------------------------
def _to_flop(rig):
    _start(rig, {1: 1000, 3: 1000, 7: 150})
    _play(rig, WHOLE_DECK[:12], [(1, "call"), (3, "call"), (7, "check")])
    assert rig.table.state == DEALING


def test_art9_2_misdeal_by_long_void_returns_every_bet():
    rig = Rig()
    _to_flop(rig)
    rig.press("void", long=True)
    result = strip(rig.last("hand_result"))
    assert result["void"] is True and result["reason"] == "misdeal" and result["pots"] == [] and result["rake"] == 0
    assert result["stacks"] == {"1": 1000, "3": 1000, "7": 150}
    assert rig.table.state == READY and rig.table.stacks[7] == 150
    assert rig.colour("seat3") == pixels.WHITE


def test_art9_card_out_of_order_confirm_discards_it_counted():
    rig = Rig()
    _to_flop(rig)
    rig.card("6s")                        # the burn
    rig.card("Qc")
    rig.card("Qd")
    rig.card("Qh")                        # flop done: an action is awaited
    rig.card("Ts")
    assert rig.table.state == FAULTED and rig.last("fault")["fault"] == "card_out_of_order"
    assert rig.last("fault")["card"] == "Ts" and _dealer(rig)[1:] == ["CARD OUT OF ORDER", "CARD Ts",
                                                                    "CONFIRM: DISCARD"]
    rig.press("confirm")
    assert rig.table.state == BETTING
    assert strip(rig.last("dealt")) == {"event": "dealt", "hand": 1, "card": "Ts", "to": "discard", "face_up": False}
    rig.act(3, "check")
    rig.act(7, "check")
    rig.act(1, "check")
    rig.card("7s")
    rig.card("Ts")                         # it cannot come back
    assert rig.table.state == FAULTED and rig.last("fault")["fault"] == "card_impossible"


def test_art9_card_seen_twice_only_void_closes_it():
    rig = Rig()
    _to_flop(rig)
    rig.card("As")                         # a hole card of seat 3 again: not one 52-card deck
    assert rig.table.state == FAULTED and rig.last("fault") == dict(rig.last("fault"), fault="card_impossible",
                                                                     card="As")
    rig.press("confirm")
    assert rig.table.state == FAULTED and _dealer(rig)[3] == "HOLD VOID: MISDEAL"
    rig.press("void", long=True)
    assert rig.last("fault_ack")["by"] == "void"
    result = rig.last("hand_result")
    assert result["void"] is True and result["reason"] == "card_impossible"
    assert result["stacks"] == {"1": 1000, "3": 1000, "7": 150} and rig.table.state == READY


def test_art9_unreadable_card_rescan_deals_it():
    rig = Rig()
    _to_flop(rig)
    rig.shoe(SHOE_UNREAD)
    assert rig.table.state == FAULTED and rig.last("fault")["fault"] == "card_unreadable"
    rig.press("confirm")                   # never guessed: CONFIRM does not close it
    assert rig.table.state == FAULTED
    rig.card("6s")
    assert rig.last("fault_ack")["by"] == "rescan"
    assert strip(rig.last("dealt")) == {"event": "dealt", "hand": 1, "card": "6s", "to": "burn", "face_up": False}
    assert rig.table.state == DEALING


def test_art9_action_keyed_while_a_card_is_awaited_is_card_missing():
    rig = Rig()
    _to_flop(rig)
    history = len(rig.table.hand.history)
    rig.act(3, "check")
    assert rig.table.state == FAULTED and rig.last("fault") == dict(rig.last("fault"), fault="card_missing",
                                                                     card=None)
    rig.press("confirm")                   # the keyed action is dropped; the hand waits for the card
    assert rig.table.state == DEALING and len(rig.table.hand.history) == history
    rig.act(3, "check")
    rig.card("6s")                         # the card read: the rescan
    assert rig.last("fault_ack")["by"] == "rescan" and rig.last("dealt")["to"] == "burn"
    assert rig.table.state == DEALING and len(rig.table.hand.history) == history


def test_art9_shoe_line_fault_in_a_hand_confirm_or_rescan():
    rig = Rig()
    _to_flop(rig)
    rig.fault(faults.FRAME_LOST, 0)
    assert rig.table.state == FAULTED and _dealer(rig)[1] == "SHOE FRAME_LOST"
    rig.press("confirm")                   # the dealer vouches that no card left the shoe
    assert rig.table.state == DEALING and rig.last("fault_ack")["by"] == "confirm"
    rig.fault(faults.FRAME_CRC, 0)
    rig.card("6s")
    assert rig.last("fault_ack")["by"] == "rescan" and rig.last("dealt")["card"] == "6s"
    assert rig.table.state == DEALING


def test_art9_shoe_restart_in_a_hand_is_a_misdeal_prompt_never_a_card_lost():
    # The shoe's HELLO mid-hand: a card may have left it while it restarted, and the next card would
    # go to the wrong seat (a wrong showdown). Held like a line fault; the card read again resumes.
    from firmware.events import SHOE_HELLO
    rig = Rig()
    _to_flop(rig)
    dealt = len(rig.reports("dealt"))
    rig.shoe(SHOE_HELLO)
    assert rig.table.state == FAULTED and rig.last("fault")["fault"] == "shoe_restarted"
    assert _dealer(rig)[1] == "SHOE SHOE_RESTARTED"
    rig.card("6s")
    assert rig.last("fault_ack")["by"] == "rescan" and rig.last("dealt")["card"] == "6s"
    assert len(rig.reports("dealt")) == dealt + 1 and rig.table.state == DEALING


def test_shoe_restart_between_hands_is_reported_not_an_alarm():
    from firmware.events import SHOE_HELLO
    rig = Rig()
    rig.shoe(SHOE_HELLO)
    assert rig.table.state == READY and strip(rig.last("shoe")) == {"event": "shoe", "shoe": "restarted",
                                                                     "bytes": ""}


def test_art9_2_long_void_in_a_line_fault_voids_with_the_faults_name():
    rig = Rig()
    _to_flop(rig)
    rig.fault(faults.FRAME_LOST, 0)
    rig.press("void", long=True)
    result = rig.last("hand_result")
    assert result["void"] is True and result["reason"] == "frame_lost" and rig.table.state == READY


def test_card_with_no_hand_is_out_of_order_and_confirm_closes_it():
    rig = Rig()
    rig.card("Ah")
    assert rig.table.state == FAULTED and rig.last("fault")["fault"] == "card_out_of_order"
    rig.press("confirm")
    assert rig.table.state == READY and not rig.reports("dealt")
    rig.fault(faults.FRAME_CRC, 0)                                  # no hand: nothing to rescan
    rig.card("Kd")
    assert rig.table.state == FAULTED and strip(rig.last("fault")) == {"event": "fault",
                                                                      "fault": "card_out_of_order", "card": "Kd"}
    rig.press("confirm")
    assert rig.table.state == READY


# -- illegal keypad entries: answered at once, never applied ----------------------------------------------
def _refused(rig, keys, display, reason_part):
    hand = rig.table.hand
    before = (len(hand.history), list(hand.stack)) if hand is not None else None
    count = len(rig.refusals())
    rig.keys(keys)
    refusals = rig.refusals()
    assert len(refusals) == count + 1, keys
    assert refusals[-1]["display"] == display, refusals[-1]
    assert reason_part in refusals[-1]["reason"], refusals[-1]
    assert _dealer(rig)[3] == screens.fit(display)
    if hand is not None:
        assert (len(hand.history), list(hand.stack)) == before
    return strip(refusals[-1])


def _numbers_whole(lines, *texts):
    """Every number a display line shows is one of the numbers of `texts` whole (none cut short)."""
    whole = set()
    for text in texts:
        for word in text.replace("-", " ").split():
            whole.add(word.lstrip("SPH"))
    for line in lines:
        assert len(line) <= screens.COLS, line
        for word in line.replace("-", " ").split():
            if any(c.isdigit() for c in word):
                assert word.lstrip("SPH") in whole, (word, line, texts)


def test_displays_never_show_an_amount_or_a_seat_cut_short():
    # At blinds of 500/1,000 the legal range no longer fits a line: cut at 20 columns, the refusal's
    # answer read "CALL 10,500 RAISE 19" and the pot limit "CALL 525 POT MAX 1,9"; at hand 1000 the seat to act
    # pre-flop read "SEAT 1" for seat 10. Lines are cut between words, a number never inside.
    rig = Rig(small_blind=500, big_blind=1000)
    rig.stacks({1: 900000, 2: 900000, 10: 900000})
    rig.table.hand_no = 999
    rig.keys("new enter")
    _play(rig, WHOLE_DECK[:12], [(None, "raise", 3500), (None, "raise", 11500)])
    legal = rig.table.hand.legal()
    assert legal.display() == "CALL 10,500 RAISE 19,500-38,000 POT MAX 38,000"
    rig.keys("check enter")
    assert _dealer(rig) == ["PREFLOP SEAT 10", "CALL 10,500 RAISE", "19,500-38,000", "CALL 10,500"]
    assert screens.result_lines(rig.table, CONFIG, [])[2] == "CALL 10,500"
    assert screens.result_lines(rig.table, CONFIG, [])[1] == "POT 16,000"
    _numbers_whole(_dealer(rig) + screens.result_lines(rig.table, CONFIG, []), legal.display(), "1000 10 16,000")
    rig = Rig(small_blind=25, big_blind=50)
    rig.stacks({1: 10000, 2: 10000, 3: 10000})
    rig.keys("new enter")
    _play(rig, WHOLE_DECK[:12], [(1, "raise", 175), (2, "raise", 575)])
    lines = screens.result_lines(rig.table, CONFIG, [])
    assert lines[1:3] == ["POT 800", "CALL 525 MAX 1,900"]              # "CALL 525 POT MAX 1,900": 22
    _numbers_whole(lines, "1 800 525 1,900")
    assert screens.fit("P1 9,999 S2 S3 S4 S10") == "P1 9,999 S2 S3 S4"   # a four-way split's seat 10
    assert screens.fit("CHECK BET 10-30 POT MAX 30") == "CHECK BET 10-30"
    assert screens.fit("HOLD VOID: MISDEAL") == "HOLD VOID: MISDEAL"


def test_the_pot_line_shows_side_pots_only_where_an_all_in_bounds_them():
    # A raise nobody has called yet is no side pot: after a raise to 35 the line read "POTS 15 10", 25 of
    # the 50 chips in the middle nowhere. Side pots are bounded by the all-in players' totals; what is
    # above the last one (bets not yet called included) is the last pot, so the pots add up to the middle.
    rig = Rig(structure="no_limit")
    rig.stacks({1: 100, 2: 250, 4: 500, 6: 1000})
    rig.keys("6 button enter")
    rig.keys("new enter")
    _play(rig, WHOLE_DECK[:16], [])
    pots = []
    for action in ((4, "allin"), (6, "call"), (1, "allin"), (2, "allin")):
        rig.act(*action)
        pots.append(screens.result_lines(rig.table, CONFIG, [])[1])
    assert pots == ["POT 515", "POT 1,015", "POTS 310 800", "POTS 400 450 500"]
    rig2 = Rig()
    rig2.stacks({1: 1000, 2: 1000, 3: 1000})
    rig2.keys("new enter")
    _play(rig2, WHOLE_DECK[:12], [(None, "raise", 35)])
    assert screens.result_lines(rig2.table, CONFIG, [])[1] == "POT 50"


def test_illegal_entries_are_refused_with_the_legal_range_and_never_applied():
    rig = Rig()
    assert _refused(rig, "3 fold enter", "NO HAND", "no hand in play")["act"] == "fold"
    rig.stacks({1: 1000})
    assert _refused(rig, "new enter", "NEED 2 PLAYERS", "art. 2(3)") == {
        "event": "action_refused", "seat": None, "act": "new", "amount": None,
        "reason": "at least 2 players with chips are needed to start a hand (art. 2(3))", "display": "NEED 2 PLAYERS"}
    rig.stacks({3: 1000, 7: 150})
    rig.keys("new enter")
    _play(rig, WHOLE_DECK[:12], [])
    # Art. 6(3): seat 1 (left of the big blind) acts first.
    refused = _refused(rig, "3 call enter", "SEAT 1 TO ACT", "seat 1 is to act")
    assert refused["seat"] == "3" and refused["act"] == "call"
    _refused(rig, "1 raise 15 enter", "MIN 20", "raise to 20..35")            # art. 12(1)
    _refused(rig, "raise 500 enter", "POT MAX 35", "raise to 20..35")         # art. 11(2)
    _refused(rig, "check enter", "CALL 10 RAISE 20-35 POT MAX 35", "cannot check")
    _refused(rig, "1 bet 20 enter", "CALL 10 RAISE 20-35 POT MAX 35", "may raise")
    _refused(rig, "1 2 3 4 5 6 7 8 9 0", "TOO MANY DIGITS", "at most %d digits" % MAX_DIGITS)
    _refused(rig, "enter", "KEY A COMMAND", "no command")
    _refused(rig, "stack 5 enter", "HAND IN PLAY", "between hands")
    rig.act(None, "call")
    rig.act(None, "call")
    rig.act(None, "check")
    _play(rig, WHOLE_DECK[12:16], [])
    _refused(rig, "bet enter", "CHECK BET 10-30 POT MAX 30", "bet needs an amount: the seat's total bet")
    _refused(rig, "3 call enter", "CHECK BET 10-30 POT MAX 30", "no bet to call")
    assert rig.table.state == BETTING and rig.table.hand.expected() == (rules.EXPECT_ACTION, 3)
    rig.act(3, "bet", 30)
    assert rig.last("action")["amount"] == 30


def test_allin_keyed_for_a_seat_not_to_act_is_refused_as_out_of_turn_whatever_the_seat_to_act_may_do():
    rig = Rig()
    _start(rig, {1: 5000, 3: 5000, 7: 5000})
    _play(rig, WHOLE_DECK[:12], [])
    for _ in range(3):                                             # art. 12(2): the raise cap is reached
        rig.act(None, "raise", rig.table.hand.legal().max_to)
    assert rig.table.hand.expected() == (rules.EXPECT_ACTION, 1)
    rig.act(3, "allin")
    refused = strip(rig.last("action_refused"))
    assert refused["display"] == "SEAT 1 TO ACT" and refused["reason"].startswith("seat 3 may not act now")
    assert _dealer(rig)[3] == "SEAT 1 TO ACT"
    rig.act(1, "allin")                                            # seat 1 itself: the cap's answer
    assert rig.last("action_refused")["display"] == "CALL 345"


def test_keypad_entry_echo_clear_and_a_second_command_replaces_the_first():
    entry = Entry()
    for legend in ("4", "bet", "3", "raise", "3", "0"):
        entry.press(key_code(legend))
    assert entry.echo() == "> 4 RAISE 30" and (entry.seat, entry.amount) == (4, 30)
    entry.press(key_code("clear"))
    assert entry.echo() == ">" and not entry.keyed
    assert key_code("") == key_code("nonsense") != key_code("0")
    rig = Rig()
    rig.keys("1 2 stack 7 5")
    assert _dealer(rig)[3] == "> 12 STACK 75"


# -- seats, stacks and the button between hands ---------------------------------------------------------
def _folded_round(rig):
    """NEW ENTER, the hole cards, then every seat to act folds until one is left: a round played out."""
    rig.keys("new enter")
    button = rig.table.hand.button
    _play(rig, WHOLE_DECK[:4 * rig.table.hand.n], [])
    while rig.table.state == BETTING:
        rig.act(None, "fold")
    assert rig.table.state == READY and rig.last("hand_result")["void"] is False
    return button


def test_art1_2_button_moves_clockwise_to_the_next_seat_in():
    rig = Rig()
    rig.stacks({2: 500, 5: 500, 9: 500})
    assert [_folded_round(rig) for _ in range(4)] == [2, 5, 9, 2]


def test_art9_2_a_void_round_is_played_again_with_the_same_button():
    # Art. 1(2) moves the button "after each round"; a round declared void (art. 9(2), bets returned) is no
    # round played: it is dealt again with the same button, and the blinds fall on the same seats again.
    rig = Rig()
    rig.stacks({2: 500, 5: 500, 9: 500})
    rig.keys("new enter")
    rig.press("void", long=True)                                  # voided before a card: button 2
    assert _dealer(rig)[:2] == ["HAND 1 VOID", "BUTTON SEAT 2"]   # the dealer sees where it stays
    assert rig.colour("button") == pixels.WHITE
    rig.keys("new enter")
    assert rig.last("hand_start")["button"] == "2" and rig.last("hand_start")["blinds"] == {"5": 5, "9": 10}
    _play(rig, WHOLE_DECK[:12], [(2, "call"), (5, "call"), (9, "check")])
    rig.card("6s")
    rig.press("void", long=True)                                  # voided on the flop: still button 2
    rig.host_hand({"hand": {}})                                   # the host's NEW: the same rule
    assert rig.last("hand_start")["button"] == "2"
    rig.press("void", long=True)
    assert _folded_round(rig) == 2                                # played out: then it moves (art. 1(2))
    assert _folded_round(rig) == 5
    rig.keys("new enter")
    assert rig.last("hand_start")["blinds"] == {"2": 5, "5": 10}
    rig.press("void", long=True)                                  # button 9 voided ...
    rig.keys("9 seat enter")                                      # ... and seat 9 sits out: a dead button,
    rig.keys("new enter")                                         # the blinds on the same seats again
    start = rig.last("hand_start")
    assert start["button"] == "9" and start["players"] == ["2", "5"] and start["blinds"] == {"2": 5, "5": 10}
    rig.press("void", long=True)
    rig.keys("9 seat enter")
    rig.keys("5 button enter")                                    # a keyed button still wins
    rig.keys("new enter")
    assert rig.last("hand_start")["button"] == "5"
    rig.press("void", long=True)
    rig.keys("3 button enter")                                    # a keyed dead button (seat 3 empty) ...
    rig.keys("new enter")
    rig.press("void", long=True)
    rig.keys("new enter")                                         # ... stays there too after a void
    assert rig.last("hand_start")["button"] == "3"


def test_keyed_stacks_button_and_seat_out_carry_into_the_next_hand():
    rig = Rig()
    _start(rig, {1: 1000, 3: 1000, 7: 150})
    _play(rig, WHOLE_DECK, [(1, "fold"), (3, "fold")])             # seat 7 (big blind) wins the blinds
    assert rig.last("hand_result")["stacks"] == {"1": 1000, "3": 995, "7": 155}
    rig.keys("1 seat enter")
    assert strip(rig.last("seat")) == {"event": "seat", "seat": "1", "stack": 1000, "in": False}
    rig.keys("5 stack 800 enter")
    rig.keys("3 button enter")
    assert strip(rig.last("dealer_button")) == {"event": "dealer_button", "seat": "3"}
    rig.keys("new enter")
    start = strip(rig.last("hand_start"))
    assert start["button"] == "3" and start["stacks"] == {"3": 995, "5": 800, "7": 155}
    assert start["players"] == ["5", "7", "3"]
    rig.press("void", long=True)
    rig.keys("1 seat enter")                                        # back in, its stack kept
    rig.keys("7 stack 0 enter")                                     # 0 empties the seat
    rig.keys("new enter")
    start = rig.last("hand_start")
    assert start["stacks"] == {"1": 1000, "3": 995, "5": 800}
    assert start["button"] == "3"                                   # the void hand again (art. 9(2))


def test_a_seat_emptied_by_stack_0_is_no_longer_sitting_out_so_the_next_buy_in_is_dealt():
    # Seat 4's player sits out, then leaves (STACK 0 empties the seat); a new player buys in there.
    rig = Rig()
    rig.stacks({1: 500, 2: 500, 4: 500})
    rig.keys("4 seat enter")
    assert strip(rig.last("seat")) == {"event": "seat", "seat": "4", "stack": 500, "in": False}
    rig.keys("4 stack 0 enter")
    assert _dealer(rig)[2] == "2 PLAYERS IN"
    rig.keys("2 seat enter")
    assert _dealer(rig)[2] == "1 PLAYER IN"                         # the display's words agree with the count
    rig.keys("2 seat enter")
    rig.keys("4 stack 800 enter")
    assert strip(rig.last("seat")) == {"event": "seat", "seat": "4", "stack": 800, "in": True}
    assert _dealer(rig)[2] == "3 PLAYERS IN"
    rig.keys("new enter")
    assert rig.last("hand_start")["players"] == ["2", "4", "1"]
    rig.press("void", long=True)
    rig.keys("4 seat enter 4 stack 300 enter")                     # a stack keyed with chips: still out
    assert strip(rig.last("seat")) == {"event": "seat", "seat": "4", "stack": 300, "in": False}


# -- the host's hand request --------------------------------------------------------------------------------
def test_host_hand_request_starts_a_hand_with_its_stacks_and_button():
    rig = Rig()
    rig.stacks({4: 700})
    rig.host_hand({"hand": {"button": 3, "stacks": {"1": 1000, "3": 1000, "7": 150}}})
    start = strip(rig.last("hand_start"))
    assert start["button"] == "3" and start["stacks"] == {"1": 1000, "3": 1000, "7": 150}   # seat 4: not listed
    assert start["players"] == ["7", "1", "3"] and rig.table.state == DEALING
    rig.host_hand({"hand": {}})
    assert rig.last("host_error")["error"] == "hand refused: a hand is in play"
    rig.press("void", long=True)
    rig.host_hand({"hand": {}})                                     # stacks carried, the void hand's button (art. 9(2))
    assert rig.last("hand_start")["button"] == "3"


def test_host_hand_request_malformed_is_refused_before_anything_changes():
    rig = Rig()
    table = rig.table
    for request, words in (
            ({"hand": {"stacks": {"11": 100, "1": 100}}}, "seat must be 1..10"),
            ({"hand": {"stacks": {"1": 100, "2": -5}}}, "whole number 0..9999999"),
            ({"hand": {"stacks": {"1": 100, "2": 1.5}}}, "whole number 0..9999999"),
            ({"hand": {"stacks": {"1": 100, "2": True}}}, "whole number 0..9999999"),
            ({"hand": {"stacks": {"1": 100}}}, "at least 2 players"),
            ({"hand": {"button": 0}}, "button must be a seat"),
            ({"hand": {"button": "3"}}, "button must be a seat"),
            ({"hand": {"dealer": 3}}, "unknown key"),
            ({"hand": []}, "expected an object"),
            ({"deal": {}}, "unknown request"),
            ([1, 2], "unknown request")):
        raises_match(ValueError, words, table.host_request, request)
    assert table.state == READY and list(table.stacks) == [0] * 11
    assert table.host_request({"hand": {"button": 2}}) == (HOST_HAND, 0)
    rig.host_hand({"hand": {}})                                     # nobody has chips: refused at dispatch
    assert rig.last("host_error")["error"].startswith("hand refused: at least 2 players")
    assert rig.table.state == READY


def test_host_stacks_are_bounded_as_keyed_ones_so_a_payout_always_fits_the_stacks():
    # A host stack of 2**31 or more did not fit the stacks' array: an OverflowError, the board reset; two
    # of 2**31 - 1 started a hand whose payout overflowed, and the journal replayed it at every boot.
    rig = Rig()
    for chips in (10 ** 7, 2 ** 31 - 1, 2 ** 31, 10 ** 11):
        raises_match(ValueError, "stack of seat 2 must be a whole number 0..9999999", rig.table.host_request,
                     {"hand": {"stacks": {"1": 100, "2": chips}}})
    assert list(rig.table.stacks) == [0] * 11 and rig.table.state == READY
    rig.host_hand({"hand": {"button": 1, "stacks": {"1": 9999999, "2": 9999999}}})   # the keypad's largest
    assert rig.last("hand_start")["stacks"] == {"2": 9999999, "1": 9999999} and rig.table.state == DEALING


def test_a_hand_is_refused_when_its_stacks_together_would_not_fit_a_stack():
    # Stacks grown over many hands (or restored): the winner of them all must still fit the stacks' array and
    # stay a small int on MicroPython. Refused before any blind is posted, as NEED 2 PLAYERS is.
    rig = Rig()
    rig.stacks({1: 1000, 2: 1000})
    rig.table.stacks[1] = 2 ** 30
    refused = _refused(rig, "new enter", "STACKS TOO BIG", "more than one hand can hold")
    assert rig.table.state == READY and rig.table.hand is None and refused["act"] == "new"
    rig.host_hand({"hand": {}})
    assert "more than one hand can hold" in rig.last("host_error")["error"] and rig.table.state == READY
    rig.keys("1 stack 1000 enter")
    rig.keys("new enter")
    assert rig.table.state == DEALING and rig.last("hand_start")["stacks"] == {"1": 1000, "2": 1000}


def test_more_players_than_one_deck_deals_is_refused_in_words_the_dealer_can_act_on():
    # Art. 1(1): one 52-card deck deals 11 players at most; a 20-seat table (art. 2(2)) can seat more.
    rig = Rig(seats=20)
    rig.stacks(dict((s, 100) for s in range(1, 13)))
    refused = _refused(rig, "new enter", "MAX 11 PLAYERS", "sit a seat out")
    assert refused["reason"].startswith("12 players with chips: at most 11") and rig.table.state == READY
    rig.keys("12 seat enter")
    rig.keys("new enter")
    assert rig.table.state == DEALING and len(rig.last("hand_start")["players"]) == 11


def test_a_host_hand_request_refused_changes_nothing_of_the_table():
    # Refused for the host link's backlog, the request's stacks had been taken (no seat report) and its
    # button stayed for the dealer's next NEW; refused for want of players, its button stayed too.
    rig = Rig()
    rig.stacks({1: 1000, 3: 1000})
    rig.event(LINK_BACKLOG, 1, 48)
    rig.host_hand({"hand": {"button": 3, "stacks": {"2": 500, "4": 500, "5": 500}}})
    assert rig.last("host_error")["error"].startswith("hand refused: the host link is backed up")
    assert list(rig.table.stacks) == [0, 1000, 0, 1000] + [0] * 7 and rig.table.next_button_seat == NO_SEAT
    rig.event(LINK_BACKLOG, 0, 32)
    rig.keys("1 stack 0 enter")
    rig.host_hand({"hand": {"button": 3}})
    assert rig.last("host_error")["error"].startswith("hand refused: at least 2 players")
    rig.keys("1 stack 1000 enter")
    rig.keys("new enter")
    assert rig.last("hand_start")["button"] == "1"                    # art. 1: the first seat in
    rig.press("void", long=True)
    rig.host_hand({"hand": {"button": 3, "stacks": {"2": 500, "4": 500, "5": 500}}})
    assert rig.last("hand_start")["button"] == "3" and rig.last("hand_start")["stacks"] == {
        "4": 500, "5": 500, "2": 500}


def test_host_hand_request_refused_while_an_alarm_is_open():
    rig = Rig()
    rig.card("Ah")
    rig.host_hand({"hand": {"stacks": {"1": 10, "2": 10}}})
    assert rig.last("host_error")["error"] == "hand refused: an alarm is open"
    assert rig.table.state == FAULTED and rig.table.stacks[1] == 0


def test_keypad_legends_without_a_key_are_ignored():
    rig = Rig()
    rig.keys("1")
    rig.event(KEY, LEGENDS.index(""))                                # KEY on a blank position
    rig.event(KEY, 99)                                               # KEY beyond the keypad
    assert rig.table.entry.echo() == "> 1" and not rig.refusals()


def test_keys_of_an_entry_and_ticks_dispatch_without_allocating():
    rig = Rig()
    _start(rig, {1: 1000, 3: 1000, 7: 150})
    _play(rig, WHOLE_DECK[:12], [])
    table = rig.table
    keys = [LEGENDS.index(k) for k in ("1", "raise", "3", "0", "clear", "4", "bet", "2", "5", "clear")]
    table.dispatch(KEY, keys[0], 0)                                 # warm up
    table.dispatch(KEY, keys[4], 0)
    heap_lock()
    try:
        for key in keys:
            table.dispatch(KEY, key, 0)
            table.dispatch(TICK, 10, 0)
    finally:
        heap_unlock()
    assert table.state == BETTING and not table.entry.keyed and len(table.outbox) == 0
    assert heap_lock_catches_allocation()      # the lock is real: the block above proved something


def test_every_alarm_screen_fits_the_20_column_lcd():
    # Whatever the fault, each dealer line fits the LCD (FAULT FAULT_RECORD_UNSAVED was 26 characters).
    for code in range(1, len(fault_kinds.NAMES)):
        rig = Rig()
        rig.fault(code, 0 if fault_kinds.has_evidence(code) else 3)
        if rig.table.state != FAULTED:
            continue
        lines = screens.dealer_lines(rig.table, CONFIG, [])
        assert max(len(line) for line in lines) <= 20, (fault_kinds.name(code), lines)


def test_art9_shoe_restart_in_an_alarm_of_a_hand_is_reported_as_the_alarm_it_is():
    # Regression: reported as a restart between hands ("shoe" "restarted") while a hand was held.
    from firmware.events import SHOE_HELLO
    rig = Rig()
    _to_flop(rig)
    rig.fault(faults.FRAME_LOST, 0)
    shoes = len(rig.reports("shoe"))
    rig.shoe(SHOE_HELLO)
    assert rig.table.state == FAULTED and rig.last("fault")["fault"] == "shoe_restarted"
    assert len(rig.reports("shoe")) == shoes and rig.table.fault_code == faults.FRAME_LOST
    rig.card("6s")
    assert rig.last("fault_ack")["by"] == "rescan" and rig.table.state == DEALING


def test_shoe_messages_an_omaha_table_does_not_take_are_reported():
    # Regression: IN, OUT and CUT (Baccarat's shoe procedure) were dropped unseen at Omaha; nothing changes.
    from firmware.events import SHOE, SHOE_CUT, SHOE_IN, SHOE_OUT
    rig = Rig()
    rig.event(SHOE, SHOE_OUT)
    _to_flop(rig)
    rig.event(SHOE, SHOE_IN)
    rig.event(SHOE, SHOE_CUT)
    assert [strip(r)["message"] for r in rig.reports("not_taken")] == ["OUT", "IN", "CUT"]
    assert rig.table.state == DEALING
