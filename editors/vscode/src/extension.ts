// VS Code client of rpy-lsp: starts `rpy-lsp serve` for Python files and adds two commands.
// All analysis happens in the server; this file only starts it and forwards requests.

import * as path from 'path';
import * as vscode from 'vscode';
import {
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  TransportKind,
} from 'vscode-languageclient/node';

const SECTION = 'rpy-lsp';

let client: LanguageClient | undefined;
let outputChannel: vscode.OutputChannel | undefined;

interface FlowGraphResult {
  dot: string | null;
}

/** The settings the server reads, in the shape of its `rpy-lsp` section. */
function serverSettings(): object {
  const cfg = vscode.workspace.getConfiguration(SECTION);
  return {
    entryPoints: cfg.get<string[]>('entryPoints', []),
    searchPaths: cfg.get<string[]>('searchPaths', []),
    inlayHints: { enable: cfg.get<boolean>('inlayHints.enable', true) },
  };
}

/** `rpy-lsp.serverPath`: a bare name is looked up on PATH; a relative path is relative to
 *  the first workspace folder; `${workspaceFolder}` is expanded. */
function serverCommand(): string {
  const configured = vscode.workspace.getConfiguration(SECTION).get<string>('serverPath', 'rpy-lsp').trim() || 'rpy-lsp';
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  let command = configured;
  if (folder) {
    command = command.replace(/\$\{workspaceFolder\}/g, folder);
  }
  const looksLikePath = command.includes('/') || command.includes('\\');
  if (looksLikePath && !path.isAbsolute(command) && folder) {
    command = path.join(folder, command);
  }
  return command;
}

async function startClient(): Promise<void> {
  const command = serverCommand();
  const serverOptions: ServerOptions = {
    run: { command, args: ['serve'], transport: TransportKind.stdio },
    debug: { command, args: ['serve'], transport: TransportKind.stdio, options: { env: { ...process.env, RPY_LSP_TRACE: '1' } } },
  };
  outputChannel ??= vscode.window.createOutputChannel('RPython (rpy-lsp)');
  const clientOptions: LanguageClientOptions = {
    documentSelector: [{ scheme: 'file', language: 'python' }],
    initializationOptions: serverSettings(),
    synchronize: {
      // Pushes `{"rpy-lsp": {...}}` in workspace/didChangeConfiguration.
      configurationSection: SECTION,
      fileEvents: vscode.workspace.createFileSystemWatcher('**/{*.py,pyproject.toml}'),
    },
    outputChannel,
  };
  client = new LanguageClient(SECTION, 'RPython (rpy-lsp)', serverOptions, clientOptions);
  try {
    await client.start();
  } catch (err) {
    const choice = await vscode.window.showErrorMessage(
      `Could not start the RPython language server \`${command} serve\`: ${err}. Install rpy-lsp or set "rpy-lsp.serverPath".`,
      'Open Settings',
    );
    if (choice === 'Open Settings') {
      await vscode.commands.executeCommand('workbench.action.openSettings', 'rpy-lsp.serverPath');
    }
  }
}

async function stopClient(): Promise<void> {
  const old = client;
  client = undefined;
  if (old) {
    try {
      await old.stop();
    } catch {
      // Already stopped or never started.
    }
  }
}

async function restartServer(): Promise<void> {
  await stopClient();
  await startClient();
}

async function showFlowGraph(): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.languageId !== 'python') {
    vscode.window.showInformationMessage('Put the cursor inside a Python function first.');
    return;
  }
  if (!client || !client.isRunning()) {
    vscode.window.showWarningMessage('The RPython language server is not running.');
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
  context.subscriptions.push(
    vscode.commands.registerCommand('rpy-lsp.restartServer', restartServer),
    vscode.commands.registerCommand('rpy-lsp.showFlowGraph', showFlowGraph),
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      // The other settings reach the running server through didChangeConfiguration.
      if (e.affectsConfiguration(`${SECTION}.serverPath`)) {
        await restartServer();
      }
    }),
  );
  await startClient();
}

export async function deactivate(): Promise<void> {
  await stopClient();
}
