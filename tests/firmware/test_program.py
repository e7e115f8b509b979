# Program verification (issue 13): HMAC-SHA256 (RFC 4231 vectors), the boot check of the
# deployed files against manifest.json, and verify(seed). Dual runtime: files go to a scratch
# dir on CPython's disk or the VM's filesystem. tools.verify against the VM: tests/host/test_verify.py.
import binascii
import hashlib
import json
import os
import sys

from firmware import program
from tests.firmware.expect import raises, raises_match
from tests.firmware.scratch import ScratchDir

# RFC 4231 section 4: HMAC-SHA256 test cases 1, 2, 3, 4, 6, 7 (5 is a truncated output).
_LONG_KEY = b"\xaa" * 131
RFC4231 = (
    (b"\x0b" * 20, b"Hi There", "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
    (b"Jefe", b"what do ya want for nothing?",
     "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
    (b"\xaa" * 20, b"\xdd" * 50, "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
    (bytes(range(1, 26)), b"\xcd" * 50, "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
    (_LONG_KEY, b"Test Using Larger Than Block-Size Key - Hash Key First",
     "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
    (_LONG_KEY, b"This is a test using a larger than block-size key and a larger than block-size data. The key "
                b"needs to be hashed before being used by the HMAC algorithm.",
     "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
)

FILES = (("firmware/a.mpy", b"\x4d\x06\x00" + bytes(range(256)) * 3), ("board.json", b'{"mcu": "hostsim"}\n'),
         ("main.py", b"from firmware.main import run\n\nrun()\n"))


def _hex(data):
    return binascii.hexlify(data).decode()


def _write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def _read(path):
    with open(path, "rb") as f:
        return f.read()


def _deploy(root, files=FILES, rom=False):
    """The files and a manifest.json listing them as tools/build.py does (sorted by path); rom: the
    firmware/ tree in root/rom (standing in for the ROMFS mounted at /rom), marked "rom": true."""
    if rom:
        os.mkdir(root + "/rom")
    os.mkdir(root + ("/rom/firmware" if rom else "/firmware"))
    entries = []
    for path, data in files:
        in_rom = rom and path.startswith("firmware/")
        _write(root + ("/rom/" if in_rom else "/") + path, data)
        entries.append({"path": path, "size": len(data), "sha256": _hex(hashlib.sha256(data).digest())})
        if in_rom:
            entries[-1]["rom"] = True
    entries.sort(key=lambda e: e["path"])
    with open(root + "/manifest.json", "w") as f:
        f.write(json.dumps({"board": "sim", "version": "0.1.0", "files": entries}))
    return entries


def _flip(path, at):
    data = bytearray(_read(path))
    data[at] ^= 0x01
    _write(path, data)


def test_hmac_matches_rfc4231():
    for key, data, expected in RFC4231:
        assert _hex(program.hmac_sha256(key, data)) == expected, expected


def test_hmac_keys_around_the_block_size():
    # RFC 2104: a key longer than the hash's 64-byte block is hashed first, one of 64 bytes or fewer padded
    # as it is (the RFC 4231 vectors have none at 63..65). The digests: CPython's hmac module.
    data = b"lab-2024-17 block-size key"
    for size, expected in ((63, "90ea3280d3289a5776ae8bb7dcc943f82527fe65caab232f9b56ce7ae9777b81"),
                           (64, "670707592f447efb49b03b053c54f80eeabbf5c6feca95477d616996d3f2b74c"),
                           (65, "b99e02b1b0c3d7cdf7921614a8aa743d39fa875ac31e391a4c270cbe37eef73b")):
        assert _hex(program.hmac_sha256(b"\x5a" * size, data)) == expected, size


def test_hmac_fed_in_pieces_equals_one_piece():
    key, data, expected = RFC4231[6 - 1]
    mac = program.Hmac(key)
    for i in range(0, len(data), 7):
        mac.update(data[i:i + 7])
    assert mac.hexdigest() == expected


def test_deployed_program_passes_the_check():
    with ScratchDir() as root:
        _deploy(root)
        assert program.check(root) is None


def test_the_manifest_is_read_back_as_its_entries_an_empty_file_too():
    # An empty file (an __init__.py) is a file of size 0, not a malformed entry.
    files = FILES + (("firmware/__init__.py", b""),)
    with ScratchDir() as root:
        entries = _deploy(root, files)
        assert program.load_manifest(root) == [(e["path"], e["size"], e["sha256"], False) for e in entries]
        assert ("firmware/__init__.py", 0, _hex(hashlib.sha256(b"").digest()), False) in program.load_manifest(root)
        assert program.check(root) is None


def test_one_changed_byte_is_found_in_each_file():
    for path, data in FILES:
        for at in (0, len(data) - 1):
            with ScratchDir() as root:
                _deploy(root)
                _flip(root + "/" + path, at)
                assert program.check(root) == (path, program.DIGEST), (path, at)


def test_a_missing_file_is_found():
    with ScratchDir() as root:
        _deploy(root)
        os.remove(root + "/main.py")
        assert program.check(root) == ("main.py", program.MISSING)


def test_a_longer_or_shorter_file_is_found():
    with ScratchDir() as root:
        _deploy(root)
        _write(root + "/board.json", FILES[1][1] + b" ")
        assert program.check(root) == ("board.json", program.SIZE)
        _write(root + "/board.json", b"")
        assert program.check(root) == ("board.json", program.SIZE)


def test_an_unusable_manifest_fails_the_check():
    for text in (None, "", "{", "[]", '{"files": []}', '{"files": [1]}', '{"files": [{"path": "main.py"}]}',
                 '{"files": [{"path": "../x", "size": 1, "sha256": "%s"}]}' % ("0" * 64),
                 '{"files": [{"path": "main.py", "size": true, "sha256": "%s"}]}' % ("0" * 64)):
        with ScratchDir() as root:
            _deploy(root)
            if text is None:
                os.remove(root + "/manifest.json")
            else:
                _write(root + "/manifest.json", text.encode())
            found = program.check(root)
            assert found is not None and found[0] == program.MANIFEST, (text, found)
            raises(program.ManifestError, program.verify, "seed", root)


def test_verify_is_the_hmac_of_every_file_in_manifest_order():
    with ScratchDir() as root:
        entries = _deploy(root)
        stream = b""
        for entry in entries:
            stream += entry["path"].encode() + b"\n" + str(entry["size"]).encode() + b"\n"
            stream += _read(root + "/" + entry["path"])
        assert program.verify("lab-2024-17", root) == _hex(program.hmac_sha256(b"lab-2024-17", stream))


def test_verify_changes_with_one_byte_and_with_the_seed():
    with ScratchDir() as root:
        _deploy(root)
        before = program.verify("seed-1", root)
        assert program.verify("seed-1", root) == before
        assert program.verify("seed-2", root) != before
        _flip(root + "/firmware/a.mpy", 100)
        assert program.verify("seed-1", root) != before


def test_verify_of_a_missing_file_is_an_error():
    with ScratchDir() as root:
        _deploy(root)
        os.remove(root + "/firmware/a.mpy")
        raises(OSError, program.verify, "seed", root)


def test_manifest_error_names_the_manifest():
    with ScratchDir() as root:
        raises_match(program.ManifestError, "manifest.json missing", program.load_manifest, root)


# Code in flash (tools/build.py --romfs): firmware/ in the ROMFS image mounted at /rom, checked there.

def test_program_in_romfs_passes_the_check_with_the_digest_of_the_same_files_on_the_filesystem():
    with ScratchDir() as flat, ScratchDir() as root:
        _deploy(flat)
        _deploy(root, rom=True)
        assert program.check(root) is None
        assert program.verify("lab-7", root) == program.verify("lab-7", flat)


def test_a_changed_or_missing_file_in_romfs_is_found():
    with ScratchDir() as root:
        _deploy(root, rom=True)
        _flip(root + "/rom/firmware/a.mpy", 3)
        assert program.check(root) == ("firmware/a.mpy", program.DIGEST)
    with ScratchDir() as root:
        _deploy(root, rom=True)
        os.remove(root + "/rom/firmware/a.mpy")
        assert program.check(root) == ("firmware/a.mpy", program.MISSING)
        raises(OSError, program.verify, "seed", root)


def test_a_firmware_folder_on_the_filesystem_shadowing_the_romfs_is_refused():
    # sys.path has the filesystem's folder before /rom: its firmware/ would be imported unchecked.
    for stray in ("/firmware", "/firmware/a.mpy"):
        with ScratchDir() as root:
            _deploy(root, rom=True)
            os.mkdir(root + "/firmware")
            if stray.endswith(".mpy"):
                _write(root + stray, _read(root + "/rom" + stray))   # even an identical copy
            assert program.check(root) == ("firmware/a.mpy", program.SHADOWED), stray


def test_a_firmware_folder_left_in_romfs_shadows_a_program_on_the_filesystem():
    # An earlier ROMFS deployment's image still mounted: its firmware/ could be imported instead.
    with ScratchDir() as root:
        _deploy(root)
        os.mkdir(root + "/rom")
        assert program.check(root) is None          # a ROMFS without firmware/ is no matter
        os.mkdir(root + "/rom/firmware")
        assert program.check(root) == ("firmware/a.mpy", program.SHADOWED)


def test_a_rom_mark_that_is_not_a_boolean_is_a_manifest_error():
    with ScratchDir() as root:
        _deploy(root, rom=True)
        text = _read(root + "/manifest.json").replace(b'"rom": true', b'"rom": "yes"')
        assert b'"rom": "yes"' in text
        _write(root + "/manifest.json", text)
        assert program.check(root)[0] == program.MANIFEST


# Code in the image (tools/build.py --frozen): "files" lists board.json and main.py only; the "frozen"
# object's digest is compared with the image's claim (firmware.frozen_build.DIGEST), never recomputed.

IMAGE = "0123456789abcdef" * 4              # the digest the build wrote into the image
OTHER = "fedcba9876543210" * 4              # an image built from other sources
FROZEN = {"digest": IMAGE, "manifest": "frozen/manifest.py", "port": "rp2", "micropython_board": "RPI_PICO",
          "files": [{"path": "firmware/a.py", "size": 3, "sha256": "0" * 64}]}


class _FrozenBuild:
    """Stands in for the frozen image's firmware/frozen_build.py (tools/build.py --frozen writes it)."""

    def __init__(self, digest):
        self.DIGEST = digest


def install_image(digest):
    """The running firmware made a frozen image's, its claim digest: firmware.frozen_build imports (until
    program.image_digest() reads and releases it)."""
    import firmware
    image = _FrozenBuild(digest)
    sys.modules["firmware.frozen_build"] = image
    firmware.frozen_build = image


def _deploy_frozen(root, frozen=FROZEN):
    """board.json, main.py and a manifest.json as tools/build.py --frozen writes it (no firmware/);
    frozen: its "frozen" object."""
    entries = []
    for path, data in FILES[1:]:
        _write(root + "/" + path, data)
        entries.append({"path": path, "size": len(data), "sha256": _hex(hashlib.sha256(data).digest())})
    entries.sort(key=lambda e: e["path"])
    with open(root + "/manifest.json", "w") as f:
        f.write(json.dumps({"board": "pico", "version": "0.1.0", "files": entries, "frozen": frozen}))
    return entries


def test_a_frozen_build_on_the_image_of_its_sources_passes_the_check():
    with ScratchDir() as root:
        _deploy_frozen(root)
        assert program.check(root, image=IMAGE) is None
        assert program.check(root, IMAGE) is None


def test_a_frozen_build_on_a_firmware_that_is_no_frozen_image_is_refused():
    # image=None: the firmware runs from the filesystem (or from no image of ours); the default asks the
    # running firmware, which here (source tree, CPython or the VM) has no firmware.frozen_build.
    assert program.image_digest() is None
    with ScratchDir() as root:
        _deploy_frozen(root)
        assert program.check(root, image=None) == ("firmware (frozen)", program.NOT_FROZEN)
        assert program.check(root) == (program.FROZEN, program.NOT_FROZEN)
        assert program.NOT_FROZEN == "not a frozen firmware image: flash the image built from frozen/manifest.py"


def test_a_frozen_build_on_the_image_of_other_sources_is_refused():
    with ScratchDir() as root:
        _deploy_frozen(root)
        assert program.check(root, image=OTHER) == ("firmware (frozen)", program.IMAGE_DIFFERS)
        assert program.check(root, image=IMAGE.upper()) == (program.FROZEN, program.IMAGE_DIFFERS)
        assert program.IMAGE_DIFFERS == "the firmware image was built from other sources"


def test_a_firmware_folder_on_the_filesystem_shadowing_the_frozen_firmware_is_refused():
    # sys.path has the filesystem's folder before ".frozen": its firmware/ would be imported, unchecked.
    for stray in ("/firmware", "/firmware/main.py"):
        with ScratchDir() as root:
            _deploy_frozen(root)
            os.mkdir(root + "/firmware")
            if stray.endswith(".py"):
                _write(root + stray, b"def run():\n    pass\n")
            assert program.check(root, image=IMAGE) == ("firmware", program.SHADOWS_FROZEN), stray
            assert program.SHADOWS_FROZEN == "a firmware/ folder on the filesystem would shadow the frozen firmware"


def test_a_firmware_folder_left_in_the_romfs_shadowing_the_frozen_firmware_is_named_and_refused():
    # An earlier --romfs deployment's firmware/ in the mounted ROMFS: /rom is first on sys.path (the ports'
    # _boot.py insert it), so it would be imported rather than the image's: named, not only "not frozen".
    with ScratchDir() as root:
        _deploy_frozen(root)
        os.mkdir(root + "/rom")
        assert program.check(root, image=IMAGE) is None              # a ROMFS of other things: fine
        os.mkdir(root + "/rom/firmware")
        assert program.check(root, image=IMAGE) == ("rom/firmware", program.ROM_SHADOWS_FROZEN)
        assert program.ROM_SHADOWS_FROZEN == ("a firmware/ folder in the ROMFS would shadow the frozen firmware:"
                                              " deploy an empty ROMFS image")


def test_the_running_images_digest_is_read_and_its_module_released():
    import firmware
    assert program.image_digest() is None
    install_image(IMAGE)
    assert program.image_digest() == IMAGE
    assert "firmware.frozen_build" not in sys.modules and not hasattr(firmware, "frozen_build")
    assert program.image_digest() is None
    with ScratchDir() as root:                       # check() and verify() ask the running image by default
        _deploy_frozen(root)
        install_image(IMAGE)
        assert program.check(root) is None
        install_image(OTHER)
        assert program.check(root) == (program.FROZEN, program.IMAGE_DIFFERS)
        install_image(IMAGE)
        assert program.verify("lab-1", root) == program.verify("lab-1", root, image=IMAGE)
        assert "firmware.frozen_build" not in sys.modules


def test_a_frozen_builds_files_are_checked_first():
    with ScratchDir() as root:
        _deploy_frozen(root)
        _flip(root + "/main.py", 0)
        assert program.check(root, image=IMAGE) == ("main.py", program.DIGEST)
        assert program.check(root, image=None) == ("main.py", program.DIGEST)
    with ScratchDir() as root:
        _deploy_frozen(root)
        os.remove(root + "/board.json")
        assert program.check(root, image=IMAGE) == ("board.json", program.MISSING)


def test_a_malformed_frozen_object_is_a_manifest_error():
    for frozen in (None, [], "x", {}, {"digest": None}, {"digest": 7}, {"digest": IMAGE[:63]}, {"digest": IMAGE + "0"},
                   {"digest": "g" * 64}, {"digest": IMAGE.upper()}, {"digest": " " + IMAGE[1:]}):
        with ScratchDir() as root:
            _deploy_frozen(root, frozen)
            found = program.check(root, image=IMAGE)
            assert found == (program.MANIFEST, "manifest.json: the frozen object is malformed"), (frozen, found)
            raises(program.ManifestError, program.verify, "seed", root, IMAGE)
            raises(program.ManifestError, program.load_manifest, root)


def _stream(root, entries):
    """What verify() hashes for the files: path, size, bytes of each, in manifest order."""
    stream = b""
    for entry in entries:
        stream += entry["path"].encode() + b"\n" + str(entry["size"]).encode() + b"\n"
        stream += _read(root + "/" + entry["path"])
    return stream


def test_verify_of_a_frozen_build_adds_the_images_digest():
    with ScratchDir() as root:
        stream = _stream(root, _deploy_frozen(root))
        key = b"lab-2026-12"
        assert program.verify("lab-2026-12", root, image=IMAGE) == _hex(
            program.hmac_sha256(key, stream + b"frozen\n" + IMAGE.encode() + b"\n"))
        assert program.verify("lab-2026-12", root, IMAGE) == program.verify("lab-2026-12", root, image=IMAGE)
        assert program.verify("lab-2026-12", root, image=OTHER) == _hex(
            program.hmac_sha256(key, stream + b"frozen\n" + OTHER.encode() + b"\n"))
        assert program.verify("lab-2026-12", root, image=None) == _hex(program.hmac_sha256(key, stream + b"frozen\n\n"))
        # the running firmware (no frozen image here) answers as image=None; each image its own digest
        assert program.verify("lab-2026-12", root) == program.verify("lab-2026-12", root, image=None)
        assert len({program.verify("lab-2026-12", root, image=x) for x in (IMAGE, OTHER, None)}) == 3


def test_a_manifest_without_frozen_ignores_the_image():
    with ScratchDir() as root:
        entries = _deploy(root)
        expected = _hex(program.hmac_sha256(b"lab-3", _stream(root, entries)))
        for image in (IMAGE, OTHER, None):
            assert program.check(root, image=image) is None, image
            assert program.verify("lab-3", root, image=image) == expected, image
        assert program.verify("lab-3", root) == expected
