"""Replay: the unchanged firmware on the simulated board, fed a script of table events; prints the host's view.

    python -m tools.replay --table TABLE.json [--board sim] [--state-dir DIR]
                           [--line-noise P --seed S] [--cut-after-writes N [--torn]] INPUT.jsonl|-

The firmware boots on the simulated board (virtual clock, as fast as the CPU
allows) and finishes its boot lamp test; then each input line is sent to it
in the wire format of the device concerned (tools/replay_input.py) and the
firmware runs until it has taken it in, plus a settle time. The reports travel
in host-link frames to the real host client (tools.host.HostClient), which
acknowledges them; every report is printed exactly as the firmware made it,
one JSON line each, once, in order, as it comes; nothing else goes to stdout.
With --line-noise P the line drops, corrupts or duplicates bytes with
probability P in both directions (seeded by --seed): the output is the same.
After the input the replay runs until the host has every report. With
--cut-after-writes N the state dir is simulated flash (hostsim.flash.FlashFS)
that cuts the power at its N+1-th write (--torn: half of it written); the
board boots again on the same flash, recovers (firmware/recovery.py), and the
input it had taken but not journalled is given again; {"power_cut": true}
cuts the power between two lines. The output is still the host's view, each
report once. {"host": "away"} cuts the host line both ways until {"host":
"back"} (or the end of the input); a LOST frame (reports the board refused
while its store was full) is printed as {"event": "link_lost", "reports": N}.
Reference: docs/protocol.md, "Replay input".

Exit status: 0 the whole input was replayed; 2 a malformed input line (a
one-line message on stderr names its number; the reports up to it were
printed), an unreadable input or board file, or files the firmware refused at
boot (its boot_refused report was printed); 1 the table did not finish booting,
or the host did not get every report within CATCH_UP_MS of virtual time.
"""
import argparse
import contextlib
import os
import shutil
import sys
import tempfile

from firmware.errors import SettingsError
from hostsim.flash import FlashFS, state_dir_problem
from hostsim.headless import BootTimeout, HeadlessTable, Refused, board_path
from hostsim.line_noise import LineNoise
from tools.pipe import stdout_gone
from tools.replay_input import InputError, run_line

USAGE_ERROR = 2
BOOT_FAILED = 1
# After the input, the host must have every report within this much virtual time (the sender's
# back-off tops out at 8 s: this is several rounds of it).
CATCH_UP_MS = 120000
# The host client's link notices printed among the reports (docs/protocol.md, "Replay input"): link_lost,
# the board's own count of the reports it refused while its store was full (their seq numbers are missing).
# Not link_frames_gone, link_part_lost (a board that lost frames on its flash says so itself, journal_bad;
# their "boot_unknown_end" form says only "may have been lost", and comes where the host had every report
# too) nor link_unknown_type (no such frame comes from this firmware).
LINK_NOTICES = ("link_lost",)


class ReplayError(Exception):
    """The replay stopped: .status is the exit status, str() the one-line message."""

    def __init__(self, message, status=USAGE_ERROR):
        Exception.__init__(self, message)
        self.status = status


def _lines(raw_lines):
    """(number, text) of every line that is not blank; ReplayError for a line that is not UTF-8."""
    for number, raw in enumerate(raw_lines, 1):
        try:
            text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        except UnicodeDecodeError:
            raise ReplayError("line %d: not UTF-8" % number)
        if text.strip():
            yield number, text


def replay(raw_lines, table_file, board_file, state_dir, emit, started=None, line_noise=0.0, seed=0,
           cut_after_writes=None, torn=False, then_cut_after=()):
    """Boot, feed every input line, emit(line) each host report. ReplayError when it stops early.

    raw_lines: the input lines (bytes or str, read one at a time as they are
    needed); started(table) is called with the HeadlessTable once it is built
    (tests read its clock). line_noise: the probability of a byte being hit on
    the host line, each way (seeded by seed). cut_after_writes, torn: the state dir as
    hostsim.flash.FlashFS, the power cut after that many flash writes (torn: the next one half done);
    then_cut_after: after each cut, the boot that follows is cut too after that many writes of its own.
    """
    noise = None
    if line_noise:
        try:
            noise = (LineNoise(line_noise, seed), LineNoise(line_noise, seed + 1))
        except ValueError as exc:
            raise ReplayError(str(exc))
    fs = None
    if cut_after_writes is not None or torn:
        try:
            fs = FlashFS(os.path.abspath(state_dir), cut_after_writes, torn)
        except ValueError as exc:
            raise ReplayError(str(exc))
    try:
        table = HeadlessTable(board_file, table_file, state_dir if fs is None else fs.root, emit, noise, fs,
                              LINK_NOTICES)
        table.next_cuts = list(then_cut_after)
    except SettingsError as exc:
        raise ReplayError(str(exc))
    try:
        if started is not None:
            started(table)
        table.boot()
        for number, text in _lines(raw_lines):
            table.wait_booted()          # the first boot, or the boot after a reset the last line caused
            try:
                run_line(table, text)
            except InputError as exc:
                raise ReplayError("line %d: %s" % (number, exc))
        if table.host_away:
            table.host_returns()         # the input ended with the host away: it comes back for the catch-up
        table.wait_booted()
        if not table.catch_up(CATCH_UP_MS):
            raise ReplayError("the host did not get every report within %d s of virtual time (%d frames "
                              "still unacknowledged)" % (CATCH_UP_MS // 1000, table.ctx.sender.held()),
                              BOOT_FAILED)
    except Refused as exc:
        raise ReplayError("the firmware refused to boot: %s" % exc)
    except BootTimeout as exc:
        raise ReplayError(str(exc), BOOT_FAILED)
    finally:
        table.close()


def _parser():
    ap = argparse.ArgumentParser(prog="python -m tools.replay", description=__doc__.splitlines()[0])
    ap.add_argument("--table", required=True, help="table settings file")
    ap.add_argument("--board", default="sim", help="board name in boards/ or a board file (default sim)")
    ap.add_argument("--state-dir", help="the simulated flash (crash.log, pending fault); default: a fresh "
                                        "temporary directory, removed at exit")
    ap.add_argument("--line-noise", type=float, default=0.0, metavar="P",
                    help="probability that a byte on the host line is dropped, corrupted or duplicated "
                         "(both directions; default 0)")
    ap.add_argument("--seed", type=int, default=0, help="seed of the line noise (default 0)")
    ap.add_argument("--cut-after-writes", type=int, metavar="N",
                    help="the state dir is simulated flash: the power is cut after its N-th write; the board "
                         "boots again on it and the replay goes on")
    ap.add_argument("--torn", action="store_true", help="with --cut-after-writes: the cut write is half done")
    ap.add_argument("input", help="input lines (JSON Lines), or - for stdin")
    return ap


@contextlib.contextmanager
def _input(name, stdin):
    if name == "-":
        yield stdin
        return
    try:
        f = open(name, "rb")
    except OSError as exc:
        raise ReplayError("cannot read %s: %s" % (name, exc.strerror or exc))
    with f:
        yield f


@contextlib.contextmanager
def _state_dir(path):
    if path is not None:
        problem = state_dir_problem(path)
        if problem is not None:
            raise ReplayError("--state-dir %s: %s" % (path, problem))
        yield path
        return
    temp = tempfile.mkdtemp(prefix="replay-")
    try:
        yield temp
    finally:
        shutil.rmtree(temp, ignore_errors=True)


def main(argv=None, stdin=None, stdout=None, stderr=None):
    stdin = stdin if stdin is not None else sys.stdin.buffer
    stdout = stdout if stdout is not None else sys.stdout
    stderr = stderr if stderr is not None else sys.stderr
    parser = _parser()
    args = parser.parse_args(argv)
    if args.torn and args.cut_after_writes is None:
        parser.error("--torn cuts a write half done: it needs --cut-after-writes N")

    def emit(line):
        stdout.write(line + "\n")
        stdout.flush()

    try:
        # The firmware's own console text (print) is not the host's view: it goes to stderr.
        with _input(args.input, stdin) as lines, _state_dir(args.state_dir) as state_dir, \
                contextlib.redirect_stdout(stderr):
            replay(lines, args.table, board_path(args.board), state_dir, emit,
                   line_noise=args.line_noise, seed=args.seed, cut_after_writes=args.cut_after_writes,
                   torn=args.torn)
    except ReplayError as exc:
        print("replay: %s" % exc, file=stderr)
        return exc.status
    except BrokenPipeError:             # the reader of stdout went away (| head): nobody is left to tell
        stdout_gone(stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
