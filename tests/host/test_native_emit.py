"""The Omaha showdown's modules compiled to native code (tools/mpy_cross_tool.py NATIVE_EMIT).

A board's build (a march: pico armv6m, esp32s3 xtensawin) compiles them with -X emit=native, the sim
board's as bytecode, and a frozen image freezes the native .mpy in place of the source; an .mpy's third
header byte says which (its arch, bits 2-7: 0 bytecode). And their dual-runtime tests pass on MicroPython's Unix port with them compiled to x86-64
native code (tools/mpunix.native_tree): the same results, and the heap-lock proofs of the code around
them (tests/firmware/test_hot_paths.py, test_omaha_table.py) still hold.
"""
import os

import pytest

from tests.test_on_micropython import vm_results
from tools import build, mpunix

ARCH = {"armv6m": 4, "xtensawin": 10, "x64": 2}     # MicroPython's MP_NATIVE_ARCH_* in an .mpy header

# The dual-runtime modules that run the NATIVE_EMIT code: its own tests, whole hands' showdowns, an Omaha
# table's (test_hot_paths: its idle pass under heap_lock). tests/firmware/test_snapshot_omaha.py does too,
# ~20 s on the port: it passed there once (x17-native), left to tests/test_on_micropython.py's bytecode run.
MODULES = ("test_omaha_hand", "test_omaha_pots", "test_omaha_betting", "test_omaha_big_stacks", "test_omaha_table",
           "test_hot_paths", "test_round_recall")


def _arch(path):
    with open(path, "rb") as f:
        header = f.read(4)
    assert header[:2] == b"M\x06", path
    return header[2] >> 2


def test_the_list_names_firmware_modules_a_board_compiles():
    sources = build.firmware_files(build.REPO)
    assert build.NATIVE_EMIT, "nothing compiled native: remove this test and the list together"
    for rel in build.NATIVE_EMIT:
        assert rel in sources and rel.endswith(".py"), rel
        assert rel not in build.NATIVE_ONLY, rel      # those are native code whatever the list says


@pytest.mark.parametrize("board", ("pico", "esp32s3", "sim"))
def test_a_boards_build_compiles_them_native_and_the_sim_board_bytecode(board, tmp_path):
    manifest = build.build(board, out=str(tmp_path))
    march = manifest["march"]
    native = [rel[:-3] + ".mpy" for rel in build.NATIVE_EMIT] if march else []
    only = [rel[:-3] + ".mpy" for rel in build.NATIVE_ONLY] if march else []
    assert manifest["native"] == native
    for e in manifest["files"]:
        if e["path"].endswith(".mpy"):
            expected = ARCH[march] if e["path"] in native + only else 0
            assert _arch(os.path.join(str(tmp_path), board, e["path"])) == expected, e["path"]
    report = build.size_report(manifest)
    marked = sorted(line.split()[0] for line in report if line.endswith("  native"))
    assert marked == sorted(native)
    assert ("NATIVE_EMIT" in report[0]) == bool(march)


def _source_name(path):
    """The source path an .mpy was compiled with (mpy-cross -s): its first qstr, which names a frozen module."""
    with open(path, "rb") as f:
        data = f.read(300)
    i = 4
    for _ in range(2):                  # the qstr and constant counts (varints; each < 128 here)
        assert data[i] < 0x80, path
        i += 1
    n = data[i] >> 1                    # the first qstr's length (bit 0: a static qstr, not here)
    assert data[i] & 1 == 0 and data[i + 1 + n] == 0, path
    return data[i + 1:i + 1 + n].decode()


@pytest.mark.parametrize("board", ("pico", "esp32s3"))
def test_a_frozen_image_freezes_their_native_mpy_in_place_of_the_source(board, tmp_path):
    # MicroPython's make compiles every frozen .py as bytecode: the image takes their .mpy as they are
    # (freeze_mpy), named by the path they were compiled with, and their .py is not frozen beside them.
    manifest = build.build(board, out=str(tmp_path), frozen=True)
    native = [rel[:-3] + ".mpy" for rel in build.NATIVE_EMIT]
    assert manifest["native"] == native
    assert sorted(line.split()[0] for line in build.size_report(manifest) if line.endswith("  native")) == native
    frozen = os.path.join(str(tmp_path), board, "frozen")
    entries = {e["path"]: e for e in manifest["frozen"]["files"]}
    for rel in build.NATIVE_EMIT:
        assert not os.path.exists(os.path.join(frozen, rel)), rel
        path = os.path.join(frozen, "native", rel[:-3] + ".mpy")
        assert _arch(path) == ARCH[manifest["march"]], rel
        assert _source_name(path) == rel
        assert entries["native/" + rel[:-3] + ".mpy"]["source"] == rel
    with open(os.path.join(frozen, "manifest.py")) as f:
        assert 'freeze_mpy("native")' in f.read().splitlines()


def test_the_source_name_reader_reads_what_mpy_cross_wrote(tmp_path):
    # _source_name on an .mpy compiled here with a known -s (so the frozen test cannot pass vacuously).
    import subprocess
    tool = build.find_mpy_cross()
    dest = str(tmp_path / "x.mpy")
    subprocess.run([tool, "-s", "firmware/somewhere/x.py", "-o", dest, "firmware/cards.py"], cwd=build.REPO,
                   check=True)
    assert _source_name(dest) == "firmware/somewhere/x.py"


@pytest.fixture(scope="module")
def native_tree(tmp_path_factory):
    try:
        mpunix.executable()
    except mpunix.UnixPortUnavailable as exc:
        pytest.skip(str(exc))
    return mpunix.native_tree(str(tmp_path_factory.mktemp("native")), build.NATIVE_EMIT)


@pytest.mark.micropython
def test_the_port_imports_the_native_code(native_tree):
    # The tree's .mpy and no .py beside it (MicroPython would import the .py first), x86-64 code.
    for rel in build.NATIVE_EMIT:
        assert not os.path.exists(os.path.join(native_tree, rel)), rel
        assert _arch(os.path.join(native_tree, rel[:-3] + ".mpy")) == ARCH["x64"], rel
    probe = os.path.join(native_tree, "probe_native.py")
    with open(probe, "w") as f:
        for rel in build.NATIVE_EMIT:
            f.write("import %s as m\nprint(m.__file__)\n" % rel[:-3].replace("/", "."))
    status, out = mpunix.run([probe], path=[native_tree])
    assert status == 0, out
    assert out.split() == [os.path.join(native_tree, rel[:-3] + ".mpy") for rel in build.NATIVE_EMIT], out


@pytest.mark.micropython
@pytest.mark.parametrize("module", MODULES)
def test_their_tests_pass_with_them_native_on_the_unix_port(module, native_tree):
    status, out = mpunix.run_test_module("tests.firmware." + module, timeout=600, path=[native_tree])
    seen = vm_results(out)
    assert status == 0 and seen["ok"] and not seen["FAIL"], out


@pytest.mark.micropython
def test_the_bench_times_both_variants(native_tree, capsys):
    from bench import native_unix
    assert native_unix.main(["--runs", "1"]) == 0
    out = capsys.readouterr().out
    assert "native modules (x86-64, -X emit=native): %s" % ", ".join(build.NATIVE_EMIT) in out, out
    for line in ("run 1 bytecode: medians of 11 rounds", "run 1 native: medians of 11 rounds",
                 "native/bytecode in loop iterations: showdown "):
        assert line in out, out


@pytest.mark.micropython
def test_the_bench_times_the_whole_tables_passes_with_every_module_it_can_make_native(native_tree, capsys):
    # --table --modules all: the emitter's refusals (a bare `raise`: "native raise") stay bytecode and are
    # named; the passes are timed in both variants.
    from bench import native_unix
    assert native_unix.main(["--table", "--modules", "all", "--runs", "1"]) == 0
    out = capsys.readouterr().out
    head = [line for line in out.splitlines() if line.startswith("native modules (x86-64, -X emit=native): ")]
    assert len(head) == 1 and "firmware/main.py" in head[0].split("left bytecode")[1], out
    assert int(head[0].split(": ")[1].split(";")[0]) > 100, out
    for line in ("run 1 bytecode: baccarat_us ", "run 1 native: baccarat_us ",
                 "native/bytecode in loop iterations: baccarat_us "):
        assert line in out, out


def test_the_romfs_estimate_counts_native_code_in_ram(tmp_path):
    # bench/romfs_ram.py reads a board's .mpy as the loader does: a native module's machine code is copied
    # into RAM (from ROMFS too), its bytecode twin's stays in place. (It refused native code before.)
    from bench import romfs_ram
    from tools.mpy_cross_tool import compile_file, find_mpy_cross
    rel = build.NATIVE_EMIT[0]
    read = {}
    for name, emit in (("bytecode", None), ("native", "native")):
        dest = str(tmp_path / (name + ".mpy"))
        assert compile_file(find_mpy_cross(), build.REPO, rel, dest, "armv6m", emit=emit) is None
        with open(dest, "rb") as f:
            data = f.read()
        read[name] = romfs_ram.Mpy(data)
        assert read[name].at == len(data)                 # read to its last byte
    assert read["native"].functions == read["bytecode"].functions
    assert read["bytecode"].ram["native code"] == 0
    assert read["native"].ram["native code"] > 2 * read["bytecode"].in_place
    assert read["native"].in_place < read["bytecode"].in_place


def test_the_romfs_cross_check_imports_them_as_bytecode(tmp_path):
    # bench/romfs_ram.py --measure imports a pico build's .mpy in the VM, which runs no native code.
    from bench import romfs_ram
    manifest = build.build("pico", out=str(tmp_path / "out"))
    copy = romfs_ram._bytecode_copy(manifest["dir"], str(tmp_path))
    for rel in build.NATIVE_EMIT:
        assert _arch(os.path.join(manifest["dir"], rel[:-3] + ".mpy")) == ARCH["armv6m"]
        assert _arch(os.path.join(copy, rel[:-3] + ".mpy")) == 0
