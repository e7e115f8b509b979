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
// process.exit() at once would drop what stdout has not written yet: into a pipe (the runners read this
// one) whose reader is behind, Node queues what the pipe cannot take, and 1.8 MB of a script's lines came
// out cut short (at 64 KB, at 390 KB) four runs in ten, with status 0. Exit once every line before is
// written (a write's callback comes in order).
const finish = (code) => process.stdout.write("", () => process.exit(code));
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

// Runs every test of one dual-runtime module the way pytest collects it: tools/mptest_driver.py (the same
// file the Unix port's runner, tools/mpunix.py, runs) with _MODULE set; its _RESULT is the failures.
const driverFile = new URL("./mptest_driver.py", import.meta.url);
const testDriver = (name) => `_MODULE = ${JSON.stringify(name)}\n` + fs.readFileSync(driverFile, "utf8");

try {
  mp.runPython(prelude);
  if (testModule) {
    mp.runPython(testDriver(testModule));
    const failed = mp.globals.get("_RESULT");
    finish(failed === 0 ? 0 : 1);
  } else if (stepsFile) {
    let before = 0;  // lines of earlier parts, padded in so tracebacks name the file's own line numbers
    for (const part of fs.readFileSync(stepsFile, "utf8").split(/^# --- next run call ---$/m)) {
      mp.runPython("\n".repeat(before) + part);
      before += part.split("\n").length - 1;
    }
    finish(0);
  } else {
    mp.runPython(fs.readFileSync(scriptFile, "utf8"));
    finish(0);
  }
} catch (e) {
  out(String(e.message || e));
  finish(1);
}
