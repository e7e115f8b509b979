"""The board's flash filesystem for the state dir, simulated: every write counted, power cut at any one.

    flash = FlashFS()                                   # a fresh temporary state dir: flash.root
    journal = Journal(flash.root, "table", fs=flash)    # firmware takes open/remove/rename/stat from it
    flash = FlashFS(flash.root, cut_after_writes=12, torn=True)   # this boot dies at write 13

Files are real files under `root`, written through at once (each write call
lands before the next): flash as littlefs's worst case or a FAT card, with no
write-back cache to hide a cut. Flash writes are file write calls, removes and
renames; with `cut_after_writes=N`, N of them happen and the next one raises
PowerCut: not done at all, or with `torn` half its bytes written (a remove or
rename is never half done: littlefs commits them atomically). After the cut
every operation raises PowerCut, as a board without power does nothing; boot
again with `flash.rebooted()`. What the cut takes from the board's RAM, the inputs its table journal
had not written yet: unjournalled(); and the device bytes its UARTs had not read: undelivered().
"""
import os
import shutil
import tempfile

from firmware import fault_kinds
from firmware.drivers import bet_reader
from firmware.event_bytes import behind
from firmware.events import (BETS, BETS_FAULT, BUTTON, BUTTON_LONG, BUTTON_PRESSED, CARD, CONSOLE, CONSOLE_ERROR,
                             DICE_READER_HELLO, FAULT, HOST, KEY, LAMP, SHOE, SHOE_IN, SHOE_LET_IN, SHOE_OUT,
                             THROW)
from hostsim.table_io import BETS_PORT, HOST_PORT


class PowerCut(Exception):
    """The simulated board lost power during a flash write."""


class FlashFS:
    """open/remove/rename/stat for files under root, as the firmware's `fs` (see firmware/link/journal.py)."""

    def __init__(self, root=None, cut_after_writes=None, torn=False):
        if cut_after_writes is not None and cut_after_writes < 0:
            raise ValueError("cut_after_writes must be >= 0, not %d" % cut_after_writes)
        self.owned = root is None
        self.root = tempfile.mkdtemp(prefix="flash-") if root is None else root
        self.cut_after_writes = cut_after_writes
        self.torn = torn
        self.writes = 0              # flash writes done: write calls, removes, renames
        self.bytes_written = 0
        self.cut = False             # the power is off

    def rebooted(self):
        """The same flash after the power comes back: nothing cut, counters from zero."""
        return FlashFS(self.root)

    def cleanup(self):
        if self.owned:
            shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.cleanup()
        return False

    # -- the operations firmware uses -------------------------------------------------
    def open(self, name, mode="r"):
        self._check(name)
        binary = "b" in mode
        f = open(name, mode, buffering=0 if binary else -1)
        return _FlashFile(self, f) if any(c in mode for c in "wa+x") else f

    def remove(self, name):
        self._check(name)
        self._flash_op("remove %s" % name)
        os.remove(name)
        self.writes += 1

    def rename(self, old, new):
        self._check(old)
        self._check(new)
        self._flash_op("rename %s" % old)
        os.rename(old, new)
        self.writes += 1

    def stat(self, name):
        self._check(name)
        return os.stat(name)

    def listdir(self, name=None):
        self._check(name or self.root)
        return os.listdir(name or self.root)

    # -- the simulation ----------------------------------------------------------------
    def _check(self, name):
        if self.cut:
            raise PowerCut("the board has no power")
        inside = os.path.abspath(name)
        if not (inside == os.path.abspath(self.root) or inside.startswith(os.path.abspath(self.root) + os.sep)):
            raise ValueError("%s is outside the simulated flash %s" % (name, self.root))

    def _due(self):
        return self.cut_after_writes is not None and self.writes >= self.cut_after_writes

    def _flash_op(self, what):
        if self._due():
            self.cut = True
            raise PowerCut("power cut at flash write %d (%s)" % (self.writes + 1, what))

    def write(self, f, data):
        """One write call on an open file: done whole, or cut (torn: half of it lands)."""
        if self.cut:
            raise PowerCut("the board has no power")
        if self._due():
            self.cut = True
            if self.torn:
                f.write(data[:len(data) // 2])
                f.flush()
            raise PowerCut("power cut at flash write %d (%s%d bytes)"
                           % (self.writes + 1, "torn, half of " if self.torn else "", len(data)))
        n = f.write(data)
        f.flush()
        self.writes += 1
        self.bytes_written += len(data)
        return n


class _FlashFile:
    """A file open for writing: each write goes through FlashFS.write."""

    def __init__(self, flash, f):
        self._flash = flash
        self._f = f

    def write(self, data):
        return self._flash.write(self._f, data)

    def read(self, *args):
        return self._f.read(*args)

    def seek(self, *args):
        return self._f.seek(*args)

    def tell(self):
        return self._f.tell()

    def flush(self):
        self._f.flush()

    def close(self):
        self._f.close()              # nothing is buffered: closing writes nothing

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


TABLE_ON_FLASH = "table.json"
TABLE_DEPLOYED = "table.deployed"   # the file given when the copy was last made (hostsim only)


def state_dir_problem(path):
    """Why `path` cannot be a state dir (the simulated flash: made if missing, written), or None."""
    try:
        os.makedirs(path, exist_ok=True)
        probe = os.path.join(path, ".write-test-%d" % os.getpid())
        with open(probe, "wb") as f:
            f.write(b"x")
        os.remove(probe)
    except OSError as exc:
        return "not a directory that can be made and written (%s)" % (exc.strerror or exc)
    return None


def table_on_flash(table_file, state_dir):
    """The table file as the simulated board keeps it: a copy in the state dir (its flash), which a settings
    change from the console rewrites (firmware/settings_change.py), never the file given. A file the
    firmware will refuse is passed on as it is, so the refusal names it."""
    from firmware import settings_seal, table_config
    from firmware.errors import SettingsError

    if not state_dir:
        return table_file
    target = os.path.join(state_dir, TABLE_ON_FLASH)
    try:
        table_config.load(table_file)
    except SettingsError:
        return table_file
    if os.path.abspath(table_file) == os.path.abspath(target):
        return target
    # A deploy copies the file given; booting again with the same file keeps the board's own copy, which
    # a settings change may have rewritten (a reset must not undo it). TABLE_DEPLOYED is what was copied.
    deployed = os.path.join(state_dir, TABLE_DEPLOYED)
    with open(table_file, "rb") as f:
        given = f.read()
    if os.path.exists(target) and _read(deployed) == given:
        return target
    os.makedirs(state_dir, exist_ok=True)
    shutil.copyfile(table_file, target)
    with open(deployed, "wb") as f:
        f.write(given)
    settings_seal.write(state_dir, None, given)   # as tools.deploy --table seals it
    return target


def _read(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


# What a dealer, a player or a device gave the table (not what the firmware raised itself); and a FAULT
# with evidence (_is_input): a device's line the driver refused (dice_bad_face, frame_crc, partial_line...),
# or a line on the port the game does not use, its bytes behind it. The firmware's own FAULTs carry none.
_INPUTS = (CARD, SHOE, BETS, BETS_FAULT, THROW, DICE_READER_HELLO, KEY, BUTTON, HOST, CONSOLE, CONSOLE_ERROR, LAMP)


def _is_input(kind, a, b):
    """An input a dealer or a device gave; not the firmware's own: a new shoe it lets in, or the shoe in play
    it takes out for that one (firmware/settings_swap.py new_shoe_first), whose IN's file is still on flash:
    the next boot takes that IN again (given again too, it came in twice; an OUT given again dropped it)."""
    if kind == SHOE and (a == SHOE_IN or a == SHOE_OUT) and b == SHOE_LET_IN:
        return False              # (a HELLO's b is an evidence handle, 1 among them)
    return kind in _INPUTS or (kind == FAULT and fault_kinds.has_evidence(a))


def unjournalled(journal, table, queue):
    """The inputs a run took in but its table journal (firmware/recovery.py) had not journalled when
    the power went: those held for the recovery, the one whose record was being written, those the
    recovery had still to let in after it, those queued behind it; oldest first, as (kind, a, b, behind
    bytes). The queue is emptied. (The simulator's: a board loses them with its RAM.) Only inputs: the
    firmware's own events (the link's alarm, LINK_BACKLOG, raised or cleared by the dead board's sender)
    die with it; given to the next boot, a stale raise held its table for good, no sender to clear it."""
    lost = [held[:4] for held in journal.held if _is_input(held[0], held[1], held[2])]   # (without the boot's ms)
    if journal.appending is not None and _is_input(*journal.appending[:3]):
        kind, a, b, bytes_behind = journal.appending
        if bytes_behind is None:               # built in the journal's buffer: the table has not taken
            bytes_behind = behind(table, kind, a, b)    # the event, so it reads the same again
        lost.append((kind, a, b, bytes_behind))
    lost.extend(held[:4] for held in journal.letting_in or () if _is_input(held[0], held[1], held[2]))   # being let in
    while queue.get():
        if _is_input(queue.kind, queue.a, queue.b):
            lost.append((queue.kind, queue.a, queue.b, behind(table, queue.kind, queue.a, queue.b)))
    return lost


def undelivered(hw, io, ctx):
    """(role, bytes) a device had sent that the board had not read when it lost its power (the MCU's
    UART buffer empties): sent again after the boot. Not the host's (it asks again by itself)."""
    unread = []
    for state in hw.uarts.values():
        if not state.roles or HOST_PORT in state.roles or "console" in state.roles:
            continue
        role = state.roles[0]
        if state.rx_data:
            data = bytes(state.rx_data)
            last = io.last_sent.get(role, b"")
            if len(last) > len(data) and last.endswith(data):
                if role == BETS_PORT and _refusing(ctx):
                    continue          # a reading the reader refused already (its refusal is kept): done
                data = last           # a message of many lines (a bet reading) begun: all of it again
            unread.append((role, data))
        elif role == BETS_PORT and _collecting(ctx):
            # Every byte of the reading read, but not its end: the lines the driver had taken lived in the
            # dead board's RAM (its line buffer, the reading begun): all of it again (what the reader had
            # not sent yet, withdrawn, is in it).
            withdraw = getattr(state.endpoint, "withdraw", None)
            if withdraw is not None:
                withdraw()
            unread.append((role, io.last_sent.get(role, b"")))
        else:
            withdraw = getattr(state.endpoint, "withdraw", None)
            data = withdraw() if withdraw is not None else b""
            if data:                  # not sent yet: the device sends it once the board is back
                unread.append((role, data))
    return unread


def _collecting(ctx):
    """The dead board's bet reader had begun a reading (its OPEN taken, not yet its CLOSE)."""
    readers = [d for d in ctx.game.devices if isinstance(d, bet_reader.BetReader)] if ctx is not None else []
    return any(r._state == bet_reader._COLLECTING for r in readers)


def _refusing(ctx):
    """The dead board's bet reader was skipping the rest of a reading it had refused."""
    readers = [d for d in ctx.game.devices if isinstance(d, bet_reader.BetReader)] if ctx is not None else []
    return any(r._state == bet_reader._REFUSING for r in readers)


def undone_gestures(io, ctx, lost):
    """The dealer-button gestures a cut undid, as (role, long), and `lost` without its BUTTON events. A
    gesture is undone when its deciding event (the long press of a long one, else the press) was lost
    (in `lost`: taken, not journalled) or not yet posted (the button was down at the cut, the dead
    board's driver not that far): the dealer, seeing the table back without it, makes it again whole,
    press, hold and release (hostsim.headless). A raw press given again alone had no release nor
    long press in the new boot: a void held at the cut was lost. A lost release alone undoes nothing
    (the dealer had let go)."""
    buttons = ctx.hw.buttons if ctx is not None else None
    held = io.held_buttons()
    indexes = set(a for kind, a, _b, _behind in lost if kind == BUTTON) | set(held)
    undone = []
    for index in sorted(indexes):
        long = io.long_press.get(index, False)
        deciding = BUTTON_LONG if long else BUTTON_PRESSED
        done = not any(kind == BUTTON and a == index and b == deciding for kind, a, b, _behind in lost)
        if done and index in held and buttons is not None:
            # still down at the cut: posted only once debounced (and, for a long press, held long enough;
            # the driver's count, read as _collecting() reads the bet reader's state)
            done = bool(buttons.pressed[index]) and (not long or buttons._held[index] >= buttons.long_polls)
        if not done:
            undone.append((io.board.buttons[index][0], long))
    return undone, [event for event in lost if event[0] != BUTTON]
