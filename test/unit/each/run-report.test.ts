import { describe, expect, it } from 'vitest';
import { hostOf, notifyBody, summaryText } from '../../../src/entry/run-report.js';
import { runSummary } from '../../../src/entry/run-summary.js';

const failed = runSummary({
  command: 'each', profile: 'production', exitCode: 7, seconds: 12.34,
  facts: { run_id: 'r1', counts: { done: 28, skipped: 0, failed: 2 }, failures: [{ line: 4, message: 'student with e-mail x@y.z not found' }] },
});

describe('what cron is told', () => {
  it('a summary says when a person is needed: exit 2, or 7 and above, not an interrupt or a closed pipe', () => {
    expect(failed).toMatchObject({ command: 'each', profile: 'production', run_id: 'r1', exit_code: 7, person_needed: true, duration_s: 12.3 });
    for (const [exitCode, needed] of [[0, false], [2, true], [4, false], [6, false], [7, true], [8, true], [9, true], [130, false], [141, false]] as const) {
      expect(runSummary({ command: 'sync', exitCode, seconds: 1 }).person_needed).toBe(needed);
    }
    expect(runSummary({ command: 'sync', exitCode: 0, seconds: 1 })).toMatchObject({ profile: null, run_id: null, counts: null, by_product: null, failures: [] });
  });

  it('chat webhooks get a text, chosen by host; anything else the summary itself', () => {
    const text = 'members each on profile production: exit 7 (a person is needed)\nrows: 28 done, 2 failed\nfirst failure (line 4): student with e-mail x@y.z not found\nrun r1 (members history --run r1)';
    expect(summaryText(failed)).toBe(text);
    for (const url of ['https://hooks.slack.com/services/T/B/X', 'https://chat.googleapis.com/v1/spaces/A/messages?key=k', 'https://acme.webhook.office.com/webhookb2/x', 'https://outlook.office.com/webhook/x']) {
      expect(notifyBody(url, failed)).toEqual({ text });
    }
    expect(notifyBody('https://ops.example.com/hooks/members', failed)).toBe(failed);
  });

  it('names a URL by its host only: the path of a webhook is its secret', () => {
    expect(hostOf('https://hooks.slack.com/services/T0/B0/SECRET')).toBe('hooks.slack.com');
    expect(hostOf('https://user:pass@hc-ping.com:8443/uuid')).toBe('hc-ping.com:8443');
    expect(hostOf('not a url')).toBe('an invalid URL');
  });
});
