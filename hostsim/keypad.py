# The dealer keypad's keys, simulated: a held key closes a switch between its row and column wires.
#
# The board's keypad is a matrix without diodes (firmware/drivers/keypad.py). A
# held key joins its row pin and column pin (hostsim.hardware.PinState.join), so
# what the firmware reads comes out of the simulated wires alone: a column reads
# low only while the row its key joins is pulled low by the firmware's scan; a
# row released (open drain, high impedance) or an input pulls nothing; and three
# keys held at the corners of a rectangle make the fourth read down, as on the
# real keypad. Nothing here knows the firmware's scan order or debounce.


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
