"""The host's end of the host link: every report once, in order (docs/host-link.md).

    python -m tools.host PORT [--baud N] [--stamped] [--recall N | --open-bets [--untagged]]

prints one JSON line per report on stdout, in the board's order, each exactly
once across line noise, retransmissions and board resets; what the link itself
noticed (a new boot, frames the board no longer held, reports it refused when
its store was full) goes to stderr as JSON lines with a "link" key.

The protocol without the port is HostClient (tools/host_client.py, re-exported
here: most code imports it from tools.host); this module is the command line
around it and the askers it uses for --recall and --open-bets.

--recall N asks the board for its last N rounds (a RECALL frame, asked again
every RECALL_REPEAT_S while no answer has begun: a request the line damaged is
never acted on), prints the reports until the answer's last `recall` report,
and exits (status 1 when the board refused the request: its host_error).

--open-bets asks a Craps table for the bets open on its layout (an open_bets REQUEST, asked again every
RECALL_REPEAT_S until answered: while the board says to ask again, its link without room for the answer
or the table still starting), prints the reports until the `open_bets` answer, and exits (status 1 when
the board refused it for good: `not served by this table`).

Both tag their request (a random tag, 1..9999, that the board gives back in its answer: docs/host-link.md)
and take only the answer with it: one a run before left unacknowledged on the board comes first, and is
printed and passed over. --untagged asks without one and takes the first answer (firmware that gives no
tag back).
"""
import argparse
import json
import random
import sys
import time

from tools.host_client import TAG_MAX, HostClient  # also found here: most code imports HostClient from tools.host

RECALL_REPEAT_S = 3.0                    # a RECALL with no answer begun by then is asked again
UNTAGGED_HINT = 3                        # answer reports without a tag, seen while asking with one: say so


def new_tag():
    """A request's tag (1..TAG_MAX) drawn at random: the answer to this run's request is told from one a
    run before left unacknowledged on the board (both come as reports; the board gives the tag back)."""
    return random.SystemRandom().randint(1, TAG_MAX)


class _Asker:
    """What both askers share: due() gives the frame to write now (or b""): the request again every
    repeat_s until an answer has begun (started) or the asking is done. Only reports with the asker's
    tag are its answer: one to an earlier request (an earlier run's, still unacknowledged on the board,
    sent again to this one) is printed and passed over."""

    def __init__(self, frame, clock_s, repeat_s, tag):
        self.tag = tag
        self.frame = frame
        self.clock_s = clock_s
        self.repeat_s = repeat_s
        self.asked = 0
        self.started = False
        self.done = False
        self.error = None
        self._last = None
        self.untagged = 0       # answer reports without a tag seen once it had asked (a board whose firmware
        #                         is from before the tags answers every request so: hint() says what to do)

    def ours(self, report, event):
        """report (a dict) is `event` given back with this asker's tag."""
        return report.get("event") == event and report.get("tag", 0) == self.tag

    def _count_untagged(self, report):
        if self.tag and self.asked and report.get("event") == self.answer and "tag" not in report:
            self.untagged += 1

    def hint(self):
        """A line for the person at the host once UNTAGGED_HINT untagged answer reports came (once), else None."""
        if self.untagged != UNTAGGED_HINT:
            return None
        self.untagged += 1
        return ("tools.host: %d %s reports without a tag came while asking with tag %d: the board's firmware may give "
                "no tag back (it is from before request tags): --untagged takes the first answer"
                % (UNTAGGED_HINT, self.answer, self.tag))

    def due(self):
        now = self.clock_s()
        if self.started or self.done or (self._last is not None and now - self._last < self.repeat_s):
            return b""
        self._last = now
        self.asked += 1
        return self.frame


class RecallAsker(_Asker):
    """Asks RECALL until the board's answer begins, then follows it to its last report.

    due() gives the frame to write now (or b""); saw(report) with every report. A request lost on
    the line has no effect on the board, so it is asked again every repeat_s until the first
    `recall` report with the asker's tag arrives (a "recall busy" host_error: another answer is
    under way, an earlier request's of ours or of an earlier run: asked again). A board that boots
    again meanwhile (its `boot` report) has dropped the answer under way (it keeps no request
    across a reset): asked again at once. done: the answer is complete, or the board refused the
    request (error: its reason)."""

    answer = "recall"           # the event of its answer's reports

    def __init__(self, count, clock_s, repeat_s=RECALL_REPEAT_S, tag=None):
        tag = new_tag() if tag is None else tag
        _Asker.__init__(self, HostClient.recall(count, tag), clock_s, repeat_s, tag)
        self.count = count

    def saw(self, report):
        if not isinstance(report, dict):
            return
        self._count_untagged(report)
        event = report.get("event")
        if event == "boot" and self.started and not self.done:
            self.started = False                # the answer under way was cut short by a reset
            self._last = None
        elif self.ours(report, "recall"):
            self.started = True
            if report.get("index", 0) >= report.get("of", 0):
                self.done = True
        elif self.ours(report, "host_error") and report.get("request") == "recall" \
                and not str(report.get("error", "")).startswith("recall busy"):
            self.done = True
            self.error = report.get("error")


class OpenBetsAsker(_Asker):
    """Asks for the open bets until the board's `open_bets` report arrives (done). A request lost on the
    line, or one the board refused for now (its host_error says to ask again: no room in its host link
    for the answer yet, the table starting), is asked again every repeat_s; any other refusal (`not served
    by this table`) ends it (error: its reason). due() and saw() as RecallAsker's."""

    answer = "open_bets"

    def __init__(self, clock_s, repeat_s=RECALL_REPEAT_S, tag=None):
        tag = new_tag() if tag is None else tag
        _Asker.__init__(self, HostClient.request(b"open_bets", tag), clock_s, repeat_s, tag)

    def saw(self, report):
        if not isinstance(report, dict):
            return
        self._count_untagged(report)
        if self.ours(report, "open_bets"):
            self.done = True
        elif self.ours(report, "host_error") and report.get("request") == "open_bets" \
                and "ask again" not in str(report.get("error", "")):
            self.done = True
            self.error = report.get("error")


def _open(port, baud):
    import serial
    try:
        return serial.Serial(port, baud, timeout=0.1)
    except (serial.SerialException, ValueError) as exc:
        raise SystemExit("tools.host: cannot open %s: %s" % (port, exc))


def main(argv=None, out=None, err=None):
    out = sys.stdout if out is None else out
    err = sys.stderr if err is None else err
    ap = argparse.ArgumentParser(prog="python -m tools.host", description=__doc__.split("\n\n")[0])
    ap.add_argument("port", help="the board's report port, e.g. /dev/ttyUSB0")
    ap.add_argument("--baud", type=int, default=115200)
    ap.add_argument("--stamped", action="store_true", help='add "link": {boot, seq, uptime_ms, host_ms}')
    asks = ap.add_mutually_exclusive_group()
    asks.add_argument("--recall", type=int, metavar="N",
                      help="ask for the board's last N rounds (1..100), print until the answer ends, exit")
    asks.add_argument("--open-bets", action="store_true",
                      help="ask a Craps table for the bets open on its layout, print until the answer, exit")
    ap.add_argument("--untagged", action="store_true",
                    help="--recall, --open-bets: ask without a tag and take the first answer (a board whose "
                         "firmware gives no tag back; an older answer left on the board is taken too)")
    args = ap.parse_args(argv)
    if args.recall is not None and not 1 <= args.recall <= 100:
        ap.error("--recall N: N is 1..100")
    if args.untagged and args.recall is None and not args.open_bets:
        ap.error("--untagged goes with --recall N or --open-bets")
    line = _open(args.port, args.baud)
    client = HostClient(clock_ms=lambda: int(time.time() * 1000), stamped=args.stamped)
    asker = None
    tag = 0 if args.untagged else new_tag()
    if args.recall is not None:
        asker = RecallAsker(args.recall, time.monotonic, tag=tag)
    elif args.open_bets:
        asker = OpenBetsAsker(time.monotonic, tag=tag)
    try:
        while True:
            if asker is not None:
                line.write(asker.due())
            reports, reply = client.feed(line.read(4096))
            for report in reports:
                out.write(json.dumps(report) + "\n")
                if asker is not None:
                    asker.saw(report)
                    hint = asker.hint()
                    if hint:
                        err.write(hint + "\n")
            out.flush()
            for event in client.events:
                err.write(json.dumps(event) + "\n")
            del client.events[:]               # printed: a long run keeps none of them
            if reply:
                line.write(reply)
            if asker is not None and asker.done:
                return 1 if asker.error else 0
    except KeyboardInterrupt:
        _summary(client, err)
        return 0
    except OSError as exc:      # the adapter unplugged, the port taken away (pyserial's SerialException is one)
        _summary(client, err)
        err.write("tools.host: lost the port %s: %s: the board keeps every report not acknowledged; "
                  "plug it in again and run tools.host again\n" % (args.port, exc))
        return 1
    finally:
        try:
            line.close()
        except OSError:
            pass


def _summary(client, err):
    err.write(json.dumps({"link": "summary", "frames": client.frames, "duplicates": client.duplicates,
                          "refused": client.refused, "replays_asked": client.replays_asked}) + "\n")


if __name__ == "__main__":
    sys.exit(main())
