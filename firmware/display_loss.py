# Displays that stop answering while the table runs: left out, named to the host, tried again until they answer.
#
# A loose cable or noise on the I2C bus makes a display's write, or the probe firmware/main.py's output pass
# asks it every second, raise OSError (ENODEV, EIO, ETIMEDOUT: as machine.I2C says it). The output pass
# catches it; when the display does not answer again (its setup after a write, the probe's second question)
# it calls lose(): the display is left out
# (the other displays and the table go on), the host hears which one and why, and the dealer's alarm is the
# one a display missing at boot raises (display_missing). Every RETRY_MS of output passes the display's
# driver sets its controller up again (the cable reseated: the LCD or OLED lost its power, and its setup,
# with it); once that answers, the display is back, drawn whole, and the host hears `display_back`.
#
# A display that answers but lost its setup unnoticed (firmware.main.probe_displays: a cable pulled and
# reseated between two writes), or whose write failed once, is set up again at once and drawn whole
# (set_up_again): no alarm; it is lost only when its setup fails too.
#
# A display missing at boot is tried again the same way (its driver made, from the bring-up's fault entry:
# parts.Hardware.faults), and once it answers taken into the table as the boot would have taken it. This
# module is imported at the first loss or restart, or at a boot that found a display missing, only: a table
# whose displays answer keeps none of it in its heap.

# copies of firmware.events (tests/host/test_const_copies.py)
_FAULT = const(8)
# copies of firmware.faults (tests/host/test_const_copies.py)
_DISPLAY_MISSING = const(5)

RETRY_MS = const(5000)    # output-pass time between two tries of a display that stopped answering
_NOTHING = b"\x00"


class LostDisplays:
    """The displays out since they stopped answering: (role, driver, the Baccarat scoreboard or None); and those
    missing since boot: (role, driver class, i2c, address, cols or width, rows or height), parts.Hardware.faults'."""

    def __init__(self):
        self.out = []
        self.missing = []
        self.wait_ms = RETRY_MS

    def roles(self):
        return [role for role, _, _ in self.out]

    def poll(self, ctx, elapsed_ms):
        """An output pass: every RETRY_MS, each display out is set up again; those that answer are back."""
        self.wait_ms -= elapsed_ms
        if self.wait_ms > 0 or ctx.console.holds_displays():     # (not over a display test's pattern)
            return
        self.wait_ms = RETRY_MS
        for entry in list(self.out):
            role, driver, scoreboard = entry
            try:
                driver.init_display()              # the controller's setup, from its first byte (OSError: still out)
            except OSError:
                continue
            self.out.remove(entry)
            ctx.hw.displays[role] = driver
            if scoreboard is not None:
                ctx.game.scoreboard = scoreboard
            _draw_whole(ctx, role)
            ctx.reporter.emit("display_back", {"display": role})
        for entry in list(self.missing):
            role, driver_class, i2c, addr, across, down = entry
            try:
                # Anyone there? One harmless byte (a control byte with nothing after it for an SSD1306, the
                # expander's outputs low for an LCD: its setup's own first write) before a driver is made:
                # nothing allocated while nothing answers (an SSD1306's is its 1 KB picture, every 5 s).
                i2c.writeto(addr, _NOTHING)
                driver = driver_class(i2c, addr, across, down)     # set up from its first byte (OSError: still out)
            except OSError:
                continue
            self.missing.remove(entry)
            _take(ctx, role, driver)
            ctx.reporter.emit("display_back", {"display": role})
        if not self.out and not self.missing:
            ctx.lost_displays = None


def missing_at_boot(ctx, retry):
    """At boot: a display that did not answer (parts.Hardware.faults' retry), tried again with the others."""
    lost = ctx.lost_displays
    if lost is None:
        lost = ctx.lost_displays = LostDisplays()
    lost.missing.append(retry)


def _take(ctx, role, driver):
    """A display missing at boot that answers now: in the table as the boot would have taken it, drawn whole;
    its bring-up fault gone from the console's `status`."""
    faults = ctx.hw.faults
    for fault in list(faults):
        if fault[2][0] == role:
            faults.remove(fault)
    if role == "scoreboard":
        from firmware.game_setup import take_oled        # (boot-only: released again after it)
        from firmware.parts import release_boot_only
        take_oled(ctx.config["game"], ctx.game, ctx.hw, driver)
        release_boot_only(ctx.console.change.pending is not None)
    else:
        ctx.hw.displays[role] = driver
    _draw_whole(ctx, role)


def _draw_whole(ctx, role):
    """The display `role` just set up (init_display() blanked it, or a driver made): its next draw paints all
    of it."""
    scoreboard = ctx.game.scoreboard if role == "scoreboard" else None
    if scoreboard is not None:
        scoreboard[0].forget()        # the Baccarat scoreboard's picture: the next draw paints it whole
        ctx.table.scoreboard_dirty = True
    else:
        ctx.table.display_dirty = True    # an LCD's rows: show() writes every one again


def set_up_again(ctx, role, driver):
    """The display `role` lost its setup since its last write (driver.lost_setup(): a cable reseated between two
    writes, its controller powered up blank), or a write to it failed (firmware.main.display_lost: one glitch
    on the bus, or the cable out): set up again and drawn whole, and the host told (`display_restarted`); no
    alarm, the table never lost it. Its setup failing too: lost (lose())."""
    try:
        driver.init_display()
    except OSError as exc:
        lose(ctx, role, exc)
        return
    _draw_whole(ctx, role)
    ctx.reporter.emit("display_restarted", {"display": role})


def lose(ctx, role, exc):
    """The display `role` (in the table: its setup after a failed write, or the probe's second question, just
    raised exc): left out, reported by name, tried again from now on."""
    driver = ctx.hw.displays.pop(role)
    lost = ctx.lost_displays
    if lost is None:
        lost = ctx.lost_displays = LostDisplays()
    scoreboard = None
    if role == "scoreboard":
        scoreboard = ctx.game.scoreboard
        ctx.game.scoreboard = None
    lost.out.append((role, driver, scoreboard))
    ctx.reporter.emit("fault", {"fault": "display_missing", "text": "%s display at I2C address %d stopped "
                                "answering: %s" % (role, driver.addr, exc)})
    ctx.queue.put(_FAULT, _DISPLAY_MISSING, 0)     # a full queue is itself a reported fault
