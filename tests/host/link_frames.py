"""Reports as the board's host link sends them (docs/host-link.md), for tests that feed a host side by hand."""
from firmware.link import frame as frame_mod


def board_frame(n, line, boot=1):
    """The n-th report (0, 1, ...) of a boot as its REPORT frame; the 0th comes after the boot's OPEN."""
    text = line.rstrip(b"\r\n") if isinstance(line, bytes) else line.rstrip("\r\n")
    opening = frame_mod.encode(boot, 1, "OPEN", "-") if n == 0 else b""
    return opening + frame_mod.encode(boot, n + 2, "REPORT", text)
