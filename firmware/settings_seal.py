# The table file's seal: the CRC-32 of table.json's bytes, kept beside it in table.seal.
#
# A flipped bit in table.json can leave a file that still validates (8 decks read as 9): the seal
# finds it at boot and the table is held closed (faults.SETTINGS_BAD), never played on silently
# (issue 12). Who writes the file seals it: tools.deploy (--table), the simulator's deploy
# (hostsim.flash.table_on_flash) and a settings change at the console (firmware/settings_swap.py:
# both CRCs while the file is being replaced, so a power cut at any point leaves a file the seal
# accepts). A board with no seal yet (deployed before seals) is sealed at its first boot.
import binascii
import os

SEAL = "table.seal"
_SEAL_MAX = 64                 # a few "crc\n" lines; a longer file is read this far
_HEX = b"0123456789abcdef"


def crc_of(data):
    return "%08x" % (binascii.crc32(data) & 0xFFFFFFFF)


def _path(state_dir):
    return SEAL if not state_dir else state_dir + "/" + SEAL


def _open(fs, name, mode):
    # Through fs where it opens files (the simulator's flash, cut at any write); else the board's own.
    if fs is not None and fs is not os and hasattr(fs, "open"):
        return fs.open(name, mode)
    return open(name, mode)


def read_file(path):
    with open(path, "rb") as f:
        return f.read()


def accepted(state_dir, fs):
    """The CRCs the seal accepts: its last two whole lines (a line is 8 hex digits and its LF; a torn
    last line is not one), or None when there is no seal or not one whole line in it."""
    try:
        with _open(fs, _path(state_dir), "rb") as f:
            text = f.read(_SEAL_MAX + 1)
    except OSError:
        return None
    crcs = []
    for line in text.split(b"\n")[:-1]:          # the part after the last LF is no whole line
        if len(line) == 8 and all(c in _HEX for c in line):
            crcs.append(line.decode())
        else:
            crcs.append("(bad line)")             # a flipped bit: that line accepts nothing
    return crcs[-2:] if crcs else None


def write(state_dir, fs, data):
    """Seal the table file as having these contents (bytes): the seal holds this CRC alone."""
    with _open(fs, _path(state_dir), "wb") as f:
        f.write(crc_of(data).encode() + b"\n")


def add(state_dir, fs, data):
    """Accept these contents too (one appended line, one flash write): before a settings change replaces
    the table file, so a power cut on either side of the replacement leaves a file the seal accepts."""
    with _open(fs, _path(state_dir), "ab") as f:
        f.write(crc_of(data).encode() + b"\n")


def check(state_dir, fs, table_path):
    """At boot: None when table.json is the file sealed (sealing it if it never was), else the problem."""
    try:
        data = read_file(table_path)
    except OSError as exc:
        return "table file %s unreadable (%s)" % (table_path, exc)
    crcs = accepted(state_dir, fs)
    crc = crc_of(data)
    try:
        if crcs is None:
            write(state_dir, fs, data)            # deployed before seals (or a rewrite the power cut): sealed now
            return None
        if crc in crcs:
            if len(crcs) > 1:
                write(state_dir, fs, data)        # a change finished (or never begun) when the power went
            return None
    except OSError as exc:
        return "table file seal not written (%s)" % exc
    return "table file %s is %s, its seal says %s: changed outside a deploy or a settings change" % (
        table_path.split("/")[-1], crc, " or ".join(crcs))
