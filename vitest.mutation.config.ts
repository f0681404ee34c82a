/**
 * The vitest configuration `npm run mutation` (Stryker) runs: the unit and
 * property tests written for the mutated modules (stryker.config.mjs), and
 * nothing else. Stryker runs the tests that reach a mutant once per mutant,
 * so this leaves out the globalSetup (nothing here spawns dist/, so nothing
 * needs building), test/e2e/, and the in-process CLI tests that go through
 * main() (each reaches nearly every module, which tripled the run to well
 * over an hour); the modules must be pinned by tests of their own. The
 * record's tests on PostgreSQL share one cluster, started by the globalSetup
 * once per Stryker run (not per mutant) and ended with it.
 */
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import base from './vitest.config.js';

/**
 * The in-process CLI files after every other: their commands import most
 * modules lazily, inside a test, and in one module graph a module's top-level
 * code counts as covered by the test that loads it first. Loaded by a unit
 * file's imports first, it is Stryker's static code, which every test checks.
 */
class CliLast extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const cli = (file: TestSpecification) => file.moduleId.includes('/test/cli/');
    return [...sorted.filter((file) => !cli(file)), ...sorted.filter(cli)];
  }
}

// Without the two tiers' projects (each with its globalSetup and its files): one root project of the files below.
const { projects: _tiers, ...test } = base.test ?? {};

export default defineConfig({
  ...base,
  test: {
    ...test,
    // One module graph for all the files: a fresh import per file per mutant would be most of the run
    // (Stryker swaps mutants through a global, and the results are the same as isolated: checked).
    isolate: false,
    globalSetup: ['test/helpers/postgres-setup.ts'],
    sequence: { ...test.sequence, sequencer: CliLast },
    include: [
      'test/unit/api/retry-policy.test.ts',
      'test/unit/api/redact.test.ts',
      'test/unit/api/paginate*.test.ts',
      'test/property/*.test.ts',
      'test/unit/output/csv*.test.ts',
      'test/unit/output/fields*.test.ts',
      'test/unit/output/xlsx.test.ts',
      // csv and json on a terminal (output/csv.ts sanitizes cells there).
      'test/unit/output/sanitize.test.ts',
      'test/unit/bulk/csv*.test.ts',
      'test/unit/bulk/pool.test.ts',
      'test/unit/bulk/xlsx-input.test.ts',
      'test/unit/domain/changes.test.ts',
      'test/unit/domain/changes-api.test.ts',
      'test/unit/domain/engine.test.ts',
      'test/unit/domain/snapshot.test.ts',
      'test/unit/domain/read-plan.test.ts',
      'test/unit/domain/course-audience.test.ts',
      'test/unit/domain/course-engagement.test.ts',
      'test/unit/domain/counts-over-time.test.ts',
      'test/unit/output/bar.test.ts',
      'test/unit/domain/extend.test.ts',
      'test/unit/domain/transfer.test.ts',
      'test/unit/domain/undo.test.ts',
      'test/unit/domain/undo-apply.test.ts',
      'test/unit/domain/undo-plan.test.ts',
      'test/unit/domain/reads.test.ts',
      'test/unit/domain/email-slips.test.ts',
      'test/unit/domain/cpf-slip.test.ts',
      'test/unit/api/student-key.test.ts',
      // A phone as a student key (lib/phone.ts) and the one read of the student list it takes (phone-scan.ts).
      'test/unit/lib/phone.test.ts',
      'test/unit/api/get-student.test.ts',
      'test/unit/domain/sync-*.test.ts',
      'test/unit/config/settings.test.ts',
      'test/unit/config/token-storage.test.ts',
      'test/unit/config/update-notice.test.ts',
      'test/unit/config/record-setting.test.ts',
      'test/unit/values.test.ts',
      'test/unit/audit/journal.test.ts',
      'test/unit/audit/resolve.test.ts',
      'test/unit/audit/runs.test.ts',
      'test/unit/audit/forget.test.ts',
      'test/unit/bulk/seen-keys.test.ts',
      'test/unit/mcp/mask.test.ts',
      'test/unit/mcp/answer.test.ts',
      'test/unit/mcp/front.test.ts',
      // members each: the expander, the policy, the resume planner, the shorthands' columns.
      'test/unit/each/template.test.ts',
      'test/unit/each/resume.test.ts',
      'test/unit/each/names.test.ts',
      // runShorthand itself: the one in-process CLI file here (three tests), as the forms run only through a session.
      'test/cli/each/shorthand.test.ts',
      // The change record, its two homes (one on PostgreSQL) and the leases.
      'test/unit/audit/change-record.test.ts',
      'test/unit/audit/group-commit.test.ts',
      'test/unit/audit/leases.test.ts',
    ],
  },
});
