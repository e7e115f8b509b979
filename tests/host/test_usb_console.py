"""The USB REPL console adapter over real file descriptors (select.poll needs them)."""
import os

from firmware.drivers.serial_line import SerialLine
from firmware.drivers.usb_console import StdioUART


def test_stdio_console_reads_lines_without_blocking():
    rd, wr = os.pipe()
    out_rd, out_wr = os.pipe()
    with open(rd, "rb", buffering=0) as stdin, open(out_wr, "wb", buffering=0) as stdout:
        line = SerialLine(StdioUART(stdin, stdout))
        assert line.poll() is None                  # nothing typed: returns at once
        os.write(wr, b"sta")
        assert line.poll() is None                  # half a line is kept
        os.write(wr, b"tus\r\n")
        assert line.poll() == b"status"
        line.write_line("ok")
        assert os.read(out_rd, 100) == b"ok\r\n"
    os.close(wr)
    os.close(out_rd)
