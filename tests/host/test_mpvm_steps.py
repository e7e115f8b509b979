"""tools.mpvm --steps: one script in parts, each its own VM run call (the benches' RAM method)."""
import pytest

from tools import mpvm

MARK = "# --- next run call ---"


def _steps(tmp_path, *parts):
    path = tmp_path / "steps.py"
    path.write_text(("\n" + MARK + "\n").join(parts) + "\n")
    try:
        return mpvm.run_steps(str(path), timeout=120)
    except mpvm.VMUnavailable as exc:
        pytest.skip(str(exc))


def _figures(out):
    fig = {}
    for line in out.splitlines():
        if ": " in line:
            key, value = line.split(": ", 1)
            if value.lstrip("-").isdigit():
                fig[key] = int(value)
    return fig


def test_parts_share_globals_and_tracebacks_name_the_files_lines(tmp_path):
    status, out = _steps(tmp_path, "x = 41", "print('x: %d' % (x + 1))", "\n\nraise ValueError('third part')")
    assert status == 1, out
    assert _figures(out)["x"] == 42
    # part 3's raise is on line 7 of the file: 1 (x = 41), 2 marker, 3 print, 4 marker, 5-6 blank, 7 raise
    assert 'line 7' in out and "third part" in out, out


def test_a_collect_in_a_later_call_frees_what_an_earlier_call_left(tmp_path):
    # The premise of the benches' RAM figures: garbage made in one run call is
    # freed by a gc.collect() in a later call, not by one in the same call. If the
    # parts ran as one call, "later" would equal "same" and this would fail.
    setup = ("import gc\n"
             "MEM = [0] * 8\n"
             "N = [0]\n"
             "def measure():\n"
             "    gc.collect()\n"
             "    MEM[N[0]] = gc.mem_alloc()\n"
             "    N[0] += 1\n"
             "def build():\n"
             "    junk = [bytearray(64) for _ in range(200)]\n"
             "    return bytearray(1000)")
    build = ("measure()\n"
             "kept = build()\n"
             "measure()\n"
             "print('same: %d' % (MEM[3] - MEM[2]))")
    # Each measurement in a call of its own, twice: the first call after the setup still sees some of its garbage.
    status, out = _steps(tmp_path, setup, "measure()", "measure()", build, "measure()", "measure()",
                         "print('later: %d' % (MEM[5] - MEM[1]))")
    assert status == 0, out
    fig = _figures(out)
    assert 1000 <= fig["later"] < 1000 + 200, out      # the kept bytearray and a global's slot
    assert fig["same"] > fig["later"] + 200 * 64, out  # the junk, not freed in its own call
