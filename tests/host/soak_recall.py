"""The soak's recall check: what the table kept of its rounds is what it reported as they ended.

The closing lines (soak_scripts.CLOSING) end with the host's `RECALL 100` ({"recall": 100}): the table answers
with one `recall` report a round kept, oldest first (docs/journal.md, "Recall"). `check_recall(reports, game)`
holds that answer to the live reports of the run: each kept round is the live round report at its place
(Baccarat's `result`, Craps' `throw`, Omaha's `hand_result`; the newest `of` of them, in order), field by field
where the two say the same thing, so that no round is kept twice, left out or kept other than reported, across
power cuts (whole or in a flash write), settings changes, alarms and the host's absences. Craps numbers its
throws on across boots: the kept numbers run on by one. A `link_lost` notice among the live reports hides rounds:
only those after the last one are held to the answer's newest.
"""
LOST = "link_lost"
ASKED = 100                        # soak_scripts.CLOSING's recall
ROUND_EVENTS = {"baccarat": "result", "craps": "throw", "omaha": "hand_result"}


class RecallMismatch(AssertionError):
    pass


def check_recall(reports, game):
    """-> the rounds compared (0: no complete answer to the closing RECALL, e.g. a script without CLOSING);
    RecallMismatch at the first kept round that is not its live report."""
    answer = [r for r in reports if r["event"] == "recall" and r["asked"] == ASKED]
    if not answer or [r["index"] for r in answer] != list(range(1, answer[0]["of"] + 1)):
        return 0
    first_answer = reports.index(answer[0])
    live, lost, dealt = [], False, []
    for r in reports[:first_answer]:
        if r["event"] == LOST:
            live, lost, dealt = [], True, None
        elif r["event"] == "round":
            dealt = []                   # a Baccarat round's cards as its card reports give them, in dealing order
        elif r["event"] == "card" and r["to"] in ("player", "banker") and dealt is not None:
            dealt.append(r["card"])
        elif r["event"] == ROUND_EVENTS[game]:
            live.append((r, dealt))
    kept = [r["round"] for r in answer if r["of"]]
    if any(k is None for k in kept):
        raise RecallMismatch("a kept round gone or unreadable: %r" % ([r for r in answer if r["round"] is None],))
    if len(kept) != min(ASKED, len(live)) and not (lost and len(kept) >= len(live)):
        raise RecallMismatch("%d rounds kept, %d reported (asked %d)" % (len(kept), len(live), ASKED))
    if game == "craps":
        numbers = [k["round"] for k in kept]
        if numbers and numbers != list(range(numbers[0], numbers[0] + len(numbers))):
            raise RecallMismatch("the kept throws' numbers do not run on by one: %r" % (numbers,))
    starts = _hand_starts(reports[:first_answer]) if game == "omaha" else None
    pairs = list(zip(kept[len(kept) - len(live):] if len(live) <= len(kept) else kept, live[-len(kept):]))
    for k, (entry, (report, dealt)) in enumerate(pairs):
        expected = _LIVE[game](report, dealt if game == "baccarat" else starts)
        got = {key: entry.get(key) for key in expected}
        if got != expected:
            raise RecallMismatch("kept round %d of %d: %r, its live report says %r (%r)"
                                 % (len(kept) - len(pairs) + k + 1, len(kept), got, expected, report))
    return len(pairs)


def _summed(nets):
    """{seat: {zone: net}} -> {seat: net} of the seats whose zones were decided (as the kept round has them)."""
    return {seat: sum(zones.values()) for seat, zones in nets.items()}


def _baccarat(r, dealt):
    """dealt: the round's cards in the order its card reports came (Method 2's lower hand draws first, art. 9(3)),
    None when a link_lost notice may hide some."""
    out = {"round": r["round"], "result": "void" if r["void"] else r["winner"], "demo": True if r["demo"] else None}
    if dealt is not None:
        out["cards"] = dealt
    if r["void"]:
        out["void"] = True
    else:
        out["totals"] = [r["player_total"], r["banker_total"]]
    if "nets" in r:
        out["nets"] = _summed(r["nets"])
    return out


def _craps(r, starts):
    out = {"dice": r["dice"], "point": r["point"]}
    if not r["valid"]:
        out["result"] = "no_roll"
        out["no_roll"] = r["no_roll"]
    else:
        out["nets"] = _summed(r["nets"]) if r.get("nets") else None
    return out


def _omaha(r, starts):
    winners = {}
    for pot in r["pots"]:
        for seat, chips in pot["shares"].items():
            winners[seat] = winners.get(seat, 0) + chips
    out = {"hand": r["hand"], "board": "".join(r["board"]), "hole": {s: "".join(c) for s, c in r["hole"].items()},
           "winners": winners, "rake": r["rake"], "void": True if r["void"] else None, "reason": r.get("reason")}
    if r.get("returned"):
        out["returned"] = r["returned"]
    before = starts.get(r["hand"])
    if before is not None:
        seats = set(before) | set(r["stacks"])
        out["nets"] = {s: r["stacks"].get(s, 0) - before.get(s, 0) for s in seats
                       if r["stacks"].get(s, 0) != before.get(s, 0)}
    return out


def _hand_starts(reports):
    """{hand number: its start's stacks} (the last start of each number: a hand is started once)."""
    return {r["hand"]: r["stacks"] for r in reports if r["event"] == "hand_start"}


_LIVE = {"baccarat": _baccarat, "craps": _craps, "omaha": _omaha}
