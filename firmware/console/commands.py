# The console's command table: one Command per first word (docs/console.md, "Adding a command").
#
# A handler is handler(console, args) -> reply lines (str); args are the words
# after the command's name. It answers bad arguments with
# console.usage_error(command) and anything else refused with console.error().
# Commands with login=True run only for a logged-in technician (the shell
# checks before calling them); one that changes state calls console.record()
# right before it does, which writes the audit log and reports the line to the
# host, and refuses (returns the reply) if the audit log cannot be written.
#
# A handler is named "module.function" of firmware/console: the shell imports the
# module when the command runs and releases it, with this table, when the line is
# done (firmware/parts.py, CONSOLE_ON_DEMAND); a Command added from elsewhere may
# give the function itself.
from collections import namedtuple

Command = namedtuple("Command", ("name", "handler", "usage", "login", "help"))

TABLE = {}
ORDER = []        # help lists commands in this order


def add(command):
    """Put a command in the table (a later command of the same name replaces it in place)."""
    if command.name not in TABLE:
        ORDER.append(command.name)
    TABLE[command.name] = command


for _c in (
    Command("help", "info.help_", "help [COMMAND]", False, "this list, or one command's usage"),
    Command("status", "info.status", "status", False, "state, round, uptime, reset cause, heap, errors"),
    Command("log", "info.log", "log", False, "the last host reports' events and faults"),
    Command("audit", "info.audit", "audit [N]", False, "the last N audit log entries (10)"),
    Command("recall", "recall_cmd.command", "recall [N]", False, "the last N rounds of the game (10)"),
    Command("settings", "info.settings", "settings", False, "the table's settings, and a change staged or pending"),
    Command("set", "settings_cmd.set_", "set KEY VALUE", True, "stage a new value of a setting (checked at once)"),
    Command("commit", "settings_cmd.commit", "commit REF", True, "the staged change, with its approval reference"),
    Command("discard", "settings_cmd.discard", "discard", True, "drop the staged (uncommitted) values"),
    Command("sensors", "info.sensors", "sensors", False, "frame and error counters of each reader"),
    Command("time", "info.time", "time", False, "uptime, and the host's time when it has set it"),
    Command("selftest", "checks.selftest", "selftest", False, "displays, queues, flash records, settings"),
    Command("board", "info.board", "board", False, "board name, microcontroller and serial ports"),
    Command("zones", "info.zones", "zones", False, "bet zones of the active layout"),
    Command("crash", "info.crash", "crash", False, "the last crash record"),
    Command("version", "info.version", "version", False, "firmware version"),
    Command("verify", "info.verify", "verify SEED", False, "HMAC-SHA256 of the deployed program keyed by SEED"),
    Command("lamp", "checks.lamp", "lamp ZONE|all|off", True, "light one zone / every zone / end the check"),
    Command("lights", "checks.lights_test", "lights test", True, "light every zone in turn"),
    Command("display", "checks.display_test", "display test", True, "a test pattern on every display"),
    Command("reboot", "checks.reboot", "reboot", True, "reset the board once the reports are out"),
    Command("login", "access.login", "login", False, "technician login (asks for the PIN)"),
    Command("logout", "access.logout", "logout", False, "end the technician login"),
    Command("passwd", "access.passwd", "passwd", True, "change the technician PIN"),
):
    add(_c)
