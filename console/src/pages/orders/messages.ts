export const ordersMessages = {
  en: {},
  'pt-BR': {},
};
