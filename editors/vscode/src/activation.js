// @ts-check
// Where the extension starts a server, and which server: pure logic on files and settings
// (no `vscode` import), so that `node --test` checks it without VS Code.
//
// A workspace folder gets a server when it shows RPython, by the same rules as the server's
// own check (src/engine/detect.rs; the two are tested on the same cases,
// fixtures/editor/detection_cases.json): `[tool.rpy-lsp]` in pyproject.toml, a Python file
// defining a top-level `def target(`, a Python file importing `rpython`. Elsewhere the
// extension stays silent. Plain JavaScript with JSDoc types: node runs it as it is.

'use strict';

const fs = require('fs');
const path = require('path');

/** Directories never searched: virtualenvs, caches, build output, VCS data. */
const SKIPPED_DIRS = new Set([
  'node_modules', '__pycache__', 'venv', 'env', 'build', 'dist', 'target', 'site-packages',
]);
/** At most this many Python files are read per folder (then: no evidence found). */
const MAX_FILES = 2000;
/** Files larger than this are not read. */
const MAX_FILE_BYTES = 1 << 20;

/**
 * `[tool.rpy-lsp]` as a table header of a pyproject.toml text (or a malformed attempt at
 * one, which the server reports).
 * @param {string} text
 * @returns {boolean}
 */
function declaresToolSection(text) {
  return text.split(/\r\n|\r|\n/).some((l) => /^\s*\[\s*tool\s*\.\s*(rpy-lsp|"rpy-lsp")\s*[\].]?/.test(l));
}

/**
 * A top-level `def target(` (lines end at `\n`, `\r\n` or a lone `\r`).
 * @param {string} text
 * @returns {boolean}
 */
function definesTarget(text) {
  return text.split(/\r|\n/).some((l) => l.startsWith('def target(') || l.startsWith('def target ('));
}

/**
 * A line importing from the `rpython` package: `import rpython[.x]`, `from rpython[.x] import`.
 * @param {string} text
 * @returns {boolean}
 */
function importsRpython(text) {
  return text.split(/\r|\n/).some((line) => {
    const l = line.trimStart();
    let rest;
    if (l.startsWith('import ')) {
      rest = l.slice(7);
    } else if (l.startsWith('from ')) {
      rest = l.slice(5);
    } else {
      return false;
    }
    rest = rest.trimStart();
    if (!rest.startsWith('rpython')) {
      return false;
    }
    const after = rest.slice(7);
    return after === '' || /^[.\s,;\\]/.test(after);
  });
}

/**
 * @typedef {{ kind: 'tool-section' | 'target' | 'import', file: string }} Evidence
 */

/**
 * @param {string} file
 * @returns {string | undefined}
 */
function readSmall(file) {
  try {
    const st = fs.statSync(file);
    if (!st.isFile() || st.size > MAX_FILE_BYTES) {
      return undefined;
    }
    return fs.readFileSync(file, 'latin1');
  } catch {
    return undefined;
  }
}

/**
 * The first evidence that the folder `root` holds RPython, or `undefined`. `buffers` are
 * unsaved editor texts by absolute path (they count with their text).
 * @param {string} root
 * @param {Map<string, string>} [buffers]
 * @returns {Evidence | undefined}
 */
function findEvidence(root, buffers = new Map()) {
  const pyproject = path.join(root, 'pyproject.toml');
  const toml = buffers.get(pyproject) ?? readSmall(pyproject);
  if (toml !== undefined && declaresToolSection(toml)) {
    return { kind: 'tool-section', file: pyproject };
  }
  /** @type {Evidence | undefined} */
  let importer;
  for (const [file, text] of buffers) {
    if (!file.endsWith('.py') || !isInside(root, file)) {
      continue;
    }
    if (definesTarget(text)) {
      return { kind: 'target', file };
    }
    if (!importer && importsRpython(text)) {
      importer = { kind: 'import', file };
    }
  }
  let seen = 0;
  /** @type {string[]} */
  const stack = [root];
  while (stack.length > 0) {
    const dir = /** @type {string} */ (stack.pop());
    let entries;
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0));
    for (const e of entries) {
      if (e.name.startsWith('.')) {
        continue;
      }
      const full = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (!SKIPPED_DIRS.has(e.name)) {
          stack.push(full);
        }
        continue;
      }
      if (!e.isFile() || !e.name.endsWith('.py') || buffers.has(full)) {
        continue;
      }
      if (++seen > MAX_FILES) {
        return importer;
      }
      const text = readSmall(full);
      if (text === undefined) {
        continue;
      }
      if (definesTarget(text)) {
        return { kind: 'target', file: full };
      }
      if (!importer && importsRpython(text)) {
        importer = { kind: 'import', file: full };
      }
    }
  }
  return importer;
}

/**
 * @param {string} root
 * @param {string} file
 * @returns {boolean}
 */
function isInside(root, file) {
  const rel = path.relative(root, file);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

/**
 * @typedef {{ PATH?: string, HOME?: string, USERPROFILE?: string, CARGO_HOME?: string }} Env
 */

/**
 * The `rpy-lsp` executable to run. `configured` is the `rpy-lsp.serverPath` setting (already
 * resolved against the workspace folder when it is a path): a path is used as it is; a bare
 * name is looked up on `PATH`, then in Cargo's bin directory (`$CARGO_HOME/bin`, else
 * `~/.cargo/bin`), where `cargo install` puts it and which a GUI-started editor's PATH often
 * lacks. `undefined` when it is nowhere.
 * @param {string} configured
 * @param {Env} env
 * @param {string} platform `process.platform`
 * @param {(file: string) => boolean} [isExecutable]
 * @returns {string | undefined}
 */
function findServer(configured, env, platform, isExecutable = executable) {
  const name = configured.trim() || 'rpy-lsp';
  if (name.includes('/') || name.includes('\\')) {
    return isExecutable(name) ? name : undefined;
  }
  const exe = platform === 'win32' && !name.toLowerCase().endsWith('.exe') ? `${name}.exe` : name;
  const sep = platform === 'win32' ? ';' : ':';
  const join = platform === 'win32' ? path.win32.join : path.posix.join;
  const dirs = (env.PATH ?? '').split(sep).filter((d) => d !== '');
  const home = env.HOME ?? env.USERPROFILE;
  if (env.CARGO_HOME) {
    dirs.push(join(env.CARGO_HOME, 'bin'));
  }
  if (home) {
    dirs.push(join(home, '.cargo', 'bin'));
  }
  for (const d of dirs) {
    const candidate = join(d, exe);
    if (isExecutable(candidate)) {
      return candidate;
    }
  }
  return undefined;
}

/**
 * @param {string} file
 * @returns {boolean}
 */
function executable(file) {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** What to tell a user whose machine has no server. */
const INSTALL_HINT =
  'The rpy-lsp language server was not found on PATH or in ~/.cargo/bin. Install it from a clone of the rpy-lsp repository with `cargo install --path . --locked`, or set "rpy-lsp.serverPath".';

module.exports = {
  declaresToolSection,
  definesTarget,
  importsRpython,
  findEvidence,
  findServer,
  INSTALL_HINT,
};
