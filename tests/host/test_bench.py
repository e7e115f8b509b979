"""The benches' own machinery: medians and spreads, and the RAM parts of the VM benches (memory kept)."""
import os
import subprocess
import sys

import pytest

from bench import benchutil
from tools import mpvm

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_median_and_middle_half():
    assert benchutil.median([3, 1, 2]) == 2
    assert benchutil.median([4, 1, 3, 2]) == 2.5
    assert benchutil.quartiles([7, 1, 6, 2, 5, 3, 4]) == (2, 6)
    assert benchutil.quartiles([5]) == (5, 5)
    assert benchutil.spread([1.0, 2.0, 3.0]) == "median 2.00, middle half 1.00-3.00, 3 runs"


def _body(path, first, last):
    """The code lines of path from the first line holding first to the next holding last, comments left out."""
    text = open(os.path.join(REPO, path)).read()
    start = text.index(first)
    return [line.strip() for line in text[start:text.index(last, start)].splitlines()
            if line.strip() and not line.strip().startswith("#")]


def test_calibration_loop_is_the_same_on_both_runtimes():
    # The figures are ratios to this loop on CPython and in the VM: one loop, bench/vmclock.py's, that
    # benchutil (the CPython benches) and the VM benches import; bench/shoe_refill.py, a script the VM runs
    # alone (tools.mpvm --script copies no bench/), writes out the same one.
    from bench import vmclock
    assert benchutil.calibrate is vmclock.calibrate
    assert _body("bench/vmclock.py", "def calibrate(n):", "return x") \
        == _body("bench/shoe_refill.py", "def calibrate(n):", "return x")
    defining = [name for name in sorted(os.listdir(os.path.join(REPO, "bench"))) if name.endswith(".py")
                and "def calibrate(" in open(os.path.join(REPO, "bench", name)).read()]
    assert defining == ["shoe_refill.py", "vmclock.py"], defining


def test_both_omaha_benches_time_the_same_side_pots():
    # bench/omaha_vm.py (the engine alone, a script a Pico runs by itself: it imports no table bench)
    # writes out bench/table_vm.py's stacks: both time "a 10-seat showdown with side pots" of 3 pots.
    import ast
    line = [ln for ln in open(os.path.join(REPO, "bench/omaha_vm.py")) if ln.startswith("STACKS = ")][0]
    from bench.table_vm import OMAHA_STACKS
    assert dict(ast.literal_eval(line.split("=", 1)[1].strip())) == OMAHA_STACKS


def test_the_vm_benches_read_the_vms_cpu_clock_of_bench_vmclock():
    # table_vm, omaha_vm, craps_vm and lights_vm take their clock from bench/vmclock.py (none writes one out): the
    # VM process's CPU time to the microsecond; ticks_us() (whole ms in this port) only where there is
    # no js module (a board). omaha_vm and craps_vm import it after their RAM part.
    clock = _body("bench/vmclock.py", "def now_us():", "CLOCK = ")
    assert "usage = _process.cpuUsage()" in clock, clock
    code = [line.strip() for line in open(os.path.join(REPO, "bench/vmclock.py")) if not line.strip().startswith("#")]
    assert [line for line in code if "ticks_" in line] == [
        'if hasattr(time, "ticks_us"):', "return time.ticks_us()", "diff_us = time.ticks_diff",
        'CLOCK = "time.ticks_us()"']
    for bench in ("bench/table_vm.py", "bench/omaha_vm.py", "bench/craps_vm.py", "bench/lights_vm.py",
                  "bench/port_kernels.py"):
        code = [line for line in open(os.path.join(REPO, bench)) if not line.strip().startswith("#")]
        assert any(line.startswith("from bench.vmclock import ") for line in code), bench
        assert not [line for line in code if "def now_us" in line or "cpuUsage" in line], bench
    for bench in ("bench/omaha_vm.py", "bench/craps_vm.py"):
        text = open(os.path.join(REPO, bench)).read()
        assert text.index("\nreport_ram()\n") < text.index("from bench.vmclock import "), bench


def _ram_figures(tmp_path, bench):
    # The bench's parts up to its RAM report only (the timing rounds take too long for the suite).
    text = open(os.path.join(REPO, "bench", bench)).read()
    path = tmp_path / bench
    path.write_text(text[:text.index("\nreport_ram()\n") + len("\nreport_ram()\n")])
    try:
        status, out = mpvm.run_steps(str(path), timeout=300)
    except mpvm.VMUnavailable as exc:
        pytest.skip(str(exc))
    assert status == 0, out
    assert "ram_unsteady" not in out, out
    fig = {}
    for line in out.splitlines():
        key, _, value = line.partition(": ")
        if value.lstrip("-").isdigit():
            fig[key] = int(value)
    return fig, out


def test_omaha_vm_measures_memory_kept_not_compile_garbage(tmp_path):
    fig, out = _ram_figures(tmp_path, "omaha_vm.py")
    # Kept (a later VM run call) is well below what the import's own call still counts.
    assert 0 < fig["ram_poker_eval_bytes"] < fig["ram_poker_eval_same_call_bytes"] - 500, out
    assert fig["ram_poker_eval_bytes"] <= 16384, out        # the evaluator's budget (docs/omaha.md)
    assert fig["ram_omaha_hand_bytes"] > 0 and fig["ram_omaha_engine_bytes"] > 0, out


def test_craps_vm_measures_memory_kept_per_bet(tmp_path):
    fig, out = _ram_figures(tmp_path, "craps_vm.py")
    assert fig["open_bets"] == 128, out
    assert 16 <= fig["ram_per_open_bet_bytes"] <= 512, out
    assert fig["ram_craps_engine_bytes"] > 0 and fig["ram_craps_table_bytes"] > 0, out


def test_scoreboard_vm_measures_roads_kept_and_redraw_allocation():
    # docs/scoreboard.md and docs/baccarat.md quote these figures; the roads' buffers are made once.
    try:
        status, out = mpvm.run_steps(os.path.join(REPO, "bench", "scoreboard_vm.py"), timeout=300)
    except mpvm.VMUnavailable as exc:
        pytest.skip(str(exc))
    assert status == 0, out
    assert "ram_unsteady" not in out, out
    fig = {}
    for line in out.splitlines():
        key, _, value = line.partition(": ")
        if value.lstrip("-").isdigit():
            fig[key] = int(value)
    assert fig["rounds"] == 150, out
    assert 7 * 156 <= fig["ram_roads_empty_bytes"] == fig["ram_roads_full_bytes"], out   # 7 bytearrays
    early, late = fig["redraw_alloc_bytes_at_60_rounds"], fig["redraw_alloc_bytes_at_150_rounds"]
    assert 0 < early and 0 < late < 4000, out
    # The redraw figures are a WHOLE picture's (draw_all), as the docs say: the roads are read in
    # place (no tuple per visible bead or big-road entry), so what a redraw allocates (its header
    # string) does not follow what is on the screen. draw() after a result: the views of a scroll.
    for n in (60, 150):
        visible = fig["visible_beads_at_%d_rounds" % n] + fig["visible_big_road_entries_at_%d_rounds" % n]
        assert visible > 60, out
        assert 0 < fig["redraw_alloc_bytes_at_%d_rounds" % n] < 16 * 8, out
        assert 0 < fig["draw_alloc_bytes_at_%d_rounds" % n] <= 1024, out
    assert abs(fig["redraw_alloc_bytes_at_150_rounds"] - fig["redraw_alloc_bytes_at_60_rounds"]) <= 32, out


def test_crapssim_comparison_settles_the_same_money_roll_by_roll():
    # bench/craps_crapssim.py compares speeds only after both engines settled the same bets over
    # the same rolls to the same money, roll by roll, in both CrapsSim set-ups.
    from bench import craps_crapssim as cc
    lean, own = cc.crapssim_side()
    rolls = cc.dice_sequence(400, 7)
    total = cc.check_same_money(rolls, lean)
    assert total == cc.check_same_money(rolls, own) != 0
    ours = cc.Ours()
    ours.run(rolls)
    assert ours.money == total and ours.table.rolls == 400


def test_crapssim_comparison_stops_when_the_money_differs():
    from bench import craps_crapssim as cc
    lean, _own = cc.crapssim_side()

    class Cheat(cc.Ours):
        def roll(self, dice):
            super().roll(dice)
            self.money += 1 if dice == (6, 6) else 0     # an engine that pays a boxcars too much
    rolls = [(3, 4), (6, 6), (2, 2)]
    saved = cc.Ours
    cc.Ours = Cheat
    try:
        with pytest.raises(SystemExit, match="disagree after roll 2"):
            cc.check_same_money(rolls, lean)
    finally:
        cc.Ours = saved


def test_headless_bench_times_one_run_of_a_game():
    from bench import headless
    res = headless.run_one("baccarat", 2, 1)
    assert res["status"] == 0 and res["summary"]["rounds"] == 2 and res["cpu_s"] > 0


def test_treys_bench_checks_agreement_before_timing(capsys):
    from bench import eval_treys
    assert eval_treys.five_card(5000, 1, 3)["ours"] > 0
    assert eval_treys.omaha(1000, 1, 3)["value"] > 0
    assert "speed ratio best_value / treys PLO" in capsys.readouterr().out


def test_whole_table_bench_runs_the_real_path_in_the_vm():
    # One round of two events each: every figure of bench/table_vm.py is there, the craps reading
    # placed its 50 bets and the Omaha showdown had side pots (the bench checks its own reports).
    # The second reading timed its placing alone: a part of what a CLOSE's whole pass does, but on another
    # reading, so the two are not compared here (one reading each, a loaded machine: no wall-clock asserts).
    from bench import whole_table
    try:
        out = whole_table.run_table(rounds=1, events=2)
    except mpvm.VMUnavailable as exc:
        pytest.skip(str(exc))
    runtime, fig, rounds = whole_table.parse(out)
    assert len(rounds) == 1, out
    for key, _what, _target in whole_table.FIGURES:
        assert rounds[0][key] > 0, (key, out)
    assert rounds[0]["open_bets"] == 50 and rounds[0]["pots"] == 3, out
    assert fig["pixels"] == "76" and int(fig["calibration_iterations"]) > 0, out


def test_whole_table_bench_runs_the_same_path_on_the_unix_port():
    # --port unix: the same bench/table_vm.py as one script on MicroPython's Unix port (tools/mpunix.py), a
    # second MicroPython's calibration iterations (docs/performance-log.md, "The seventeenth round").
    from bench import whole_table
    from tools import mpunix
    try:
        out = whole_table.run_table(rounds=1, events=2, port="unix")
    except mpunix.UnixPortUnavailable as exc:
        pytest.skip(str(exc))
    runtime, fig, rounds = whole_table.parse(out)
    assert runtime == "micropython linux" and len(rounds) == 1, out
    for key, _what, target in whole_table.FIGURES:
        if target is not None:                      # (the lights take a microsecond or two: its clock's step)
            assert rounds[0][key] > 0, (key, out)
    assert rounds[0]["open_bets"] == 50 and rounds[0]["pots"] == 3, out
    assert fig["clock"] == "time.ticks_us()", out


def test_port_kernels_bench_times_each_kernel_on_both_ports():
    from tools import mpunix
    try:
        mpunix.executable()
    except mpunix.UnixPortUnavailable as exc:
        pytest.skip(str(exc))
    proc = subprocess.run([sys.executable, os.path.join(REPO, "bench", "port_kernels.py")], capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    rows = [line.split() for line in proc.stdout.splitlines() if line.startswith("  ") and line.endswith("x")]
    assert sorted(r[0] for r in rows) == ["dict_reads_writes", "formatted_strings", "method_calls", "small_lists"]
    for name, vm, unix, ratio in rows:
        assert float(vm) > 0 and float(unix) > 0, proc.stdout


def test_memory_bench_measures_kept_heap_and_its_slope(tmp_path):
    from bench import whole_table
    path = tmp_path / "memory_vm.py"
    path.write_text(whole_table.memory_script("craps", steps=2, step_rounds=2, per_call=2))
    try:
        out = whole_table.run_vm(str(path), steps=True, timeout=600)
    except mpvm.VMUnavailable as exc:
        pytest.skip(str(exc))
    fig = {}
    for line in out.splitlines():
        key, _, value = line.partition(": ")
        fig[key] = value
    assert "ram_unsteady" not in out, out
    assert fig["game"] == "craps" and int(fig["rounds_played"]) == 3 + 1 + 2 * 2, out   # warm-up, the counted round, 2 steps
    assert 0 < int(fig["ram_second_table_bytes"]) < int(fig["ram_table_after_boot_bytes"]), out
    assert 0 < int(fig["pass_alloc_max_bytes"]) <= int(fig["round_alloc_bytes"]), out
    assert len(fig["kept_after_rounds_bytes"].split()) == 3, out


def test_the_flash_memory_bench_defines_nothing_in_its_measured_calls():
    # Between its first measurement and its report, bench/memory_flash_vm.py only makes what it
    # measures: a function defined in a measured call was counted with it (stand_ins() and _heap()
    # were: their objects, bytecode and names, 560 bytes of the 3,712 called stand-ins, and a figure
    # that moved when unrelated code did).
    text = open(os.path.join(REPO, "bench", "memory_flash_vm.py")).read()
    measured = text[text.index("\nmeasure("):text.index("\nfor _slot in range(")]
    defined = [line for line in measured.splitlines() if line.startswith(("def ", "class ", "import ", "from "))]
    assert defined == [], defined

def test_memory_bench_splits_code_from_data_and_data_is_one_tables_objects(tmp_path):
    # Code: every module the booted table imports, imported before the boot; data: boot minus that.
    # A second table of the game (its objects, no code) must then cost about the data.
    from bench import code_census, whole_table
    from firmware import startup
    try:
        modules, released = whole_table.listed_modules("craps")
    except mpvm.VMUnavailable as exc:
        pytest.skip(str(exc))
    assert "firmware.main" in modules and "firmware.games.craps" in modules and len(modules) > 50, modules
    # The boot-only modules are gone after boot (firmware/startup.py releases them), and so are a settings
    # change's (firmware/parts.py: the first pass imports settings_change, finds no change pending and releases
    # it): not counted as kept. (Of the games' own boot-only modules, Craps' only: another game's restore side
    # is never this table's.)
    # The console is dormant once its first prompt is out (firmware/parts.py, CONSOLE_AWAKE): its shell, editor,
    # login and audit log are released too.
    from firmware.parts import CHANGE_ON_DEMAND, CONSOLE_AWAKE
    boot_only = [m for m in startup.BOOT_ONLY if not m.startswith("firmware.games.") or ".craps." in m]
    assert "firmware.games.craps.restore" in boot_only and "firmware.recovery_replay" in boot_only, boot_only
    assert sorted(released) == sorted(boot_only + list(CHANGE_ON_DEMAND) + list(CONSOLE_AWAKE)), released
    assert not set(released) & set(modules), (released, modules)
    # The console's command modules come with a command and go with its line (firmware/parts.py): not kept either.
    from firmware.parts import CONSOLE_ON_DEMAND
    assert not set(CONSOLE_ON_DEMAND) & set(modules) and "firmware.parts" in modules, modules
    # Nor the code tables a board never imports (tests/host/test_const_copies.py): the bench imports none either.
    assert not {"firmware.events", "firmware.faults", "firmware.games.craps.codes"} & set(modules), modules
    path = tmp_path / "memory_vm.py"
    defaulted = code_census.defaulted_functions(modules)
    assert 0 < defaulted < 200, defaulted
    built = code_census.built_at_import(modules)
    defined = code_census.defined_names(modules)
    assert 300 < defined < 1500, defined      # 467 at Craps once the code tables and boot code left (issue 14)
    path.write_text(whole_table.memory_script("craps", steps=1, step_rounds=2, per_call=2, modules=modules,
                                              defaulted=defaulted, built=built, defined=defined, released=released))
    out = whole_table.run_vm(str(path), steps=True, timeout=600)
    fig = dict(line.partition(": ")[::2] for line in out.splitlines())
    assert "ram_unsteady" not in out, out
    code, data = int(fig["ram_code_bytes"]), int(fig["ram_data_after_boot_bytes"])
    assert fig["modules_imported"] == str(len(modules)), out
    assert fig["modules_released_after_boot"] == str(len(released)), out
    assert code + data == int(fig["ram_table_after_boot_bytes"]), out
    assert code > 2 * data > 0, out
    assert abs(data - int(fig["ram_second_table_bytes"])) < 4096, out
    assert int(fig["frozen_residual_estimate_bytes"]) > 0, out
    # The residual's sizes measured in the VM: a bytecode function is one 16-byte block (two with
    # default arguments), every module's and class's dict cloned, the total of the same order as the
    # estimate it replaced.
    sizes = fig["frozen_residual_sizes_bytes"]
    assert "a function 16.0, with default arguments 32.0" in sizes, out
    assert ("(%s cloned)" % fig["frozen_residual_counts"].split(" dicts")[0].split(", ")[-1]) in sizes, out
    built_values, built_bytes = fig["frozen_residual_built_at_import"].split(" values, ")
    assert int(built_values) == len(built) and 0 < int(built_bytes.split()[0]) < 16384, out
    measured = int(fig["frozen_residual_measured_bytes"])
    assert 0.5 < measured / int(fig["frozen_residual_estimate_bytes"]) < 1.5, out
    # Its floor, the code made one module: the same functions, classes and built values, one globals
    # dict of the names the code defines (at least 8 bytes a name), no module objects or imported names.
    floor = fig["frozen_residual_one_module_floor_bytes"]
    assert ("one globals dict of %d names" % defined) in floor, out
    assert int(floor.split(" names ")[1].split(",")[0]) >= 8 * defined, out
    assert measured / 2 < int(floor.split()[0]) < measured, out
    # The bench's stand-ins for what an RP2040 keeps static (pins, UART, I2C, WDT, state machines):
    # measured, a few KB of the data, not the UARTs' rings (the port's heap) nor the table's objects.
    assert 1000 < int(fig["ram_bench_stand_ins_bytes"]) < data // 4, out
    assert int(fig["ram_data_less_stand_ins_bytes"]) == data - int(fig["ram_bench_stand_ins_bytes"]), out
    assert fig["biggest_buffers_after_rounds"].startswith("ctx."), out


def test_the_benchs_copies_of_event_kinds_are_the_events():
    # The bench posts and reads events by kind without importing firmware/events.py (bench/memory_vm.py counts
    # every firmware module imported after a boot as the table's, and a board never imports that code table).
    from bench import table_vm, vmtable
    from firmware import events
    assert (vmtable.KEY, table_vm.BETS) == (events.KEY, events.BETS)


def test_bench_uarts_hold_the_rings_the_rp2_port_allocates():
    # ports/rp2/machine_uart.c: rxbuf + 1 and txbuf + 1 bytes on the GC heap, 256 when not given, at
    # least 32; the booted table's host port gets txbuf=HOST_TXBUF (firmware/hardware.py), its reader
    # port nothing, and the USB console keeps no buffer on the heap (a board's are static).
    from bench import vmtable
    from firmware.hardware import HOST_TXBUF
    machine = vmtable.bench_machine()
    assert (len(machine.UART(0).rx), len(machine.UART(0).tx)) == (257, 257)
    assert machine.UART(1, txbuf=HOST_TXBUF).buffer_bytes() == 257 + HOST_TXBUF + 1
    assert machine.UART(1, rxbuf=8).rx_size == 32
    with pytest.raises(ValueError):
        machine.UART(1, txbuf=40000)
    table = vmtable.Table("omaha")
    assert table.host.tx_size == HOST_TXBUF and table.reader.buffer_bytes() == 2 * 257
    assert table.usb.buffer_bytes() == 0
    assert table.machine.uarts.keys() == {0, 1}


def test_bench_uart_bytes_beyond_its_ring_go_on_to_the_wire_in_order():
    from bench import vmtable
    machine = vmtable.bench_machine()
    uart, other = machine.UART(1, txbuf=64), machine.UART(0, txbuf=64)
    chunks = [bytes([65 + i]) * 40 for i in range(5)]        # 200 bytes through a 64-byte ring
    for chunk in chunks:
        assert uart.write(chunk) == 40
    with pytest.raises(RuntimeError, match="another UART"):
        other.write(b"x" * 100)                                 # the wire holds the first UART's bytes
    assert uart.take() == b"".join(chunks) and uart.take() == b""
    with pytest.raises(RuntimeError, match="a write of 65 bytes"):
        uart.write(b"y" * 65)
    with pytest.raises(RuntimeError, match="receive buffer full"):
        machine.UART(0).feed(b"z" * 257)


def test_defaulted_functions_counts_each_function_once(monkeypatch):
    # Functions with default arguments, at the top level and in the modules' classes (a staticmethod
    # unwrapped), each once even when another module imports it; a class of another module not walked.
    import types
    from bench import code_census
    one, two = types.ModuleType("probe_one"), types.ModuleType("probe_two")
    exec("def f(a, b=1): pass\ndef g(a): pass\ndef h(*, k=2): pass\n"
         "class C:\n    def m(self, x=None): pass\n    def n(self): pass\n"
         "    @staticmethod\n    def s(y=3): pass\n", one.__dict__)
    one.__dict__["__name__"] = "probe_one"
    one.C.__module__ = "probe_one"
    exec("class D:\n    def m(self, x=1): pass\n", two.__dict__)
    two.D.__module__ = "probe_elsewhere"
    two.f, two.C = one.f, one.C
    monkeypatch.setitem(__import__("sys").modules, "probe_one", one)
    monkeypatch.setitem(__import__("sys").modules, "probe_two", two)
    assert code_census.defaulted_functions(["probe_one", "probe_two"]) == 4     # f, h, C.m, C.s


def test_built_at_import_lists_what_a_module_makes_not_its_literals():
    # A dict display, a call, a comprehension: made in the heap at import even with the code in flash;
    # a literal (a string, a number, a tuple of those), a const(), an alias or an import: not.
    from bench import code_census
    built = code_census.built_at_import(["firmware.console.commands", "firmware.program", "firmware.board_checks"])
    assert ("firmware.console.commands", "TABLE") in [b[:2] for b in built]
    assert ("firmware.board_checks", "MCUS", False) in built               # its pin tuples: literals
    assert code_census.built_at_import(["firmware.drivers.keypad"]) == []    # literal tuples only
    assert code_census._nested_built(__import__("ast").parse("X = {'a': tuple(range(3))}").body[0].value)
    assert not code_census._nested_built(__import__("ast").parse("X = {'a': (1, 2)}").body[0].value)
    for literal in ("MANIFEST", "_CHUNK", "MISSING", "ROM"):
        assert not [b for b in built if b[:2] == ("firmware.program", literal)]
    assert code_census._literal(__import__("ast").parse("X = (1, -2, 'a', (b'c', None))").body[0].value)
    assert not code_census._literal(__import__("ast").parse("X = (1, Y)").body[0].value)
    # A tuple of the module's const() names folds as a tuple of numbers does (MicroPython's parser puts
    # their values in): craps' ONE_ROLL_OUTCOMES ((_WIN, 7, 1)...) is a literal; a name bound by const()
    # only after it is not.
    assert code_census._literal(__import__("ast").parse("X = (1, (_Y, None))").body[0].value, {"_Y"})
    assert not [b for b in code_census.built_at_import(["firmware.games.craps.bets"])
                if b[1] == "ONE_ROLL_OUTCOMES"]


def test_defined_names_counts_what_a_module_binds_itself(tmp_path, monkeypatch):
    # The one-module floor's globals: def, class, assignments (public const() too), loop targets and
    # names bound under if/try, less what is deleted; not imports, not a private _NAME = const().
    from bench import code_census
    (tmp_path / "probe_defined.py").write_text(
        "from micropython import const\nimport sys\nfrom os import path as p\n"
        "_HIDDEN = const(1)\nSHOWN = const(2)\nA = B = 3\nC, (D, E) = 4, (5, 6)\nF: int = 7\n"
        "def f():\n    inner = 1\nclass K:\n    attr = 2\n"
        "for _i in range(2):\n    G = _i\nH = 8\ndel H\n"
        "if A:\n    I = 9\nelse:\n    J = 10\ntry:\n    L = 11\nexcept ImportError:\n    M = 12\n")
    monkeypatch.setattr(code_census, "REPO", str(tmp_path))
    # SHOWN A B C D E F f K _i G I J L M
    assert code_census.defined_names(["probe_defined"]) == 15


def test_the_memory_figures_show_the_qstr_pools_growth_apart(capsys):
    # A new interned-string pool (~18 KB in one block, never freed) lands in whichever phase needs it
    # first: the data figures are given with and without the pools' growth since the imports.
    from bench import whole_table
    qstr = {6: (300000, 8, 60000), 3: (340000, 8, 60400)}          # heap kept, pools, pool bytes
    steps = [(342000, 8, 60400), (361000, 9, 78400)]                # the second step made a pool
    whole_table._qstr_lines({}, qstr, steps)
    out = capsys.readouterr().out
    assert "ram_data_after_boot_less_qstr_bytes: 39600 (the boot's interned strings: 400)" in out
    assert "42000 / 41600, 61000 / 42600" in out


def test_romfs_ram_reads_a_mpy_as_the_loader_does(tmp_path):
    # bench/romfs_ram.py: a module of two functions and a class (with one method) is 5 raw code records;
    # a long text constant and a tuple of two such are objects ROMFS still makes in RAM, a short name is not.
    from bench import romfs_ram
    from tools.mpy_cross_tool import compile_file, find_mpy_cross
    (tmp_path / "m.py").write_text(
        "def f():\n    return 'a text with spaces, long enough'\n"
        "def g():\n    return ('another text with spaces', 'and one more of them', 7)\n"
        "class C:\n    def h(self):\n        return 'name'\n")
    assert compile_file(find_mpy_cross(), str(tmp_path), "m.py", str(tmp_path / "m.mpy"), None) is None
    mpy = romfs_ram.Mpy((tmp_path / "m.mpy").read_bytes())
    assert mpy.functions == 5 and mpy.ram["raw codes"] == 5 * romfs_ram.RAW_CODE
    assert mpy.ram["children arrays"] == 16 + 16          # the module's 3 children, the class's 1
    # two str objects of 16 bytes, the tuple's (8 + 3 x 4 -> 32) and its two str items (16 each)
    assert mpy.ram["constant objects"] == 16 + 32 + 16 + 16, mpy.ram
    assert mpy.at == len((tmp_path / "m.mpy").read_bytes())   # every byte read as the loader reads it


def test_wire_time_counts_what_the_answers_put_on_the_wires():
    # bench/wire_time.py: the bytes each display, the strip and the host port get from the timed passes, and
    # their time on the board's wires. The Baccarat result's pass sends the LCDs; the display pass after it the
    # scoreboard's changed parts, nothing else: early in a shoe the header, a bead and a big-road cell, each a
    # window (a command of 7 bytes, then the control byte and the part's bytes), where the whole picture is
    # 1,032 bytes.
    import io

    from bench import table_vm, wire_time
    plain = table_vm.timed_pass, table_vm.scoreboard_pass, table_vm.finish
    wire_time.FIGURES.clear()
    pixels = wire_time.measure(rounds=1, baccarat_rounds=2)
    assert (table_vm.timed_pass, table_vm.scoreboard_pass, table_vm.finish) == plain   # put back for other tests
    figures = wire_time.FIGURES
    assert sorted(figures) == ["baccarat last card", "baccarat scoreboard pass", "craps CLOSE", "craps throw",
                               "omaha last check"]
    displays, strip, host = figures["baccarat last card"][0]
    assert sorted(displays) == ["dealer", "result"] and strip == 1
    assert host > 400                    # the card, the result (PART frames and a REPORT) and the state
    displays, strip, host = figures["baccarat scoreboard pass"][0]
    assert sorted(displays) == ["scoreboard"] and (strip, host) == (0, 0)
    transactions, nbytes, clocks = displays["scoreboard"]
    assert transactions == 6 and 3 * (7 + 1) < nbytes < 200, displays     # three windows
    assert clocks == 9 * nbytes + (9 + 2) * transactions       # a byte 9 clocks; the address byte, start, stop
    assert "scoreboard" not in figures["omaha last check"][0][0]
    out = io.StringIO()
    wire_time.report(pixels, 400000, 115200, out)
    lines = out.getvalue().splitlines()
    assert lines[1].startswith("baccarat last card: i2c_ms: ") and "scoreboard" not in lines[1]
    assert lines[2].startswith("baccarat scoreboard pass: i2c_ms: 3.1 (scoreboard: 132 bytes 3.1 ms, mean 127"
                               " bytes 3.0 ms)"), lines[2]        # (1254 clocks at 400 kHz: 3.1 ms)
    assert wire_time.i2c_ms(400000, 400000) == 1000.0
