// gitcontext for VS Code: starts `git context lsp` (stdio) for agent context files.
// The server does the work; this file only starts it and gives three commands an editor's face:
// record why asks for the text, show blame opens the life of the rule, trial puts the command in a terminal.
"use strict";

const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

const RECORD = "gitcontext.recordWhy";
const BLAME = "gitcontext.showBlame";
const TRIAL = "gitcontext.trialRule";

// Markdown and .mdc files, and the plain-text rule files; the server answers only for context files.
const DOCUMENTS = [
  { scheme: "file", language: "markdown" },
  { scheme: "file", pattern: "**/*.mdc" },
  { scheme: "file", pattern: "**/{.cursorrules,.windsurfrules,.clinerules}" },
];

let client;

async function executeCommand(command, args, next) {
  if (command === RECORD && args.length < 3) {
    const why = await vscode.window.showInputBox({
      title: "Why does this instruction exist?",
      prompt: "What failed without it, how often, a link. Kept in .context/notes, never shown to the agent.",
      ignoreFocusOut: true,
    });
    if (!why) {
      return undefined;
    }
    args = [...args, why];
  }
  const result = await next(command, args);
  if (command === BLAME && result && result.text) {
    const doc = await vscode.workspace.openTextDocument({ content: result.text });
    await vscode.window.showTextDocument(doc, { preview: true });
  }
  if (command === TRIAL && result && result.command) {
    const terminal = vscode.window.createTerminal("gitcontext trial");
    terminal.show();
    terminal.sendText(result.command, false); // typed, not run: the test command is the person's
  }
  return result;
}

function serverOptions() {
  const config = vscode.workspace.getConfiguration("gitcontext");
  const command = config.get("server.command", "git-context");
  const args = config.get("server.args", ["lsp"]);
  return { command, args, transport: TransportKind.stdio };
}

function activate(context) {
  client = new LanguageClient("gitcontext", "gitcontext", serverOptions(), {
    documentSelector: DOCUMENTS,
    middleware: { executeCommand },
  });
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate, executeCommand, DOCUMENTS };
