// A server for the report's memory figure: the engaged-courses endpoint alone,
// with ROWS generated rows behind next_cursor pages, so 1,000,000 rows need no
// sandbox of 700,000 students. Prints its base URL, then serves until killed.
// Usage: node report-server.mjs ROWS
import { createServer } from 'node:http';

const rows = Number(process.argv[2]);
const COURSES = ['Confeitaria Profissional', 'Programação em Python', 'Fotografia Digital', 'Yoga para Iniciantes'];
const pad = (n, width) => String(n).padStart(width, '0');

function row(i) {
  const student = `00000000-0000-4000-8000-${pad(i, 12)}`;
  const course = `c0000000-0000-4000-8000-${pad(i % 50, 12)}`;
  return {
    id: `${student}|${course}`, user_id: student, course_id: course, course_name: COURSES[i % COURSES.length],
    product_name: 'Combo Criativo: Fotografia + Confeitaria', first_name: 'João', last_name: 'da Conceição',
    phone: `+55 11 9${pad(i % 100_000_000, 8)}`, document: `${pad(i % 1000, 3)}.${pad(i % 997, 3)}.${pad(i % 991, 3)}-${pad(i % 97, 2)}`,
    email: `aluno${i}@example.com.br`, registration_date: '2024-03-05 14:22:00',
    course_completion_percent: `${(i % 10_001) / 100}`.replace(/^(\d+)$/, '$1.00').replace(/\.(\d)$/, '.$10'), course_avg_engagement_score: '80.70',
  };
}

const server = createServer((request, response) => {
  const url = new URL(request.url, 'http://localhost');
  if (!url.pathname.startsWith('/api/partners/reports/engaged-courses/')) {
    response.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not Found"}');
    return;
  }
  const limit = Number(url.searchParams.get('limit') ?? 500);
  const cursor = url.searchParams.get('cursor');
  const from = cursor ? Number(Buffer.from(cursor, 'base64url').toString()) : 0;
  const to = Math.min(rows, from + limit);
  const data = [];
  for (let i = from; i < to; i++) data.push(row(i));
  const next = to < rows ? Buffer.from(String(to)).toString('base64url') : null;
  const base = `http://${request.headers.host}${url.pathname}`;
  response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({
    data, path: base, per_page: limit, next_cursor: next, next_page_url: next && `${base}?cursor=${next}`, prev_cursor: null, prev_page_url: null,
  }));
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => console.log(`http://127.0.0.1:${server.address().port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
