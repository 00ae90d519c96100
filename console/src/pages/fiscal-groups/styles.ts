/** Mantine's default description colour is too light for WCAG AA contrast on white: a darker gray. */
export const DESCRIPTION_STYLES = { description: { color: 'var(--mantine-color-gray-7)' } };
