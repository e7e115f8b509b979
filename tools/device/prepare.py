# Runs ON THE BOARD (`mpremote run`, step 1 of tools/deploy.py): checks the board's heap, then removes the
# previous deployment.
#
# The heap first: tools/deploy.py sets HEAP_NEEDED (`mpremote exec`, the same session) to what a table of the
# build needs while it plays (tools/build_board.py TABLE_HEAP_BYTES). A board whose MicroPython leaves less (an
# ESP32-S3 flashed with an image without PSRAM, an RP2040 given a filesystem build) is refused with its old
# deployment untouched: it keeps running what it ran, rather than a table that fails for memory in play. Run by
# hand (no HEAP_NEEDED), nothing is checked. On the ESP32 port, whose heap grows on demand, gc.mem_free() counts
# the largest block it could add now, not all it could: near the line the check errs on refusing
# (docs/build-deploy.md, "The board's heap").
#
# Then the removal: main.py goes first, so the board will not boot a half-removed firmware (and will
# not start the watchdog again after the reset that follows). The firmware tree is
# removed whole, so a stale module (or a .py that would shadow its .mpy) cannot
# survive into the new deployment. boot.py and other files of the user stay.
# MicroPython only, no firmware imports. Paths are relative to the working folder
# ("/" on a board), like mpremote's own.
import gc
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


def check_heap(needed):
    """The heap MicroPython gives programs (its whole GC heap, free and used); OSError when under `needed`."""
    gc.collect()
    free = gc.mem_free()
    if free < 0:                 # "-1 if this amount is not known" (MicroPython's gc docs): said, not guessed
        print("deploy: the board does not tell its free heap (gc.mem_free() is -1): its heap is not checked")
        return
    heap = free + gc.mem_alloc()
    print("deploy: the board's heap is %d bytes; a table of this build needs about %d while it plays" % (heap, needed))
    if heap < needed:
        print("deploy: REFUSED: the heap is too small for this build (docs/build-deploy.md, \"Which build for which"
              " board\"): flash a MicroPython image with more heap (an ESP32-S3 N8R8: its SPIRAM_OCT variant) or"
              " deploy a build that keeps less (frozen, ROMFS); the previous deployment is untouched")
        raise OSError("deploy: heap %d bytes < %d needed" % (heap, needed))


def prepare():
    removed = 0
    for path in DEPLOYED:
        removed += _remove(path)
    print("deploy: removed %d file(s) of the previous deployment" % removed)


if "HEAP_NEEDED" in globals():
    check_heap(HEAP_NEEDED)  # noqa: F821 - set by tools/deploy.py's `mpremote exec` before this script runs
prepare()
