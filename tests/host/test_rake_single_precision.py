# Omaha art. 16's rake rate read on a single-precision port (CPython only: it stands in for one).
#
# An RP2040's MicroPython keeps floats in 32 bits (MICROPY_FLOAT_IMPL_FLOAT): a table file's rake_percent
# of 3.1 arrives as 3.0999999 and every product of it is rounded to 24 bits. The suite's two MicroPythons
# (the WebAssembly VM, the Unix port) use 64-bit floats, so neither shows it. Here a float whose every
# operation is rounded to 32 bits, as that port's are, goes through the firmware's own rake_tenths: every
# whole tenth from 3% to 5% must read as that tenth, every finer or out-of-range rate be refused, and no
# rate reaches the chips as a float (pots.rake_pots works in whole tenths). Regression: a rate within 0.001 of a
# tenth times ten was taken for that tenth: 3.0001 read as 3% in single precision (refused in double), 2.99999 on both.
import struct

import pytest

from firmware.errors import SettingsError
from firmware.games.omaha.pots import Pot, rake_pots
from firmware.games.omaha.settings import rake_tenths


def _f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


class Float32(float):
    """A float as a single-precision port has it: its value and each result rounded to 32 bits."""

    def __new__(cls, x):
        return float.__new__(cls, _f32(float(x)))

    def _op(name):
        def op(self, other):
            result = getattr(float, name)(self, float(other))
            return result if result is NotImplemented else Float32(result)
        return op

    __mul__, __rmul__ = _op("__mul__"), _op("__rmul__")
    __sub__, __rsub__ = _op("__sub__"), _op("__rsub__")
    __add__, __radd__ = _op("__add__"), _op("__radd__")
    __truediv__, __rtruediv__ = _op("__truediv__"), _op("__rtruediv__")

    def __abs__(self):
        return Float32(float.__abs__(self))


def test_the_stand_in_rounds_as_a_single_precision_port_does():
    assert float(Float32(3.1)) != 3.1 and float(Float32(3.1)) == _f32(3.1)
    product = Float32(3.0001) * 10
    assert isinstance(product, Float32) and float(product) == _f32(_f32(3.0001) * 10) != 3.0001 * 10


@pytest.mark.parametrize("tenths", range(30, 51))
def test_art16_every_tenth_from_3_to_5_percent_reads_as_that_tenth_in_single_precision(tenths):
    text = "%d.%d" % (tenths // 10, tenths % 10)            # as the table file writes it: "3.1"
    assert rake_tenths(Float32(float(text))) == tenths
    pots = [Pot(1000, (1, 2)), Pot(9999999, (1, 2))]
    assert rake_pots(pots, rake_tenths(Float32(float(text))), 10 ** 9) == tenths + 9999999 * tenths // 1000


@pytest.mark.parametrize("rate", [2.9, 5.1, 3.25, 3.05, 3.15, 4.95, 0.5, -3.5, 5.05, 3.0001, 2.99999])
def test_art16_a_rate_off_the_tenths_or_out_of_range_is_refused_in_single_precision(rate):
    with pytest.raises(SettingsError, match="rake_percent must be 0 .no rake. or 3 to 5 in tenths"):
        rake_tenths(Float32(rate))


def test_art16_no_rake_and_the_whole_percents_in_single_precision():
    assert [rake_tenths(Float32(x)) for x in (0.0, 3.0, 4.0, 5.0)] == [0, 30, 40, 50]
