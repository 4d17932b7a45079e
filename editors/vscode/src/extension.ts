// VS Code client of rpy-lsp. Starts one `rpy-lsp serve` per workspace folder that shows
// RPython (see activation.js) and none elsewhere, so ordinary Python projects get nothing
// from this extension. All analysis happens in the server; this file only decides where to
// start it, finds it, and forwards two commands.

import * as path from 'path';
import * as vscode from 'vscode';
import {
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  TransportKind,
} from 'vscode-languageclient/node';
import { definesTarget, declaresToolSection, findEvidence, findServer, importsRpython, INSTALL_HINT } from './activation';

const SECTION = 'rpy-lsp';

/** The running clients, by workspace folder URI (or the file URI of a lone file). */
const clients = new Map<string, LanguageClient>();
let outputChannel: vscode.OutputChannel | undefined;
let warnedMissing = false;

interface FlowGraphResult {
  dot: string | null;
}

/** The settings the server reads, in the shape of its `rpy-lsp` section. */
function serverSettings(folder: vscode.WorkspaceFolder): object {
  const cfg = vscode.workspace.getConfiguration(SECTION, folder.uri);
  return {
    entryPoints: cfg.get<string[]>('entryPoints', []),
    searchPaths: cfg.get<string[]>('searchPaths', []),
    inlayHints: { enable: cfg.get<boolean>('inlayHints.enable', true) },
  };
}

/** `rpy-lsp.serverPath` for `folder`: `${workspaceFolder}` expanded, a relative path made
 *  absolute against the folder, then found (a bare name on PATH or in ~/.cargo/bin). */
function serverCommand(folder: vscode.WorkspaceFolder): string | undefined {
  let configured = vscode.workspace.getConfiguration(SECTION, folder.uri).get<string>('serverPath', 'rpy-lsp').trim() || 'rpy-lsp';
  configured = configured.replace(/\$\{workspaceFolder\}/g, folder.uri.fsPath);
  const looksLikePath = configured.includes('/') || configured.includes('\\');
  if (looksLikePath && !path.isAbsolute(configured)) {
    configured = path.join(folder.uri.fsPath, configured);
  }
  return findServer(configured, process.env, process.platform);
}

/** Unsaved Python buffers and pyproject.toml files, by path: they count with their text. */
function openBuffers(): Map<string, string> {
  const out = new Map<string, string>();
  for (const doc of vscode.workspace.textDocuments) {
    if (doc.uri.scheme === 'file' && (doc.languageId === 'python' || doc.fileName.endsWith('pyproject.toml'))) {
      out.set(doc.uri.fsPath, doc.getText());
    }
  }
  return out;
}

/** `rpy-lsp.running` (used by the commands' `when` clauses): some folder has a server. */
function updateContext(): void {
  void vscode.commands.executeCommand('setContext', 'rpy-lsp.running', clients.size > 0);
}

async function warnMissing(): Promise<void> {
  if (warnedMissing) {
    return;
  }
  warnedMissing = true;
  const choice = await vscode.window.showWarningMessage(INSTALL_HINT, 'Copy Install Command', 'Open Settings');
  if (choice === 'Copy Install Command') {
    await vscode.env.clipboard.writeText('cargo install --path . --locked');
  } else if (choice === 'Open Settings') {
    await vscode.commands.executeCommand('workbench.action.openSettings', 'rpy-lsp.serverPath');
  }
}

/** Starts the server of `folder` if the folder shows RPython and has none yet. */
async function startFolder(folder: vscode.WorkspaceFolder): Promise<void> {
  const key = folder.uri.toString();
  if (clients.has(key) || folder.uri.scheme !== 'file') {
    return;
  }
  const evidence = findEvidence(folder.uri.fsPath, openBuffers());
  if (!evidence) {
    return;
  }
  const command = serverCommand(folder);
  if (!command) {
    await warnMissing();
    return;
  }
  outputChannel ??= vscode.window.createOutputChannel('RPython (rpy-lsp)');
  outputChannel.appendLine(`${folder.name}: RPython (${evidence.kind} in ${evidence.file}); starting ${command} serve`);
  const serverOptions: ServerOptions = {
    run: { command, args: ['serve'], transport: TransportKind.stdio, options: { cwd: folder.uri.fsPath } },
    debug: { command, args: ['serve'], transport: TransportKind.stdio, options: { cwd: folder.uri.fsPath, env: { ...process.env, RPY_LSP_TRACE: '1' } } },
  };
  const clientOptions: LanguageClientOptions = {
    // This folder's Python files only: each folder has its own server and root.
    documentSelector: [{ scheme: 'file', language: 'python', pattern: `${folder.uri.fsPath}/**/*` }],
    workspaceFolder: folder,
    initializationOptions: serverSettings(folder),
    synchronize: {
      // Pushes `{"rpy-lsp": {...}}` in workspace/didChangeConfiguration.
      configurationSection: SECTION,
      fileEvents: vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, '**/{*.py,pyproject.toml}')),
    },
    outputChannel,
  };
  const client = new LanguageClient(SECTION, `RPython (rpy-lsp): ${folder.name}`, serverOptions, clientOptions);
  clients.set(key, client);
  updateContext();
  try {
    await client.start();
  } catch (err) {
    clients.delete(key);
    updateContext();
    const choice = await vscode.window.showErrorMessage(
      `Could not start the RPython language server \`${command} serve\` for ${folder.name}: ${err}`,
      'Open Settings',
    );
    if (choice === 'Open Settings') {
      await vscode.commands.executeCommand('workbench.action.openSettings', 'rpy-lsp.serverPath');
    }
  }
}

async function stopFolder(key: string): Promise<void> {
  const old = clients.get(key);
  clients.delete(key);
  updateContext();
  if (old) {
    try {
      await old.stop();
    } catch {
      // Already stopped or never started.
    }
  }
}

async function startAll(): Promise<void> {
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    await startFolder(folder);
  }
}

async function restartServers(): Promise<void> {
  for (const key of [...clients.keys()]) {
    await stopFolder(key);
  }
  warnedMissing = false;
  await startAll();
}

/** The client serving the active editor's document. */
function clientFor(uri: vscode.Uri): LanguageClient | undefined {
  const folder = vscode.workspace.getWorkspaceFolder(uri);
  return folder ? clients.get(folder.uri.toString()) : undefined;
}

async function showFlowGraph(): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.languageId !== 'python') {
    vscode.window.showInformationMessage('Put the cursor inside a Python function first.');
    return;
  }
  const client = clientFor(editor.document.uri);
  if (!client || !client.isRunning()) {
    vscode.window.showWarningMessage('The RPython language server is not running for this folder (it starts only where RPython is).');
    return;
  }
  const params = {
    textDocument: { uri: client.code2ProtocolConverter.asUri(editor.document.uri) },
    position: client.code2ProtocolConverter.asPosition(editor.selection.active),
  };
  const result = await client.sendRequest<FlowGraphResult>('rpy-lsp/flowGraph', params);
  if (!result || !result.dot) {
    vscode.window.showInformationMessage('No flow graph here: the cursor is not inside a function of the program.');
    return;
  }
  const doc = await vscode.workspace.openTextDocument({ language: 'dot', content: result.dot });
  await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: true });
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  // A folder that becomes RPython (a target written, an rpython import, a `[tool.rpy-lsp]`
  // added) gets its server then. Only the document's own text is read: a folder without
  // RPython is not walked again on every save.
  const recheck = async (doc: vscode.TextDocument): Promise<void> => {
    const folder = vscode.workspace.getWorkspaceFolder(doc.uri);
    if (!folder || clients.has(folder.uri.toString())) {
      return;
    }
    const text = doc.getText();
    const shows = doc.fileName.endsWith('pyproject.toml')
      ? declaresToolSection(text)
      : doc.languageId === 'python' && (definesTarget(text) || importsRpython(text));
    if (shows) {
      await startFolder(folder);
    }
  };
  context.subscriptions.push(
    vscode.commands.registerCommand('rpy-lsp.restartServer', restartServers),
    vscode.commands.registerCommand('rpy-lsp.showFlowGraph', showFlowGraph),
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      // The other settings reach the running servers through didChangeConfiguration.
      if (e.affectsConfiguration(`${SECTION}.serverPath`)) {
        await restartServers();
      }
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(async (e) => {
      for (const f of e.removed) {
        await stopFolder(f.uri.toString());
      }
      for (const f of e.added) {
        await startFolder(f);
      }
    }),
    vscode.workspace.onDidSaveTextDocument(recheck),
    vscode.workspace.onDidOpenTextDocument(recheck),
  );
  await startAll();
}

export async function deactivate(): Promise<void> {
  for (const key of [...clients.keys()]) {
    await stopFolder(key);
  }
}
