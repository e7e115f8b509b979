# Technician console: one command line in, reply lines out; bad input answered, never fatal.
#
# Replies go straight back to the technician. Everything the host must hear
# (errors, lamp checks) becomes an event on the table's queue, so its report
# takes its place among the other events' reports, and only the table's state
# machine changes the table.
from firmware import faults
from firmware.version import FIRMWARE_VERSION
from firmware import table as table_mod
from firmware.events import (CON_LINE_TOO_LONG, CON_NO_ZONE, CON_REFUSED, CON_TOO_MANY_WORDS, CON_UNKNOWN_COMMAND,
                             CON_UNREADABLE, CON_USAGE, CONSOLE_ERROR, LAMP, LAMP_ALL, LAMP_CHECK_END)

HELP = (
    "commands:",
    "  help              this list",
    "  status            state, uptime, faults, queue and console error counters",
    "  board             board name, microcontroller and serial ports",
    "  zones             bet zones of the active layout",
    "  lamp ZONE|all|off light one zone / every zone / end the lamp check",
    "  crash             the last crash record",
    "  version           firmware version",
)
VERSION = FIRMWARE_VERSION      # one version, also in the build's manifest.json
MAX_ARGS = 4


class Console:
    def __init__(self, ctx):
        """ctx: firmware.main.Context (board, config, table, queue, reporter, crash_record)."""
        self.ctx = ctx
        self.errors = 0
        self._line = b""          # the line being handled: the evidence of its error report

    def handle(self, raw):
        """raw bytes of one line -> list of reply lines."""
        self._line = raw
        try:
            text = raw.decode()
        except UnicodeError:
            return self._error(CON_UNREADABLE, "unreadable input (%d bytes, not text)" % len(raw))
        for ch in text:
            if ch < " " or ch > "~":
                return self._error(CON_UNREADABLE, "unreadable input (control or non-ASCII characters)")
        words = text.split()
        if not words:
            return []
        if len(words) > MAX_ARGS:
            return self._error(CON_TOO_MANY_WORDS, "too many words (type help)")
        command = words[0].lower()
        handler = COMMANDS.get(command)
        if handler is None:
            return self._error(CON_UNKNOWN_COMMAND, "unknown command %r (type help)" % command)
        return handler(self, words[1:])

    def line_too_long(self):
        """A line longer than the console buffer was dropped whole: answered like any bad line."""
        self._line = b""          # its bytes are gone
        return self._error(CON_LINE_TOO_LONG, "line too long")

    def _error(self, code, message):
        """Count, report (as an event, in order with the others) and answer a bad line."""
        self.errors += 1
        ctx = self.ctx
        handle = ctx.table.evidence.keep(self._line) if self._line else 0
        ctx.queue.put(CONSOLE_ERROR, code, handle)      # a full queue is itself a reported fault
        return ["error: " + message]

    def _help(self, args):
        return list(HELP)

    def _status(self, args):
        ctx = self.ctx
        t = ctx.table
        lines = [
            "table %s  game %s  state %s" % (ctx.config["table_id"], ctx.config["game"], t.state_name()),
            "uptime %d s  reports sent %d" % (t.uptime_s, ctx.reporter.seq),
            "event queue overflows %d  outbox overflows %d" % (ctx.queue.overflows, t.outbox.overflows),
            "console errors %d" % self.errors,
        ]
        if ctx.unused_reader is not None:
            lines.append("lines on the unused %s port %d" % (ctx.unused_role, ctx.unexpected_lines))
        if t.fault_code:
            if t.fault_restored:
                detail = "from before the reset"
            elif faults.has_evidence(t.fault_code):
                detail = "bytes %r" % t.evidence.text(t.fault_detail)
            else:
                detail = "detail %d" % t.fault_detail
            lines.append("fault %s (%s): press CONFIRM to acknowledge" % (faults.name(t.fault_code), detail))
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
            elif "pio" in spec:
                lines.append("  %-7s PIO%d SM%d-%d tx=%d rx=%d %d baud" % (
                    role, spec["pio"], spec["sm"], spec["sm"] + 1, spec["tx"], spec["rx"], spec["baudrate"]))
            else:
                lines.append("  %-7s UART%d tx=%d rx=%d %d baud" % (role, spec["uart"], spec["tx"], spec["rx"], spec["baudrate"]))
        return lines

    def _zones(self, args):
        return [" ".join(self.ctx.table.lights.names)]

    def _lamp(self, args):
        if len(args) != 1:
            return self._error(CON_USAGE, "usage: lamp ZONE|all|off")
        table = self.ctx.table
        target = args[0].lower()
        if target == "all":
            zone = LAMP_ALL
        elif target == "off":
            zone = LAMP_CHECK_END
        else:
            zone = table.lights.index(target)
            if zone < 0:
                return self._error(CON_NO_ZONE, "no zone %r in this layout (type zones)" % target)
        if zone != LAMP_CHECK_END and not table.accepts_lamp_check():
            if table.state == table_mod.FAULTED:
                why = "the table is in FAULT: the alarm stays until CONFIRM acknowledges it"
            else:
                why = "the table is %s" % table.state_name()
            return self._error(CON_REFUSED, "lamp check refused: " + why)
        if not self.ctx.queue.put(LAMP, zone):
            return ["error: event queue full, lamp command dropped (try again)"]
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
