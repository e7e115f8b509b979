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

# copies of firmware.events (tests/host/test_const_copies.py)
_BUTTON = const(2)
_BUTTON_LONG = const(2)
_BUTTON_PRESSED = const(1)
_DICE_HELLO_AGAIN = const(1)
_DICE_READER_HELLO = const(16)
_THROW = const(15)
# copies of firmware.faults (tests/host/test_const_copies.py)
_DICE_RESTARTED = const(53)
_LINK_BACKLOG = const(17)
# copies of firmware.games.craps.codes (tests/host/test_const_copies.py)
_COME_OUT = const(4)
_OUT_THROW_HELD = const(38)
# copies of firmware.statemachine (tests/host/test_const_copies.py)
_STAY = const(-1)
# copies of firmware.table_codes (tests/host/test_const_copies.py)
_ACK_CONFIRM = const(0)
_ACK_VOID = const(2)
_OUT_BUTTON = const(2)


class Alarms:
    def _on_faulted(self, kind, a, b):
        if kind == _THROW:
            self._emit(_OUT_THROW_HELD, a, b)            # the reader is not vouched for: never decided
            return _STAY
        if kind == _BUTTON and a == self.confirm_button and b == _BUTTON_PRESSED:
            self._emit(_OUT_BUTTON, a, b)
            if self.fault_code == _LINK_BACKLOG and self.link_backlog:
                self.display_dirty = True                # the host link has not caught up: wait
                return _STAY
            self.shooter_kept = False
            return self.acknowledge(_ACK_CONFIRM)
        if kind == _BUTTON and a == self.void_button and b == _BUTTON_LONG:
            self._emit(_OUT_BUTTON, a, b)
            self.shooter_kept = False
            return self.acknowledge(_ACK_VOID)
        if self._shooter_button(kind, a, b) and self.resume_state >= _COME_OUT:
            # The dealer's NEW SHOOTER is not taken while the dice are held (docs/craps.md: the alarm is closed
            # first); the dealer display says so until it is (until stop 72 it said nothing: the dealer could
            # not tell the press from one taken). Reported as a button, as before.
            self._emit(_OUT_BUTTON, a, b)
            self.shooter_kept = True
            self.display_dirty = True
            return _STAY
        if kind == _DICE_READER_HELLO and a == _DICE_HELLO_AGAIN and self.resume_state >= _COME_OUT:
            # A restart held in play (come-out or point): the fault it is there (controller._on_game), as a
            # shoe's restart in a Baccarat round or Omaha hand held by an alarm is; the worse alarm stays in
            # force. (Until stop 72 only the dice_reader's `restarted`, the report of one before play.)
            self._further_fault(_DICE_RESTARTED, b)
            return _STAY
        if self._anywhere(kind, a, b):
            return _STAY
        return self._common(kind, a, b)
