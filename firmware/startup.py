# Boot: load the board and table files, bring up drivers, build the run's Context and report the boot
# (firmware/main.py runs the table's event loop on it). The steps are firmware/boot_steps.py's, boot-only
# (parts.BOOT_ONLY): a running table keeps of this module the Context class and boot() itself.
from firmware.parts import BOOT_ONLY, release      # BOOT_ONLY: also read here by tests and benches

# copies of firmware.events (tests/host/test_const_copies.py)
_LINK_BACKLOG = const(18)

# The host link (docs/host-link.md): frames the host has not acknowledged wait on flash with a RAM copy,
# 64 of HOST_SLOT bytes, the newest 16 of them in RAM (3.2 KB) and a 2 KB batch buffer; the alarm (LINK_BACKLOG) comes at 48. A frame carries
# at most HOST_PIECE bytes of a report (a longer one goes as PARTs): short frames get through a
# noisy line far more often than 500-byte ones (1 % of bytes hit: 20 % of 170-byte frames, 1 % of 500).
# (firmware/boot_steps.py's make_context builds the link with copies of these.)
HOST_STORE_FRAMES = const(64)
# And 6 more kept for a boot's first frames (seq 1-6: the OPEN, the boot report's two, the first states): a
# board reset while its store was full (the host away) still tells the host it booted, why and with which
# settings. The alarm, room() and the LOST count stay on the 64 (firmware/link/sender.py, boot_frames).
HOST_BOOT_FRAMES = const(6)
HOST_PIECE = const(128)
HOST_SLOT = const(200)          # the longest frame of a HOST_PIECE payload: header at most 61, CRC and LF 10


class Context:
    """Everything the tasks and the console share for one run: its attributes are set where the boot builds
    it (firmware/boot_steps.py, make_context: boot-only, so a running table keeps of it only this class)."""

    lost_displays = None      # a display_loss.LostDisplays while a display that stopped answering is out
    probe_wait_ms = 1000      # output-pass time to the next probe of the displays (firmware.main.PROBE_MS)

    def _link_alarm(self, raised):
        """The sender's store crossed its alarm level: a table event, in order with the others."""
        # The store's count, not the sender's: a boot with a backlog on flash raises it while the Sender
        # is still being built (its pending frames flushed into the store).
        self.queue.put(_LINK_BACKLOG, 1 if raised else 0, self.link_store.count())


def boot(machine, neopixel, board_path="board.json", table_path="table.json", state_dir="", lcd_class=None,
         usb_console=None, fs=None, program_dir=None, board_name=None):
    """Load files and bring up the hardware; SettingsError if a file is wrong.

    fs: rename/remove/stat for the state dir (default os; tests pass a fake filesystem).
    program_dir: where the deployed program and its manifest.json lie ("" on the board: the boot
    stub passes it), checked before the table opens; None: not checked, and the boot report says
    "program": "unverified" (the simulator running the source tree).
    board_name: the board's name (the boot stub passes the one it was built for: the board file is
    /board.json there); None: its file name, e.g. "pico" for boards/pico.json.
    The modules of BOOT_ONLY (firmware/parts.py), firmware/boot_steps.py's among them, are released when
    it returns or raises.
    """
    try:
        from firmware.boot_steps import boot_table
        return boot_table(machine, neopixel, board_path, table_path, state_dir, lcd_class, usb_console, fs,
                          program_dir, board_name)
    finally:
        release(BOOT_ONLY)


