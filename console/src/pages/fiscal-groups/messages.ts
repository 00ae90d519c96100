export const fiscalGroupsMessages = {
  en: {},
  'pt-BR': {},
};
