// Imports with .js, unlike the rest of the console: the service's tests read this file under node16 resolution.
import { commonMessages } from './common-messages.js';
import { dashboardMessages } from '../pages/dashboard/messages.js';
import { ordersMessages } from '../pages/orders/messages.js';
import { fiscalGroupsMessages } from '../pages/fiscal-groups/messages.js';
import { categoriesMessages } from '../pages/categories/messages.js';
import { calculatorMessages } from '../pages/calculator/messages.js';
import { peopleMessages } from '../pages/people/messages.js';
import { clientsMessages } from '../pages/clients/messages.js';
import { auditMessages } from '../pages/audit/messages.js';
import { reportsMessages } from '../pages/reports/messages.js';
import { statusAliasesMessages } from '../pages/status-aliases/messages.js';
import { channelsMessages } from '../pages/channels/messages.js';
import { setPasswordMessages } from '../pages/set-password/messages.js';
import { taxBreakdownMessages } from '../common/tax-breakdown-messages.js';
import { invoiceMessages } from '../pages/orders/invoice/invoice-messages.js';
import { problemMessages } from './problem-messages.js';
import { personalDataMessages } from '../pages/personal-data/messages.js';

/** Each feature keeps its own messages, as a namespace named after it. */
export const namespaces = {
  common: commonMessages,
  dashboard: dashboardMessages,
  orders: ordersMessages,
  fiscalGroups: fiscalGroupsMessages,
  categories: categoriesMessages,
  calculator: calculatorMessages,
  taxBreakdown: taxBreakdownMessages,
  people: peopleMessages,
  clients: clientsMessages,
  audit: auditMessages,
  reports: reportsMessages,
  statusAliases: statusAliasesMessages,
  channels: channelsMessages,
  setPassword: setPasswordMessages,
  invoice: invoiceMessages,
  problems: problemMessages,
  personalData: personalDataMessages,
};
