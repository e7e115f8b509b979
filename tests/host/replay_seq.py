"""The host's view of a replay accounts for every seq: the reports of one boot run 1, 2, 3, ... and where
numbers are missing, the link_lost notices just before the next report count exactly as many (the reports
the board refused while its link store was full; tools.replay, docs/protocol.md "Replay input")."""
import json


def seq_problems(lines):
    """The output's lines (JSON text) -> a list of what does not add up (empty: every seq accounted for).

    A report whose seq is not above the last one starts a boot: before it, the notices count the new
    boot's first reports (seq - 1 of them: its store, full of frames from before a cut, refused them).
    Notices just before a boot's seq 1 close the boot before: the reports it refused were its last, no
    report after them shows how many there were, so their count cannot be checked here."""
    problems = []
    last = 0
    pending = 0
    for number, line in enumerate(lines, 1):
        report = json.loads(line)
        if report.get("event") == "link_lost":
            if set(report) != {"event", "reports"} or isinstance(report["reports"], bool) \
                    or not isinstance(report["reports"], int) or report["reports"] < 1:
                problems.append("line %d: a link_lost notice %r" % (number, report))
            else:
                pending += report["reports"]
            continue
        if "seq" not in report:
            continue                            # a console line
        seq = report["seq"]
        missing = seq - 1 if seq <= last else seq - last - 1
        if missing != pending and not (seq == 1 and last > 0):
            problems.append("line %d: seq %d after %d: %d missing, link_lost counts %d"
                            % (number, seq, last, missing, pending))
        last, pending = seq, 0
    return problems


def lost_total(lines):
    return sum(json.loads(line).get("reports", 0) for line in lines if '"link_lost"' in line)
