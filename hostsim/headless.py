# The unchanged firmware on the simulated board, stepped on a virtual clock as fast as the CPU allows.
#
# The board runs firmware.main's input pass every POLL_MS and its output pass
# every OUTPUT_MS from asyncio tasks; here the same passes are called in the
# same cadence while the virtual clock is advanced by hand, so a run takes no
# real time and gives the same reports every time. A firmware exception is
# what it is on the board (firmware.main.run): recorded in crash.log, then a
# reset; a reset (that one, machine.reset(), the watchdog) boots the firmware
# again on the same hardware, as hostsim.sim does. The host's end of the host
# link is the real host client (tools.host.HostClient): it reads the frames the
# firmware writes to its host port at the end of each pass, and its replies
# (ACK, REPLAY, TIME) go back into that port; on_report gets each report's JSON
# text once, in order. With line noise (hostsim.line_noise) both directions
# drop, corrupt or duplicate bytes. With the host away (host_leaves, host_returns) the host line is
# cut both ways. Power cuts: hostsim/headless_power.py. Used by tools.replay.
import json
import os
import sys

from firmware import board as board_mod
from firmware import main as firmware_main
from firmware import startup
from firmware.errors import SettingsError
from firmware.saved_state import record_crash
from hostsim import hardware
from hostsim.clock import VirtualClock
from hostsim.flash import PowerCut, table_on_flash
from hostsim.headless_power import PowerCuts, lost_inputs
from hostsim import table_io
from hostsim.table_io import HOST_PORT, TableIO
from tools.host import HostClient

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# A boot's lamp test lights each zone in turn (about a second); a table not
# past it after this long of virtual time is stuck.
BOOT_LIMIT_MS = 10000
# The host must hear the booted table within this much virtual time (what it has not acknowledged from
# before a power cut comes first): a catch-up, as tools.replay's CATCH_UP_MS after the input.
HEAR_LIMIT_MS = 120000
# After an input, the table gets this long to react before the next one: every
# report it causes is out (reports leave every OUTPUT_MS, displays redraw every
# DISPLAY_MS) and a partial reader line has timed out (50 ms at the most).
SETTLE_MS = 100
_STARTING = "starting"
# The host's clock for TIME frames: virtual ms after this Unix time (a run repeats exactly).
HOST_EPOCH_MS = 1764547200000


def board_path(name):
    """A board name (boards/NAME.json) or a path to a board file."""
    if name.endswith(".json") or os.sep in name:
        return name
    return os.path.join(REPO, "boards", name + ".json")


class Refused(Exception):
    """The firmware refused its files at boot (it has reported boot_refused to the host)."""


class BootTimeout(Exception):
    """The table did not finish booting within the bound."""


class HeadlessTable(PowerCuts):
    """One board with the firmware booted on it; step it with run_for(), feed it through .io (a TableIO).

    board: a board file path (SettingsError if it is wrong: the hardware is
    built from it). on_report(line) gets each host report's JSON text, once, in
    the firmware's order, as the host client has it. noise: (LineNoise board
    to host, LineNoise host to board), or None for a clean line. notices: the
    host client's link notices (tools.host.HostClient's `notices`) to pass to
    on_report, by event name, as JSON text in their place among the reports
    (tools.replay: LINK_NOTICES); the others are dropped. Call close()
    when done: it takes the simulated modules out of sys.modules again.
    """

    def __init__(self, board_file, table_file, state_dir, on_report, noise=None, fs=None, notices=()):
        self.board_file = board_file
        self.fs = fs                     # the state dir's filesystem: None (os), or a hostsim.flash.FlashFS
        self.table_file = table_on_flash(table_file, state_dir)     # a settings change rewrites the copy
        self.state_dir = state_dir
        self.on_report = on_report
        self.board = board_mod.load(board_file)
        self.hw = hardware.install(clock=VirtualClock(), ports="loopback", board=self.board)
        self.io = TableIO(self.hw, self.board)
        self.ctx = None
        self.boots = 0
        self.power_cuts = 0
        self.flash_writes = 0            # flash writes of the boots before this one (FlashFS only)
        self.given_again = 0             # inputs the board lost in a cut, given again after it
        self.next_cuts = []              # after a cut, the next boot's own cut (flash writes), if any
        self._booting = False
        self._from_board = bytearray()   # host-port bytes the firmware wrote in the current pass
        self.noise = noise
        self.notices = frozenset(notices)
        self.client = HostClient(clock_ms=lambda: HOST_EPOCH_MS + self.now_ms(), raw=True,
                                 notices=bool(self.notices))
        self.host_away = False           # the host line is cut both ways (host_leaves, host_returns)
        self.last_card_ms = None  # when the last card was sent (pace_card)
        self._last_output = self._last_draw = 0
        self.hw.port("host").taps.append(self._host_bytes)
        self._console_partial = b""
        self._console_lines = []         # console reply lines of the current pass, for on_report
        self.hw.port("console").taps.append(self._console_bytes)

    def close(self):
        hardware.uninstall()

    def now_ms(self):
        return self.hw.clock.now_ms()

    # -- boot ------------------------------------------------------------------------
    def boot(self):
        """Boot the firmware (firmware.startup.boot, as the board's run() does); Refused if it refuses a file."""
        import machine
        import neopixel
        from hostsim.usb import UsbConsole

        usb = UsbConsole() if self.hw.usb is not None else None
        self.ctx = None
        self.boots += 1
        try:
            self.ctx = startup.boot(machine, neopixel, self.board_file, self.table_file, self.state_dir,
                                   usb_console=usb, fs=self.fs)
        except PowerCut:
            self._power_back([])
            return
        except SettingsError as exc:
            from firmware.boot_refusal import report_refusal     # as the board's run() does: boot-only
            from firmware.parts import release_boot_only
            try:
                report_refusal(machine, self.board_file, self.table_file, exc, self.state_dir)
            finally:
                release_boot_only(False)                         # as run() does: none kept after it
            self._deliver()
            raise Refused(str(exc))
        self._booting, self._boot_heard = True, False     # (_past_lamp_test)
        self._last_output = self._last_draw = self.now_ms()
        self._deliver()

    def booting(self):
        """True until a state report shows the table past its boot lamp test."""
        return self._booting

    def wait_booted(self, limit_ms=BOOT_LIMIT_MS, hear_ms=HEAR_LIMIT_MS):
        """Run until the host has heard the table past its lamp test (any state but starting); BootTimeout
        when the table is not past it after limit_ms, or the host has not heard it after hear_ms. With
        the host away, or when the host has every frame the board holds (none left to hear): until the
        table is past it."""
        start = self.now_ms()
        hear_ms = max(limit_ms, hear_ms)
        while self._booting:
            if self.ctx is not None and self.ctx.table.state_name() != _STARTING and (
                    self.host_away or self.caught_up()):
                # Nobody listens (the host reads this boot's reports when it is back, in their order); or
                # the host has every frame the board made and never heard the boot's reports: the store,
                # full of frames from before a cut, refused them (their LOST count came in their place).
                self._booting = False
                break
            waited = self.now_ms() - start
            if waited >= limit_ms:
                ctx = self.ctx
                if ctx is None or ctx.table.state_name() == _STARTING:
                    raise BootTimeout("the table did not finish booting within %d ms" % limit_ms)
                # The table is past its lamp test; the host has not heard it: the line, not the boot. Frames
                # held over a power cut go out before this boot's (oldest first): on a noisy line that
                # takes its time, as a catch-up does (hear_ms).
                if waited >= hear_ms:
                    raise BootTimeout("the host did not get the table's boot reports within %d ms (the table "
                                      "is past its lamp test; %d frames unacknowledged: too noisy a host line?)"
                                      % (hear_ms, ctx.sender.held() if ctx.sender is not None else 0))
            self.step()

    # -- time ---------------------------------------------------------------------------
    def run_for(self, ms):
        """Advance exactly ms of virtual time, one firmware input pass every POLL_MS (a shorter last one)."""
        left = ms
        while left > 0:
            step = min(firmware_main.POLL_MS, left)
            self.step(step)
            left -= step

    def pace_card(self, gap_ms):
        """Let at least gap_ms of virtual time pass since the previous card was sent (a dealer's pace)."""
        if self.last_card_ms is not None:
            waited = self.now_ms() - self.last_card_ms
            if waited < gap_ms:
                self.run_for(gap_ms - waited)
        self.last_card_ms = self.now_ms()

    def take_in(self, role):
        """Run until the firmware has read what was sent to port `role`, then SETTLE_MS more.

        The firmware takes at most one line from a port per pass; a port it
        does not read (a pass takes nothing) keeps its bytes.
        """
        waiting = self._waiting(role)
        patience = 2 * self.io.byte_ms(role)   # a paced line (PIO UART) below 1000 baud: a pass with no byte
        idle = 0
        while waiting and idle <= patience:
            self.step()
            now_waiting = self._waiting(role)
            idle = 0 if now_waiting < waiting else idle + firmware_main.POLL_MS
            waiting = now_waiting
        self.run_for(SETTLE_MS)

    def _waiting(self, role):
        """Bytes sent to port `role` not yet taken as lines: at the port (TableIO.waiting), and read ahead by
        the devices' line readers (a chunk may hold a short line or two: a pass that takes one reads nothing
        from the port; a reading of 30 lines was left half read, the rest taken in under later input lines
        and its end never)."""
        waiting = self.io.waiting(role)
        if self.ctx is not None:
            for device in self.ctx.game.devices:
                waiting += device.source.unread()
        return waiting

    def press(self, role, long=False):
        """Press a dealer button, hold it (TableIO's SHORT_PRESS_MS or LONG_PRESS_MS), release, settle."""
        self.run_for(self.io.press(role, long))
        self.io.release_due()
        self.run_for(SETTLE_MS)

    def press_key(self, legend, hold_ms=table_io.SHORT_PRESS_MS):
        """Press a keypad key, hold it hold_ms, release it, then KEY_GAP_MS for the release to debounce."""
        self.run_for(self.io.press_key(legend, hold_ms))
        self.io.release_due()
        self.run_for(table_io.KEY_GAP_MS)

    def type_keys(self, legends, settle=True):
        """Key a sequence ("bet", "3", "0", "enter"), one key after the other; settle: SETTLE_MS after the last.
        ValueError before any key is pressed when one of them is not on the board's keypad."""
        for legend in legends:
            self.io.key_index(legend)
        for legend in legends:
            self.press_key(legend)
        if settle:
            self.run_for(SETTLE_MS)

    def step(self, ms=firmware_main.POLL_MS):
        """One input pass after ms of virtual time, and the output pass when it is due."""
        self.hw.advance(ms)                 # fires machine.Timer callbacks on the way
        self.io.release_due()
        try:
            try:
                self._firmware_pass(ms)
            except Exception as exc:        # the board's crash recovery (firmware.main.run)
                note = self.ctx.journal.crash_note() if self.ctx is not None else ""
                record_crash(exc, self.state_dir, self.fs, note)
                sys.stdout.write("fatal: %s; resetting\n" % exc)     # its console text, as on the board
                import machine
                machine.reset()
            self.hw.check_watchdog()
        except hardware.SimReset as reset:
            self._deliver()
            self.hw.reboot(reset.cause)
            self.boot()
        except PowerCut:                    # the simulated flash cut the power during a write
            self._power_back(lost_inputs(self.ctx))
        self._deliver()

    def _firmware_pass(self, ms):
        ctx = self.ctx
        firmware_main.poll_inputs(ctx, ms)
        now = self.now_ms()
        if now - self._last_output >= firmware_main.OUTPUT_MS:
            draw = now - self._last_draw >= firmware_main.DISPLAY_MS
            if draw:
                self._last_draw = now
            firmware_main.refresh_outputs(ctx, draw, now - self._last_output)
            self._last_output = now

    # -- the host ---------------------------------------------------------------------------
    def caught_up(self):
        """The host has every report the firmware made: the board holds no frame it has not acknowledged."""
        sender = self.ctx.sender if self.ctx is not None else None
        return sender is None or sender.held() == 0

    def catch_up(self, limit_ms):
        """Run until caught_up() (True), or until limit_ms of virtual time passed (False). A host away
        acknowledges nothing: host_returns() first."""
        end = self.now_ms() + limit_ms
        while not self.caught_up():
            if self.now_ms() >= end:
                return False
            self.step()
        return True

    def host_leaves(self):
        """The host line is cut both ways from now on: what the board writes is lost on the way (nobody
        reads it), and the host sends nothing (no ACK, REPLAY or TIME; callers send it no request)."""
        self.host_away = True

    def host_returns(self):
        """The host line works again: the host client reads the board's next frames where it stopped (a
        frame past what it has is a gap: it asks REPLAY), and answers them."""
        self.host_away = False

    def _host_bytes(self, data):
        # Called inside the firmware's write: only collect here. The host reads after the pass
        # (_deliver), so a failure of the host side (a closed stdout) is never taken for a firmware crash.
        self._from_board += data

    def _console_bytes(self, data):
        # The console's replies, a line at a time, among the host reports as {"console": "..."}
        # (docs/protocol.md, "Replay input"); a prompt waits for the rest of its line (the echo).
        self._console_partial += data
        while b"\n" in self._console_partial:
            raw, self._console_partial = self._console_partial.split(b"\n", 1)
            text = raw.rstrip(b"\r").decode("utf-8", "replace")
            self._console_lines.append(json.dumps({"console": text}))

    def _deliver(self):
        # The console answers a line in the pass that reads it, before the table dispatches what the
        # line asked for: its reply lines come first, then the pass's reports.
        console, self._console_lines = self._console_lines, []
        for line in console:
            self.on_report(line)
        data, self._from_board = bytes(self._from_board), bytearray()
        if self.host_away:
            return                          # lost on a cut line: the host reads nothing, answers nothing
        if self.noise is not None:
            data = self.noise[0].apply(data)
        reports, reply = self.client.feed(data)
        if reply:
            if self.noise is not None:
                reply = self.noise[1].apply(reply)
            self.io.send(HOST_PORT, reply)
        # Past the lamp test: a state after its own "boot", both of this boot's frames: an earlier boot's go out
        # first, and one the host never heard (it was away) sends its own "boot" and "state" among them. (A
        # client that gives no positions, tools/floor/table.py's tap of the reports as they are made: all
        # this boot's.)
        sender = self.ctx.sender if self.ctx is not None else None
        boot = sender.boot if sender is not None else None      # this boot's counter: its frames' (boot, seq)
        positions = self.client.positions
        for i, line in enumerate(reports):
            if isinstance(line, dict):      # a link notice (raw reports are text): in its place, if wanted
                if line.get("event") not in self.notices:
                    continue
                line = json.dumps(line)
            elif self._booting and (i >= len(positions) or positions[i][0] == boot):
                past, self._boot_heard = _past_lamp_test(line, self._boot_heard)
                self._booting = not past
            self.on_report(line)


def _past_lamp_test(line, boot_heard):
    try:
        report = json.loads(line)
    except ValueError:
        return False, boot_heard
    event = report.get("event") if isinstance(report, dict) else None
    return boot_heard and event == "state" and report.get("state") != _STARTING, boot_heard or event == "boot"
