import { examples, lazyAction, registration } from '../shared/command-kit.js';

/** The JSON a person pastes into an assistant's settings (Claude Desktop: claude_desktop_config.json; VS Code: .vscode/mcp.json, "servers"). */
const CLIENT_SNIPPET = `{
  "mcpServers": {
    "members": { "command": "members", "args": ["mcp", "--profile", "desk"] }
  }
}`;

export const registerMcp = registration('Setup:', (program, runner) => {
  program.command('mcp')
    .description('Serve an AI assistant (Claude Desktop, VS Code, Cursor) over MCP on stdio: read-only tools, personal data masked')
    .option('--allow-writes', 'also offer grant, revoke, scores, magic links and undo; each change is confirmed by the person in a form of the client, with a reason (never by the model)')
    .option('--max-rows <n>', 'the most records one tool answer holds (the true total is always stated)', '50')
    .option('--show-personal-data', 'send e-mails, CPFs, phones and birth dates unmasked to the assistant (see LGPD below)')
    .option('--check', 'start the server, list its tools and exit 0 (for the person setting it up)')
    .addHelpText('after', `
The assistant's client starts \`members mcp\` itself and speaks MCP on its stdin
and stdout; the profile's token stays in members. Tools: find_student,
show_student, list_subscriptions, course_accesses, list_products, list_courses,
history, engaged_courses_summary; with --allow-writes also grant_product,
revoke_product, set_score, add_score_points, magic_link and undo_change (one
change). Bulk runs (--file, import), sync, students delete and transfer,
subscriptions extend, auth and history --forget are never tools.

Changes: without --allow-writes no tool that changes anything is listed. With
it, each change is shown to the person in a form of the client (MCP
elicitation: the student, the product and the dates by name) and needs their
reason; a client without forms is refused, and no argument lets the model
confirm. A magic link never reaches the model: a second form shows it to the
person, or it is written (0600) to a file they name in the confirmation form.
Every change is recorded with via mcp, the client's name and the reason
(members history).

Personal data (LGPD): tool answers go to the assistant's model, usually a
service outside your company. By default e-mails (m***@gmail.com), CPFs
(***.456.789-**), phones (last 4 digits) and birth dates (the year) are masked,
enough to tell students apart. --show-personal-data sends them whole: that is
sharing personal data with the model's provider, which the LGPD allows only
with a legal basis and, abroad, an international transfer it permits (art. 33);
ask your DPO first. Student records are sent as data, never instructions.

Setup (Claude Desktop: claude_desktop_config.json; Cursor: ~/.cursor/mcp.json;
VS Code: .vscode/mcp.json, under "servers" instead of "mcpServers"):
${CLIENT_SNIPPET}
${examples(
    'members mcp --check                     # the tools, and whether the profile can connect',
    'members mcp --profile desk              # what the client runs',
    'members mcp --allow-writes --max-rows 20',
  )}docs/mcp.md has the whole setup and the safety model.
`)
    .action(lazyAction(runner, () => import('./actions.js'), 'mcp'));
});
