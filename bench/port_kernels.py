"""How far a calibration-loop ratio carries from one MicroPython to another: small kernels on two ports.

    .venv/bin/python bench/port_kernels.py

The RP2040 figures elsewhere are ESTIMATES: a time measured on the WebAssembly VM, turned into
calibration-loop iterations (the loop timed in the same run), times an assumed RP2040 time per
iteration. That holds only if the firmware's work costs the same number of iterations on the board as
on the VM. This bench times the calibration loop and four kernels of the kinds of work the firmware
does (method calls, dict reads and writes, small lists made and dropped, strings formatted) on both
MicroPythons this repository runs, the VM and the Unix port (tools/mpunix.py), and prints each kernel
in calibration iterations on each: where the two disagree, a board may disagree with both. The same
kernels run on a board as a plain script (`mpremote run bench/port_kernels.py`: its time.ticks_us()).
"""
import sys

if sys.implementation.name != "micropython":
    import os
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from bench import benchutil
    from tools import mpunix, mpvm

    def _figures(out):
        return dict((w[0], float(w[1])) for w in (line.split() for line in out.splitlines())
                    if len(w) == 2 and w[0].startswith("kernel_"))

    print(benchutil.machine())
    me = os.path.abspath(__file__)
    status, vm = mpvm.run(["--script", me], copies=("bench",), timeout=600)
    if status != 0:
        raise SystemExit("the VM's run failed:\n" + vm)
    status, unix = mpunix.run_script(me, timeout=600)
    if status != 0:
        raise SystemExit("the Unix port's run failed:\n" + unix)
    a, b = _figures(vm), _figures(unix)
    print("one iteration of each kernel in calibration-loop iterations (medians of 7 rounds, each timing the loop):")
    print("  %-20s %8s %10s %8s" % ("kernel", "VM", "Unix port", "Unix/VM"))
    for key in sorted(a):
        print("  %-20s %8.2f %10.2f %7.2fx" % (key[len("kernel_"):], a[key], b[key], b[key] / a[key]))
    raise SystemExit(0)

from bench.vmclock import calibrate, now_us  # noqa: E402  (the VM's CPU time; time.ticks_us() on the Unix port, a board)

N = 20000


class _Seat:
    def __init__(self):
        self.stake = 1

    def net(self, v):
        return self.stake + v


def method_calls(n):
    seat = _Seat()
    s = 0
    for i in range(n):
        s += seat.net(i)
    return s


def dict_reads_writes(n):
    d = {"banker": 1, "player": 2, "tie": 3}
    s = 0
    for i in range(n):
        d["banker"] = i
        s += d["player"] + d["banker"]
    return s


def small_lists(n):
    s = 0
    for i in range(n):
        pair = [i, i + 1]
        s += len(pair)
    return s


def formatted_strings(n):
    s = 0
    for i in range(n):
        s += len("%d:%s" % (i, "x"))
    return s


KERNELS = (method_calls, dict_reads_writes, small_lists, formatted_strings)


def main():
    times = {}
    for _ in range(7):
        t0 = now_us()
        calibrate(N)
        loop = now_us() - t0
        for kernel in KERNELS:
            t0 = now_us()
            kernel(N)
            # one iteration of the kernel in iterations of the loop timed in this round (both run N times)
            times.setdefault(kernel.__name__, []).append((now_us() - t0) / max(loop, 1))
    for name in sorted(times):
        xs = sorted(times[name])
        print("kernel_%s %.2f" % (name, xs[len(xs) // 2]))


main()
