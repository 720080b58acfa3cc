// Run a Python script in Pyodide under Node, offline, and print its stdout.
//
//   node run_in_pyodide.mjs PYODIDE_DIR SCRIPT.py [--archive FILE.whl|FILE.zip ...] [--load PKG ...]
//
// PYODIDE_DIR is the npm `pyodide` package (core only: the interpreter and the standard
// library, no package wheels). Each --archive is unpacked into site-packages (a wheel, or a zip
// of an installed pure-Python package); each --load asks Pyodide's own loadPackage, which
// fetches from Pyodide's CDN (so it fails offline). Exit code 0 on success, 1 on a Python
// error (its traceback on stderr), 3 when a --load fails (the reason on stderr).
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, script, ...rest] = process.argv.slice(2);
const archives = [];
const loads = [];
for (let i = 0; i < rest.length; i += 2) {
  if (rest[i] === "--archive") archives.push(rest[i + 1]);
  else if (rest[i] === "--load") loads.push(rest[i + 1]);
  else throw new Error(`unknown option ${rest[i]}`);
}

const { loadPyodide } = await import(pathToFileURL(`${pyodideDir}/pyodide.mjs`).href);
const pyodide = await loadPyodide({ indexURL: `${pyodideDir}/`, stdout: () => {}, stderr: () => {} });
for (const archive of archives) {
  const format = archive.endsWith(".whl") ? "wheel" : "zip";
  const options = format === "zip" ? { extractDir: "/lib/python3.14/site-packages" } : {};
  pyodide.unpackArchive(new Uint8Array(readFileSync(archive)), format, options);
}
if (loads.length) {
  const errors = [];
  try {
    await pyodide.loadPackage(loads, { messageCallback: () => {}, errorCallback: (m) => errors.push(m) });
  } catch (error) {
    errors.push(String(error));
  }
  const missing = loads.filter((name) => !(name in pyodide.loadedPackages));
  if (missing.length) {
    process.stderr.write(`loadPackage(${missing.join(", ")}) failed: ${errors.join(" | ")}\n`);
    process.exit(3);
  }
}
let output = "";
pyodide.setStdout({ batched: (line) => { output += line + "\n"; } });
try {
  pyodide.runPython(readFileSync(script, "utf8"), { filename: basename(script) });
} catch (error) {
  process.stderr.write(String(error.message || error) + "\n");
  process.exit(1);
}
process.stdout.write(output);
