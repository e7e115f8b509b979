"""The table's deepest paths stay within the RP2040's C stack limit (bench/stack_depth.py, docs/performance.md).

bench/stack_depth_vm.py on MicroPython's Unix port: x86-64 frames are larger than an RP2040's Thumb frames, so a
path within the limit there is taken as within it on a board (an assumption: no board measured it)."""
import os

import pytest

from bench import stack_depth
from tools import mpunix

# Below the deepest Python call a leaf itself takes C stack on a board (littlefs's write and read, the flash
# driver, the UART's), which stack_use() there does not count: kept free of the paths (an ASSUMED figure: not
# measured, no board here).
LEAF_RESERVE = 512
PATHS = ("boot baccarat", "boot craps", "boot omaha", "baccarat round", "craps round", "omaha showdown",
         "recovery craps", "recovery baccarat", "host requests", "console session", "settings change applied",
         "baccarat rounds until the link store compacts")


@pytest.mark.micropython
def test_every_deepest_path_on_the_unix_port_is_within_the_rp2040_limit_less_the_leaves_own():
    tables = os.path.join(stack_depth.REPO, "boards", "tables")
    before = dict((name, open(os.path.join(tables, name), "rb").read()) for name in os.listdir(tables))
    try:
        status, out = stack_depth.run("unix", timeout=120)
    except mpunix.UnixPortUnavailable as exc:
        pytest.skip(str(exc))
    assert status == 0, out
    # the console's settings change rewrites its table's file: a copy in the run's state dir, not the repository's
    assert dict((name, open(os.path.join(tables, name), "rb").read()) for name in os.listdir(tables)) == before
    head, paths = stack_depth.parse(out)
    assert head["asyncio"] == "real" and head["outside_hits"] == 0, head
    for start in PATHS:                          # each path ran and reached its leaves
        assert [p for p in paths if p.startswith(start) and paths[p]["hits"] > 0], (start, sorted(paths))
    over = dict((name, p["board"]) for name, p in paths.items() if p["board"] > stack_depth.RP2040_LIMIT - LEAF_RESERVE)
    assert over == {}, over
