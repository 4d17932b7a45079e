// Tests of the extension's activation logic (src/activation.js) with node's own test runner:
// `node --test test/` (no VS Code, no npm packages). `cargo test --test vscode_extension`
// runs them.

'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const os = require('os');
const path = require('path');
const a = require('../src/activation.js');

const cases = JSON.parse(
  fs.readFileSync(path.join(__dirname, '..', '..', '..', 'fixtures', 'editor', 'detection_cases.json'), 'utf8'),
);

test('the rules agree with the server on the shared cases', () => {
  for (const c of cases.python) {
    assert.equal(a.definesTarget(c.text), c.defines_target, JSON.stringify(c.text));
    assert.equal(a.importsRpython(c.text), c.imports_rpython, JSON.stringify(c.text));
  }
  for (const c of cases.pyproject) {
    assert.equal(a.declaresToolSection(c.text), c.declares, JSON.stringify(c.text));
  }
});

const made = [];
test.after(() => {
  for (const root of made) {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

/** A throwaway folder with `files` (relative path → text). */
function folder(files) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'rpy-lsp-activation-'));
  made.push(root);
  for (const [rel, text] of Object.entries(files)) {
    const p = path.join(root, rel);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, text);
  }
  return root;
}

test('a Python 3 project shows no RPython', () => {
  const root = folder({
    'pyproject.toml': "[project]\nname = 'app'\n[tool.ruff]\n",
    'app/main.py': "import asyncio\nprint(f'{asyncio}')\n",
    // A virtualenv's copy of rpython is not the project's.
    'venv/lib/rpython/rlib/jit.py': 'def target(*args):\n    pass\n',
    '.hidden/t.py': 'def target(*args):\n    pass\n',
  });
  assert.equal(a.findEvidence(root), undefined);
  // An unsaved buffer importing rpython changes that.
  const buffer = path.join(root, 'app', 'main.py');
  assert.deepEqual(a.findEvidence(root, new Map([[buffer, 'from rpython.rlib import jit\n']])), {
    kind: 'import',
    file: buffer,
  });
});

test('each kind of evidence is found', () => {
  const withTool = folder({ 'pyproject.toml': '[tool.rpy-lsp]\nentry-points = ["x.py"]\n' });
  assert.equal(a.findEvidence(withTool)?.kind, 'tool-section');
  const withTarget = folder({ 'src/deep/targetfoo.py': 'import os\ndef target(driver, args):\n    return None\n' });
  assert.deepEqual(a.findEvidence(withTarget), {
    kind: 'target',
    file: path.join(withTarget, 'src', 'deep', 'targetfoo.py'),
  });
  const withImport = folder({ 'lib.py': 'from rpython.rlib.rarithmetic import r_uint\n' });
  assert.equal(a.findEvidence(withImport)?.kind, 'import');
});

test('the server is found on PATH, then in ~/.cargo/bin; else undefined', () => {
  const present = new Set(['/usr/local/bin/rpy-lsp', '/home/u/.cargo/bin/rpy-lsp', '/opt/rpy/bin/rpy-lsp']);
  const exists = (f) => present.has(f);
  const env = { PATH: '/usr/bin:/usr/local/bin', HOME: '/home/u' };
  assert.equal(a.findServer('rpy-lsp', env, 'linux', exists), '/usr/local/bin/rpy-lsp');
  assert.equal(a.findServer('', { PATH: '/usr/bin', HOME: '/home/u' }, 'linux', exists), '/home/u/.cargo/bin/rpy-lsp');
  assert.equal(a.findServer('rpy-lsp', { PATH: '/usr/bin', HOME: '/nobody' }, 'linux', exists), undefined);
  assert.equal(a.findServer('/opt/rpy/bin/rpy-lsp', env, 'linux', exists), '/opt/rpy/bin/rpy-lsp');
  assert.equal(a.findServer('/opt/missing/rpy-lsp', env, 'linux', exists), undefined);
  assert.equal(
    a.findServer('rpy-lsp', { PATH: 'C:\\bin', USERPROFILE: 'C:\\Users\\u' }, 'win32', (f) => f === 'C:\\Users\\u\\.cargo\\bin\\rpy-lsp.exe'),
    'C:\\Users\\u\\.cargo\\bin\\rpy-lsp.exe',
  );
  assert.match(a.INSTALL_HINT, /cargo install --path \. --locked/);
});
