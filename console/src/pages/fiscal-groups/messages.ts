// Imports with .js: the service's tests read the console's messages under node16 resolution.
import { listMessages } from './messages-list.js';
import { editMessages } from './messages-edit.js';
import { csvMessages } from './messages-csv.js';
import { revisionsMessages } from './messages-revisions.js';
import { scheduleMessages } from './messages-schedule.js';
import { impactMessages } from './messages-impact.js';
import { fieldsMessages } from './messages-fields.js';

/** The fiscal groups' namespace, one file per part of the pages it translates. */
export const fiscalGroupsMessages = {
  en: {
    list: listMessages.en,
    edit: editMessages.en,
    csv: csvMessages.en,
    revisions: revisionsMessages.en,
    schedule: scheduleMessages.en,
    impact: impactMessages.en,
    fields: fieldsMessages.en,
  },
  'pt-BR': {
    list: listMessages['pt-BR'],
    edit: editMessages['pt-BR'],
    csv: csvMessages['pt-BR'],
    revisions: revisionsMessages['pt-BR'],
    schedule: scheduleMessages['pt-BR'],
    impact: impactMessages['pt-BR'],
    fields: fieldsMessages['pt-BR'],
  },
};
