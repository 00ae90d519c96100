/**
 * Size bounds of what the admin routes send (whatever the stored rows hold, including rows
 * stored before ORDER_MAX_LINES existed): an order of the list carries its payloads only when
 * they fit ORDER_LIST_ITEM_MAX_BYTES and the page so far fits ORDER_LIST_PAGE_MAX_BYTES; the
 * detail carries them up to ORDER_DETAIL_MAX_BYTES. Otherwise `payload` and `enrichedPayload`
 * are null and `payloadOmitted` says why. An order whose documents' text (`payload_bytes`, kept
 * by a trigger) is already over the bound is not even converted to text: its stored size would
 * not do, a compressible 60 MB document is stored in a few megabytes.
 */
export const ORDER_LIST_ITEM_MAX_BYTES = 4 * 1024 * 1024;
export const ORDER_LIST_PAGE_MAX_BYTES = 16 * 1024 * 1024;
export const ORDER_DETAIL_MAX_BYTES = 32 * 1024 * 1024;

export const PAYLOAD_OMITTED = {
  item: 'ORDER_TOO_LARGE_FOR_LIST',
  page: 'PAGE_BYTES_EXCEEDED',
  detail: 'ORDER_TOO_LARGE',
} as const;
