# The table's state machine: boot lamp test, ready, fault, lamp check; fed one event at a time.
#
# This is the game-independent core every per-game controller builds on. It
# never blocks and never allocates while dispatching: side effects are zone
# colours (preallocated tuples), small-int fields the display task renders
# later, and (code, a, b) entries in a fixed-size outbox the report task sends.
# Every host report goes through that outbox, so reports keep the events' order.
from firmware import fault_kinds
from firmware.errors import RestoreError
from firmware.drivers import pixels
from firmware.evidence import Evidence
from firmware.lamp_check import LampCheck
from firmware.statemachine import EventQueue, StateMachine

# copies of firmware.events (tests/host/test_const_copies.py)
_BUTTON = const(2)
_CARD = const(3)
_CONSOLE = const(6)
_CONSOLE_ERROR = const(10)
_CON_REFUSED = const(7)
_FAULT = const(8)
_FAULT_RESTORED = const(11)
_HOST = const(7)
_LAMP = const(9)
_LAMP_CHECK_END = const(-2)
_LINK_BACKLOG = const(18)
_SHOE = const(12)
_TICK = const(1)
# copies of firmware.faults (tests/host/test_const_copies.py)
_CARD_OUT_OF_ORDER = const(14)
# copies of firmware.statemachine (tests/host/test_const_copies.py)
_STAY = const(-1)

# copies of firmware.table_codes (tests/host/test_const_copies.py)
_ACK_CONFIRM = const(0)
_FAULTED = const(2)
_GAME_FIRST_STATE = const(4)
_LAMP_CHECK = const(3)
_LAMP_STEP_MS = const(60)
_OUT_ACK = const(7)
_OUT_BUTTON = const(2)
_OUT_CONSOLE = const(13)
_OUT_CONSOLE_ERROR = const(9)
_OUT_FAULT = const(6)
_OUT_FAULT_RESTORED = const(10)
_OUT_HOST = const(11)
_OUT_LINK_BACKLOG = const(12)
_OUT_NOT_TAKEN = const(14)
_OUT_STATE = const(1)
_READY = const(1)
_STARTING = const(0)
# The states, outbox codes and OUT_ACK's b are firmware/table_codes.py's (a code table a board never imports);
# FAULTED stays here too for the console's checks (firmware/console/checks.py reads table.FAULTED).
FAULTED = const(2)

# OUT_ACK's b as the fault_ack report words it (firmware.report).
ACK_NAMES = ("confirm", "rescan", "void")
_MS_PER_S = const(1000)


class Table(StateMachine, LampCheck):
    STATE_NAMES = ("starting", "ready", "fault", "lamp_check")
    # A game's outbox codes whose one entry (a: first index, b: count) stands for b reports, game_report(code,
    # a + k, 0) each: a list of any length (a Craps reading's refusals: up to seats x zones) in one entry of
    # the fixed-size outbox, where an entry each overflowed it and lost the reports past 64.
    REPORT_RUNS = ()
    host_reason_tag = 0      # the tag of the request host_reason refused (0: none); the class's until one comes

    def __init__(self, lights, confirm_button=-1, outbox_size=64):
        self.lights = lights
        self.confirm_button = confirm_button
        self.outbox = EventQueue(outbox_size)
        self.report_runs = self.REPORT_RUNS   # (an instance's own: found first, where the class's is a walk of its bases)
        self.evidence = Evidence(size=96)  # bytes behind reports, by handle (a whole device frame fits)
        self.lamp_zone = 0            # boot lamp test: next zone to light
        self.lamp_ms = 0
        self.lamp_request = 0         # the LAMP that starts a lamp check, applied on entry
        # Uptime as whole seconds plus the milliseconds since: stays a small int
        # (no allocation) for decades, and the display redraws once a second.
        self.uptime_s = 0
        self.uptime_part_ms = 0
        self.fault_code = 0           # 0: no unacknowledged fault
        self.fault_detail = 0
        self.fault_restored = False   # the fault was raised before the last reset
        self.resume_state = _READY    # where acknowledging the fault returns to
        self.last_kind = 0            # last input event (a BUTTON), for the displays
        self.last_a = 0
        self.last_b = 0
        self.display_dirty = True
        self.link_backlog = False     # the host link's store is nearly full: a game opens no new round
        self.link_room = -1           # frames the host link's store takes now (main: before each BETS), -1: unknown
        self.host_reason = ""         # why the game refused the last JSON host request (HOST_BAD)
        self.closed_code = 0          # a fault holding the table closed for good (hold_closed), else 0
        self._game_reports = None     # game_modules()[0], looked up at the first game report (game_report)
        StateMachine.__init__(self, _STARTING)

    def set_host_reason(self, reason, tag):
        """Why a host request was refused (HOST_BAD's report), and the request's tag. The tag goes on the instance
        only once one comes: an attribute more on every table grew a Craps table's own by ~590 bytes of the 64 KB
        (bench/memory_vm.py), for a refusal of a tagged request, which is rare."""
        self.host_reason = reason
        if tag or self.host_reason_tag:
            self.host_reason_tag = tag

    def dispatch(self, kind, a, b):
        """One event; a table held closed (hold_closed) only reports, never plays."""
        if self.closed_code:
            self._held(kind, a, b)
        else:
            StateMachine.dispatch(self, kind, a, b)

    def hold_closed(self, code, detail=0):
        """Raise fault `code` and keep the table FAULTED until a reset: no acknowledgement, no game event
        opens it (faults.PROGRAM_MISMATCH: the program is not the one built). The game's handlers are
        bypassed from here on, so nothing it would do on a CONFIRM, a card or a reading happens."""
        StateMachine.dispatch(self, _FAULT, code, detail)
        self.fault_code = code            # a game may note a fault otherwise: it is this one, held
        self.fault_detail = detail
        self.closed_code = code
        self.display_dirty = True

    def _held(self, kind, a, b):
        """A closed table's events: the clock runs, inputs and faults are reported, nothing else moves."""
        if kind == _TICK or kind == _BUTTON or kind == _CONSOLE_ERROR or kind == _HOST:
            self._common(kind, a, b)          # uptime; a press reported (no acknowledgement); errors reported
        elif kind == _FAULT or kind == _FAULT_RESTORED:
            self._emit(_OUT_FAULT_RESTORED if kind == _FAULT_RESTORED else _OUT_FAULT, a, b)
        elif kind == _CARD:
            self._emit(_OUT_FAULT, _CARD_OUT_OF_ORDER, a)          # a card drawn at a closed table: never lost
        elif kind == _LAMP and a != _LAMP_CHECK_END:
            self._emit(_OUT_CONSOLE_ERROR, _CON_REFUSED)
        else:                                 # a game's own input (a reading, a throw, a key): refused, reported
            self._emit(_OUT_FAULT, self.closed_code, self.fault_detail)

    def _emit(self, code, a=0, b=0):
        # A full outbox is itself reported (overflows is read by the report task).
        self.outbox.put(code, a, b)

    def _note(self, kind, a, b):
        self.last_kind = kind
        self.last_a = a
        self.last_b = b
        self.display_dirty = True

    def _emit_fault(self):
        code = _OUT_FAULT_RESTORED if self.fault_restored else _OUT_FAULT
        self._emit(code, self.fault_code, self.fault_detail)

    # -- state entries -------------------------------------------------------
    def _enter_starting(self):
        self.lamp_zone = 0
        self.lamp_ms = 0
        self.lights.set_all(pixels.OFF)
        self._emit(_OUT_STATE, _STARTING)

    def _enter_ready(self):
        self.lights.set_all(pixels.WHITE)
        self.display_dirty = True
        self._emit(_OUT_STATE, _READY)

    def _enter_faulted(self):
        self.lights.set_all(pixels.RED)
        self.display_dirty = True
        self._emit(_OUT_STATE, _FAULTED)
        self._emit_fault()

    # -- handlers --------------------------------------------------------------
    def _common(self, kind, a, b):
        """Events every state handles the same way; returns a target or STAY."""
        if kind == _TICK:
            ms = self.uptime_part_ms + a
            if ms >= _MS_PER_S:
                self.uptime_s += ms // _MS_PER_S
                ms %= _MS_PER_S
                self.display_dirty = True      # the shown uptime changed
            self.uptime_part_ms = ms
        elif kind == _FAULT or kind == _FAULT_RESTORED:
            self.fault_code = a
            self.fault_detail = b
            self.fault_restored = kind == _FAULT_RESTORED
            if self.state == _FAULTED:     # already faulted: report the further fault
                self._emit_fault()
            else:
                self.resume_state = self.resume_after_fault()
            return _FAULTED
        elif kind == _BUTTON:
            self._emit(_OUT_BUTTON, a, b)
            self._note(kind, a, b)
        elif kind == _CARD:
            # A card no state of the game took (one drawn during a lamp check, a card at a table
            # that deals none): never lost unseen; an alarm naming it, as a card out of turn is.
            return self._common(_FAULT, _CARD_OUT_OF_ORDER, a)
        elif kind == _CONSOLE_ERROR:
            self._emit(_OUT_CONSOLE_ERROR, a, b)
        elif kind == _CONSOLE:
            self._emit(_OUT_CONSOLE, a, b)     # a technician's login or change: in order with the rest
        elif kind == _HOST:
            self._emit(_OUT_HOST, a, b)      # a request no state of this table serves
        elif kind == _LINK_BACKLOG:
            self.link_backlog = a != 0
            self.display_dirty = True          # a game's prompt: no new round while it is up
            self._emit(_OUT_LINK_BACKLOG, a, b)
        elif kind == _SHOE:
            # A shoe's message this state has no use for (a second cut card, a shoe put in during a round
            # or with none to change, a shoe at a game that changes none): reported, never dropped unseen.
            self._emit(_OUT_NOT_TAKEN, a)
        elif kind == _LAMP and a != _LAMP_CHECK_END and not self.accepts_lamp_check():
            # The console checks first; this is a fault that arrived in the same pass.
            self._emit(_OUT_CONSOLE_ERROR, _CON_REFUSED)
        return _STAY

    def _on_starting(self, kind, a, b):
        target = self._common(kind, a, b)
        if target != _STAY or kind != _TICK:
            return target
        # Lamp test: light each zone in turn so a dead strip segment is seen at boot.
        self.lamp_ms += a
        if self.lamp_ms < _LAMP_STEP_MS:
            return _STAY
        self.lamp_ms = 0
        lights = self.lights
        if self.lamp_zone > 0:
            lights.set(self.lamp_zone - 1, pixels.OFF)
        if self.lamp_zone >= len(lights.names):
            return _READY
        lights.set(self.lamp_zone, pixels.GOLD)
        self.lamp_zone += 1
        return _STAY

    def _on_ready(self, kind, a, b):
        if kind == _LAMP and a != _LAMP_CHECK_END:
            if not self._lamp_valid(a):
                return _STAY
            self.lamp_request = a
            return _LAMP_CHECK
        return self._common(kind, a, b)

    def _on_faulted(self, kind, a, b):
        target = self._common(kind, a, b)
        if kind == _BUTTON and a == self.confirm_button and b == 1:
            # The dealer acknowledges the alarm with CONFIRM; the fault stays in the report log.
            return self.acknowledge(_ACK_CONFIRM)
        return target

    def _further_fault(self, code, detail):
        """A fault while an alarm is open: reported; the worse of the two (fault_kinds.alarm_severity) is the one
        in force, the one the dealer closes."""
        if fault_kinds.alarm_severity(code) > fault_kinds.alarm_severity(self.fault_code):
            self.fault_code = code
            self.fault_detail = detail
        self._emit(_OUT_FAULT, code, detail)
        self.display_dirty = True

    def _resume_with_card(self, target, card, face_up):
        """Go on where the table was held (target), with this card as if it had just arrived (a rescan)."""
        self.state = target                              # the handler below runs in that state
        then = self.HANDLERS[target](self, _CARD, card, face_up)
        self.state = _FAULTED                            # dispatch takes the transition and its entry
        if then == _FAULTED:                             # the card raised an alarm of its own
            self._emit_fault()
            self.display_dirty = True
            return _STAY
        return target if then == _STAY else then

    def acknowledge(self, how):
        """Close the alarm (reported with how it was closed); returns the state to resume."""
        self._emit(_OUT_ACK, self.fault_code, how)
        self.fault_code = 0
        self.fault_detail = 0
        self.fault_restored = False
        return self.resume_state

    def resume_after_fault(self):
        """The state an acknowledged fault returns to: a game's own state (numbered after the core's,
        GAME_FIRST_STATE on) resumes where it was held; the core's states go back to READY."""
        state = self.state
        return state if state >= _GAME_FIRST_STATE else _READY

    def _alarm(self, code, detail):
        """Raise a game alarm now (as a FAULT event would): the target state for the handler to return."""
        return self._common(_FAULT, code, detail)

    def game_modules(self):
        """(reports, snapshot): the game's modules for its own reports and its snapshots, or None.

        A controller imports them here, when first needed: both import the controller's own module."""
        return None

    def game_report(self, code, a, b):
        """A game controller's own outbox code (>= OUT_GAME_FIRST) -> (event, fields)."""
        reports = self._game_reports
        if reports is None:
            # Once: game_modules() runs an import statement, ~14 us of the VM a call (most of a short
            # report's making), and a round's reports come every pass of its events.
            modules = self.game_modules()
            if modules is None:
                return "fault", {"fault": "unknown_outbox_code", "detail": code}
            reports = self._game_reports = modules[0]
        return reports.game_report(self, code, a, b)

    HANDLERS = (_on_starting, _on_ready, _on_faulted, LampCheck._on_lamp_check)    # (lamp_check.py)
    ENTRY = (_enter_starting, _enter_ready, _enter_faulted, LampCheck._enter_lamp_check)

    # -- snapshots at a boundary (firmware/snapshot.py; docs/journal.md, "What the table keeps") ----
    # A game controller overrides all three, delegating to its game's snapshot module: the core
    # alone has no game to keep, and never snapshots while FAULTED (the unacknowledged fault is
    # kept by firmware/saved_state.py and restored as FAULT_RESTORED).
    def at_boundary(self):
        """True where snapshot() is allowed and complete (a game's safe boundary)."""
        modules = self.game_modules()
        return modules is not None and modules[1].at_boundary(self)

    def snapshot(self):
        """The lasting state at a boundary, as bytes."""
        modules = self.game_modules()
        if modules is None:
            raise RestoreError("%s keeps no snapshot" % type(self).__name__)
        return modules[1].snapshot(self)

    def restore(self, data):
        """Put a freshly constructed controller into the state snapshot() gave (else RestoreError)."""
        modules = self.game_modules()
        if modules is None:
            raise RestoreError("%s keeps no snapshot" % type(self).__name__)
        modules[1].restore(self, data)
