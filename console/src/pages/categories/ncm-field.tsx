import { Autocomplete, Badge, Group, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, unwrap, type Schemas } from '../../api/client';
import { DESCRIPTION_STYLES } from './styles';

export type NcmInfo = Schemas['NcmInfoDto'];

/** How many suggestions the field lists while a person types. */
const SUGGESTIONS = 8;

/** A flag for an NCM the table does not hold valid today; nothing for a valid one, or when no table is installed. */
export function NcmStatusBadge({ status }: { status: NcmInfo['status'] }) {
  const { t } = useTranslation('categories');
  if (status === 'valid' || status === 'no-table') return null;
  return (
    <Badge color={status === 'unknown' ? 'red' : 'orange'} variant="light" size="sm">
      {t(`ncmStatus.${status}`)}
    </Badge>
  );
}

/**
 * The category's NCM: suggestions from the NCM table as the person types (a code's start or words of its description),
 * and the description of the code typed, flagged when the table lacks it or it is no longer valid.
 */
export function NcmField({
  value,
  onChange,
  error,
  label,
}: {
  value: string;
  onChange: (value: string) => void;
  error?: React.ReactNode;
  label: string;
}) {
  const { t } = useTranslation('categories');
  const [typed] = useDebouncedValue(value.trim(), 200);
  const suggestions = useQuery({
    queryKey: ['ncm', 'search', typed],
    queryFn: async () => unwrap(await api.GET('/api/admin/ncm', { params: { query: { q: typed, pageSize: SUGGESTIONS } } })),
    enabled: typed.length >= 2 && !/^\d{8}$/.test(typed),
    staleTime: Infinity,
  });
  const code = /^\d{8}$/.test(value.trim()) ? value.trim() : null;
  const described = useQuery({
    queryKey: ['ncm', 'code', code],
    queryFn: async () => unwrap(await api.GET('/api/admin/ncm/{code}', { params: { path: { code: code! } } })),
    enabled: code !== null,
    staleTime: Infinity,
  });
  // The options are the codes (what the field takes); each is shown with its description.
  const descriptions = new Map((suggestions.data?.items ?? []).map((item) => [item.code, item.description]));
  const options = [...descriptions.keys()];
  const info = code ? described.data : undefined;

  return (
    <div>
      <Autocomplete
        label={label}
        description={t('ncmHint')}
        styles={DESCRIPTION_STYLES}
        required
        inputMode="search"
        value={value}
        onChange={onChange}
        error={error}
        data={options}
        // The API already chose and ordered the suggestions: no second filter on the client.
        filter={({ options: all }) => all}
        limit={SUGGESTIONS}
        renderOption={({ option }) => <Text size="sm">{`${option.value} — ${descriptions.get(option.value) ?? ''}`}</Text>}
      />
      {info && (
        <Group gap="xs" mt={4} wrap="nowrap" data-testid="ncm-description">
          <NcmStatusBadge status={info.status} />
          <Text size="xs" c="gray.7">
            {info.status === 'no-table' ? t('ncmNoTable') : (info.description ?? t('ncmUnknown'))}
          </Text>
        </Group>
      )}
    </div>
  );
}
