# The clock of the benches that run in the MicroPython VM (bench/table_vm.py, bench/omaha_vm.py,
# bench/craps_vm.py; run with bench/ copied into the VM: tools.mpvm --copy bench). A module of its
# own, importing nothing of the table, so that a bench measuring heap can import it after its RAM part.
# - In the WebAssembly port under Node.js: the CPU time of the VM's process (process.cpuUsage(),
#   microseconds; time spent waiting for a core is not counted). Its time.ticks_us() counts whole ms.
# - On a board: time.ticks_us() (the board does nothing else), differences by time.ticks_diff.
# - On CPython (trying a bench out): time.perf_counter().
import time

try:
    import js
    _process = js.process

    def now_us():
        usage = _process.cpuUsage()
        return usage.user + usage.system

    def diff_us(end, start):
        return end - start
    CLOCK = "process.cpuUsage() (Node.js: CPU microseconds of the VM's process)"
except (ImportError, AttributeError):
    if hasattr(time, "ticks_us"):
        def now_us():
            return time.ticks_us()
        diff_us = time.ticks_diff
        CLOCK = "time.ticks_us()"
    else:
        def now_us():
            return time.perf_counter() * 1e6

        def diff_us(end, start):
            return end - start
        CLOCK = "time.perf_counter()"


def clock_overhead_us():
    """An empty window's reading (a median of 51): what each timed window holds beyond its work."""
    xs = []
    for _ in range(51):
        t0 = now_us()
        xs.append(diff_us(now_us(), t0))
    xs.sort()
    return xs[len(xs) // 2]


def calibrate(n):
    # The reference loop of every bench, on both runtimes (bench/benchutil.py takes it from here; only
    # bench/shoe_refill.py, a script the VM runs alone, writes it out: tests/host/test_bench.py): each figure
    # is a ratio to it, timed in the same run.
    t = (1, 2, 4, 8)
    x = 0
    for i in range(n):
        x = (x + t[i & 3]) ^ i
    return x
