# A whole Omaha hand from a script: the deck in dealing order and the actions, fed to the engine
# (rules.OmahaHand) as it asks for them. The rules judge (tools/judge_omaha.py) and the tests play
# hands this way; the table feeds its hand one card or keyed action at a time and never imports this.
from firmware.errors import RuleError
from firmware.games.omaha.rules import EXPECT_ACTION, EXPECT_DONE, EXPECT_VOID, STREETS, OmahaHand

MISDEAL = "misdeal"  # an entry (anything, "misdeal") in place of an action voids the round there (art. 9(2))


def play_hand(settings, button, stacks, deck, actions):
    """Whole hand: cards from `deck` (dealing order) and `actions` ((seat, action[, amount]), ...)
    fed as the hand asks for them -> (hand, result). An entry (x, MISDEAL) in
    place of an action voids the round there (art. 9(2)). A refused action raises
    its RuleError with `.at` = its index in actions; a short deck or missing
    actions raise RuleError without `.at`.
    """
    if not isinstance(deck, (list, tuple)):
        raise RuleError("the deck is a list of card numbers in dealing order, got %r" % (deck,))
    if not isinstance(actions, (list, tuple)):
        raise RuleError("actions are a list of (seat, action[, amount]), got %r" % (actions,))
    hand = OmahaHand(settings, button, stacks)
    d = 0
    a = 0
    while True:
        kind, seat = hand.expected()
        if kind == EXPECT_DONE or kind == EXPECT_VOID:
            break
        if kind == EXPECT_ACTION:
            if a >= len(actions):
                raise RuleError("the actions end but seat %d is to act (%s)" % (seat, STREETS[hand.street]))
            entry = actions[a]
            try:
                if not isinstance(entry, (list, tuple)):
                    raise RuleError("an action is [seat, action] or [seat, action, amount], got %r" % (entry,))
                if len(entry) == 2 and entry[1] == MISDEAL:
                    hand.misdeal()
                elif len(entry) == 2:
                    hand.act(entry[0], entry[1])
                elif len(entry) == 3:
                    hand.act(entry[0], entry[1], entry[2])
                else:
                    raise RuleError("an action is [seat, action] or [seat, action, amount]")
            except RuleError as exc:
                exc.at = a
                raise
            a += 1
        else:
            if d >= len(deck):
                raise RuleError("the deck ends but the hand needs %s" % hand.describe())
            hand.deal(deck[d])
            d += 1
    if a < len(actions):
        exc = RuleError("action %d comes after the hand is over" % a)
        exc.at = a
        raise exc
    return hand, hand.result()
