import { Alert, Anchor, List, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { unplacedProblems, type SaveFailure } from './save-failure';

/** The failed save: the stores held by other groups (each a link to its group) and the problems not shown at a field. */
export function SaveFailureAlert({ failure, ncms }: { failure: SaveFailure; ncms: string[] }) {
  const { t } = useTranslation('fiscalGroups');
  const unplaced = unplacedProblems(failure, ncms);
  return (
    <Alert color="red" role="alert" title={t('edit.saveFailed', { message: failure.problem.message })}>
      {failure.conflicts.length > 0 && (
        <Stack gap={4} mb={unplaced.length ? 'sm' : 0} data-testid="store-conflicts">
          <Text fw={600} size="sm">
            {t('edit.conflictTitle')}
          </Text>
          {failure.conflicts.map((conflict) => (
            <Text size="sm" key={conflict.storeId}>
              {conflict.groupId ? (
                <>
                  {t('edit.conflict', { storeId: conflict.storeId })}{' '}
                  <Anchor component={Link} to={`/fiscal-groups/${conflict.groupId}`} inherit>
                    {conflict.groupName || conflict.groupId}
                  </Anchor>
                  .
                </>
              ) : (
                t('edit.conflictUnknown', { storeId: conflict.storeId })
              )}
            </Text>
          ))}
        </Stack>
      )}
      {unplaced.length > 0 && (
        <>
          <Text fw={600} size="sm">
            {t('edit.otherProblems')}
          </Text>
          <List size="sm">
            {unplaced.map((text, index) => (
              <List.Item key={index}>{text}</List.Item>
            ))}
          </List>
        </>
      )}
    </Alert>
  );
}
