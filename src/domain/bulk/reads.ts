/**
 * The read plan of a bulk run, carried out before its first change
 * (issue 28): `--strategy rows` reads nothing ahead; `snapshot` walks the
 * student list; `auto` reads its first page (when enough lookups are at
 * stake), probes once more on a server that counts nothing, and takes the
 * cheaper of the two (domain/read-plan.ts).
 */
import type { Api } from '../../api/client.js';
import { explain, forcedPlan, phonesNote, planReads, probePage, rowLookups, worthProbing, type ReadNeeds, type ReadPlan, type StrategyChoice } from '../read-plan.js';
import { openSnapshot, type Snapshot, type SnapshotOptions } from '../snapshot.js';
import type { CpfSpelling } from '../../api/endpoints/student-key.js';

export interface BulkReads {
  plan: ReadPlan;
  /** The state the rows read instead of asking, when the plan took it. */
  snapshot?: Snapshot;
  /** How the server writes CPFs, when the first page was read and told it: the rows' lookups try it first. */
  spelling?: CpfSpelling;
}

export interface ReadSettings extends Pick<SnapshotOptions, 'onPage' | 'signal' | 'concurrency' | 'maxConcurrency' | 'keep'> {
  choice: StrategyChoice;
  /** The snapshot needs the students' subscriptions (grant, revoke; not an import). */
  subscriptions: boolean;
}

export async function chooseReads(api: Api, needs: ReadNeeds, settings: ReadSettings): Promise<BulkReads> {
  const { choice } = settings;
  if (choice === 'rows') return { plan: forcedPlan('rows', needs) };
  if (choice === 'auto' && !worthProbing(needs)) return { plan: planReads(needs) };
  const opened = await openSnapshot(api, settings);
  let plan: ReadPlan;
  if (choice === 'snapshot') {
    plan = forcedPlan('snapshot', needs);
  } else {
    const firstPage = opened.first;
    // A file of phones reads the list whatever the count: nothing to probe for.
    const page = needs.phones ? undefined : probePage({ ...needs, firstPage });
    plan = planReads({ ...needs, firstPage, probe: page === undefined ? undefined : { page, records: await opened.probe(page) } });
    if (plan.strategy === 'rows') return firstPage.cpfSpelling === undefined ? { plan } : { plan, spelling: firstPage.cpfSpelling };
  }
  const snapshot = await opened.read();
  const extra = plan.rowsCost - rowLookups(needs);
  // What the walk really took, for the summary line.
  const reason = choice === 'snapshot' ? `${plan.reason}: read ${snapshot.pages} ${snapshot.pages === 1 ? 'page' : 'pages'}` : explain('snapshot', rowLookups(needs), snapshot.pages, true) + phonesNote(needs);
  return { plan: { ...plan, snapshotCost: snapshot.pages + extra, pagesExact: true, reason }, snapshot };
}
