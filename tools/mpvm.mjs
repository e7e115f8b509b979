// Runs Python on real MicroPython (the official WebAssembly port) under Node.js.
//
// The port's own CLI exits 0 even when Python raised, so this runner decides
// the exit status itself: 0 all passed, 1 a test or the script failed,
// 2 the harness could not start. The caller (tools/mpvm.py) applies the timeout.
//
//   node tools/mpvm.mjs [--heap BYTES] [--copy DIR]... (--test MODULE | --script FILE | --steps FILE)
//
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

// Copy a host folder's .py/.json files into the VM at the same relative path.
function copyTree(hostDir, vmDir) {
  try { mp.FS.mkdir(vmDir); } catch (e) { /* exists */ }
  for (const entry of fs.readdirSync(hostDir, { withFileTypes: true })) {
    if (entry.name === "__pycache__" || entry.name.startsWith(".")) continue;
    const hostPath = path.join(hostDir, entry.name);
    const vmPath = vmDir + "/" + entry.name;
    if (entry.isDirectory()) copyTree(hostPath, vmPath);
    else if (/\.(py|json)$/.test(entry.name)) mp.FS.writeFile(vmPath, fs.readFileSync(hostPath));
  }
}
for (const dir of copies) {
  const rel = path.normalize(dir).replace(/\/$/, "");
  let vm = "";
  for (const part of rel.split("/")) { vm += "/" + part; try { mp.FS.mkdir(vm); } catch (e) { /* exists */ } }
  copyTree(dir, "/" + rel);
}

const prelude = `
import sys
sys.path.insert(0, "/")
print("runtime: MicroPython %s (%s)" % (".".join(str(v) for v in sys.implementation.version[:3]), sys.implementation._machine))
`;

const testDriver = (name) => `
import gc
_mod = __import__(${JSON.stringify(name)}, None, None, ["_"])
_passed = 0
_failed = []
for _name in sorted(dir(_mod)):
    if not _name.startswith("test_"):
        continue
    _fn = getattr(_mod, _name)
    if not callable(_fn):
        continue
    gc.collect()
    try:
        _fn()
        _passed += 1
        print("ok   " + _name)
    except Exception as _e:
        _failed.append(_name)
        print("FAIL " + _name)
        sys.print_exception(_e)
print("micropython: %d passed, %d failed" % (_passed, len(_failed)))
_RESULT = len(_failed)
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
