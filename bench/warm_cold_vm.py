# Profiling aid, not a bench: why the Baccarat answer costs the VM several times what its calls cost when
# timed one after the other. A few of the answer's own calls (the result report's JSON, a frame, the
# dealer display's lines) on the table of bench/table_vm.py after a round, each timed 15 times:
# - warm: right after the same call (what a loop of it measures: most micro-benchmarks);
# - cold: right after other work that walks ~10 KB of fresh objects (a list of 2,000 strings and its JSON),
#   as each call of the pass comes after the rest of the pass, not after itself.
# An empty window (the clock read twice) is timed both ways too: its cold figure is what the clock costs
# after work, beside the warm one bench/vmclock.py's clock_overhead_us() measures and the benches subtract.
# Prints the bytes the answer allocates, then medians, us of VM CPU (docs/performance-log.md, "The thirtieth round").
#
#   .venv/bin/python bench/warm_cold_vm.py        (runs itself in the VM, tools.mpvm --steps)
import gc
import sys

if sys.implementation.name != "micropython":
    import os
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from tools import mpvm
    raise SystemExit(mpvm.run_bench_steps(__file__))

import json

from bench import table_vm as tv
from bench.vmclock import now_us
from firmware.games.baccarat import screens
from firmware.link.frame import Encoder
from firmware.link.sender import PART
from firmware.link.stamp import Stamp

TIMES = 15
SEEN = {}
ALLOCATED = []      # bytes each timed answer allocated


def _seen_pass(t):
    """The timed pass of bench/table_vm.py, untimed here: the result report's fields kept, and the bytes the
    answer allocates (after a collection, as the bench's timed pass)."""
    reporter = t.ctx.reporter
    emit = reporter.emit

    def kept(event, fields=None):
        if event == "result":
            SEEN["record"] = {"seq": reporter.seq + 1, "table": t.ctx.config["table_id"], "event": event}
            SEEN["record"].update(fields)
        return emit(event, fields)
    reporter.emit = kept
    try:
        gc.collect()
        before = gc.mem_alloc()
        t.answer_pass()
        ALLOCATED.append(gc.mem_alloc() - before)
        t.link_pass()
    finally:
        del reporter.emit
    return 0


def nothing():
    pass


def other_work():
    made = []
    for i in range(2000):
        made.append(str(i))
    json.dumps(made)


def median(call, before):
    xs = []
    for _ in range(TIMES):
        before()
        t0 = now_us()
        call()
        xs.append(now_us() - t0)
    xs.sort()
    return xs[TIMES // 2]


tv.timed_pass = _seen_pass
table = tv.vmtable.Table("baccarat")
tv.baccarat_shoe(table)
for k in range(12):
    tv.baccarat_next(table, k)
ctx = table.ctx
record = SEEN["record"]
payload = json.dumps(record).encode()
encoder = Encoder(200)
stamp = Stamp()
encoder.encode(1, 5, PART, payload[:128], stamp, -1, True)
piece = memoryview(payload)[128:256]
CALLS = (("an empty window (the clock read twice)", nothing),
         ("json.dumps of the %d-byte result report" % len(payload), lambda: json.dumps(record)),
         ("a frame after the last (encode_next, 128 bytes)", lambda: encoder.encode_next(PART, piece)),
         ("the dealer display's lines", lambda: screens.dealer_lines(ctx.table, ctx.config, ctx.button_names)))
print("the answer allocates %d-%d bytes (%d rounds)" % (min(ALLOCATED), max(ALLOCATED), len(ALLOCATED)))
gc.collect()
print("us of VM CPU, median of %d; warm: after itself; cold: after other work" % TIMES)
for name, call in CALLS:
    print("  %-50s warm %5d  cold %5d" % (name, median(call, nothing), median(call, other_work)))
