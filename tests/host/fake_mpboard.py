"""A stand-in MicroPython board for the deploy tests: mpremote's raw REPL over TCP.

    python tests/host/fake_mpboard.py [--corrupt PATH]     (working folder = the board's flash)

Prints "port N" once listening on 127.0.0.1:N; mpremote reaches it as
`connect socket://127.0.0.1:N`. Code mpremote sends is executed by CPython with
MicroPython's few differences shimmed (os.stat returns a plain tuple, os.ilistdir,
time.sleep_ms, machine.reset, errors printed as MicroPython prints them).
machine.reset() closes the connection like a USB port dropping, logs "reset" and
then "boot: main.py present|absent" to stdout, and waits for the next connection.
--corrupt PATH flips the first byte of every write to PATH (a bad flash / link).
--heap N: the board's GC heap in bytes (gc.mem_free() + gc.mem_alloc(); default 8 MiB, an ESP32-S3's PSRAM),
which tools/device/prepare.py measures before it removes anything; -1: gc.mem_free() says -1 (not known).
--romfs-size N gives the board a ROMFS partition of N bytes (MicroPython's `vfs.rom_ioctl`, what
`mpremote romfs deploy` writes through); at each reset the image in it is "mounted": its files are
unpacked into rom/ of the working folder, standing in for /rom. Without it the board has no ROMFS.
Not a test module: tests/host/test_deploy_board.py starts it as a process.
"""
import argparse
import builtins
import contextlib
import errno
import io
import os
import socket
import struct
import sys
import traceback
import types

PASTE_WINDOW = 256
VERBOSE = False
ROMFS = None            # the ROMFS partition's bytes (--romfs-size), kept across resets
HEAP = 8 * 1024 * 1024  # the GC heap's bytes (--heap)
HEAP_USED = 4096        # of which in use after a collect (the REPL's own objects)
ROM_DIR = "rom"         # where the mounted image's files appear (the board's /rom)
_EINVAL = 22
_ROM_MIN_WRITE = 4


class Reset(Exception):
    """machine.reset() was called."""


def _modules():
    fake_os = types.ModuleType("os")
    for name in ("listdir", "remove", "rmdir", "mkdir", "rename", "getcwd", "chdir"):
        setattr(fake_os, name, getattr(os, name))
    fake_os.sep = "/"

    def stat(path):
        return tuple(os.stat(path))[:10]  # MicroPython: a plain 10-tuple

    def ilistdir(path=""):
        base = path or "."
        for name in sorted(os.listdir(base)):
            full = os.path.join(base, name)
            yield (name, 0x4000 if os.path.isdir(full) else 0x8000, 0, os.stat(full).st_size)

    fake_os.stat = stat
    fake_os.ilistdir = ilistdir

    fake_time = types.ModuleType("time")
    fake_time.sleep_ms = lambda ms: None
    fake_time.sleep = lambda s: None

    fake_machine = types.ModuleType("machine")

    def reset():
        raise Reset()

    fake_machine.reset = reset
    fake_gc = types.ModuleType("gc")
    fake_gc.collect = lambda: None
    fake_gc.mem_alloc = lambda: HEAP_USED
    fake_gc.mem_free = lambda: HEAP - HEAP_USED if HEAP >= 0 else -1     # --heap -1: a port that cannot tell
    modules = {"os": fake_os, "time": fake_time, "machine": fake_machine, "gc": fake_gc}
    modules["vfs"] = _vfs_module()
    return modules


def _vfs_module():
    """MicroPython's vfs (every port since 1.23): umount, and with ROMFS (--romfs-size) rom_ioctl's
    operations 1-5 (extmod/vfs_rom_ioctl.c)."""
    fake_vfs = types.ModuleType("vfs")

    def rom_ioctl(op, *args):
        if op == 1:                           # how many ROMFS partitions
            return 1
        if args and args[0] != 0:             # partition 0 only
            return -_EINVAL
        if op == 2:                           # the partition, as a read-only buffer
            return memoryview(bytes(ROMFS))
        if op == 3:                           # prepare to write args[1] bytes: erase
            if args[1] > len(ROMFS):
                return -_EINVAL
            ROMFS[:] = b"\xff" * len(ROMFS)
            return _ROM_MIN_WRITE
        if op == 4:                           # write args[2] at offset args[1]
            offset, data = args[1], bytes(args[2])
            if offset + len(data) > len(ROMFS):
                return -_EINVAL
            ROMFS[offset:offset + len(data)] = data
            return 0
        if op == 5:                           # writing done
            return 0
        return -_EINVAL

    def umount(path):
        if path != "/rom":
            raise OSError(_EINVAL, "not mounted")

    if ROMFS is not None:
        fake_vfs.rom_ioctl = rom_ioctl
    fake_vfs.umount = umount
    return fake_vfs


def mount_romfs():
    """The partition's image unpacked into rom/ (replacing what was there); how many files."""
    import shutil

    import romfs_image
    if os.path.isdir(ROM_DIR):
        shutil.rmtree(ROM_DIR)
    try:
        found = romfs_image.files(ROMFS)
    except romfs_image.RomfsError:
        return 0                               # no valid image: nothing mounted
    for path, data in found.items():
        full = os.path.join(ROM_DIR, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "wb") as f:
            f.write(data)
    return len(found)


REAL_MODULES = ("hashlib", "binascii", "json", "sys", "errno", "struct")


class _FlippedFile(io.FileIO):
    """A file whose first written byte arrives flipped."""

    def __init__(self, path, mode):
        super().__init__(path, mode)
        self._first = True

    def write(self, data):
        data = bytes(data)
        if self._first and data:
            data = bytes([data[0] ^ 0xFF]) + data[1:]
            self._first = False
        return super().write(data)


def _new_globals(corrupt):
    modules = _modules()

    def dev_import(name, globals=None, locals=None, fromlist=(), level=0):
        if name in modules:
            return modules[name]
        if name in REAL_MODULES:
            return __import__(name, globals, locals, fromlist, level)
        raise ImportError("no module named '%s'" % name)

    def dev_open(path, mode="r", *args, **kwargs):
        if corrupt and path == corrupt and "w" in mode and "b" in mode:
            return _FlippedFile(path, "w")
        return open(path, mode, *args, **kwargs)

    dev_builtins = dict(builtins.__dict__, __import__=dev_import, open=dev_open)
    return {"__builtins__": dev_builtins, "__name__": "__main__"}


def _micropython_error(exc):
    """The error text MicroPython prints, which mpremote parses for errno names."""
    if isinstance(exc, OSError) and exc.errno in errno.errorcode:
        line = "OSError: [Errno %d] %s" % (exc.errno, errno.errorcode[exc.errno])
    else:
        line = "%s: %s" % (type(exc).__name__, exc)
    return 'Traceback (most recent call last):\r\n  File "<stdin>", line 1, in <module>\r\n%s\r\n' % line


def _execute(code, env):
    """Run code; returns (stdout bytes, error bytes). Raises Reset."""
    out = io.StringIO()
    err = ""
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(code.decode(), "<stdin>", "exec"), env)
    except Reset:
        raise
    except BaseException as exc:  # noqa: BLE001 - a board reports every error
        err = _micropython_error(exc)
        if VERBOSE:
            traceback.print_exc(file=sys.stderr)
    return out.getvalue().replace("\n", "\r\n").encode(), err.encode()


def serve(conn, corrupt):
    """One USB session; returns True when the board was reset."""
    mode = "friendly"
    buf = bytearray()
    env = _new_globals(corrupt)
    paste = None  # bytes received in raw-paste mode, or None

    def run(code, ok):
        if ok:
            conn.sendall(b"OK")
        out, err = _execute(bytes(code), env)
        conn.sendall(out + b"\x04" + err + b"\x04>")

    while True:
        data = conn.recv(65536)
        if not data:
            return False
        for byte in data:
            c = bytes([byte])
            if paste is not None:
                if c == b"\x04":
                    conn.sendall(b"\x04")
                    code, paste = paste, None
                    run(code, ok=False)
                else:
                    paste.append(byte)
                    if len(paste) % PASTE_WINDOW == 0:
                        conn.sendall(b"\x01")
                continue
            if mode == "friendly":
                if c == b"\x01":
                    mode = "raw"
                    buf.clear()
                    conn.sendall(b"raw REPL; CTRL-B to exit\r\n>")
                continue
            if c == b"\x02":
                mode = "friendly"
                conn.sendall(b"\r\nMicroPython (fake board)\r\n>>> ")
            elif c == b"\x03":
                buf.clear()
            elif c == b"\x04":
                if not buf.strip(b"\r\n"):
                    env = _new_globals(corrupt)
                    conn.sendall(b"OK\r\nMPY: soft reboot\r\nraw REPL; CTRL-B to exit\r\n>")
                else:
                    code = bytes(buf)
                    buf.clear()
                    run(code, ok=True)
            else:
                buf.append(byte)
                if bytes(buf) == b"\x05A\x01":  # raw-paste request: accept
                    buf.clear()
                    paste = bytearray()
                    conn.sendall(b"R\x01" + struct.pack("<H", PASTE_WINDOW))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--corrupt", default=None)
    ap.add_argument("--verbose", action="store_true", help="print each error the code raised to stderr")
    ap.add_argument("--romfs-size", type=int, default=None, help="a ROMFS partition of this many bytes")
    ap.add_argument("--heap", type=int, default=None, help="the GC heap's bytes (default 8 MiB)")
    args = ap.parse_args()
    global VERBOSE, ROMFS, HEAP
    VERBOSE = args.verbose
    if args.heap is not None:
        HEAP = args.heap
    if args.romfs_size is not None:
        ROMFS = bytearray(b"\xff" * args.romfs_size)
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    print("port %d" % server.getsockname()[1], flush=True)
    while True:
        conn, _ = server.accept()
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        try:
            was_reset = serve(conn, args.corrupt)
        except Reset:
            was_reset = True
        except OSError:
            was_reset = False
        finally:
            conn.close()
        if was_reset:
            print("reset", flush=True)
            if ROMFS is not None:
                print("boot: ROMFS mounted at /rom, %d file(s)" % mount_romfs(), flush=True)
            print("boot: main.py %s" % ("present" if os.path.isfile("main.py") else "absent"), flush=True)


if __name__ == "__main__":
    main()
