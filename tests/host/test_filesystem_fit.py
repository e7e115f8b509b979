"""What makes tools.deploy refuse a pico's filesystem build (tools/build_board.py HEAP_BYTES), measured again:
a table playing, its .mpy imported from the filesystem into the heap, needs more than an RP2040's heap.

The Omaha table, the one that keeps the least, on the MicroPython VM: what its modules' .mpy (the pico build)
keep imported from the VM's filesystem (bench/romfs_ram.py's cross-check, measured), and the data the booted
table keeps beyond its modules with its largest pass's allocations on top (bench/whole_table.py's memory
run, one round: its peak_bound_data_only_bytes). When the firmware comes to fit, this fails: allow the
filesystem build again (HEAP_BYTES, docs/build-deploy.md "Which build for which board").

And what tools.deploy has a board's own heap hold for a frozen or ROMFS build (TABLE_HEAP_BYTES): each game's
peak bound as bench/whole_table.py prints it must fit under it."""
import contextlib
import io
import re

import pytest

from bench import romfs_ram, whole_table
from tools.build_board import FILESYSTEM_DATA_BYTES, HEAP_BYTES, TABLE_HEAP_BYTES


@pytest.fixture(scope="module")
def pico_build(tmp_path_factory):
    """tools.build of the pico: ({module: .mpy bytes}, its folder)."""
    out = tmp_path_factory.mktemp("build")
    return whole_table.mpy_sizes(out=str(out)), str(out / "pico")


_MEMORY = {}


def memory_run(game, pico_build):
    """bench/whole_table.py's memory run of one game (one step, one round a step), as it printed it."""
    if game not in _MEMORY:
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            whole_table._memory_of(game, 1, 1, 1, pico_build[0], pico_build[1])
        _MEMORY[game] = printed.getvalue()
    return _MEMORY[game]


@pytest.mark.parametrize("game", ["baccarat", "craps", "omaha"])
def test_a_table_needs_no_more_heap_than_deploy_has_a_frozen_or_romfs_board_hold(game, pico_build):
    # tools/build_board.py TABLE_HEAP_BYTES sizes what tools.deploy has a board measure of its own heap before
    # it installs a build: a table's peak bound must fit under it, or a board that passed the check runs out.
    printed = memory_run(game, pico_build)
    for kind in ("frozen", "romfs"):
        need = int(re.search(r"peak_bound_%s_bytes: (\d+)" % kind, printed).group(1))
        assert 40000 < need <= TABLE_HEAP_BYTES[kind], (game, kind, need, TABLE_HEAP_BYTES)


def test_an_omaha_table_with_its_code_on_the_filesystem_needs_more_than_an_rp2040_heap(pico_build):
    modules = whole_table.table_modules("omaha")
    code = romfs_ram.measured(pico_build[1], modules)[0]
    printed = memory_run("omaha", pico_build)
    data = int(re.search(r"kept with code on the filesystem .*: \d+ bytes \(code \d+ \+ data (\d+)\)",
                         printed).group(1))
    peak_data = int(re.search(r"peak_bound_data_only_bytes: (\d+)", printed).group(1))
    assert code > 150000 and data > 20000 and peak_data > data, (code, data, peak_data)   # measured, not failed
    assert code + peak_data > HEAP_BYTES["rp2040"], (code, data, peak_data, HEAP_BYTES)
    # What tools.deploy has a board's own heap hold for a filesystem build (TABLE_HEAP_BYTES: the most of the three
    # games, Craps's; Omaha's measured here): when this fails, measure the three again and raise it.
    assert code + peak_data <= TABLE_HEAP_BYTES["filesystem"], (code, peak_data, TABLE_HEAP_BYTES)
    assert peak_data <= FILESYSTEM_DATA_BYTES, (peak_data, FILESYSTEM_DATA_BYTES)
