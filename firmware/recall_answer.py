# Game recall read back (issue 12): the console's `recall N` and the host's RECALL, answered from the
# rounds firmware/round_recall.py keeps on flash.
#
# The reading side only: a table keeps each round at its end (RoundRecall, resident: it runs every
# round) and imports this module when a technician or the host asks (firmware/parts.py,
# RECALL_ON_DEMAND): `recall N` releases it when its line is done, a host's RECALL when its answer is
# out (firmware/report.py: drain() pumps while one is under way). What an answer needs between passes
# is kept in the RoundRecall (answer_*). The host's RECALL is answered one report a round, paced by
# pump(): a report goes out only while the link's store is below half full, so an answer never raises
# the backlog alarm nor crowds out the game's own reports; the rounds are read from flash a few at a
# time as they go (docs/journal.md, "Recall"; docs/protocol.md, "Host reports").
import json

from firmware.link.journal import JournalError

# copies of firmware.events (tests/host/test_const_copies.py)
_HOST_ARG_MASK = const(0xFFFF)
_HOST_TAG_SHIFT = const(16)
# copies of firmware.link.recall (tests/host/test_const_copies.py)
_KEEP = const(100)

ASK_MAX = _KEEP                # rounds one request or `recall N` may ask for
_HEADER_MAX = const(160)       # a recall report's bytes around its round (seq, table, event, game, index...)
_LINE_WIDTH = const(79)        # a console line of an 80-column terminal
_SEGMENT = const(8)            # rounds of an answer read from flash at once (at most 8 x ROUND_MAX in RAM)


def _read(rr, entry):
    """A round read back from flash in today's words (a game whose older firmware wrote others, Craps's
    "seven-out": rounds.read()), else as kept."""
    read = getattr(rr.rounds, "read", None)
    return entry if read is None else read(entry)


# -- the console ------------------------------------------------------------------------------------
def lines(rr, n):
    """The last n rounds of RoundRecall rr, one console line each (at most 79 characters), oldest first."""
    if rr.recall is None:
        return [rr.problem]
    out = []
    if rr.problem:
        out.append(rr.problem)
    try:
        kept = rr.recall.last(n)
    except (OSError, JournalError) as exc:
        return out + ["recall unreadable (%s)" % exc]
    for entry in kept:
        line = rr.rounds.line(_read(rr, entry))
        out.append(line if len(line) <= _LINE_WIDTH else line[:_LINE_WIDTH - 3] + "...")
    if len(out) == (1 if rr.problem else 0):
        out.append("no %s round kept yet" % rr.game)
    return out


# -- the host's RECALL ------------------------------------------------------------------------------
def refusal(rr, count):
    """Why a RECALL of `count` rounds is refused whatever the answer under way (None: it is not)."""
    if not 1 <= count <= ASK_MAX:
        return "recall %d: ask for 1..%d rounds" % (count, ASK_MAX)
    if rr.recall is None:
        return rr.problem
    return None


def ask(rr, count, tag=0):
    """The host asked for the last `count` rounds (tag: the host's, given back in each report when not 0):
    None (the answer is on its way, pump()), or why not."""
    refused = refusal(rr, count)
    if refused is not None:
        return refused
    if rr.answer_of >= 0:
        return "recall busy: %d of %d rounds sent" % (rr.answer_sent, rr.answer_of)
    rr.answer_of = min(count, rr.recall.keep, rr.recall.count)
    rr.answer_asked = count | tag << _HOST_TAG_SHIFT
    rr.answer_sent = 0
    rr.answer_added = 0
    rr.answer_segment = []
    return None


def answering(rr):
    return rr.answer_of >= 0


def pump(rr, reporter, sender):
    """Send what the answer under way can: one `recall` report a round while the host link's
    store is below half full (room for the longest report). Returns the reports sent."""
    sent = 0
    while rr.answer_of >= 0:
        if sender is not None:
            pieces = (rr.rounds.ROUND_MAX + _HEADER_MAX + sender.piece - 1) // sender.piece
            if sender.held() + pieces > sender.report_slots // 2:   # (not a boot's kept slots)
                break
        asked = rr.answer_asked
        fields = {"game": rr.game, "asked": asked & _HOST_ARG_MASK, "index": 0, "of": rr.answer_of, "round": None}
        if asked >> _HOST_TAG_SHIFT:
            fields["tag"] = asked >> _HOST_TAG_SHIFT
        if rr.answer_of:
            if not rr.answer_segment:
                _read_segment(rr)
            payload = rr.answer_segment.pop(0)
            fields["index"] = rr.answer_sent + 1
            if payload is None:
                fields["gone"] = True        # compacted away by the rounds kept meanwhile
            else:
                try:
                    fields["round"] = _read(rr, json.loads(payload))
                except ValueError:
                    fields["unreadable"] = True
        reporter.emit("recall", fields)
        sent += 1
        rr.answer_sent += 1
        if rr.answer_sent >= rr.answer_of:
            rr.answer_of = -1
            rr.answer_segment = []
    return sent


def _read_segment(rr):
    """The next _SEGMENT rounds of the answer (JSON bytes) from flash: only these are held in RAM.
    The answer's rounds are the last `of` when it was asked: counted from the journal's end,
    past the rounds kept since, they are found again whatever a compaction did meanwhile."""
    first = rr.answer_sent
    want = min(_SEGMENT, rr.answer_of - first)
    back = rr.answer_of - first + rr.answer_added     # the first wanted round, counted from the end
    skip = rr.recall.count - back
    segment = []
    while skip < 0 and len(segment) < want:           # no longer kept (more than `keep` rounds since)
        segment.append(None)
        skip += 1
    try:
        for text in rr.recall.texts(skip):
            if len(segment) < want:               # read to the end: no file left open mid-way
                segment.append(text)
    except (OSError, JournalError):
        pass
    while len(segment) < want:
        segment.append(b"")                       # could not be read back: sent as "unreadable"
    rr.answer_segment = segment
