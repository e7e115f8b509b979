# Dealer keypad: a row x column key matrix without diodes, scanned by polling, micropython-lib style.
#
# Wiring: each key joins one row wire to one column wire. Columns are inputs with
# the pin's pull-up; rows are open-drain outputs, all released (high impedance)
# except the one being scanned, which is pulled low. A column then reads low
# exactly when a key joins it to that row (while idle all rows are low: see Idle
# below). Open drain matters when the dealer
# holds two keys of one column: with push-pull rows the scanned row (low) and an
# idle row (high) would be shorted through the two keys; released open-drain
# rows drive nothing, so no pin ever fights another.
#
# Debounce: a key changes state only after `stable_scans` consecutive scans read
# it the new way (3 scans x 10 ms poll = 20..30 ms, as the dealer buttons). Only
# presses are events: KEY (a: key index = row * len(cols) + col, b: 0), once per
# press; a held key never repeats; a release only re-arms the key.
#
# Ghosting: without diodes, three keys held at three corners of a rectangle make
# the fourth corner read down too (the scanned row reaches the third key through
# the other two). A scan reading 3 or more keys down may therefore hold a key
# nobody pressed, so it posts no press and restarts every pending press's count;
# a key still held when the reading falls back to 1..2 keys is then debounced anew.
# Releases are never ghosts (a ghost only adds keys) and are taken as read.
#
# Idle: while no key is held or pending, every row stays pulled low (pulled together when the keypad
# falls idle) and a poll only reads the columns (columns pin calls, not rows x columns): all high,
# no key is down and the scan would change nothing, so it is skipped. A column reading low releases
# the rows and the scan runs. Open-drain rows make that safe too: no row drives high, and a held
# key only sinks its column's pull-up.
#
# poll() allocates nothing: state lives in bytearrays made once.

# copies of firmware.events (tests/host/test_const_copies.py)
_KEY = const(17)

_GHOST_KEYS = const(3)      # keys down in one scan from which a reading may hold a ghost
_RELEASED = const(1)        # open-drain row level that drives nothing
_SCANNED = const(0)


class Keypad:
    def __init__(self, rows, cols, stable_scans=3):
        """rows: open-drain output Pins (row r at index r); cols: input Pins with pull-up.
        stable_scans: consecutive scans a change must be read on before it counts."""
        if not rows or not cols:
            raise ValueError("a keypad needs at least one row and one column")
        self.rows = rows
        self.cols = cols
        self.stable_scans = stable_scans
        n = len(rows) * len(cols)
        self.down = bytearray(n)     # debounced state, 1 = held
        self._read = bytearray(n)    # this scan's reading
        self._count = bytearray(n)   # consecutive scans disagreeing with `down`
        self._idle = True            # no key down nor pending: the rows are low, a column probe stands for a scan
        for row in rows:
            row.value(_SCANNED)

    def __len__(self):
        return len(self._read)

    def poll(self, queue):
        """Scan the whole matrix once; post (KEY, index, 0) for each debounced press."""
        if self._idle:
            for col in self.cols:                # (does any column read low? a key, any key, is down)
                if col.value() == 0:
                    break
            else:
                return
            for row in self.rows:
                row.value(_RELEASED)         # the scan pulls one row at a time
            self._idle = False
        if self._scan() >= _GHOST_KEYS:
            self._ghost_scan()
            self._idle = False
            return
        read = self._read
        down = self.down
        count = self._count
        busy = False
        for i in range(len(read)):
            if read[i] == down[i]:
                count[i] = 0
                busy = busy or down[i]
                continue
            busy = True
            count[i] += 1
            if count[i] >= self.stable_scans:
                count[i] = 0
                down[i] = read[i]
                if read[i]:
                    queue.put(_KEY, i, 0)
        if not busy:
            self._idle = True
            for row in self.rows:
                row.value(_SCANNED)          # idle: every row low, the next polls read the columns only

    def _scan(self):
        """Read every key into _read; returns how many read down."""
        rows = self.rows
        cols = self.cols
        ncols = len(cols)
        read = self._read
        total = 0
        for r in range(len(rows)):
            row = rows[r]
            row.value(_SCANNED)
            base = r * ncols
            for c in range(ncols):
                level = 1 if cols[c].value() == 0 else 0
                read[base + c] = level
                total += level
            row.value(_RELEASED)
        return total

    def _ghost_scan(self):
        """A reading that may hold a ghost: releases count, pending presses start over."""
        read = self._read
        down = self.down
        count = self._count
        for i in range(len(read)):
            if down[i] and not read[i]:
                count[i] += 1
                if count[i] >= self.stable_scans:
                    count[i] = 0
                    down[i] = 0
            else:
                count[i] = 0
