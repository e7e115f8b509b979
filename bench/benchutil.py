"""Shared by the bench scripts on CPython: the machine line, the clock, the calibration loop, medians.

Timings on a shared machine are noisy. The CPython benches therefore time with
the process's CPU time (`clock`: time spent waiting for a core is not counted),
time the calibration loop (`calibrate`) in the same run as what they measure, and print
the ratio too: it moves much less with the machine's load and speed than the
time does. Spreads are given as the middle half (25th-75th percentile) of the
repeats. The MicroPython benches time the very same loop: it is bench/vmclock.py's,
the module every bench run in the VM imports.
"""
import os
import platform
import time

from bench.vmclock import calibrate  # noqa: F401  (the one loop, the VM benches' too)

CALIBRATION_ITERATIONS = 1000000
clock = time.process_time   # CPU seconds of this process


def calibration_s(n=CALIBRATION_ITERATIONS):
    """Seconds for one run of the calibration loop."""
    start = clock()
    calibrate(n)
    return clock() - start


def median(values):
    s = sorted(values)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2.0


def quartiles(values):
    """(25th, 75th) percentile, nearest rank: the middle half of the repeats."""
    s = sorted(values)
    return s[(len(s) - 1) // 4], s[(3 * (len(s) - 1) + 3) // 4]


def spread(values, fmt="%.2f"):
    lo, hi = quartiles(values)
    return "median %s, middle half %s-%s, %d runs" % (fmt % median(values), fmt % lo, fmt % hi, len(values))


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def machine():
    """One line naming what ran the bench: CPU, cores usable, Python, load."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:
        cores = os.cpu_count()
    try:
        load = "load average %.2f" % os.getloadavg()[0]
    except (AttributeError, OSError):
        load = "load average unknown"
    return "%s (%s), %d cores, %s %s, %s" % (cpu_model(), platform.machine(), cores,
                                             platform.python_implementation(), platform.python_version(), load)


def calibration_line(seconds_list, n=CALIBRATION_ITERATIONS):
    return "calibration loop (%d iterations, bench/benchutil.py), CPU ms: %s; %.3f us/iteration" % (
        n, spread([1000 * t for t in seconds_list], "%.1f"), 1e6 * median(seconds_list) / n)


if __name__ == "__main__":
    print(machine())
