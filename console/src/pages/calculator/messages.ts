export const calculatorMessages = {
  en: {},
  'pt-BR': {},
};
