/**
 * What a tool of `members mcp` is: a name, a description a model can use, a
 * zod input schema, the MCP annotations, and the work, which returns data and
 * a one-line summary (answer.ts turns them into the tool's result: masked,
 * capped, labelled as data).
 */
import type * as z from 'zod';
import type { Api } from '../../api/client.js';
import type { Session } from '../../session/session.js';

export interface McpSettings {
  /** --allow-writes: the tools that change something are listed (each still asks the person). */
  allowWrites: boolean;
  /** --max-rows: the most records one answer holds; the true total is always stated. */
  maxRows: number;
  /** --show-personal-data: e-mails, documents, phones and birth dates unmasked. */
  showPersonalData: boolean;
}

/** What a change shows the person before it is made, and what they answer. */
export interface Confirmation {
  /** What will change, by name: the student, the product, the dates. */
  message: string;
  /** A file the person may name in the same form (a field of theirs: no tool argument can), and what it is for. */
  file?: { title: string; description: string };
}

/** The person's answer to a confirmation: the reason, and the file they named, if asked and given. */
export interface Confirmed {
  reason: string;
  file?: string;
}

export interface ToolContext {
  session: Session;
  settings: McpSettings;
  api(): Promise<Api>;
  /**
   * Asks the person, through the client's form (MCP elicitation), to confirm
   * a change and give its reason; resolves to their answer. Throws, and so
   * nothing is sent, when they decline or the client cannot ask.
   */
  confirm(confirmation: Confirmation): Promise<Confirmed>;
  /** Shows the person a message through the client's form, outside the tool's answer (a magic link). */
  showPerson(message: string): Promise<void>;
  /** The assistant's client as it named itself (initialize clientInfo): `Claude Desktop 1.2.3`. */
  client(): string;
}

/** A tool's data and its summary, before answer.ts shapes them. */
export interface Answer {
  summary: string;
  data: Record<string, unknown>;
}

export interface Annotations {
  readOnlyHint: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  /** The platform is a closed world: every tool reads or changes its records only. */
  openWorldHint: false;
}

export interface Tool {
  name: string;
  title: string;
  description: string;
  input: z.ZodObject;
  annotations: Annotations;
  run(args: Record<string, unknown>, context: ToolContext): Promise<Answer>;
}

/** A tool whose work receives its arguments typed by its schema. */
export function tool<S extends z.ZodObject>(spec: Omit<Tool, 'input' | 'run'> & { input: S; run(args: z.infer<S>, context: ToolContext): Promise<Answer> }): Tool {
  return spec as unknown as Tool;
}
