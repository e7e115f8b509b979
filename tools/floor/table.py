"""One simulated table for the floor: the unchanged firmware on the simulated board, its report link on a pty.

    python -m tools.floor.table --game baccarat|craps|omaha --rounds R --seed S

hostsim's headless run (hostsim.headless: a virtual clock, the game's dealer
and bettors) with the board's host port joined to a pseudo-terminal: what
the firmware writes to its host port goes out on the pty (to the gateway),
what comes in on the pty (the gateway's ACK, REPLAY, TIME) goes to the host
port. The dealer follows the table through its reports as in every headless
run: a local copy of the host client reads the same bytes (it answers
nothing). One process runs one table (hostsim.hardware is one simulated
board per process).

The table boots once the gateway has opened its link. The virtual clock runs as fast as the CPU allows while the board holds fewer
than PAUSE_AT frames; with more, the table (dealer and board alike) slows to
the wall clock's pace, as a real table plays: a headless one could outrun any
host link and fill its store. After the last round (or when the game
stopped early) the table stays until the gateway has acknowledged every frame.

stdout, one JSON object per line: {"pty": PATH} first; {"made": [boot, seq],
"t": UNIX_S} for each report when the firmware made it; at the end
{"done": true, "reports": N, ...} (or {"done": false, "error": ...}, exit 1).
"""
import argparse
import errno
import json
import os
import select
import shutil
import sys
import tempfile
import time
import tty

from tools.host import HostClient

PAUSE_AT = 16                 # frames held on the board: the dealer waits above this (the window is 8)
_OUT_LIMIT = 1 << 16          # bytes waiting for the pty; beyond, the line drops them (nobody reads it)
_RUNS = {
    "baccarat": ("hostsim.autoplay", "Run"),
    "craps": ("hostsim.craps_autoplay", "CrapsRun"),
    "omaha": ("hostsim.omaha_autoplay", "OmahaRun"),
}


class _Made:
    """Every report the firmware hands its Sender, as it does: its text (for the dealer) and its position.

    The dealer follows the table through its reports, as every headless run's
    does; here it must see them when the table makes them, not when the link
    lets them out (frames wait in the board's store while the gateway is away),
    as a real dealer sees the table itself. So the Sender's send() is watched
    in this process (the firmware's code is not changed), and the host client
    hostsim.headless reads the host port with (_Tap) hands the dealer these
    instead of what it reads: the gateway is the one reading the link.
    """

    def __init__(self):
        self.texts = []               # made since the last pass, for the dealer
        self.made = []                # ((boot, seq), wall time), for the consumer's check
        self.refused = 0              # reports the board's store refused (full): the LOST frame says so

    def watch(self):
        from firmware.link import sender as sender_mod

        send = sender_mod.Sender.send
        made = self

        def watched(sender, payload, type=sender_mod.REPORT, checked=False):
            seq = send(sender, payload, type, checked)
            if type == sender_mod.REPORT:
                # The dealer sees the table whether or not its store took the report.
                made.texts.append(payload if isinstance(payload, str) else bytes(payload).decode())
                if seq:
                    made.made.append(((sender.boot, seq), time.time()))
                else:
                    made.refused += 1
            return seq

        sender_mod.Sender.send = watched


class _Tap(HostClient):
    def __init__(self, made):
        super().__init__(raw=True)
        self.made_log = made

    def feed(self, data):
        texts, self.made_log.texts = self.made_log.texts, []
        return texts, b""


class PtyLine:
    """The board's end of the report link on a pseudo-terminal: write what the firmware sent, read replies."""

    def __init__(self):
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)                # no echo: the gateway's bytes must not come back to it
        tty.setraw(self.master)
        os.set_blocking(self.master, False)
        self.path = os.ttyname(self.slave)
        self._out = bytearray()
        self.dropped = 0

    def apply(self, data):
        # hostsim.headless calls this with every byte the firmware wrote to its host port.
        self._out += data
        self.flush()
        return data

    def flush(self):
        while self._out:
            try:
                n = os.write(self.master, self._out)
            except BlockingIOError:
                break
            except OSError as exc:
                if exc.errno != errno.EIO:
                    raise
                break
            del self._out[:n]
        if len(self._out) > _OUT_LIMIT:
            self.dropped += len(self._out) - _OUT_LIMIT
            del self._out[:len(self._out) - _OUT_LIMIT]

    def read(self, timeout_s=0.0):
        if timeout_s > 0:
            select.select([self.master], [], [], timeout_s)
        try:
            return os.read(self.master, 4096)
        except (BlockingIOError, OSError):
            return b""


def make_run(game, seed, state_dir, table_id=None):
    """table_id: the table's name in its table file (the gateway checks it against tables.json's), written
    into a copy beside state_dir; None: the sim table file's own."""
    import importlib

    from hostsim.headless import board_path

    module, name = _RUNS[game]
    run_class = getattr(importlib.import_module(module), name)
    table_file = os.path.join(os.path.dirname(board_path("sim")), "tables", "sim-%s.json" % game)
    if table_id is not None:
        with open(table_file) as f:
            data = json.load(f)
        data["table_id"] = table_id
        table_file = state_dir.rstrip(os.sep) + ".table.json"
        with open(table_file, "w") as f:
            json.dump(data, f)
    return run_class(board_path("sim"), table_file, state_dir, seed)


def play(run, line, count, emit, deadline_s):
    """Deal `count` units over the pty link, then run on until the board holds nothing.

    None when done; else why the game stopped early (the link is drained all the same)."""
    from firmware import main as firmware_main
    from hostsim.autoplay import HELD_LIMIT_MS

    table = run.table
    made = table.client.made_log.made
    start = time.monotonic()
    # A floor's gateway is there before its tables open: the table boots once the gateway has opened
    # the link (it asks REPLAY 0.0 at once), so no report waits for a gateway that is still starting.
    while not line.read(0.1):
        if time.monotonic() - start > deadline_s:
            return "no gateway opened the link within %.0f s" % deadline_s
    table.boot()
    held_since = None
    error = None
    last_fault = []                  # the alarm last reported, named when it holds the table too long
    host_away = [False]              # link_backlog raised, not yet cleared: the gateway's absence holds
    previous_hook = run.on_report    # the table, and the table closes it itself once the frames are acked

    def note_fault(report):
        if report.get("event") == "fault":
            last_fault[:] = [report.get("fault")]
            if report.get("fault") == "link_backlog":
                host_away[0] = not report.get("cleared", False)
        if previous_hook is not None:
            previous_hook(report)
    run.on_report = note_fault
    while True:
        _pump(line, table, 0)
        for position, t in made:
            emit({"made": list(position), "t": t})
        run.reports_made += len(made)
        del made[:]
        finished = error is not None or (getattr(run.tally, run.UNIT) >= count and not table.booting())
        sender = table.ctx.sender if table.ctx is not None else None
        held = sender.held() if sender is not None else 0
        if finished and held == 0:
            return error
        if time.monotonic() - start > deadline_s:
            return "%s; %d frames still held after %.0f s" % (error or "%s %d of %d" % (
                run.UNIT, getattr(run.tally, run.UNIT), count), held, deadline_s)
        if finished or held >= PAUSE_AT:
            # The wall clock's pace: a pass at most every POLL_MS unless the gateway answers sooner.
            _pump(line, table, firmware_main.POLL_MS / 1000.0)
            if finished:
                table.step()
                continue
        if table.booting():
            table.step()
            continue
        now = table.now_ms()
        lost = run._lost()
        if lost is not None:
            error = "the dealer lost track of the table: %s" % lost
            continue
        run._step(now)
        if run._held() and not host_away[0]:    # a gateway away for long ends the run by deadline_s
            held_since = now if held_since is None else held_since
            if now - held_since >= HELD_LIMIT_MS:
                error = "the table is held in an alarm nobody closes (%s)" % (
                    last_fault[0] if last_fault else "no fault reported")
        else:
            held_since = None


def _pump(line, table, timeout_s):
    data = line.read(timeout_s)
    if data:
        table.io.send("host", data)
    line.flush()


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m tools.floor.table", description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", choices=sorted(_RUNS), default="baccarat")
    ap.add_argument("--rounds", type=int, default=10, help="rounds (Craps: shooters, Omaha: hands)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--table-id", default=None, help="the table's name (its table file's table_id; default the "
                                                     "sim table file's)")
    ap.add_argument("--deadline", type=float, default=600.0, help="seconds before the table gives up")
    ap.add_argument("--stay", action="store_true",
                    help="after the summary keep the link (the pty) open until stdin closes: a pty freed while a "
                         "gateway still has its path may be given to another program, and opened again by it")
    args = ap.parse_args(argv)
    out = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)                             # the firmware's console text is not ours: stdout -> stderr
    sys.stdout = sys.stderr

    def emit(obj):
        out.write(json.dumps(obj) + "\n")
        out.flush()

    line = PtyLine()
    emit({"pty": line.path})
    state_dir = tempfile.mkdtemp(prefix="floor-table-")
    run = make_run(args.game, args.seed, state_dir, args.table_id)
    made = _Made()
    made.watch()
    run.table.client = _Tap(made)
    run.table.noise = (line, None)
    run.reports_made = 0
    started = time.monotonic()
    try:
        error = play(run, line, args.rounds, emit, args.deadline)
        summary = {"done": error is None, "game": args.game, "reports": run.reports_made,
                   run.UNIT: getattr(run.tally, run.UNIT), "alarms": run.tally.alarms, "refused_on_board": made.refused,
                   "retransmissions": run.table.ctx.sender.retransmits if run.table.ctx else 0,
                   "wall_s": round(time.monotonic() - started, 3)}
        if error is not None:
            summary["error"] = error
        emit(summary)
        if args.stay:
            sys.stdin.read()
    finally:
        run.close()
        shutil.rmtree(state_dir, ignore_errors=True)
        if args.table_id is not None:
            os.remove(state_dir.rstrip(os.sep) + ".table.json")
    return 0 if error is None else 1


if __name__ == "__main__":
    sys.exit(main())
