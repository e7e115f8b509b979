"""tools/build.py --frozen (tools/build_frozen.py): the firmware's sources and a freeze manifest for a MicroPython
image; manifest.json's "files" only what goes on the filesystem, its "frozen" the sources and their digest."""
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys

import pytest

from tests.host.cli_checks import assert_one_line_error
from tools import build, build_frozen

REPO = build.REPO
DIGEST_TEXT = re.compile(r"^[0-9a-f]{64}$")


def _run_build(*args):
    return subprocess.run([sys.executable, "-m", "tools.build"] + list(args),
                          cwd=REPO, capture_output=True, text=True, timeout=300)


def _sources(board_march=True):
    """The sources a board's normal build compiles (with -march: every .py, NATIVE_ONLY included)."""
    return sorted(rel for rel in build.firmware_files(REPO)
                  if rel.endswith(".py") and (board_march or rel not in build.NATIVE_ONLY))


def _frozen_py():
    """The sources frozen as .py: all but NATIVE_EMIT's, which go as native .mpy (tests/host/test_native_emit.py)."""
    return [rel for rel in _sources() if rel not in build.NATIVE_EMIT]


def _frozen_native():
    """Their .mpy, under frozen/."""
    return ["native/" + rel[:-3] + ".mpy" for rel in build.NATIVE_EMIT]


def _tree(folder):
    return sorted(os.path.relpath(os.path.join(d, n), str(folder)).replace(os.sep, "/")
                  for d, _, names in os.walk(str(folder)) for n in names)


def _sha(data):
    return hashlib.sha256(data).hexdigest()


@pytest.fixture(scope="module")
def pico_frozen(tmp_path_factory):
    """One frozen pico build of the real tree: (the returned report dict, the out folder)."""
    out = tmp_path_factory.mktemp("build")
    return build.build("pico", out=str(out), frozen=True), out


def test_the_build_folder_holds_the_filesystem_files_and_the_frozen_tree_only(pico_frozen):
    _, out = pico_frozen
    frozen = ["frozen/" + rel for rel in _frozen_py() + _frozen_native()] + ["frozen/firmware/frozen_build.py",
                                                                          "frozen/manifest.py"]
    assert _tree(out / "pico") == sorted(["board.json", "main.py", "manifest.json"] + frozen)
    assert not (out / "pico" / "firmware").exists()         # nothing to copy to the board's filesystem
    assert os.listdir(str(out)) == ["pico"]                 # the scratch compile left nothing behind


def test_manifest_json_lists_the_filesystem_files_and_the_frozen_sources_with_their_digest(pico_frozen):
    returned, out = pico_frozen
    written = json.loads((out / "pico" / "manifest.json").read_text())
    assert sorted(written) == ["board", "files", "firmware_version", "frozen", "march", "mcu", "micropython",
                               "native", "version"]
    assert written["native"] == [rel[:-3] + ".mpy" for rel in build.NATIVE_EMIT]   # frozen as native .mpy
    assert (written["board"], written["mcu"], written["micropython"], written["march"]) == \
        ("pico", "rp2040", build.MICROPYTHON_VERSION, "armv6m")
    assert [e["path"] for e in written["files"]] == ["board.json", "main.py"]
    for entry in written["files"]:
        data = (out / "pico" / entry["path"]).read_bytes()
        assert (entry["size"], entry["sha256"]) == (len(data), _sha(data)), entry["path"]
    frozen = written["frozen"]
    assert sorted(frozen) == ["digest", "files", "manifest", "micropython_board", "port"]
    assert (frozen["manifest"], frozen["port"], frozen["micropython_board"]) == ("frozen/manifest.py", "rp2",
                                                                                 "RPI_PICO")
    paths = [e["path"] for e in frozen["files"]]
    assert paths == sorted(paths) == sorted(_frozen_py() + _frozen_native())   # frozen_build.py is not among them
    for entry in frozen["files"]:
        if entry["path"] in _frozen_native():       # the machine code frozen, from its source
            assert sorted(entry) == ["path", "sha256", "size", "source"]
            assert "native/" + entry["source"][:-3] + ".mpy" == entry["path"]
            data = (out / "pico" / "frozen" / entry["path"]).read_bytes()
        else:
            assert sorted(entry) == ["path", "sha256", "size"]
            with open(os.path.join(REPO, entry["path"]), "rb") as f:
                data = f.read()
        assert (entry["size"], entry["sha256"]) == (len(data), _sha(data)), entry["path"]
    # The digest restated from the spec: SHA-256 of "path\nsize\nsha256\n" for each frozen file in order.
    text = "".join("%s\n%d\n%s\n" % (e["path"], e["size"], e["sha256"]) for e in frozen["files"])
    assert DIGEST_TEXT.match(frozen["digest"])
    assert frozen["digest"] == hashlib.sha256(text.encode("utf-8")).hexdigest()
    # What build() returns adds only where the build is and the size report's module rows.
    assert {k: v for k, v in returned.items() if k not in ("dir", "modules")} == written


def test_the_frozen_tree_is_the_sources_byte_for_byte_and_frozen_build_py_their_digest(pico_frozen):
    manifest, out = pico_frozen
    folder = out / "pico" / "frozen"
    assert _tree(folder / "firmware") == sorted([rel[len("firmware/"):] for rel in _frozen_py()] + ["frozen_build.py"])
    for rel in _frozen_py():
        with open(os.path.join(REPO, rel), "rb") as f:
            assert (folder / rel).read_bytes() == f.read(), rel
    lines = (folder / "firmware" / "frozen_build.py").read_text().splitlines()
    assert len(lines) == 2 and lines[0].startswith("# ")
    assert lines[1] == 'DIGEST = "%s"' % manifest["frozen"]["digest"]
    names = {}
    exec((folder / "firmware" / "frozen_build.py").read_text(), names)   # what firmware.frozen_build holds
    assert names["DIGEST"] == manifest["frozen"]["digest"]


def _run_manifest(path):
    """Execute a freeze manifest as micropython/tools/manifestfile.py does, with stand-ins recording the calls."""
    calls = []

    def stand_in(name):
        return lambda *args, **kwargs: calls.append((name, args, kwargs))
    names = {name: stand_in(name) for name in ("include", "package", "module", "require", "freeze", "freeze_mpy",
                                               "metadata")}
    with open(path, encoding="utf-8") as f:
        exec(compile(f.read(), path, "exec"), names)
    return calls


def _package_files(manifest_path, package_path, base_path="."):
    """The files manifestfile.package() freezes: every .py under <manifest's folder>/<base_path>/<package_path>."""
    top = os.path.join(os.path.dirname(manifest_path), base_path)
    return sorted(os.path.relpath(os.path.join(d, n), top).replace(os.sep, "/")
                  for d, _, names in os.walk(os.path.join(top, package_path)) for n in names if n.endswith(".py"))


def test_the_freeze_manifest_includes_the_port_s_and_freezes_the_firmware_package_beside_it(pico_frozen):
    manifest, out = pico_frozen
    path = str(out / "pico" / "frozen" / "manifest.py")
    calls = _run_manifest(path)
    assert calls == [("include", ("$(PORT_DIR)/boards/manifest.py",), {}), ("package", ("firmware",), {}),
                     ("freeze_mpy", ("native",), {})]
    assert _package_files(path, "firmware") == sorted(_frozen_py() + ["firmware/frozen_build.py"])
    # freeze_mpy(path) freezes every .mpy under <manifest's folder>/path, as it is
    top = os.path.join(os.path.dirname(path), "native")
    assert _tree(top) == [rel[len("native/"):] for rel in _frozen_native()]
    header = [ln for ln in open(path).read().splitlines() if ln.startswith("#")]
    text = "\n".join(header)
    assert "board pico" in text and "MicroPython %s" % build.MICROPYTHON_VERSION in text
    assert "firmware %s" % manifest["version"] in text
    assert "make -C <micropython>/ports/rp2 BOARD=RPI_PICO FROZEN_MANIFEST=%s" % path in text


def test_every_board_with_a_microcontroller_has_a_micropython_port():
    for name in build.available_boards(REPO):
        with open(os.path.join(REPO, "boards", name + ".json")) as f:
            mcu = json.load(f)["mcu"]
        assert (mcu in build_frozen.PORTS) == (build.MARCH[mcu] is not None), name
    assert build_frozen.PORTS == {"rp2040": ("rp2", "RPI_PICO"), "esp32s3": ("esp32", "ESP32_GENERIC_S3")}
    assert build_frozen.make_command("esp32s3", "/b/esp32s3/frozen/manifest.py") == \
        "make -C <micropython>/ports/esp32 BOARD=ESP32_GENERIC_S3 FROZEN_MANIFEST=/b/esp32s3/frozen/manifest.py"
    assert build_frozen.make_command("esp32s3", "/b/m.py", "SPIRAM_OCT") == \
        "make -C <micropython>/ports/esp32 BOARD=ESP32_GENERIC_S3 BOARD_VARIANT=SPIRAM_OCT FROZEN_MANIFEST=/b/m.py"


def test_the_esp32s3_boards_octal_psram_builds_the_spiram_oct_variant(tmp_path):
    # boards/esp32s3.json: "psram": "octal" (an N8R8 module): MicroPython's ESP32_GENERIC_S3 image for it is the
    # SPIRAM_OCT variant; the build's manifest and its make command say so (the pico's have no variant).
    built = build.build("esp32s3", out=str(tmp_path), frozen=True)
    assert built["frozen"]["micropython_variant"] == "SPIRAM_OCT"
    with open(os.path.join(built["dir"], "frozen", "manifest.py")) as f:
        assert "BOARD=ESP32_GENERIC_S3 BOARD_VARIANT=SPIRAM_OCT FROZEN_MANIFEST=" in f.read()
    assert "BOARD_VARIANT=SPIRAM_OCT" in build.size_report(built)[-1]


def test_size_report_lists_the_compiled_modules_then_the_freeze_manifest_and_the_make_command(pico_frozen):
    manifest, out = pico_frozen
    lines = build.size_report(manifest)
    for rel in _sources():
        row = [ln for ln in lines if ln.split()[0] == rel[:-3] + ".mpy"]
        assert len(row) == 1, rel
        assert int(row[0].split()[2]) == os.path.getsize(os.path.join(REPO, rel))
        assert int(row[0].split()[1]) > 0
    total = [ln for ln in lines if ln.startswith("total: %d modules" % len(_sources()))]
    assert len(total) == 1
    assert [ln.split()[0] for ln in lines if ln.split()[0] in ("board.json", "main.py")] == ["board.json", "main.py"]
    assert lines[-2].startswith("total to copy") and "(2 files, manifest.json not counted)" in lines[-2]
    assert lines[-1].startswith("frozen/manifest.py ")
    assert lines[-1].endswith("make -C <micropython>/ports/rp2 BOARD=RPI_PICO FROZEN_MANIFEST=%s)"
                              % (out / "pico" / "frozen" / "manifest.py"))


def test_command_line_frozen_build_prints_the_make_command(tmp_path):
    proc = _run_build("--board", "pico", "--frozen", "--out", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[-1] == "built %s" % (tmp_path / "pico")
    assert "BOARD=RPI_PICO FROZEN_MANIFEST=%s" % (tmp_path / "pico" / "frozen" / "manifest.py") in lines[-2]
    assert "firmware/cards.mpy" in proc.stdout


def test_a_frozen_build_is_the_same_manifest_each_time_and_replaces_a_normal_build(pico_frozen, tmp_path):
    build.build("pico", out=str(tmp_path))
    assert (tmp_path / "pico" / "firmware" / "cards.mpy").exists()
    build.build("pico", out=str(tmp_path), frozen=True)
    assert not (tmp_path / "pico" / "firmware").exists()
    assert (tmp_path / "pico" / "manifest.json").read_bytes() == (pico_frozen[1] / "pico" / "manifest.json").read_bytes()


def test_frozen_with_romfs_is_refused(tmp_path):
    with pytest.raises(build.BuildError, match="--frozen and --romfs exclude each other"):
        build.build("pico", out=str(tmp_path), frozen=True, romfs=True)
    proc = _run_build("--board", "pico", "--frozen", "--romfs", "--out", str(tmp_path))
    assert_one_line_error(proc, "build: error: --frozen and --romfs exclude each other")
    assert os.listdir(str(tmp_path)) == []


def test_frozen_for_the_sim_board_is_refused(tmp_path):
    proc = _run_build("--board", "sim", "--frozen", "--out", str(tmp_path))
    assert_one_line_error(proc, "board sim (mcu hostsim)", "MicroPython builds none for it",
                          "an mcu with a port (esp32s3, rp2040)")
    assert os.listdir(str(tmp_path)) == []


@pytest.mark.parametrize("name, error", [("frozen_build.py", "--frozen generates this file"),
                                         ("notes.txt", "only .py files can be frozen")])
def test_a_source_the_image_cannot_take_is_refused(tmp_path, name, error):
    root = tmp_path / "tree"
    for folder in ("firmware", "boards"):
        shutil.copytree(os.path.join(REPO, folder), str(root / folder), ignore=shutil.ignore_patterns("__pycache__"))
    (root / "firmware" / name).write_text('DIGEST = "x"\n')
    proc = _run_build("--board", "pico", "--frozen", "--root", str(root), "--out", str(tmp_path / "out"))
    assert_one_line_error(proc, "firmware/%s: " % name, error)
    assert not (tmp_path / "out" / "pico").exists()
