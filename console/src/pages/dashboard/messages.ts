export const dashboardMessages = {
  en: {},
  'pt-BR': {},
};
