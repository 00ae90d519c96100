/**
 * The shallow copies the engine makes on the way to each taxed item (copy-on-write: everything else
 * of the payload is shared with the input).
 */

type Obj = Record<string, unknown>;

/**
 * `{ ...source, [key]: value }`: a shallow copy of `source` with `key` set to `value`, in the place
 * `source` gives it when it has one, else last. Node 20's V8 takes a slow path for a spread followed by
 * a property (about 1 µs a copy, more than the taxes of the item cost); `Object.assign` into a new
 * object is about ten times faster and copies the same properties in the same order. It would call the
 * `__proto__` setter where the source has an own `__proto__` key (JSON.parse makes one), so such an
 * object is copied with the spread, which keeps the key as data.
 */
export function copyWith(source: Obj, key: string, value: unknown): Obj {
  if (Object.hasOwn(source, '__proto__')) return { ...source, [key]: value };
  const copy: Obj = Object.assign({}, source);
  copy[key] = value;
  return copy;
}

/** `{ ...source }`, by the same way as `copyWith`: the copy is given properties afterwards. */
export function copyOf(source: Obj): Obj {
  if (Object.hasOwn(source, '__proto__')) return { ...source };
  return Object.assign({}, source);
}

/** Whether `array` has no element at `index` (a hole): `map` leaves holes as they are and never visits them. */
export function isHole(array: readonly unknown[], index: number): boolean {
  return array[index] === undefined && !(index in array);
}
