"""Native code for the Omaha showdown, measured on MicroPython's Unix port (a host script).

    python bench/native_unix.py [--runs 8] [--modules firmware/games/omaha/hand_value.py,...]
    python bench/native_unix.py --table [--modules all]     # the whole table's passes (bench/table_vm.py)

What it measures: bench/omaha_vm.py (11 rounds a run of a calibration loop, 180 evaluator showdowns of
10 seats, 40 engine showdowns of 10 seats with two side pots) run as one script on the Unix port
(tools/mpunix.py, MicroPython 1.29, x86-64), in turn in three variants: "bytecode", every module as
bytecode and the showdown hand_value.py's plain pair; "native", the same with the chosen modules compiled
to x86-64 native code (mpy-cross -march=x64 -X emit=native); "viper", the repository as it is, whose
showdown on a port with native code is hand_value_viper's (a board's). The first two run a copy of
firmware/ first on the path (tools/mpunix.native_tree) whose hand_value_viper.py refuses to import (plain_tree
below), so hand_value keeps its plain pair as on a port without native code. Default modules:
tools/build.py's NATIVE_EMIT (tools/mpy_cross_tool.py), the set a board's build compiles native. Prints per variant the
medians over every round of every run of calibration_us, showdown_total_us and engine_total_us (and per
showdown / per engine showdown), the showdowns in calibration-loop iterations (each round's figure over
its own loop: the unit of docs/performance.md, the machine's speed divided out), then the native/bytecode
ratios, in microseconds and in iterations (the figure to read: the loop is bench code, bytecode in every
variant), and the viper/bytecode ones. And the heap bench/omaha_vm.py finds kept: on this port native code lies outside the GC heap
(mmap), so it shows only the bytecode gone, not what the machine code costs a board.

--table: the bytecode and native variants alternated with bench/table_vm.py (bench/whole_table.py's figures: the Baccarat answer,
Craps placing and throw, Omaha's last check), in calibration-loop iterations; --modules all: every firmware
module the native emitter compiles (those it cannot, a bare `raise` or `raise X from Y`, stay bytecode and
are named): how much of the whole table's time native code could take at most.

What it does not measure: a board's native code (Thumb on the RP2040, Xtensa on the ESP32-S3). That
its gain is like x86-64's is an assumption; a board's figure from these ratios is an estimate.
Wall-clock times of a shared machine: run it when nothing else is timed, and read the two variants'
calibration figures (alike, or the run was disturbed).
"""
import argparse
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tools import mpunix  # noqa: E402
from tools.mpy_cross_tool import NATIVE_EMIT, NATIVE_ONLY  # noqa: E402

SCRIPT = os.path.join(mpunix.REPO, "bench", "omaha_vm.py")
CALIBRATION_ITERATIONS = 200000     # bench/omaha_vm.py's (it prints it: checked)
ROUND = re.compile(r"calibration_us: (\d+) showdowns: (\d+) showdown_total_us: (\d+) "
                   r"engine_showdowns: (\d+) engine_total_us: (\d+)")
KEYS = ("calibration_us", "showdown_total_us", "engine_total_us")
RAM = re.compile(r"^(ram_omaha_hand_bytes|ram_omaha_engine_bytes): (-?\d+)$", re.M)


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2.0


def one_run(path):
    """One run of bench/omaha_vm.py: its rounds as dicts, and its RAM lines ({name: bytes})."""
    status, out = mpunix.run([SCRIPT], timeout=600, path=path)
    if status != 0:
        raise SystemExit("bench/omaha_vm.py failed on the Unix port (status %d):\n%s" % (status, out[-2000:]))
    rounds = []
    for m in ROUND.finditer(out):
        cal, n_sd, sd, n_eng, eng = (int(g) for g in m.groups())
        rounds.append({"calibration_us": cal, "showdown_total_us": sd, "engine_total_us": eng,
                       "showdowns": n_sd, "engine_showdowns": n_eng})
    if not rounds or "calibration_iterations: %d" % CALIBRATION_ITERATIONS not in out:
        raise SystemExit("bench/omaha_vm.py printed no rounds or other calibration iterations:\n%s" % out[-2000:])
    return rounds, dict((k, int(v)) for k, v in RAM.findall(out))


def summary(rounds):
    s = {k: median([r[k] for r in rounds]) for k in KEYS}
    s["per_showdown_us"] = s["showdown_total_us"] / rounds[0]["showdowns"]
    s["per_engine_showdown_us"] = s["engine_total_us"] / rounds[0]["engine_showdowns"]
    # In calibration-loop iterations, each round by its own loop (docs/performance.md's unit): the
    # machine's speed, which moves between rounds on a shared machine, divided out.
    for key, total, count in (("showdown_it", "showdown_total_us", "showdowns"),
                              ("engine_showdown_it", "engine_total_us", "engine_showdowns")):
        s[key] = median([r[total] * float(CALIBRATION_ITERATIONS) / (r["calibration_us"] * r[count])
                         for r in rounds])
    s["rounds"] = len(rounds)
    return s


TABLE_FIGURES = ("baccarat_us", "craps_placing_us", "craps_throw_us", "omaha_us")
VIPER_SOURCE = "firmware/games/omaha/hand_value_viper.py"


def plain_tree(dest, modules, skipped=None):
    """tools/mpunix.native_tree's copy, its hand_value_viper.py one that refuses to import: hand_value then
    keeps its plain showdown (bytecode, or native code when it is among modules), as where a port has no
    native emitter. Returns dest."""
    mpunix.native_tree(dest, modules, skipped=skipped)
    with open(os.path.join(dest, VIPER_SOURCE), "w") as f:
        f.write("raise ImportError('left out by bench/native_unix.py: the plain showdown timed')\n")
    return dest


def table_runs(runs, tree):
    """bench/table_vm.py on the port, bytecode and with `tree` first on the path, alternately: each figure in
    calibration iterations, the medians over every round of each variant, and their ratio."""
    from bench import whole_table
    its = {"bytecode": {k: [] for k in TABLE_FIGURES}, "native": {k: [] for k in TABLE_FIGURES}}
    with tempfile.TemporaryDirectory(prefix="native-table-") as tmp:
        script = os.path.join(tmp, "table_vm.py")      # not beside the tree: a script's folder is first on the path
        with open(script, "w") as f:
            f.write(whole_table.table_script())
        plain = plain_tree(os.path.join(tmp, "plain"), [])
        for i in range(runs):
            for variant, path in (("bytecode", (plain,)), ("native", (tree,))):
                status, out = mpunix.run([script], timeout=600, path=path)
                if status != 0:
                    raise SystemExit("bench/table_vm.py failed on the Unix port:\n%s" % out[-2000:])
                _, fig, rounds = whole_table.parse(out)
                n = float(fig["calibration_iterations"])
                for k in TABLE_FIGURES:
                    its[variant][k] += [r[k] * n / r["calibration_us"] for r in rounds]
                print("run %d %s: %s" % (i + 1, variant, " ".join(
                    "%s %.0f" % (k, median(its[variant][k][-len(rounds):])) for k in TABLE_FIGURES)))
                sys.stdout.flush()
    for v in ("bytecode", "native"):
        print("%s: in loop iterations, medians of %d rounds: %s" % (v, len(its[v]["baccarat_us"]), " ".join(
            "%s %.0f" % (k, median(its[v][k])) for k in TABLE_FIGURES)))
    print("native/bytecode in loop iterations: %s" % " ".join(
        "%s %.3f" % (k, median(its["native"][k]) / median(its["bytecode"][k])) for k in TABLE_FIGURES))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=8, help="runs of each variant, alternating (default 8)")
    ap.add_argument("--modules", default=",".join(NATIVE_EMIT),
                    help="comma-separated firmware .py paths to compile native (default: NATIVE_EMIT), or all")
    ap.add_argument("--table", action="store_true", help="the whole table's passes (bench/table_vm.py) instead")
    a = ap.parse_args(argv)
    if a.modules == "all":
        from tools.build import firmware_files
        modules = [rel for rel in firmware_files(mpunix.REPO)
                   if rel.endswith(".py") and not rel.endswith("__init__.py") and rel not in NATIVE_ONLY]
    else:
        modules = [m.strip() for m in a.modules.split(",") if m.strip()]
    try:
        print("port: %s" % mpunix.version())
    except mpunix.UnixPortUnavailable as exc:
        print("native_unix: %s" % exc, file=sys.stderr)
        return 2
    if a.table:
        with tempfile.TemporaryDirectory(prefix="native-unix-") as tree:
            bytecode = []
            plain_tree(tree, modules, skipped=bytecode)
            print("native modules (x86-64, -X emit=native): %d; left bytecode (the emitter refused them): %s"
                  % (len(modules) - len(bytecode), ", ".join(bytecode) or "none"))
            table_runs(a.runs, tree)
        return 0
    print("native modules (x86-64, -X emit=native): %s" % ", ".join(modules))
    variants = ("bytecode", "native", "viper")
    results = {v: [] for v in variants}
    ram = {v: [] for v in variants}
    with tempfile.TemporaryDirectory(prefix="native-unix-") as tmp:
        bytecode = plain_tree(os.path.join(tmp, "bytecode"), [])
        native = plain_tree(os.path.join(tmp, "native"), modules)
        for i in range(a.runs):
            for variant, path in (("bytecode", (bytecode,)), ("native", (native,)), ("viper", ())):
                rounds, kept = one_run(path)
                results[variant] += rounds
                ram[variant].append(kept)
                print("run %d %s: medians of %d rounds: %s" % (i + 1, variant, len(rounds), " ".join(
                    "%s %d" % (k, median([r[k] for r in rounds])) for k in KEYS)))
                sys.stdout.flush()
    s = {v: summary(results[v]) for v in results}
    for v in variants:
        print("%s: %d rounds: median calibration_us %d showdown_total_us %d engine_total_us %d"
              " per_showdown_us %.1f per_engine_showdown_us %.1f; in loop iterations: showdown %.0f"
              " engine_showdown %.0f"
              % (v, s[v]["rounds"], s[v]["calibration_us"], s[v]["showdown_total_us"], s[v]["engine_total_us"],
                 s[v]["per_showdown_us"], s[v]["per_engine_showdown_us"], s[v]["showdown_it"],
                 s[v]["engine_showdown_it"]))
    for v in variants:     # the GC heap the imports keep: this port's native code is not in it
        print("%s: RAM kept (bench/omaha_vm.py, each run): %s" % (v, " ".join(
            "%s %s" % (k, "/".join(str(r[k]) for r in ram[v])) for k in sorted(ram[v][0]))))
    print("native/bytecode: calibration %.3f showdown %.3f engine_showdown %.3f"
          % tuple(s["native"][k] / float(s["bytecode"][k]) for k in KEYS))
    for v in ("native", "viper"):
        print("%s/bytecode in loop iterations: showdown %.3f engine_showdown %.3f"
              % ((v,) + tuple(s[v][k] / s["bytecode"][k] for k in ("showdown_it", "engine_showdown_it"))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
