import { lazy, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { BrowserRouter, Route, Routes } from 'react-router';
import type { Role } from './auth/roles';
import { RequireRole, RequireSession } from './auth/require-session';
import { SignInPage } from './auth/sign-in-page';
import { EmptyState } from './common/states';
import { Shell } from './layout/shell';

// Each page is its own chunk: the initial bundle carries the shell and sign-in only.
const DashboardPage = lazy(() => import('./pages/dashboard/dashboard-page').then((m) => ({ default: m.DashboardPage })));
const OrdersPage = lazy(() => import('./pages/orders/orders-page').then((m) => ({ default: m.OrdersPage })));
const OrderDetailPage = lazy(() => import('./pages/orders/order-detail-page').then((m) => ({ default: m.OrderDetailPage })));
const FiscalGroupsPage = lazy(() => import('./pages/fiscal-groups/fiscal-groups-page').then((m) => ({ default: m.FiscalGroupsPage })));
const FiscalGroupEditPage = lazy(() =>
  import('./pages/fiscal-groups/fiscal-group-edit-page').then((m) => ({ default: m.FiscalGroupEditPage })),
);
const CategoriesPage = lazy(() => import('./pages/categories/categories-page').then((m) => ({ default: m.CategoriesPage })));
const CalculatorPage = lazy(() => import('./pages/calculator/calculator-page').then((m) => ({ default: m.CalculatorPage })));
const PeoplePage = lazy(() => import('./pages/people/people-page').then((m) => ({ default: m.PeoplePage })));
const ClientsPage = lazy(() => import('./pages/clients/clients-page').then((m) => ({ default: m.ClientsPage })));
const ClientPage = lazy(() => import('./pages/clients/client-page').then((m) => ({ default: m.ClientPage })));
const StatusAliasesPage = lazy(() => import('./pages/status-aliases/status-aliases-page').then((m) => ({ default: m.StatusAliasesPage })));
const ChannelsPage = lazy(() => import('./pages/channels/channels-page').then((m) => ({ default: m.ChannelsPage })));
const ReportsPage = lazy(() => import('./pages/reports/reports-page').then((m) => ({ default: m.ReportsPage })));
const AuditPage = lazy(() => import('./pages/audit/audit-page').then((m) => ({ default: m.AuditPage })));
const PersonalDataPage = lazy(() => import('./pages/personal-data/personal-data-page').then((m) => ({ default: m.PersonalDataPage })));
const AccountSecurityPage = lazy(() => import('./pages/account/account-security-page').then((m) => ({ default: m.AccountSecurityPage })));
const SignInSettingsPage = lazy(() => import('./pages/account/sign-in-settings-page').then((m) => ({ default: m.SignInSettingsPage })));
const SetPasswordPage = lazy(() => import('./pages/set-password/set-password-page').then((m) => ({ default: m.SetPasswordPage })));

function NotFound() {
  const { t } = useTranslation();
  return <EmptyState>{t('states.notFound')}</EmptyState>;
}

const least = (role: Role, page: ReactNode) => <RequireRole role={role}>{page}</RequireRole>;

export function App() {
  return (
    <BrowserRouter basename="/console">
      <Routes>
        <Route path="/sign-in" element={<SignInPage />} />
        <Route path="/set-password" element={<SetPasswordPage />} />
        <Route
          element={
            <RequireSession>
              <Shell />
            </RequireSession>
          }
        >
          <Route index element={least('support', <DashboardPage />)} />
          <Route path="orders" element={least('support', <OrdersPage />)} />
          <Route path="orders/:id" element={least('support', <OrderDetailPage />)} />
          <Route path="fiscal-groups" element={least('fiscal', <FiscalGroupsPage />)} />
          <Route path="fiscal-groups/new" element={least('fiscal', <FiscalGroupEditPage />)} />
          <Route path="fiscal-groups/:id" element={least('fiscal', <FiscalGroupEditPage />)} />
          <Route path="categories" element={least('fiscal', <CategoriesPage />)} />
          <Route path="calculator" element={least('fiscal', <CalculatorPage />)} />
          <Route path="status-aliases" element={least('fiscal', <StatusAliasesPage />)} />
          <Route path="reports" element={least('fiscal', <ReportsPage />)} />
          <Route path="channels" element={least('admin', <ChannelsPage />)} />
          <Route path="people" element={least('admin', <PeoplePage />)} />
          <Route path="clients" element={least('admin', <ClientsPage />)} />
          <Route path="clients/:clientId" element={least('admin', <ClientPage />)} />
          <Route path="audit" element={least('admin', <AuditPage />)} />
          <Route path="personal-data" element={least('admin', <PersonalDataPage />)} />
          <Route path="sign-in-settings" element={least('admin', <SignInSettingsPage />)} />
          <Route path="account/security" element={least('support', <AccountSecurityPage />)} />
          <Route path="*" element={<NotFound />} />
        </Route>
      </Routes>
    </BrowserRouter>
  );
}
