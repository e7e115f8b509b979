# A boot that refused its board or table file: one framed report to the host if the board file says
# where it is, and the REPL open only with the service jumper fitted (firmware/main.py's run()).
from firmware import board as board_mod
from firmware import table_config
from firmware.board_checks import MCUS, reserved, whole
from firmware.compat import kbd_intr, sleep_ms
from firmware.errors import SettingsError
from firmware.hardware import open_port
from firmware.link import frame as frame_mod
from firmware.link import sender as sender_mod
from firmware.link.boot_counter import next_boot
from firmware.link.ram_store import RamStore
from firmware.report import Reporter
from firmware.saved_state_read import reset_cause_name
from firmware.version import FIRMWARE_VERSION

# micropython.kbd_intr: the byte that interrupts Python from the REPL's stdin (the USB console).
INTR_OFF = const(-1)      # production: Ctrl-C is a byte like any other, the console refuses it
INTR_CTRL_C = const(3)    # service mode: Ctrl-C stops the firmware (mpremote, the REPL)
# The longest error a boot_refused report carries (the console prints it whole): the report's JSON must
# fit the frames of its one-off store (RamStore(4): two pieces); an error names the key before the value.
_ERROR_MAX = const(300)


def _refused_service_mode(machine, board_path):
    """The service jumper of a refused board file, if its service_pin can be read at all (else False):
    never a pin of the module's flash or PSRAM (an unknown "psram": none of its PSRAM's pins either)."""
    try:
        name, data = board_mod.read(board_path, None, False)
        pin = data.get("service_pin") if isinstance(data, dict) else None
        gpio = MCUS[data["mcu"]]["gpio"]
        psram = data.get("psram")
        kinds = MCUS[data["mcu"]].get("psram", {})
        taken = reserved(data["mcu"])
        for kind in kinds:          # the board's PSRAM's pins; an unknown "psram": every kind's
            if psram == kind or (psram is not None and psram not in kinds):
                taken += kinds[kind]
    except (SettingsError, KeyError, TypeError):
        return False
    if not whole(pin) or pin not in gpio:
        return False
    for first, last, _ in taken:
        if first <= pin <= last:
            return False
    return machine.Pin(pin, machine.Pin.IN, machine.Pin.PULL_UP).value() == 0


def stay_closed(machine, board_path, closed):
    """After a refusal, main.py would end in the REPL: only in service mode; else idle, Ctrl-C off."""
    if _refused_service_mode(machine, board_path):
        kbd_intr(INTR_CTRL_C)
        print("boot: service mode: the REPL is open")
        return
    kbd_intr(INTR_OFF)
    print("boot: the REPL stays closed: fit the service jumper and reset to open it")
    while True:
        if closed is not True:
            closed()
            return
        sleep_ms(1000)


def report_refusal(machine, board_path, table_path, error, state_dir="", board_name=None):
    """Send {"event": "boot_refused", "error": ...} to the host, if the board file tells where it is.

    The board file may be the one refused: its ports.host section alone is
    enough. It goes out framed (a one-off Sender with this boot's counter),
    once: nobody waits for the host's ACK. Returns the report's JSON, or None
    when the host port is unknown.
    """
    try:
        name, data = board_mod.read(board_path, board_name, False)   # a key twice: the report still goes
        spec = board_mod.host_port(name, data)
    except SettingsError as exc:
        reason = "" if str(exc) == str(error) else ": " + str(exc)   # the refusal itself was just printed
        print("boot: no report to the host: the board file gives no valid host port%s" % reason)
        return None
    try:
        port = open_port(machine, spec)
    except (OSError, ValueError) as exc:      # the UART itself failed: the console line is all there is
        print("boot: no report to the host: its UART %d failed (%s)" % (spec["uart"], exc))
        return None
    boot_number, _ = next_boot(state_dir)
    sender = sender_mod.Sender(port.uart, RamStore(4, frame_mod.MAX_FRAME), boot_number)
    reporter = Reporter(sender, table_config.table_id(table_path), ())
    text = str(error)
    if len(text) > _ERROR_MAX:        # a value of 3,000 characters echoed: the report must still fit its frames
        text = text[:_ERROR_MAX - 3] + "..."
    line = reporter.emit("boot_refused", {"error": text, "firmware": FIRMWARE_VERSION,
                                          "reset_cause": reset_cause_name(machine)})
    sender.poll(0)
    return line
