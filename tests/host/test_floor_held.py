"""tools.floor's table loop (tools/floor/table.py play()): a table held by an alarm nobody closes ends
its run, but not while the link_backlog alarm holds it: that alarm is the gateway's absence (killed and
restarted in `simulate`) and the table closes it itself once its frames are acknowledged."""
from hostsim.autoplay import HELD_LIMIT_MS
from tools.floor import table as floor_table

STEP_MS = 100


class _Line:
    def __init__(self):
        self.opened = False

    def read(self, timeout_s=0.0):
        if not self.opened:
            self.opened = True
            return b"#0.0 0 REPLAY*00000000\n"    # the gateway has opened the link
        return b""

    def flush(self):
        pass


class _Sender:
    def held(self):
        return 0


class _Ctx:
    sender = _Sender()


class _MadeLog:
    made = []


class _Client:
    made_log = _MadeLog()


class _IO:
    def send(self, port, data):
        pass


class _Table:
    def __init__(self):
        self.ms = 0
        self.ctx = _Ctx()
        self.client = _Client()
        self.io = _IO()

    def boot(self):
        pass

    def booting(self):
        return False

    def now_ms(self):
        return self.ms

    def step(self):
        self.ms += STEP_MS


class _Tally:
    rounds = 0


class _Run:
    """Held by `fault` from the first step for `held_ms` of virtual time, then the alarm is closed by the
    table itself (a `cleared` report) and the one round asked for is played."""
    UNIT = "rounds"

    def __init__(self, fault, held_ms):
        self.table = _Table()
        self.tally = _Tally()
        self.on_report = None
        self.reports_made = 0
        self.fault = fault
        self.held_ms = held_ms
        self.state = None

    def _lost(self):
        return None

    def _held(self):
        return self.state == "fault"

    def _report(self, report):
        if self.on_report is not None:    # as HeadlessRun._report: the tests' hook
            self.on_report(report)

    def _step(self, now):
        if self.state is None:
            self.state = "fault"
            self._report({"event": "fault", "fault": self.fault, "frames_held": 48})
        elif self.state == "fault" and now >= self.held_ms:
            self.state = "ready"
            self._report({"event": "fault", "fault": self.fault, "frames_held": 20, "cleared": True})
            self.tally.rounds = 1
        self.table.step()


def _play(fault, held_ms):
    return floor_table.play(_Run(fault, held_ms), _Line(), 1, lambda made: None, deadline_s=60)


def test_a_link_backlog_that_outlasts_the_held_limit_does_not_end_the_run():
    assert _play("link_backlog", 3 * HELD_LIMIT_MS) is None


def test_another_alarm_held_past_the_limit_ends_the_run_and_is_named():
    error = _play("dice_fault", 3 * HELD_LIMIT_MS)
    assert error is not None and "nobody closes" in error and "dice_fault" in error, error


def test_an_alarm_closed_within_the_limit_does_not_end_the_run():
    assert _play("dice_fault", HELD_LIMIT_MS // 2) is None
