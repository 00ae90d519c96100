export const categoriesMessages = {
  en: {},
  'pt-BR': {},
};
