# Runs every test of one dual-runtime module on MicroPython the way pytest collects it: module-level
# callables named test* (and Test* classes refused). The same text runs in both MicroPython runners:
# tools/mpvm.mjs (the WebAssembly port) sets _MODULE and reads _RESULT afterwards; tools/mpunix.py (the Unix
# port) runs this file with the module's name as its argument and takes the exit status (1: a test failed).
# Prints one line per test (`ok   name`, `FAIL name`, `skip name (why)`), then a summary.
# - A test that returns anything but None fails: an `async def` or a test with `yield` returns a generator
#   whose body never ran; any other value is a `return` where an assert was meant.
# - Classes named Test* are refused (each one a FAIL): dual-runtime tests are plain functions, and running
#   pytest's class protocol (setup_method, ...) here would be a second, subtly different pytest.
# - An object with `mpvm_skip` (tests.firmware.expect.cpython_only) is reported as skipped with that reason;
#   the caller checks those names against pytest.
# - Before each test its name goes to stderr as `mpvm-running NAME`, written at once, so the caller can name
#   the test that hung when it times out.
import sys
try:
    _MODULE
    _STANDALONE = False
except NameError:
    _MODULE = sys.argv[1]
    _STANDALONE = True
import gc

try:
    import js                   # the WebAssembly port: its sys.stderr is the runner's stdout
    _progress = js.process.stderr
except ImportError:
    _progress = sys.stderr      # the Unix port


def _running(name):
    _progress.write("mpvm-running " + name + "\n")


_passed = 0
_skipped = 0
_failed = []


def _fail(name, why, exc=None):
    _failed.append(name)
    print("FAIL " + name + ("  (" + why + ")" if why else ""))
    if exc is not None:
        sys.print_exception(exc)


def _run(name, fn):
    global _passed
    gc.collect()
    _running(name)
    try:
        result = fn()
    except Exception as e:
        _fail(name, "", e)
        return
    if result is not None:
        if type(result).__name__ == "generator":
            _fail(name, "returned a generator/coroutine: not run; no async def or yield in a test")
        else:
            _fail(name, "returned a value: not None (%r): use assert, not return" % (result,))
        return
    _passed += 1
    print("ok   " + name)


try:
    _mod = __import__(_MODULE, None, None, ["_"])
except Exception as _e:
    print("ERROR importing %s: no test ran" % _MODULE)
    sys.print_exception(_e)
    _mod = None
if _mod is not None:
    for _name in sorted(dir(_mod)):
        _obj = getattr(_mod, _name)
        if isinstance(_obj, type):
            if _name.startswith("Test"):
                _fail(_name, "a test class: not run on MicroPython; write plain test_* functions")
            continue
        if not _name.startswith("test"):
            continue
        _why = getattr(_obj, "mpvm_skip", None)
        if _why:
            _skipped += 1
            print("skip %s (%s)" % (_name, _why))
        elif callable(_obj):
            _run(_name, _obj)
    print("micropython: %d passed, %d failed, %d skipped" % (_passed, len(_failed), _skipped))
_RESULT = len(_failed) if _mod is not None else 1
if _STANDALONE:
    sys.exit(1 if _RESULT else 0)
