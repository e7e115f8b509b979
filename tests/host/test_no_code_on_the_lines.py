"""Nothing on any serial line makes the board execute code (issue 13).

Python source and the REPL's control bytes (Ctrl-C interrupt, Ctrl-D soft reset, Ctrl-E paste
mode, Ctrl-A raw REPL, as mpremote sends them) go to every port of a booted simulated board (the
USB console of the pico, the host link, the readers): the firmware keeps running, the REPL stays
closed (kbd_intr(-1)), no file appears or changes, and what comes back is refusals only: console
errors, host errors, reader faults.
"""
import json
import os

from firmware import board as board_mod
from firmware import main, startup
from hostsim import hardware
from hostsim.usb import UsbConsole
from tools.host import HostClient

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MARKER = "pwned"
PAYLOADS = (
    b"\x03",                                                 # Ctrl-C: KeyboardInterrupt at the REPL
    b"\x03\x03\r\n",
    b"\x04",                                                 # Ctrl-D: soft reset
    b"\x05import os\nopen('%s', 'w').write('x')\n\x04" % MARKER.encode(),   # Ctrl-E paste mode, run with Ctrl-D
    b"\r\x03\x03\x01exec(\"open('%s','w')\")\x04\x02" % MARKER.encode(),    # mpremote's raw REPL
    b"import machine; machine.reset()\r\n",
    b"__import__('os').remove('table.json')\n",
    b"exec(compile('x=1', 'f', 'exec'))\n",
    b"{\"__class__\": \"os\", \"exec\": \"print(1)\"}\n",
)
# What a refusal is reported as (and a bet reading with "accepted": false, the table going to fault);
# anything else (another state, a lamp, a card, a throw) would be action.
REFUSALS = ("console_error", "host_error", "fault")


def _boot(board_name, game, state_dir):
    board_path = os.path.join(REPO, "boards", board_name + ".json")
    table_path = os.path.join(state_dir, "table.json")
    with open(os.path.join(REPO, "boards", "tables", "sim-%s.json" % game)) as f:
        table_text = f.read()
    with open(table_path, "w") as f:
        f.write(table_text)
    hw = hardware.install(board=board_mod.load(board_path))
    import machine
    import neopixel
    ctx = startup.boot(machine, neopixel, board_path, table_path, state_dir,
                    usb_console=UsbConsole() if hw.usb is not None else None)
    return hw, ctx, table_text


class _Host:
    """The host on the report port: the real client, acknowledging; keeps the reports it got."""

    def __init__(self, hw):
        self.hw = hw
        self.client = HostClient(raw=True)
        self.reports = []

    def read(self):
        got, reply = self.client.feed(self.hw.port("host").take())
        self.reports += [json.loads(line) for line in got]
        if reply:
            self.hw.port("host").feed(reply)


def _passes(hw, ctx, n, host):
    for _ in range(n):
        hw.clock.advance(100)
        main.poll_inputs(ctx, 100)
        main.refresh_outputs(ctx, True)
        host.read()


def _roles(ctx):
    return sorted(set(ctx.hw.ports))


def test_repl_bytes_and_python_source_on_every_port_are_refused(tmp_path):
    for board_name, game in (("pico", "baccarat"), ("pico", "craps"), ("sim", "omaha"), ("esp32s3", "baccarat")):
        state = tmp_path / ("%s-%s" % (board_name, game))
        state.mkdir()
        cwd = tmp_path / ("%s-%s-cwd" % (board_name, game))
        cwd.mkdir()
        os.chdir(str(cwd))                   # a relative open() by executed code would land here
        hw, ctx, table_text = _boot(board_name, game, str(state))
        try:
            host = _Host(hw)
            _passes(hw, ctx, 40, host)
            assert hw.kbd_intr == -1, board_name          # Ctrl-C never reaches Python
            host.reports = []
            console_port = hw.port("console")
            console_port.take()
            boots = hw.boots
            for role in _roles(ctx):
                for payload in PAYLOADS:
                    hw.port(role).feed(payload)
                    _passes(hw, ctx, 8, host)
                    hw.port(role).feed(b"\n")         # whatever was left unfinished ends as a line
                    _passes(hw, ctx, 8, host)
            reports = host.reports
            replies = console_port.take().decode(errors="replace")
            assert reports, (board_name, game)
            for report in reports:
                refused = (report["event"] in REFUSALS or report.get("accepted") is False      # a bet reading refused
                           or (report["event"] == "state" and report["state"] == "fault"))
                assert refused, (board_name, game, report)
            for bad in ("Traceback", ">>>", "MicroPython", "raw REPL", "paste mode"):
                assert bad not in replies, (board_name, replies)
            assert hw.kbd_intr == -1 and hw.kbd_intr_calls == [-1]
            assert os.listdir(str(cwd)) == [] and not os.path.exists(os.path.join(str(state), MARKER))
            own = {"table.json", "table.seal", "fault.pending", "boot.0", "boot.1",   # the firmware's own records
                   "table.0", "table.1", "link.0", "link.1"}
            assert set(os.listdir(str(state))) <= own, os.listdir(str(state))
            with open(os.path.join(str(state), "table.json")) as f:
                assert f.read() == table_text
            assert hw.boots == boots                          # no reset either (machine.reset() not run)
        finally:
            hardware.uninstall()
            os.chdir(REPO)
