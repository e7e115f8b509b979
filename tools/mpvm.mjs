// Runs Python on real MicroPython (the official WebAssembly port) under Node.js.
//
// The port's own CLI exits 0 even when Python raised, so this runner decides
// the exit status itself: 0 all passed, 1 a test or the script failed,
// 2 the harness could not start. The caller (tools/mpvm.py) applies the timeout.
//
//   node tools/mpvm.mjs [--heap BYTES] [--copy DIR | --copy HOSTDIR=VMDIR]... (--test MODULE | --script FILE | --steps FILE)
//
// --copy DIR copies a folder (relative to the working directory) to the same
// path under the VM's root; HOSTDIR=VMDIR copies any folder to VMDIR instead.
// --steps runs FILE in parts, cut at lines "# --- next run call ---", each part
// its own runPython call in the same VM (globals carry over). The benches need
// it: in this port a gc.collect() frees nothing allocated during the same call.
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";
import fs from "node:fs";
import path from "node:path";

const args = process.argv.slice(2);
let heap = 16 * 1024 * 1024;
const copies = [];
let testModule = null;
let scriptFile = null;
let stepsFile = null;
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === "--heap") heap = parseInt(args[++i], 10);
  else if (a === "--copy") copies.push(args[++i]);
  else if (a === "--test") testModule = args[++i];
  else if (a === "--script") scriptFile = args[++i];
  else if (a === "--steps") stepsFile = args[++i];
  else {
    console.error(`mpvm: unknown argument ${a}`);
    process.exit(2);
  }
}
if (!testModule && !scriptFile && !stepsFile) {
  console.error("mpvm: give --test MODULE, --script FILE or --steps FILE");
  process.exit(2);
}

const out = (line) => process.stdout.write(line + "\n");
const mp = await loadMicroPython({ heapsize: heap, stdout: out, stderr: out });

function mkdirs(vmDir) {
  let vm = "";
  for (const part of vmDir.split("/")) {
    if (!part) continue;
    vm += "/" + part;
    try { mp.FS.mkdir(vm); } catch (e) { /* exists */ }
  }
}

// Copy a host folder's .py/.json/.mpy files into the VM (.mpy: a build copied in for program verification).
function copyTree(hostDir, vmDir) {
  mkdirs(vmDir);
  for (const entry of fs.readdirSync(hostDir, { withFileTypes: true })) {
    if (entry.name === "__pycache__" || entry.name.startsWith(".")) continue;
    const hostPath = path.join(hostDir, entry.name);
    const vmPath = vmDir + "/" + entry.name;
    if (entry.isDirectory()) copyTree(hostPath, vmPath);
    else if (/\.(py|json|mpy)$/.test(entry.name)) mp.FS.writeFile(vmPath, fs.readFileSync(hostPath));
  }
}
for (const spec of copies) {
  const eq = spec.indexOf("=");
  const hostDir = eq < 0 ? spec : spec.slice(0, eq);
  const vmDir = eq < 0 ? "/" + path.normalize(spec).replace(/\/$/, "") : spec.slice(eq + 1);
  if (!fs.existsSync(hostDir) || !fs.statSync(hostDir).isDirectory()) {
    console.error(`mpvm: --copy ${spec}: no such folder ${hostDir}`);
    process.exit(2);
  }
  copyTree(hostDir, vmDir);
}

const prelude = `
import sys
sys.path.insert(0, "/")
print("runtime: MicroPython %s (%s)" % (".".join(str(v) for v in sys.implementation.version[:3]), sys.implementation._machine))
`;

// Runs every test of one dual-runtime module the way pytest collects it:
// module-level callables named test* and classes named Test*. Prints one line
// per test (`ok   name`, `FAIL name`, `skip name (why)`), then a summary.
// - A test that returns anything but None fails: an `async def` or a test with
//   `yield` returns a generator whose body never ran; any other value is a
//   `return` where an assert was meant.
// - Classes named Test* are refused (each one a FAIL): dual-runtime tests are
//   plain functions, and running pytest's class protocol (setup_method, ...)
//   here would be a second, subtly different pytest.
// - An object with `mpvm_skip` (tests.firmware.expect.cpython_only) is reported
//   as skipped with that reason; the caller checks those names against pytest.
// - Before each test its name goes to stderr as `mpvm-running NAME`, written
//   at once, so the caller can name the test that hung when it times out.
const testDriver = (name) => `
import gc
try:
    import js
    def _running(name):
        js.process.stderr.write("mpvm-running " + name + "\\n")
except ImportError:
    def _running(name):
        pass
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
    _mod = __import__(${JSON.stringify(name)}, None, None, ["_"])
except Exception as _e:
    print("ERROR importing %s: no test ran" % ${JSON.stringify(name)})
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
`;

try {
  mp.runPython(prelude);
  if (testModule) {
    mp.runPython(testDriver(testModule));
    const failed = mp.globals.get("_RESULT");
    process.exit(failed === 0 ? 0 : 1);
  } else if (stepsFile) {
    let before = 0;  // lines of earlier parts, padded in so tracebacks name the file's own line numbers
    for (const part of fs.readFileSync(stepsFile, "utf8").split(/^# --- next run call ---$/m)) {
      mp.runPython("\n".repeat(before) + part);
      before += part.split("\n").length - 1;
    }
    process.exit(0);
  } else {
    mp.runPython(fs.readFileSync(scriptFile, "utf8"));
    process.exit(0);
  }
} catch (e) {
  out(String(e.message || e));
  process.exit(1);
}
