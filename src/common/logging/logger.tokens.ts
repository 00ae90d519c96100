export const ROOT_LOGGER = Symbol('ROOT_LOGGER');
