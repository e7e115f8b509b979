"""The board file of a build: boards/<name>.json found, read and checked (tools/build.py).

The same checks as the board at boot (firmware.board.validate, every layout's zone names), and
what the board's JSON parser refuses (a byte order mark, a key given twice), each a BuildError
naming the file, line and column where it can.
"""
import json
import os
import re

from firmware.jsonfile import NUMBER_RULE, bad_number, duplicate_key
from tools.mpy_cross_tool import BuildError

# -march per microcontroller, so @micropython.native/viper code compiles for the
# right CPU. None: bytecode only (the host simulator runs CPython anyway).
MARCH = {
    "rp2040": "armv6m",
    "esp32s3": "xtensawin",
    "hostsim": None,
}

# The MicroPython port and BOARD that build a firmware image per microcontroller, for a frozen build
# (tools/build_frozen.py: `make -C <micropython>/ports/<port> BOARD=<board> FROZEN_MANIFEST=...`).
# An mcu missing here (hostsim: the simulator runs CPython) has no image to freeze the firmware into.
PORTS = {
    "rp2040": ("rp2", "RPI_PICO"),
    "esp32s3": ("esp32", "ESP32_GENERIC_S3"),
}
# The MicroPython board variant a board's module needs (its "psram"): an ESP32-S3 with octal PSRAM (N8R8)
# runs the ESP32_GENERIC_S3 image built as its SPIRAM_OCT variant (MicroPython's ports/esp32 board.json).
VARIANTS = {("esp32s3", "octal"): "SPIRAM_OCT"}

# The heap MicroPython leaves the firmware, per microcontroller, where a filesystem build of it does not fit:
# there each .mpy a table imports is copied into the heap (docs/build-deploy.md, "Which build for which
# board"). Measured on the MicroPython VM (6 Dec 2026): the .mpy a booted table imports keep 173-186 KB of
# heap (bench/romfs_ram.py --measure); with the table's data and its largest pass's allocations a table
# needs 220-235 KB while it plays (bench/whole_table.py --memory-only), against an RP2040's ~200 KB.
# tools/deploy.py refuses there a filesystem build whose table needs more than this heap (TABLE_HEAP_BYTES below;
# a frozen or ROMFS build goes on); tests/host/test_filesystem_fit.py measures it again. An ESP32-S3's heap is
# its PSRAM's.
HEAP_BYTES = {"rp2040": 200 * 1024}

# What a table needs of the heap while it plays, per build kind: the most of the three games (Baccarat / Craps /
# Omaha), measured on the MicroPython VM (docs/performance.md, "Memory"; docs/performance-log.md, "The
# twenty-ninth round": `make bench`, 6 Dec 2026, with the open_bets request), rounded up to the KiB with a KiB
# more: these figures move with the code's layout by up to ~0.8 KB between commits that keep no more data (the
# VM's collector is conservative: a stale word keeps what it points at; Omaha's data with its largest pass moved
# +752 bytes with the open_bets request's code, which an Omaha table never runs). tools/deploy.py has the board
# measure its own heap before it removes anything (tools/device/prepare.py) and refuses a build it cannot hold:
# an ESP32-S3 flashed with an image without PSRAM, any board whose MicroPython leaves less than this table
# data, not only the RP2040 HEAP_BYTES names before any board is reached.
# - frozen: the peak bound with the code in flash, the modules' objects and the data with the largest pass's
#   allocations (68,740 / 76,861 / 81,200 bytes; on `aa915fa` 68,596 / 76,749 / 80,192; on `d842c64`, whose
#   firmware is `221918b`'s, 67,821 / 76,224 / 80,905: earlier that day 75,856 and 80,057 for the last two,
#   the same firmware with less bench and test code, the layout's drift above);
# - romfs: that and what the .mpy loader still keeps in RAM (+52,594 / 59,752 / 58,440, an estimate:
#   bench/romfs_ram.py): 121,334 / 136,613 / 139,640 (on `d842c64` 119,529 / 134,502 / 138,163);
# - filesystem: the .mpy a table imports, copied into the heap (bench/romfs_ram.py --measure: 180,960 / 186,256 /
#   172,848), and the data with the largest pass (39,472 / 49,120 / 54,352; tests/host/test_filesystem_fit.py
#   measures Omaha's again): 220,432 / 235,376 / 227,200 (on `aa915fa`: 219,680 / 234,464 / 225,456). A build of
#   fewer modules (a test's) needs at most all its .mpy and FILESYSTEM_DATA_BYTES.
# bench/whole_table.py --memory-only prints the first two per game (peak_bound_frozen_bytes,
# peak_bound_romfs_bytes) and tests/host/test_filesystem_fit.py holds each game to them (Omaha to the third too).
TABLE_HEAP_BYTES = {"frozen": 81 * 1024, "romfs": 138 * 1024, "filesystem": 231 * 1024}
FILESYSTEM_DATA_BYTES = 55 * 1024


def available_boards(root):
    folder = os.path.join(root, "boards")
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    return sorted(n[:-5] for n in names if n.endswith(".json"))


def load_board(root, name):
    """Parsed and validated board dict for boards/<name>.json."""
    path = os.path.join(root, "boards", name + ".json")
    rel = os.path.relpath(path, root)
    if not re.match(r"^[A-Za-z0-9_.-]+$", name) or not os.path.isfile(path):
        boards = available_boards(root)
        raise BuildError("unknown board %r: boards available: %s (files boards/<name>.json)"
                         % (name, ", ".join(boards) if boards else "none"))
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise BuildError("%s: cannot read the board file (%s)" % (rel, exc))
    if text.startswith("\ufeff"):      # Notepad's "UTF-8"; the board refuses it too (firmware/jsonfile.py)
        raise BuildError("%s:1:1: malformed board file: starts with a byte order mark: save it as UTF-8 without BOM"
                         % rel)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BuildError("%s:%d:%d: malformed board file: %s: fix the JSON"
                         % (rel, exc.lineno, exc.colno, exc.msg))
    except RecursionError:
        raise BuildError("%s: malformed board file: nested too deeply: fix the JSON" % rel)
    except ValueError as exc:        # not a JSONDecodeError: an integer of more than 4300 digits
        raise BuildError("%s: malformed board file: %s: fix the JSON" % (rel, exc))
    if not isinstance(data, dict):
        raise BuildError("%s: malformed board file: the top level must be a JSON object" % rel)
    twice = duplicate_key(text)      # the board's own check at boot (firmware/jsonfile.py)
    if twice is not None:
        raise BuildError("%s: malformed board file: %s: key given twice in one object (remove one)" % (rel, twice))
    bad = bad_number(text)           # (MicroPython's parser takes 08: the board refuses it, and -0)
    if bad is not None:
        raise BuildError("%s: malformed board file: number %s: %s" % (rel, bad, NUMBER_RULE))
    validate_board(rel, name, data)
    return data


def validate_board(rel, name, data):
    """The firmware's own validation (firmware.board.validate), the one the board runs at boot."""
    from firmware import board as board_module
    from firmware.errors import SettingsError
    from firmware.game_setup import check_zone_names

    try:
        board = board_module.validate(name, data)
        for layout in sorted(board.zones):          # the board checks its table's layout at boot
            check_zone_names(board, layout)
    except SettingsError as exc:
        raise BuildError("%s: %s" % (rel, exc))
    except (TypeError, KeyError, AttributeError, IndexError, ValueError) as exc:
        # A value of the wrong JSON type the firmware's check did not anticipate.
        raise BuildError("%s: malformed board file: a value has the wrong type (%s: %s)"
                         % (rel, type(exc).__name__, exc))
    mcu = data.get("mcu")
    if mcu not in MARCH:
        raise BuildError("%s: mcu %r has no mpy-cross architecture (known: %s)"
                         % (rel, mcu, ", ".join(sorted(MARCH))))
