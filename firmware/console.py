# Technician console: one command line in, reply lines out; bad input answered, never fatal.
from firmware import faults

HELP = (
    "commands:",
    "  help              this list",
    "  status            state, uptime, queue and fault counters",
    "  board             board name, microcontroller and serial ports",
    "  zones             bet zones of the active layout",
    "  lamp ZONE|all|off light one zone / every zone / end the lamp check",
    "  crash             the last crash record",
    "  version           firmware version",
)
VERSION = "0.1.0"
MAX_ARGS = 4


class Console:
    def __init__(self, ctx):
        """ctx: firmware.main.Context (board, config, table, queue, reporter, crash_record)."""
        self.ctx = ctx
        self.errors = 0

    def handle(self, raw):
        """raw bytes of one line -> list of reply lines."""
        try:
            text = raw.decode()
        except UnicodeError:
            return self._error("unreadable input (%d bytes, not text)" % len(raw))
        for ch in text:
            if ch < " " or ch > "~":
                return self._error("unreadable input (control or non-ASCII characters)")
        words = text.split()
        if not words:
            return []
        if len(words) > MAX_ARGS:
            return self._error("too many words (type help)")
        command = words[0].lower()
        handler = COMMANDS.get(command)
        if handler is None:
            return self._error("unknown command %r (type help)" % command)
        return handler(self, words[1:])

    def _error(self, message):
        self.errors += 1
        self.ctx.reporter.emit("console_error", {"error": message})
        return ["error: " + message]

    def _help(self, args):
        return list(HELP)

    def _status(self, args):
        ctx = self.ctx
        t = ctx.table
        lines = [
            "table %s  game %s  state %s" % (ctx.config["table_id"], ctx.config["game"], t.state_name()),
            "uptime %d s  reports sent %d" % (t.uptime_ms // 1000, ctx.reporter.seq),
            "event queue overflows %d  outbox overflows %d" % (ctx.queue.overflows, t.outbox.overflows),
        ]
        if t.fault_code:
            lines.append("fault %s (detail %d): press CONFIRM to acknowledge" % (faults.name(t.fault_code), t.fault_detail))
        for code, text in ctx.bringup_faults:
            lines.append("bring-up fault %s: %s" % (code, text))
        return lines

    def _board(self, args):
        b = self.ctx.board
        lines = ["board %s (%s): %s" % (b.name, b.mcu, b.description)]
        for role in sorted(b.ports):
            spec = b.ports[role]
            if "usb" in spec:
                lines.append("  %-7s USB" % role)
            else:
                lines.append("  %-7s UART%d tx=%d rx=%d %d baud" % (role, spec["uart"], spec["tx"], spec["rx"], spec["baudrate"]))
        return lines

    def _zones(self, args):
        return [" ".join(self.ctx.table.lights.names)]

    def _lamp(self, args):
        if len(args) != 1:
            return self._error("usage: lamp ZONE|all|off")
        table = self.ctx.table
        target = args[0].lower()
        if target == "all":
            table.lamp(-1)
        elif target == "off":
            table.lamp(-2)
        else:
            zone = table.lights.index(target)
            if zone < 0:
                return self._error("no zone %r in this layout (type zones)" % target)
            table.lamp(zone)
        return ["ok"]

    def _crash(self, args):
        record = self.ctx.crash_record
        return record.splitlines() if record else ["no crash recorded"]

    def _version(self, args):
        return ["table firmware " + VERSION]


COMMANDS = {
    "help": Console._help,
    "status": Console._status,
    "board": Console._board,
    "zones": Console._zones,
    "lamp": Console._lamp,
    "crash": Console._crash,
    "version": Console._version,
}
