import { mockServices } from '@backstage/backend-test-utils';

/** One audit event as a test sees it: how it was created, and how it ended. */
export interface AuditRecord {
  options: any;
  outcome?: 'success' | 'failure';
  meta?: any;
}

/**
 * Makes the auditor mock keep every event it is asked to create (those
 * `keep` accepts) in `records`, with the outcome and meta it ends with.
 */
export function recordAuditEvents(
  auditor: ReturnType<typeof mockServices.auditor.mock>,
  records: AuditRecord[],
  keep: (options: any) => boolean = () => true,
) {
  auditor.createEvent.mockImplementation(async (options: any) => {
    const record: AuditRecord = { options };
    if (keep(options)) records.push(record);
    return {
      success: async (o?: any) => {
        record.outcome = 'success';
        record.meta = o?.meta;
      },
      fail: async (o: any) => {
        record.outcome = 'failure';
        record.meta = { ...o?.meta, error: o?.error?.message };
      },
    };
  });
}

