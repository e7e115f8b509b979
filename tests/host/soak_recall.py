"""The soak's recall check: what the table kept of its rounds is what it reported as they ended.

The closing lines (soak_scripts.CLOSING) end with the host's `RECALL 100` ({"recall": 100}), and the messy scripts'
host asks now and then mid-play: the table answers with one `recall` report a round kept, oldest first
(docs/journal.md, "Recall"). `check_recall(reports, game)` holds each complete answer to the live reports of the
run: each kept round is the live round report at its place (Baccarat's `result`, Craps' `throw`, Omaha's
`hand_result`; the newest `of` of them when it was asked, in order), field by field where the two say the same
thing, so that no round is kept twice, left out or kept other than reported, across power cuts (whole or in a
flash write), settings changes, alarms and the host's absences. Craps numbers its throws on across boots: the
kept numbers run on by one. A `link_lost` notice among the live reports hides rounds: only those after the last
one are held to the answer's newest.
"""
LOST = "link_lost"
ROUND_EVENTS = {"baccarat": "result", "craps": "throw", "omaha": "hand_result"}


class RecallMismatch(AssertionError):
    pass


def check_recall(reports, game):
    """-> the rounds compared; RecallMismatch at the first answer that is not the live rounds it names. Every
    complete answer to a RECALL (the closing one, and those the messy scripts' host asks for mid-play: an answer
    a reset cut short is dropped, and not made again) is the last `of` rounds the table had ended when it was
    asked: the live round reports before its first report (but up to LATE rounds that ended after the request,
    while the answer waited for the store's room), all of them while no link_lost notice hid any."""
    compared, at = 0, 0
    live, lost, dealt, starts = [], False, [], {}
    raises, marks = 0, []         # link_backlog raises so far; for each live round, how many there had been
    found = answers(reports)
    # The last answer, when no round ended after it (the closing RECALL is the script's last line), is of exactly
    # the rounds before it: nothing could end between its request and its first report.
    ended = [i for i, r in enumerate(reports) if r["event"] == ROUND_EVENTS[game]]
    exact = found[-1][0] if found and (not ended or ended[-1] < found[-1][0]) else None
    for first, answer in found:
        for r in reports[at:first]:
            event = r["event"]
            if event == LOST:
                live, lost, dealt, marks = [], True, None, []
            elif event == "round":
                dealt = []               # a Baccarat round's cards as its card reports give them, in dealing order
            elif event == "card" and r["to"] in ("player", "banker") and dealt is not None:
                dealt.append(r["card"])
            elif event == "hand_start":
                starts[r["hand"]] = r["stacks"]
            elif event == ROUND_EVENTS[game]:
                live.append((r, dealt if game == "baccarat" else starts))
                marks.append(raises)
            elif event == "fault" and r["fault"] == "link_backlog" and not r.get("cleared"):
                raises += 1
        at = first
        if game == "craps" and not lost and found and first != exact:
            compared += _check_numbered(answer, live, marks, raises)
        else:
            compared += _check_answer(answer, live, lost, game, 0 if first == exact else LATE)
    return compared


def _check_numbered(answer, live, marks, raises):
    """A Craps answer mid-play, no round hidden: its throws are numbered from the table's first (on across boots),
    so the live throw of each kept number is known, however late the answer came. Up to LATE throws may end
    between the request and the answer; more only where the link backed up after the newest kept one (the answer
    waits for half the store's room, while the dealer's throws go on: Craps seed 727, all flags, a noisy line,
    11 throws; the check by position alone called it a mismatch)."""
    kept = [r["round"] for r in answer if r["of"]]
    if not kept:
        return _check_answer(answer, live, False, "craps", LATE)
    _run_on(kept)
    end, n = kept[-1]["round"], len(kept)
    if not n <= end <= len(live) or n != min(answer[0]["asked"], end):
        raise RecallMismatch("kept throws %d..%d, asked %d, of %d live throws"
                             % (kept[0]["round"], end, answer[0]["asked"], len(live)))
    difference = _differs(kept, live[end - n:end], "craps")
    if difference is not None:
        _mismatch(difference, 0, n)
    if len(live) - end > LATE and raises == marks[end - 1]:
        raise RecallMismatch("the answer of throws ..%d came %d throws later, the link never backed up meanwhile"
                             % (end, len(live) - end))
    return n


def answers(reports):
    """[(the index of its first report, its recall reports)] of each complete answer, in order: indexes 1..of
    (or the one report of index 0: none kept), none of another answer or a boot between them."""
    out, current = [], None
    for i, r in enumerate(reports):
        if r["event"] == "boot":
            current = None                 # a reset drops the answer under way (docs/journal.md, "Recall")
        elif r["event"] == "recall":
            if r["index"] <= 1:
                current = (i, [r])
            elif current is not None and (r["index"], r["asked"]) == (current[1][-1]["index"] + 1,
                                                                      current[1][0]["asked"]):
                current[1].append(r)
            else:
                current = None
            if current is not None and current[1][-1]["index"] == current[1][-1]["of"]:
                out.append(current)
                current = None
    return out


LATE = 10                          # rounds that may end between a RECALL and its answer's first report


def _check_answer(answer, live, lost, game, late):
    kept = [r["round"] for r in answer if r["of"]]
    if any(k is None for k in kept):
        raise RecallMismatch("a kept round gone or unreadable: %r" % ([r for r in answer if r["round"] is None],))
    if game == "craps":
        _run_on(kept)
    asked = answer[0]["asked"]
    for end in range(len(live), max(-1, len(live) - late - 1), -1):      # the newest first
        n = min(len(kept), end)
        if (lost or len(kept) == min(asked, end)) and _differs(kept[len(kept) - n:], live[end - n:end], game) is None:
            return n
    if not lost and len(kept) != min(asked, len(live)):
        raise RecallMismatch("%d rounds kept, %d reported (asked %d)" % (len(kept), len(live), asked))
    n = min(len(kept), len(live))
    _mismatch(_differs(kept[len(kept) - n:], live[len(live) - n:], game), len(kept) - n, len(kept))


def _run_on(kept):
    """Craps: the kept throws' numbers run on by one (across boots)."""
    numbers = [k["round"] for k in kept]
    if numbers and numbers != list(range(numbers[0], numbers[0] + len(numbers))):
        raise RecallMismatch("the kept throws' numbers do not run on by one: %r" % (numbers,))


def _mismatch(difference, skipped, total):
    """RecallMismatch for _differs()'s difference, among the `total` kept rounds (the first `skipped` not compared)."""
    k, got, expected, report = difference
    raise RecallMismatch("kept round %d of %d: %r, its live report says %r (%r)" % (skipped + k + 1, total, got, expected,
                                                                                     report))


def _differs(kept, live, game):
    """None, or (k, the kept round's fields, the live report's, the report) of the first pair that differs."""
    for k, (entry, (report, context)) in enumerate(zip(kept, live)):
        expected = _LIVE[game](report, context)
        got = {key: entry.get(key) for key in expected}
        if got != expected:
            return k, got, expected, report
    return None


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


_LIVE = {"baccarat": _baccarat, "craps": _craps, "omaha": _omaha}
