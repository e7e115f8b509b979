# The simulated board's power cuts, for hostsim.headless.HeadlessTable (a mixin: its methods use the
# table's clock, flash and TableIO). A cut between two passes (power_cut), or one the simulated flash makes
# during a write (hostsim.flash.PowerCut, caught by HeadlessTable.step and boot): the board boots again on
# the same flash, and what the dead board took in but had not journalled is given again, as a dealer
# repeats what a dead table did not take (docs/journal.md, "What the simulator does at a cut").
from firmware import faults
from firmware.events import FAULT
from hostsim import hardware
from hostsim.flash import FlashFS, undelivered, undone_gestures, unjournalled


class PowerCuts:
    """HeadlessTable's power: power_cut(), and _power_back() after any cut."""

    def power_cut(self):
        """The board loses power between two passes and boots again on the same flash."""
        self._power_back([])

    def _power_back(self, lost):
        """After a cut: the same flash with the power back, a boot, and (once it has recovered) the
        inputs the dead board took but had not journalled, given again as the dealer would repeat them."""
        self.power_cuts += 1
        self._deliver()                     # what the dead board wrote before the cut (its last frames)
        if isinstance(self.fs, FlashFS):
            self.flash_writes += self.fs.writes
            torn = self.fs.torn
            self.fs = self.fs.rebooted()
            if self.next_cuts:                # the power goes again during this boot (its recovery)
                self.fs = FlashFS(self.fs.root, self.next_cuts.pop(0), torn)
        unread = undelivered(self.hw, self.io, self.ctx)
        gestures, lost = undone_gestures(self.io, self.ctx, lost)
        # The dealer lets go as the table goes dark: a key or button held through the boot would be a
        # new press to the new boot, of one the journal may have (the lost ones are given again below,
        # a button's gesture whole).
        self.io.release_all()
        self.hw.reboot(hardware.PWRON_RESET)
        self.boot()
        self.wait_booted()                  # the dealer waits for the table to come back
        ctx = self.ctx
        if ctx.config["game"] == "craps" and ctx.table.fault_code == faults.RESET_IN_ROUND:
            # The dice were in play while the board was off (firmware/recovery.py): the dealer, who saw
            # every throw, vouches that the table is right to go on (CONFIRM); a throw the dead board took
            # is then read again below (the dice still lie on the layout), and decides.
            self.press("confirm")
            # The power may go again during that press (then_cut_after): the lost inputs go to the board
            # that is up now, not to the one that died with them queued (its RAM is gone).
            ctx = self.ctx
        if lost:
            from firmware.parts import release
            from firmware.recovery_replay import put_behind     # boot-only: imported where used, then released
            for kind, a, b, behind in lost:
                ctx.queue.put(kind, a, put_behind(ctx.table, kind, a, b, behind))
                if kind == FAULT and a == faults.UNEXPECTED_INPUT:
                    ctx.unexpected_lines += 1      # counted, as firmware.main counts the line it reports
            release(("firmware.recovery_replay",))
        for role, data in unread:
            self.io.send(role, data)
        self.given_again += len(lost) + len(unread) + len(gestures)
        self.last_card_ms = self.now_ms()   # a card given again was drawn now: the next keeps the pace
        from hostsim.headless import SETTLE_MS   # (headless imports this module: its constant, at call time)
        self.run_for(SETTLE_MS)
        for role, long in gestures:         # the last input before the cut: a line's hold runs to its end
            self.press(role, long)

    def total_flash_writes(self):
        return self.flash_writes + (self.fs.writes if isinstance(self.fs, FlashFS) else 0)


def lost_inputs(ctx):
    """The inputs a board that lost its power had taken but not journalled: the event whose journal
    record the cut interrupted, and those still queued behind it (with the bytes behind them)."""
    if ctx is None:
        return []
    return unjournalled(ctx.journal, ctx.table, ctx.queue)
