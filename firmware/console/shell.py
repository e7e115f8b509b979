# The technician console: bytes from the console port in, replies out, bad input answered, never fatal.
#
# firmware.main calls poll() once per input pass. The line editor
# (firmware/console/editor.py) echoes what is typed and hands whole lines here;
# a line is a command from the table (firmware/console/commands.py), or the
# answer to a prompt (a PIN). The table and each command's module are imported
# when a command runs and released when its line is done (firmware/parts.py,
# CONSOLE_ON_DEMAND): a table keeps none of them between commands. Replies go
# straight back to the technician. This module, the editor, auth and audit are
# themselves imported only while the console is awake (parts.CONSOLE_AWAKE): a
# Console is made from what ctx.console (parts.ConsoleState) keeps, and keeps
# its state there again when it goes dormant (keep_state).
# Everything the host must hear (errors, logins, changes) becomes an event on
# the table's queue, so its report takes its place among the other events'
# reports, and only the table's state machine changes the table. Logins,
# failed PINs, lockouts, logouts and changes are also written to the audit log
# on flash (firmware/console/audit.py) before they take effect.
import sys

from firmware.console import editor as ed
from firmware.console.audit import AuditLog
from firmware.console.auth import Auth, PinStore
from firmware.link.journal import JournalError
from firmware.parts import CONSOLE_ON_DEMAND, release, release_boot_only
from firmware.report import CONSOLE_ACTIONS

# copies of firmware.console.pins (tests/host/test_const_copies.py)
_MIN_DIGITS = const(6)
# copies of firmware.events (tests/host/test_const_copies.py)
_CONSOLE = const(6)
_CONSOLE_ERROR = const(10)
_CON_ACT_COMMAND = const(7)
_CON_ACT_IDLE_LOGOUT = const(5)
_CON_AUDIT_FAILED = const(9)
_CON_LINE_TOO_LONG = const(2)
_CON_LOGIN_REQUIRED = const(8)
_CON_TOO_MANY_WORDS = const(3)
_CON_UNKNOWN_COMMAND = const(4)
_CON_UNREADABLE = const(1)
_CON_USAGE = const(5)
_LAMP = const(9)
_LAMP_CHECK_END = const(-2)

MAX_ARGS = 4
# A PIN prompt nothing is typed at for this long is closed: the next person at the console would otherwise
# type a command as the PIN (a wrong PIN counted, the line shown as "*"), and a console with a prompt open
# never goes dormant.
PROMPT_CLOSE_S = 60
PROMPT = "> "
PROMPT_LOGGED_IN = "# "
# Commands that ask for a PIN at their own prompt: words typed after them may be the PIN itself
# (`login 246810`), so a refusal reports and keeps only the command's name, never the line.
SECRET_ARGS = ("login", "passwd")


def without_pins(line):
    """line (bytes) with every run of MIN_DIGITS digits or more, which may be a PIN (or hold one typed
    with its neighbours), as one "*": the evidence of a refused line (`help 246810` -> `help *`)."""
    out = bytearray()
    i = 0
    n = len(line)
    while i < n:
        j = i
        while j < n and 48 <= line[j] <= 57:
            j += 1
        if j - i >= _MIN_DIGITS:
            out.append(42)
        elif j == i:
            out.append(line[i])
            j += 1
        else:
            out.extend(line[i:j])
        i = j
    return bytes(out)


def _handler(handler):
    """A command's handler: "module.function" of firmware/console (commands.py), its module imported now and
    released when the line is done (Console._done); or a function (a command added to the table so)."""
    if not isinstance(handler, str):
        return handler
    dot = handler.find(".")
    name = "firmware.console." + handler[:dot]
    __import__(name)
    return getattr(sys.modules[name], handler[dot + 1:])


class Console:
    def __init__(self, keep):
        """keep: firmware.parts.ConsoleState (ctx.console), with the Context (board, config, hw, table, queue,
        reporter, state_dir, fs, ...) and what the console kept while dormant (None at boot: read from flash)."""
        ctx = keep.ctx
        self.keep = keep
        self.ctx = ctx
        self.change = keep.change     # set / commit: the settings change staged or pending (settings_change.py)
        self.problems = keep.problems
        self._line = b""          # the line being handled: the evidence of its error report
        port = keep.port
        self.editor = ed.LineEditor(port.uart, len(port.buf)) if port is not None else None
        if keep.kept is None:
            from firmware.console.opening import read     # at boot (boot-only: parts.BOOT_ONLY)
            read(self)
        else:
            log, pins, login, typed = keep.kept
            self.log = AuditLog(None, kept=log) if log is not None else None
            self.pins = PinStore(None, kept=pins) if pins is not None else None
            self.auth = Auth(self.pins, kept=login)
            if typed is not None and self.editor is not None:
                self.editor.resume(typed)
        self.answer = None        # f(console, line) for the line after a prompt (a PIN), else None
        self.prompt_text = ""
        self.asked_s = 0          # when the prompt was asked, or a byte last typed at it (auth_s)
        self.pending_pin = b""    # passwd: the new PIN until it is typed again
        self.walk = -1            # lights test: the zone lit now (-1: no test running)
        self.walk_ms = 0
        self.display_hold_ms = 0  # display test: the pattern stays this long
        self.reboot_due = False

    def keep_state(self):
        """Going dormant: what must outlive this shell kept in ctx.console (the journals and the audit log's
        count, the PIN record, the login's counts and lockout, the editor's counts and a CR before an LF)."""
        log = self.log
        pins = self.pins
        editor = self.editor
        self.keep.kept = (log.kept() if log is not None else None, pins.kept() if pins is not None else None,
                          self.auth.kept(), editor.kept() if editor is not None else None)

    def at_rest(self):
        """True when the console may go dormant: logged out, nothing typed, no prompt, test, reboot or change."""
        change = self.change
        editor = self.editor
        return (not self.auth.logged_in and self.answer is None and self.walk < 0 and self.display_hold_ms <= 0
                and not self.reboot_due and change.pending is None and change.loaded and not change.staged
                and (editor is None or editor.idle()))

    # -- the loop ------------------------------------------------------------------
    def now_s(self):
        """The table's uptime: the audit log's times."""
        return self.ctx.table.uptime_s

    def auth_s(self):
        """Whole seconds since this boot, the login's clock (lockout, idle logout): counted here from the
        passes' time, since a recovery sets the table's uptime to its snapshot's and a lockout read back
        at boot runs in full from boot."""
        return self.keep.clock_s

    def poll(self, elapsed_ms):
        """One pass (ctx.console's clock counted): a settings change due, what was typed, the idle logout, a
        lights or display test under way, a due reboot. True: the console may go dormant (at_rest)."""
        change = self.change
        if change.pending is not None or not change.loaded or change.letting_in:   # (its module: only then)
            from firmware.settings_change import step
            step(self)
        editor = self.editor
        if editor is None:
            return self.at_rest()
        if not self.keep.prompted:
            self.keep.prompted = True
            editor.write(self.prompt())
        outcome = editor.poll()
        auth = self.auth
        if editor.received and auth.logged_in:
            auth.touch(self.auth_s())
        if outcome != ed.NOTHING:               # (an idle poll: nothing typed, no outcome to look up)
            if outcome == ed.LINE:
                self._reply(self._take(editor.line))
            elif outcome == ed.TOO_LONG:
                self._reply(self.line_too_long())
            elif outcome == ed.CANCELLED:
                self._reply(self._cancel())
            self._done()
        if auth.logged_in and auth.idle(self.auth_s()):
            self._idle_logout()
        elif self.answer is not None:
            if editor.received:
                self.asked_s = self.auth_s()
            elif self.auth_s() - self.asked_s >= PROMPT_CLOSE_S:
                name = self.prompt_text.rstrip(": ")
                self._close_prompt()
                self.say(["%s prompt closed: nothing typed for %d s" % (name, PROMPT_CLOSE_S)])
        if self.walk >= 0 or self.display_hold_ms > 0 or self.reboot_due:
            self._checks_step(elapsed_ms)
        return self.at_rest()

    def _done(self):
        """A line handled: what it imported leaves the heap again (firmware/parts.py): the command table and
        the command's module, a boot-only module (`selftest`, `set`, `verify`), a settings change's own
        (settings_change, settings_swap: parts.CHANGE_ON_DEMAND) unless a change is pending."""
        release(CONSOLE_ON_DEMAND)
        release_boot_only(self.change.pending is not None)

    def _checks_step(self, elapsed_ms):
        """A lights or display test under way, or a reboot due: `checks` steps it (imported while one runs)."""
        from firmware.console import checks
        checks.step(self, elapsed_ms)
        if self.walk < 0 and self.display_hold_ms <= 0 and not self.reboot_due:
            release(("firmware.console.checks",))

    def _take(self, line):
        answer = self.answer
        if answer is None:
            return self.handle(line)
        self.answer = None
        editor = self.editor
        if editor is not None:
            editor.secret = False
        return answer(self, line)

    def _cancel(self):
        """Ctrl-C: the line, a prompt, a running lights test; the reply lines (the editor wrote ^C and CR LF)."""
        self.answer = None
        self.pending_pin = b""
        if self.editor is not None:
            self.editor.secret = False
        if self.walk >= 0:
            from firmware.console.checks import stop_walk
            return stop_walk(self, "lights test cancelled")
        return []

    def _reply(self, lines):
        editor = self.editor
        editor.write_lines(lines)
        editor.write(self.prompt())

    def prompt(self):
        if self.answer is not None:
            return self.prompt_text
        return PROMPT_LOGGED_IN if self.auth.logged_in else PROMPT

    def ask(self, text, secret=True, answer=None):
        """The next line typed answers a prompt: answer(console, line) gets it (echoed as * if secret)."""
        self.answer = answer
        self.prompt_text = text
        self.asked_s = self.auth_s()
        if self.editor is not None:
            self.editor.secret = secret

    def say(self, lines):
        """Lines the technician did not ask for just now (a test's end, an idle logout), then the prompt again."""
        editor = self.editor
        if editor is None:
            return
        editor.write(b"\r\n")
        editor.write_lines(lines)
        editor.write(self.prompt())
        editor.retype()

    def _close_prompt(self):
        """A prompt closed unanswered (an idle logout, its time out): what was typed at it is forgotten, never
        shown again in clear by retype()."""
        if self.answer is not None:
            self.editor.clear()
        self.answer = None
        self.pending_pin = b""
        self.editor.secret = False

    def _idle_logout(self):
        self.auth.logout()
        self.change.discard()
        self._close_prompt()
        self.audit(_CON_ACT_IDLE_LOGOUT)
        self.say(["logged out: idle %d min" % (self.auth.idle_s // 60)])

    # -- commands ------------------------------------------------------------------
    def handle(self, raw):
        """raw bytes of one command line -> list of reply lines."""
        self._line = raw
        try:
            text = raw.decode()
        except UnicodeError:
            return self.error(_CON_UNREADABLE, "unreadable input (%d bytes, not text)" % len(raw))
        for ch in text:
            if ch < " " or ch > "~":
                return self.error(_CON_UNREADABLE, "unreadable input (control or non-ASCII characters)")
        words = text.split()
        if not words:
            return []
        name = words[0].lower()
        if len(words) > 1 and name in SECRET_ARGS:
            self._line = words[0].encode()      # a PIN is no evidence
        if len(words) > MAX_ARGS:
            return self.error(_CON_TOO_MANY_WORDS, "too many words (type help)")
        from firmware.console.commands import TABLE        # on demand: released when the line is done
        command = TABLE.get(name)
        if command is None:
            if name.isdigit():            # a PIN typed with no prompt for it (login refused: locked): no evidence
                self._line = b""
                return self.error(_CON_UNKNOWN_COMMAND, "a number is no command (a PIN goes at the PIN: prompt)")
            return self.error(_CON_UNKNOWN_COMMAND, "unknown command %r (type help)" % name)
        if command.login and not self.auth.logged_in:
            return self.error(_CON_LOGIN_REQUIRED, "%s needs a technician login (type login)" % name)
        return _handler(command.handler)(self, words[1:])

    def line_too_long(self):
        """A line longer than the console buffer was dropped whole: answered like any bad line."""
        self._line = b""          # its bytes are gone
        return self.error(_CON_LINE_TOO_LONG, "line too long")

    def error(self, code, message):
        """Count, report (as an event, in order with the others) and answer a bad line. Any command's
        words may be a PIN typed on the wrong line (`help 246810`, `status 246810`): the evidence keeps
        none (without_pins)."""
        self.keep.errors += 1
        ctx = self.ctx
        handle = ctx.table.evidence.keep(without_pins(self._line)) if self._line else 0
        ctx.queue.put(_CONSOLE_ERROR, code, handle)     # a full queue is itself a reported fault
        return ["error: " + message]

    def usage_error(self, command):
        return self.error(_CON_USAGE, "usage: " + command.usage)

    # -- audit -----------------------------------------------------------------------
    def audit(self, action, b=0, line=b""):
        """Write the action to the audit log, then report it; None, or the error reply if it cannot be written."""
        detail = line.decode() if line else ("%d" % b if b else "")
        try:
            if self.log is None:
                raise OSError("no audit log")
            self.log.add(self.now_s(), CONSOLE_ACTIONS[action], detail)
        except (OSError, JournalError) as exc:
            return self.error(_CON_AUDIT_FAILED, "audit log not written (%s): refused" % exc)
        if line:
            b = self.ctx.table.evidence.keep(line)
        self.ctx.queue.put(_CONSOLE, action, b)
        return None

    def log_settings(self, action, detail):
        """An audit entry of a settings change (the host hears it as settings_pending / settings_changed):
        None, or the error reply if it cannot be written."""
        try:
            if self.log is None:
                raise OSError("no audit log")
            self.log.add(self.now_s(), action, detail)
        except (OSError, JournalError) as exc:
            return self.error(_CON_AUDIT_FAILED, "audit log not written (%s): refused" % exc)
        return None

    def record(self):
        """The command line being handled changes state: audited and reported first (None), or refused (the reply)."""
        return self.audit(_CON_ACT_COMMAND, line=self._line)

    def end_lamp_check(self):
        return self.ctx.queue.put(_LAMP, _LAMP_CHECK_END)
