import type { Schemas } from '../../api/client';

type Configuration = Schemas['ChannelsStoresResponseDto'];

/**
 * The configuration as the editor shows it: the stored one without what the service derives (each store's fiscal
 * group), which the API would otherwise keep as an extra property of the store.
 */
export function editableConfiguration(configuration: Configuration): unknown {
  return {
    ...configuration,
    stores: configuration.stores.map(({ fiscalGroupId: _derived, ...store }) => store),
  };
}

export type ParsedEdit = { ok: true; body: Record<string, unknown> } | { ok: false; error: string };

/** The editor's text read as a body: a JSON object, or the parser's own message. */
export function parseEdit(text: string): ParsedEdit {
  try {
    const body: unknown = JSON.parse(text);
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return { ok: false, error: 'not an object' };
    return { ok: true, body: body as Record<string, unknown> };
  } catch (caught) {
    return { ok: false, error: caught instanceof Error ? caught.message : String(caught) };
  }
}

function ids(list: unknown, key: string): string[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((entry) =>
    typeof entry === 'object' && entry !== null && key in entry ? [String((entry as Record<string, unknown>)[key])] : [],
  );
}

/** What a save would delete: stores and channels stored now that the edited body no longer has. */
export function removedByEdit(stored: Configuration, body: Record<string, unknown>): { stores: string[]; channels: string[] } {
  const keptStores = new Set(ids(body.stores, 'storeId'));
  const keptChannels = new Set(ids(body.channels, 'channelId'));
  return {
    stores: stored.stores.map((store) => String(store.storeId)).filter((id) => !keptStores.has(id)),
    channels: stored.channels.map((channel) => channel.channelId).filter((id) => !keptChannels.has(id)),
  };
}
