/** Reads a whole stream as bytes (a CSV on stdin, whose encoding is checked later). */
export async function readAllBytes(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}

/** Reads a whole stream as UTF-8 (tokens and request bodies piped on stdin). */
export async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  return (await readAllBytes(stream)).toString('utf8');
}
