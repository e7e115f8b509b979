# The dealer keypad's keys, simulated: a held key closes a switch between its row and column wires.
#
# The board's keypad is a matrix without diodes (firmware/drivers/keypad.py). A
# held key joins its row pin and column pin (hostsim.hardware.PinState.join), so
# what the firmware reads comes out of the simulated wires alone: a column reads
# low only while the row its key joins is pulled low by the firmware's scan; a
# row released (open drain, high impedance) or an input pulls nothing; and three
# keys held at the corners of a rectangle make the fourth read down, as on the
# real keypad. Nothing here knows the firmware's scan order or debounce.
from firmware.table_config import KEYPAD_GAMES    # the games that read the keypad: the firmware's word


class SimKeypad:
    """The keys of one board's keypad (firmware.board.Board.keypad) on a hostsim Hardware."""

    def __init__(self, hw, spec):
        self.hw = hw
        self.rows = list(spec["rows"])
        self.cols = list(spec["cols"])
        self.legends = [legend for row in spec["keys"] for legend in row]   # in key index order
        self._held = []           # legends held down, in the order pressed

    def keys(self):
        """The legends this keypad carries, in key index order (positions without a key left out)."""
        return [legend for legend in self.legends if legend]

    def index(self, legend):
        """Key index of legend (row * columns + column); ValueError naming the legends there are."""
        if legend and legend in self.legends:
            return self.legends.index(legend)
        raise ValueError("the keypad has no key %r (keys: %s)" % (legend, ", ".join(self.keys())))

    def press(self, legend):
        """Hold the key down (its wires joined until release); pressing a held key changes nothing."""
        row, col = self._wires(legend)
        if legend not in self._held:
            self._held.append(legend)
            row.join(col)

    def release(self, legend):
        row, col = self._wires(legend)
        if legend in self._held:
            self._held.remove(legend)
            row.part(col)

    def held(self):
        """The legends held down now, in the order pressed."""
        return list(self._held)

    def _wires(self, legend):
        index = self.index(legend)
        ncols = len(self.cols)
        return self.hw.pin(self.rows[index // ncols]), self.hw.pin(self.cols[index % ncols])


# The live simulator's terminal keys -> the keypad legend they press (hostsim.sim, at a table whose game
# keys the keypad: KEYPAD_GAMES). A dealer button key one of them takes moves to its capital (c: call, C: confirm).
TERMINAL_KEYS = tuple((str(d), str(d)) for d in range(10)) + (
    ("f", "fold"), ("k", "check"), ("c", "call"), ("b", "bet"), ("r", "raise"), ("a", "allin"),
    ("\r", "enter"), ("\x7f", "clear"), ("n", "new"), ("t", "button"), ("e", "seat"), ("$", "stack"))
ALIASES = {"\n": "\r", "\x08": "\x7f"}      # Enter and Backspace as some terminals send them
_SHOWN = {"\r": "Enter", "\x7f": "Bksp"}


def terminal_keys(board, game):
    """[(terminal key, legend)] for the keys of this board's keypad, when `game` reads the keypad; else []."""
    if board.keypad is None or game not in KEYPAD_GAMES:
        return []
    return [(key, legend) for key, legend in TERMINAL_KEYS if board.key_index(legend) >= 0]


def legend_lines(keys):
    """The key help for [(terminal key, legend)]: lines of at most 76 characters ([] without keys)."""
    if not keys:
        return []
    digits = [key for key, legend in keys if key == legend]
    words = ["0-9 digits"] if len(digits) == 10 else ["%s %s" % (key, key) for key in digits]
    words += ["%s %s" % (_SHOWN.get(key, key), legend) for key, legend in keys if key != legend]
    lines, line = [], "keypad:"
    for word in words:
        if len(line) + 2 + len(word) > 76:
            lines.append(line)
            line = "       "
        line += "  " + word
    return lines + [line]
