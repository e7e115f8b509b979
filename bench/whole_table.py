"""The whole table on the MicroPython VM: per-event times, as ratios to the calibration loop.

    .venv/bin/python bench/whole_table.py                 # timing (bench/table_vm.py) in the VM
    .venv/bin/python bench/whole_table.py --memory        # and the memory kept (bench/memory_vm.py)

Runs bench/table_vm.py in the MicroPython VM (tools.mpvm, with bench/ copied in next to firmware/,
tests/ and boards/) and prints, for each figure, the medians over the rounds of (a) the time in
the VM and (b) that time in calibration-loop iterations (the loop timed in the same round: the
host's speed cancels out), against the issue's targets. The RP2040 figures are an ESTIMATE:
iterations x an ASSUMED time per iteration on the board (--rp2040-us-per-iter, default 4.0 us as in
bench/omaha_eval.py) until a board runs `mpremote mount . run bench/table_vm.py`.
--memory also runs bench/memory_vm.py (tools.mpvm --steps: memory kept, collected in separate VM
run calls) and prints its lines: the heap kept with the code on the filesystem (code + data), and
with the code in flash, frozen or ROMFS: data only, measured as boot minus imports (the table's
modules, listed by a first VM run, imported before the boot; the boot-only modules that run found
released, firmware/startup.py BOOT_ONLY, imported and released again: the boot makes and frees them
anew), and with what the modules kept still keep
in the heap when frozen or in ROMFS (their objects, dicts, functions and classes: counted, and their
sizes measured in the VM; docs/performance-log.md, "Memory kept").
"""
import argparse
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if REPO not in sys.path:
    sys.path.insert(0, REPO)

from bench import benchutil  # noqa: E402
from bench.code_census import built_at_import, defaulted_functions, defined_names  # noqa: E402

RP2040_US_PER_ITER = 4.0      # an ASSUMPTION (bench/omaha_eval.py, docs/performance.md)
WS2812_US_PER_PIXEL = 30.0    # 24 bits at 800 kHz (1.25 us a bit)
LIGHTS_SHARE = 0.10           # the frame's computation: at most 10 % of its wire time
# (figure key, what it is, target on the VM in ms or None)
FIGURES = (
    ("baccarat_us", "Baccarat: last card read -> result, lights, displays, report frames", 1.0),
    ("baccarat_max_us", "  the slowest of each round's events", None),
    ("baccarat_link_us", "  then, in the same pass, the host link's turn: the frames on flash (one record), out", None),
    ("baccarat_scoreboard_us", "  the display pass after it: the scoreboard drawn and shown (it waits a pass)", None),
    ("craps_close_us", "Craps: the pass reading CLOSE of a 50-bet reading (50 bets placed), lights, report", 1.0),
    ("craps_bets_us", "  all 12 passes of that reading (each line read in a pass of its own)", None),
    ("craps_placing_us", "Craps: placing those 50 bets (the CLOSE's dispatch: checked, placed, lights' frame)", 1.0),
    ("craps_throw_us", "Craps: one throw resolving 50 open bets of 10 seats, lights, report", 2.0),
    ("craps_throw_max_us", "  the slowest of each round's events", None),
    ("craps_throw_link_us", "  then, in the same pass, the host link's turn: the frames on flash (one record), out", None),
    ("omaha_us", "Omaha: the river's last check of 10 seats, 3 pots (side pots), reports, lights", 5.0),
    ("omaha_max_us", "  the slowest of each round's 3 hands", None),
    ("omaha_link_us", "  then, in the same pass, the host link's turn: the frames on flash (one record), out", None),
    ("lights_us", "Lights: ZoneLights.show() of every zone changed (76 pixels)", None),
    ("lights_one_zone_us", "  one zone changed (2 pixels)", None),
)


def parse(out):
    runtime, fig, rounds = "?", {}, []
    for line in out.splitlines():
        if line.startswith("runtime: ") and runtime == "?":     # the VM's runner's line, else the script's
            runtime = line[len("runtime: "):]
        elif line.startswith("round "):
            words = line.split()
            rounds.append(dict((words[i].rstrip(":"), float(words[i + 1])) for i in range(2, len(words), 2)))
        elif ": " in line:
            key, value = line.split(": ", 1)
            fig[key] = value
    return runtime, fig, rounds


def run_vm(script, steps=False, timeout=900, port="vm"):
    from tools import mpvm
    path = script if os.path.isabs(script) else os.path.join(REPO, "bench", script)
    if port == "unix":                   # the Unix port (tools/mpunix.py): the script whole, its gc frees at once
        from tools import mpunix
        status, out = mpunix.run_script(path, timeout=timeout)
        if status != 0:
            raise SystemExit("MicroPython Unix port run of bench/%s failed:\n%s" % (script, out))
        return out
    args = ["--steps" if steps else "--script", path]
    status, out = mpvm.run(args, copies=mpvm.DEFAULT_COPIES + ("bench",), timeout=timeout)
    if status != 0:
        raise SystemExit("MicroPython run of bench/%s failed:\n%s" % (script, out))
    return out


def table_script(rounds=None, events=None):
    """bench/table_vm.py for tools.mpvm --steps: each round a VM run call of its own; its EVENTS
    line replaced when given."""
    text = open(os.path.join(REPO, "bench", "table_vm.py")).read()
    if events is not None:
        text = text.replace("\nEVENTS = 9 ", "\nEVENTS = %d " % events)
    head, rest = text.split("# @rounds-begin", 1)
    _, tail = rest.split("# @rounds-end\n", 1)
    calls = ["one_round(%d)\n" % r for r in range(11 if rounds is None else rounds)]
    return head + "# --- next run call ---\n".join(calls) + tail


def run_table(rounds=None, events=None, port="vm"):
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "table_vm.py")
        with open(path, "w") as f:
            f.write(table_script(rounds, events))
        return run_vm(path, steps=True, port=port)


PORTS = {"vm": "MicroPython VM", "unix": "MicroPython's Unix port (tools/mpunix.py; a cross-check, not the target's VM)"}


def timing(us_per_iter, rounds=None, events=None, port="vm"):
    runtime, fig, rounds = parse(run_table(rounds, events, port))
    med, sp = benchutil.median, benchutil.spread
    iters = int(fig["calibration_iterations"])
    cal_us = [r["calibration_us"] for r in rounds]
    print("== %s: %s; bench/table_vm.py; clock %s (its own cost, %.1f us a window, subtracted)"
          % (PORTS[port], runtime, fig["clock"], med([r["clock_overhead_us"] for r in rounds])))
    print("  %d rounds; calibration loop %d iterations, ms: %s; %.3f us/iteration"
          % (len(rounds), iters, sp([c / 1000.0 for c in cal_us], "%.1f"), med(cal_us) / iters))
    print("  medians over the rounds of each round's median event (max: of each round's slowest):")
    worst = {}
    for key, what, target in FIGURES:
        # less the clock's own cost (an empty window), as measured in that round
        windows = 12 if key == "craps_bets_us" else 1      # that figure sums the reading's 12 passes
        us = [max(r[key] - windows * r["clock_overhead_us"], 0.0) for r in rounds]
        ms = [u / 1000.0 for u in us]
        it = [u / (c / iters) for u, c in zip(us, cal_us)]
        verdict = ""
        if target is not None and port == "vm":           # (the targets are the VM's)
            verdict = "  target < %.0f ms: %s" % (target, "met" if med(ms) < target else "MISSED")
        print("  %s\n    %s ms: %s; calibration iterations: %s; RP2040 ~%.1f ms (estimate)%s"
              % (what, "VM" if port == "vm" else "port", sp(ms), sp(it, "%.0f"), med(it) * us_per_iter / 1000.0,
                 verdict))
        if key == "omaha_us" and port == "vm":
            # The VM runs the showdown as bytecode; a board, as viper code (firmware/games/omaha/hand_value_viper.py),
            # so this RP2040 figure is the bytecode's: bench/omaha_eval.py estimates the showdown with viper.
            print("    (the RP2040 figure as bytecode: a board runs the showdown as viper code, bench/omaha_eval.py)")
        worst[key] = med(it)
    pixels = int(fig["pixels"])
    wire_us = pixels * WS2812_US_PER_PIXEL
    for key, what in (("lights_us", "every zone changed"), ("lights_one_zone_us", "one zone changed")):
        vm_us = med([r[key] - r["clock_overhead_us"] for r in rounds])
        print("  lights, %s: frame computation %.0f us here, ~%.0f us on the RP2040 (estimate), against"
              " %.0f us of wire time (%d pixels x %.0f us): %.1f %% / ~%.0f %% (at most %.0f %%)"
              % (what, vm_us, worst[key] * us_per_iter, wire_us, pixels, WS2812_US_PER_PIXEL,
                 100.0 * vm_us / wire_us, 100.0 * worst[key] * us_per_iter / wire_us, 100 * LIGHTS_SHARE))
    print("  open bets before the throw: %d; Omaha pots at the showdown: %d"
          % (int(rounds[-1]["open_bets"]), int(rounds[-1]["pots"])))
    print("== RP2040 ESTIMATE, not a measurement: ASSUMING %.1f us per calibration iteration on the board"
          % us_per_iter)


def memory_script(game, steps, step_rounds, per_call, modules=(), defaulted=0, built=(), defined=0, released=()):
    """bench/memory_vm.py for one game, its rounds block written out: steps x (step_rounds / per_call)
    VM run calls of per_call rounds, the heap kept measured after each step (in two calls of its own);
    modules: the table's modules, imported (and measured) before it boots; released: the boot-only modules
    and a settings change's (firmware/parts.py, CHANGE_ON_DEMAND: its first pass imports settings_change to
    read a pending change back) and the dormant console's (CONSOLE_AWAKE: the boot reads the console's records,
    the first pass writes its prompt) it no longer holds after boot, imported and released before it boots (their
    names interned: code, in flash on a board with its code there);
    then bench/memory_flash_vm.py (defaulted, built, defined: what it measures of the modules kept)."""
    text = open(os.path.join(REPO, "bench", "memory_vm.py")).read()
    head, rest = text.split("# @rounds-begin", 1)
    _, tail = rest.split("# @rounds-end\n", 1)
    block = "# --- next run call ---\nrounds(%d)\n" % per_call * (step_rounds // per_call)
    block += ("# --- next run call ---\nmeasure(4)\n# --- next run call ---\nmeasure(4)\nKEPT.append(MEM[4])\n"
              'print("step: %d rounds, %d bytes" % (K[0], MEM[4]))\n')
    script = head + block * steps + tail
    # then, in the same VM, what a board keeps with its code in flash beyond the data
    script += "# --- next run call ---\n" + open(os.path.join(REPO, "bench", "memory_flash_vm.py")).read()
    script = script.replace('\nGAME = "baccarat"\n', '\nGAME = "%s"\n' % game)
    script = script.replace("\nMODULES = () ", "\nMODULES = %r " % (tuple(modules),))
    script = script.replace("\nRELEASED = () ", "\nRELEASED = %r " % (tuple(released),))
    script = script.replace("\nDEFAULTED = 0 ", "\nDEFAULTED = %d " % defaulted)
    script = script.replace("\nBUILT = () ", "\nBUILT = %r " % (tuple(built),))
    script = script.replace("\nDEFINED = 0 ", "\nDEFINED = %d " % defined)
    script = script.replace("\nSTEP_ROUNDS = 20 ", "\nSTEP_ROUNDS = %d " % step_rounds)
    return script.replace("\nROUNDS_PER_CALL = 20 ", "\nROUNDS_PER_CALL = %d " % per_call)


_LIST_MODULES = ("# --- next run call ---\n"
                 "print('table_modules: ' + ' '.join(sorted(k for k in sys.modules"
                 " if k == 'firmware' or k.startswith('firmware.'))))\n"
                 "print('released_modules: ' + ' '.join(sorted(k for k in sys.modules['firmware.startup'].BOOT_ONLY"
                 " + sys.modules['firmware.parts'].CHANGE_ON_DEMAND + sys.modules['firmware.parts'].CONSOLE_AWAKE"
                 " if k not in sys.modules)))\n")


def table_modules(game):
    """The firmware modules a booted table of game has imported after its first rounds (a VM run of
    bench/memory_vm.py's boot and first rounds, then sys.modules)."""
    return listed_modules(game)[0]


def listed_modules(game):
    """(the modules a booted table of game holds after its first rounds, the boot-only modules of
    firmware/startup.py, a settings change's and the dormant console's of firmware/parts.py it does not hold
    then): one VM run of
    bench/memory_vm.py's boot and first rounds."""
    import tempfile
    head = memory_script(game, 0, 0, 1).split("# --- next run call ---\nPASS_MAX = [0]", 1)[0]
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "modules_%s.py" % game)
        with open(path, "w") as f:
            f.write(head + _LIST_MODULES)
        out = run_vm(path, steps=True)
    found = {}
    for line in out.splitlines():
        for key in ("table_modules: ", "released_modules: "):
            if line.startswith(key):
                found[key] = line[len(key):].split()
    if len(found) != 2:
        raise SystemExit("bench/memory_vm.py did not list the table's modules:\n" + out)
    # Another game's boot-only modules (its snapshot's restore side) are never this table's: left out, else
    # importing them before the boot would bring that game's modules in with them.
    own = "firmware.games.%s." % game
    released = [m for m in found["released_modules: "] if not m.startswith("firmware.games.") or m.startswith(own)]
    return found["table_modules: "], released


def mpy_sizes(board="pico", out=None):
    """{module name: bytes of its .mpy} of a build (tools.build, in out or a temporary folder): the bytecode
    a board would load into its heap from the filesystem, or run in place when frozen or in ROMFS."""
    import tempfile
    from tools import build
    if out is not None:
        manifest = build.build(board, out=out)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            manifest = build.build(board, out=tmp)
    sizes = {}
    for entry in manifest["files"]:
        path = entry["path"]
        if path.endswith(".mpy"):
            name = path[:-len(".mpy")].replace("/", ".")
            if name.endswith(".__init__"):
                name = name[:-len(".__init__")]
            sizes[name] = entry["size"]
    return sizes


def _qstr_lines(fig, qstr, steps_qstr):
    """The interned strings' pools apart: MicroPython never frees a pool, and the one that comes when
    the last is full is twice its size (~18 KB here) and lands in whichever phase needs it first: one
    more name anywhere moves it between "code", "data" and "after rounds" (docs/performance.md)."""
    imports, boot = qstr[6], qstr[3]
    print("  qstr pools after the imports: %d, %d bytes; after boot: %d, %d bytes; after the last step: %s"
          % (imports[1], imports[2], boot[1], boot[2],
             "%d, %d bytes" % steps_qstr[-1][1:] if steps_qstr else "-"))
    print("  ram_data_after_boot_less_qstr_bytes: %d (the boot's interned strings: %d)"
          % ((boot[0] - imports[0]) - (boot[2] - imports[2]), boot[2] - imports[2]))
    print("  data kept after each step (heap kept less the imports), and less the qstr pools' growth since"
          " the imports: %s" % ", ".join("%d / %d" % (m - imports[0], (m - imports[0]) - (q - imports[2]))
                                          for m, _, q in steps_qstr))


def memory(games, steps, step_rounds, per_call):
    import tempfile
    with tempfile.TemporaryDirectory() as build_dir:
        sizes = mpy_sizes(out=build_dir)
        for game in games:
            _memory_of(game, steps, step_rounds, per_call, sizes, os.path.join(build_dir, "pico"))


def _memory_of(game, steps, step_rounds, per_call, sizes, build_dir):
    import tempfile
    from bench import romfs_ram
    modules, released = listed_modules(game)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "memory_vm_%s.py" % game)
        with open(path, "w") as f:
            f.write(memory_script(game, steps, step_rounds, per_call, modules, defaulted_functions(modules),
                                  built_at_import(modules), defined_names(modules), released))
        out = run_vm(path, steps=True, timeout=7200)
    print("== MicroPython VM: bench/memory_vm.py, GAME = %r, %d x %d rounds, %d rounds per VM run call"
          " (tools.mpvm --steps, a VM of its own)" % (game, steps, step_rounds, per_call))
    fig = {}
    qstr = {}            # slot -> (heap kept, qstr pools, their bytes) at its latest measurement
    steps_qstr = []      # the same at each "step:" line
    slot = None
    for line in out.splitlines():
        if line.startswith("qstr_slot "):
            slot, mem = int(line.split()[1]), int(line.split()[2])
            continue
        if line.startswith("qstr pool:"):
            pool = dict(kv.split("=") for kv in line.split(":", 1)[1].replace(",", " ").split())
            qstr[slot] = (mem, int(pool["n_pool"]), int(pool["n_total_bytes"]))
            continue
        if line.startswith("step: "):
            steps_qstr.append(qstr[4])
        if not line.startswith("runtime: MicroPython"):
            print("  " + line)
        if ": " in line:
            key, value = line.split(": ", 1)
            fig[key] = value
    _qstr_lines(fig, qstr, steps_qstr)
    mpy = sum(sizes.get(m, 0) for m in modules)
    print("  mpy_bytes_of_those_modules: %d (boards/pico.json build; the boot-only modules released after boot:"
          " %d more)" % (mpy, sum(sizes.get(m, 0) for m in released)))
    code, data = int(fig["ram_code_bytes"]), int(fig["ram_data_after_boot_bytes"])
    print("  kept with code on the filesystem (.mpy loaded into the heap): %d bytes (code %d + data %d)"
          % (code + data, code, data))
    rings, stand_ins = int(fig["ram_uart_rings_bytes"]), int(fig["ram_bench_stand_ins_bytes"])
    print("  kept with code in flash (frozen or ROMFS), data only, measured as boot minus imports: %d bytes"
          " (the UARTs' rings as the rp2 port allocates them included: %d; the bench's stand-ins for objects"
          " an RP2040 keeps static: %d); target 64 KB (65,536): %s"
          % (data, rings, stand_ins, "met" if data <= 65536 else "MISSED"))
    residual = int(fig["frozen_residual_measured_bytes"])
    board = data - stand_ins + residual
    print("  with code frozen in flash (an image of `tools.build --frozen`'s sources), as a board keeps it: the data"
          " less the stand-ins, and the modules' objects, dicts, functions, classes and what they build at import"
          " (still in the heap when frozen or in ROMFS; sizes measured in the VM): %d + %d = %d bytes; target"
          " 64 KB: %s (the estimate of before: data + ~%d)"
          % (data - stand_ins, residual, board, "met" if board <= 65536 else "MISSED",
             int(fig["frozen_residual_estimate_bytes"])))
    romfs = sum(romfs_ram.estimate(build_dir, romfs_ram.with_native_partners(modules))[0].values())
    print("  with code in ROMFS (MicroPython 1.25+), as a board would keep it: the above, and what the .mpy"
          " loader still makes in RAM where frozen code has it in flash (raw code records, qstr and"
          " constant tables, constant objects, qstr pool entries: an ESTIMATE from the .mpy files,"
          " bench/romfs_ram.py): %d + %d = %d bytes; target 64 KB: %s"
          % (board, romfs, board + romfs, "met" if board + romfs <= 65536 else "MISSED"))
    # What a board's heap must hold while the table plays, per build (tools/build_board.py TABLE_HEAP_BYTES,
    # which tools.deploy has the board measure itself against): the peak bound, code frozen, and with ROMFS.
    from tools.build_board import TABLE_HEAP_BYTES
    peak = int(fig["peak_bound_data_only_bytes"]) - stand_ins + residual
    for kind, need in (("frozen", peak), ("romfs", peak + romfs)):
        print("  peak_bound_%s_bytes: %d (the data kept after the rounds with the largest pass's allocations, less"
              " the stand-ins, and the modules' objects%s); tools/build_board.py TABLE_HEAP_BYTES[%r] %d: %s"
              % (kind, need, "" if kind == "frozen" else ", and the ROMFS loader's estimate", kind,
                 TABLE_HEAP_BYTES[kind], "within" if need <= TABLE_HEAP_BYTES[kind] else "OVER"))
    floor = int(fig["frozen_residual_one_module_floor_bytes"].split()[0])
    print("  the same with all the code made one module (the residual's floor: no module objects, no names"
          " imported between modules; the same functions, classes and data): %d + %d = %d bytes; target 64 KB:"
          " %s" % (data - stand_ins, floor, data - stand_ins + floor,
                   "met" if data - stand_ins + floor <= 65536 else "MISSED"))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rp2040-us-per-iter", type=float, default=RP2040_US_PER_ITER,
                    help="RP2040 time per calibration iteration (default %.1f: an assumption)" % RP2040_US_PER_ITER)
    ap.add_argument("--rounds", type=int, help="timing: rounds (default 11)")
    ap.add_argument("--events", type=int, help="timing: events of each kind per round (default 9; at least 2: every"
                    " other Craps reading times its placing alone)")
    ap.add_argument("--port", choices=("vm", "unix"), default="vm",
                    help="timing on the VM (the targets' runtime; default) or on MicroPython's Unix port, the same"
                         " bench/table_vm.py as one script: a second MicroPython's iterations, a check of the ratios")
    ap.add_argument("--memory", action="store_true", help="also run bench/memory_vm.py")
    ap.add_argument("--memory-only", action="store_true", help="only bench/memory_vm.py")
    ap.add_argument("--profile", action="store_true", help="only bench/profile_pass.py: the passes in parts")
    ap.add_argument("--game", action="append", choices=("baccarat", "craps", "omaha"),
                    help="memory: this game only (repeatable; default all three)")
    ap.add_argument("--steps", type=int, default=10, help="memory: measurements of the heap kept (default 10)")
    ap.add_argument("--rounds-per-step", type=int, default=1000,
                    help="memory: rounds between two measurements (default 1000: 10,000 rounds per game)")
    ap.add_argument("--rounds-per-call", type=int, default=20,
                    help="memory: rounds per VM run call (default 20; the VM frees a call's garbage after it)")
    a = ap.parse_args(argv)
    if a.events is not None and a.events < 2:
        ap.error("--events: at least 2")
    print(benchutil.machine())
    if a.profile:
        sys.stdout.write(run_vm("profile_pass.py", steps=True))
        return 0
    if not a.memory_only:
        timing(a.rp2040_us_per_iter, a.rounds, a.events, a.port)
    if a.memory or a.memory_only:
        memory(a.game or ("baccarat", "craps", "omaha"), a.steps, a.rounds_per_step, a.rounds_per_call)
    return 0


if __name__ == "__main__":
    sys.exit(main())
