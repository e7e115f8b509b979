# Runs ON THE BOARD (`mpremote run`, step 1 of tools/deploy.py): removes the previous deployment.
#
# main.py goes first, so the board will not boot a half-removed firmware (and will
# not start the watchdog again after the reset that follows). The firmware tree is
# removed whole, so a stale module (or a .py that would shadow its .mpy) cannot
# survive into the new deployment. boot.py and other files of the user stay.
# MicroPython only, no firmware imports. Paths are relative to the working folder
# ("/" on a board), like mpremote's own.
import os

# firmware.py and firmware.mpy are no deployment's, but one left at the root would be imported in place
# of a frozen image's firmware package (MicroPython looks for a module file before the frozen modules).
DEPLOYED = ("main.py", "manifest.json", "board.json", "firmware", "firmware.py", "firmware.mpy")


def _remove(path):
    """Remove a file or a folder tree; returns how many files went."""
    try:
        mode = os.stat(path)[0]
    except OSError:
        return 0  # not there: nothing to remove
    if not mode & 0x4000:
        os.remove(path)
        return 1
    removed = 0
    for name in os.listdir(path):
        removed += _remove(path + "/" + name)
    os.rmdir(path)
    return removed


def prepare():
    removed = 0
    for path in DEPLOYED:
        removed += _remove(path)
    print("deploy: removed %d file(s) of the previous deployment" % removed)


prepare()
