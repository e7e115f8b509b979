# Alarm handling of the Craps table (a part of CrapsController): nothing decided on a doubtful throw.
#
# A fault of the dice reader or its line (a sensor fault, a bad face or flag, a
# checksum failure, a lost frame) holds the table in FAULTED where it was
# (resume_state): a throw the reader sends meanwhile is reported and never
# decided. CONFIRM closes the alarm (the dealer vouches that no throw was
# missed); a long VOID closes it saying the throw in doubt is void: nothing was
# decided on it, the shooter throws again. Either way the puck and bets stay.
# A come-out refused while the host link is backed up (link_backlog) is held the
# same way; CONFIRM waits until the link has caught up.
from firmware import faults
from firmware.events import BUTTON, BUTTON_LONG, BUTTON_PRESSED, THROW
from firmware.games.craps.codes import OUT_THROW_HELD
from firmware.statemachine import STAY
from firmware.table import ACK_CONFIRM, ACK_VOID, OUT_BUTTON


class Alarms:
    def _on_faulted(self, kind, a, b):
        if kind == THROW:
            self._emit(OUT_THROW_HELD, a, b)             # the reader is not vouched for: never decided
            return STAY
        if kind == BUTTON and a == self.confirm_button and b == BUTTON_PRESSED:
            self._emit(OUT_BUTTON, a, b)
            if self.fault_code == faults.LINK_BACKLOG and self.link_backlog:
                self.display_dirty = True                # the host link has not caught up: wait
                return STAY
            return self.acknowledge(ACK_CONFIRM)
        if kind == BUTTON and a == self.void_button and b == BUTTON_LONG:
            self._emit(OUT_BUTTON, a, b)
            return self.acknowledge(ACK_VOID)
        if self._anywhere(kind, a, b):
            return STAY
        return self._common(kind, a, b)
