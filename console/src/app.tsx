import { lazy, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { BrowserRouter, Navigate, Route, Routes, useLocation } from 'react-router';
import { SignInPage } from './auth/sign-in-page';
import { useSessionToken } from './auth/use-session';
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

/** Signed out (or expired): to the sign-in page, remembering where to come back to. */
function RequireSession({ children }: { children: ReactNode }) {
  const token = useSessionToken();
  const location = useLocation();
  if (!token) return <Navigate to="/sign-in" replace state={{ from: `${location.pathname}${location.search}` }} />;
  return children;
}

function NotFound() {
  const { t } = useTranslation();
  return <EmptyState>{t('states.notFound')}</EmptyState>;
}

export function App() {
  return (
    <BrowserRouter basename="/console">
      <Routes>
        <Route path="/sign-in" element={<SignInPage />} />
        <Route
          element={
            <RequireSession>
              <Shell />
            </RequireSession>
          }
        >
          <Route index element={<DashboardPage />} />
          <Route path="orders" element={<OrdersPage />} />
          <Route path="orders/:id" element={<OrderDetailPage />} />
          <Route path="fiscal-groups" element={<FiscalGroupsPage />} />
          <Route path="fiscal-groups/new" element={<FiscalGroupEditPage />} />
          <Route path="fiscal-groups/:id" element={<FiscalGroupEditPage />} />
          <Route path="categories" element={<CategoriesPage />} />
          <Route path="calculator" element={<CalculatorPage />} />
          <Route path="*" element={<NotFound />} />
        </Route>
      </Routes>
    </BrowserRouter>
  );
}
