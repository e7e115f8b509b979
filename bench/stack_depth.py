"""How deep the table drives MicroPython's C stack on its deepest paths, against the RP2040's limit.

    .venv/bin/python bench/stack_depth.py                 # the VM and the Unix port
    .venv/bin/python bench/stack_depth.py --where "recovery craps" 7600   # the calls down to that leaf (Unix port)

Runs bench/stack_depth_vm.py (the firmware unchanged on bench/vmtable.py's fake hardware; every leaf a path
ends in wrapped there: micropython.stack_use() at each) on MicroPython's WebAssembly VM and on its Unix port
(x86-64), and prints per path the deepest leaf's figure as on a board: its depth below the main loop's task
(or below run() for the boot's own calls) plus the stack a board has used down to that task (measured on the
same runtime through run() and asyncio.run(); a stand-in of asyncio's two frames on the VM, which has no
asyncio.run). Set against the RP2040's limit: ports/rp2 builds with PICO_STACK_SIZE 0x2000 and main.c sets
mp_stack_set_limit(8192 - 256): 7,936 bytes, past which MicroPython raises "maximum recursion depth exceeded".
MEASURED: stack_use() on the VM (wasm, 4-byte slots) and the Unix port (x86-64: 8-byte registers and slots,
16-byte aligned frames, larger than Thumb's: the conservative figure). NOT MEASURED: an RP2040's own figure
(no board, no ARM toolchain), and the C stack a leaf itself uses on a board (littlefs's write, the UART driver).
"""
import argparse
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if REPO not in sys.path:
    sys.path.insert(0, REPO)

from bench import benchutil  # noqa: E402

RP2040_LIMIT = 8192 - 256      # ports/rp2: PICO_STACK_SIZE 0x2000, main.c mp_stack_set_limit(... - 256)
SCRIPT = os.path.join(REPO, "bench", "stack_depth_vm.py")


def parse(out):
    """({key: int or str}, {path: {"raw", "depth", "board", "leaf", "hits"}}) of the script's output."""
    head, paths = {}, {}
    for line in out.splitlines():
        if line.startswith("path "):
            name, rest = line[len("path "):].rsplit(": raw ", 1)
            words = ("raw " + rest).split()
            fig = dict((words[i], words[i + 1]) for i in range(0, len(words), 2))
            paths[name] = dict((k, v if k == "leaf" else int(v)) for k, v in fig.items())
        elif ": " in line:
            key, value = line.split(": ", 1)
            head[key] = int(value) if value.isdigit() else value
    return head, paths


def script_text(stop=None):
    text = open(SCRIPT).read()
    if stop is not None:
        text = text.replace("\nSTOP = None ", "\nSTOP = %r " % (stop,))
    return text


def run(port, stop=None, timeout=600):
    """(status, output) of the script on port "vm" or "unix"."""
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "stack_depth_vm.py")
        with open(path, "w") as f:
            f.write(script_text(stop))
        if port == "unix":
            from tools import mpunix
            return mpunix.run_script(path, timeout=timeout)
        from tools import mpvm
        return mpvm.run(["--script", path], copies=mpvm.DEFAULT_COPIES + ("bench",), timeout=timeout)


def measure(port):
    status, out = run(port)
    if status != 0:
        raise SystemExit("bench/stack_depth_vm.py failed on the %s:\n%s" % (port, out))
    return parse(out)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--where", nargs=2, metavar=("PATH", "BYTES"),
                    help="Unix port: stop at the first leaf of PATH (its name's start) as deep as BYTES on a board,"
                         " and print the calls down to it")
    ap.add_argument("--all", action="store_true", help="also the files rewritten within each path")
    a = ap.parse_args(argv)
    if a.where:
        status, out = run("unix", (a.where[0], int(a.where[1])))
        sys.stdout.write(out)
        return 0
    print(benchutil.machine())
    runs = {"vm": measure("vm"), "unix": measure("unix")}
    for port, (head, _) in sorted(runs.items()):
        print("== %s (%s): top level %d bytes; as on a board: run() %d, the loop's task %d (asyncio.run: %s)"
              % (port, head["runtime"], head["baseline"], head["board_run"], head["board_task"], head["asyncio"]))
    print("== per path, the deepest leaf as on a board (stack_use(), bytes), the RP2040 limit %d, the margin:"
          % RP2040_LIMIT)
    print("   %-80s %6s %6s %6s  %s" % ("path", "VM", "Unix", "margin", "deepest leaf (Unix); below the task"))
    vm, unix = runs["vm"][1], runs["unix"][1]
    worst = 0
    for name in sorted(unix):
        if "/rewrite " in name and not a.all:
            continue
        u = unix[name]
        worst = max(worst, u["board"])
        print("   %-80s %6s %6d %6d  %s; %d" % (name[:80], vm.get(name, {}).get("board", "-"), u["board"],
                                             RP2040_LIMIT - u["board"], u["leaf"], u["depth"]))
    print("== deepest on the Unix port %d of %d bytes (margin %d); x86-64 frames are larger than Thumb's: an"
          " RP2040's figure is ESTIMATED below it, between the VM's and the Unix port's, not measured"
          % (worst, RP2040_LIMIT, RP2040_LIMIT - worst))
    return 0


if __name__ == "__main__":
    sys.exit(main())
