import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderInConsole } from '../../testing/render';
import { JsonBlock } from './json-block';

const order = { orderId: 'order-1', total: 54.5 };
// JSON.stringify(order, null, 2): "{\n  \"orderId\": \"order-1\",\n  \"total\": 54.5\n}"
// = 1 + 1 + 23 + 1 + 15 + 1 + 1 = 43 characters: `  "orderId": "order-1",` is 2 + 9 + 2 + 9 + 1 = 23,
// `  "total": 54.5` is 2 + 7 + 2 + 4 = 15.
const ORDER_JSON = '{\n  "orderId": "order-1",\n  "total": 54.5\n}';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('JsonBlock', () => {
  it('draws nothing until opened, then the JSON indented, with its size', async () => {
    const user = userEvent.setup();
    renderInConsole(<JsonBlock name="Payload" value={order} fileName="order-1-payload.json" />);

    expect(screen.queryByRole('region', { name: 'Payload (JSON)' })).not.toBeInTheDocument();

    await user.click(screen.getByText('Payload (JSON)'));

    const region = await screen.findByRole('region', { name: 'Payload (JSON)' });
    expect(region.textContent).toBe(ORDER_JSON);
    expect(screen.getByText('43 B')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Show everything' })).not.toBeInTheDocument();
  });

  it("draws a large value's first 200,000 characters, and the rest when asked", async () => {
    const user = userEvent.setup();
    // A string of 300,000 characters is 300,002 as JSON (its two quotes).
    const large = 'x'.repeat(300_000);
    renderInConsole(<JsonBlock name="Payload" value={large} fileName="order-1-payload.json" />);

    await user.click(screen.getByText('Payload (JSON)'));

    const region = await screen.findByRole('region', { name: 'Payload (JSON)' });
    expect(region.textContent).toHaveLength(200_000);
    // 200,000 / 1024 = 195.3 → "195 KiB"; 300,002 / 1024 = 292.97 → "293 KiB" (no decimals from 10 up).
    expect(screen.getByText('Showing the first 195 KiB of 293 KiB.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Show everything' }));

    expect(region.textContent).toHaveLength(300_002);
    expect(screen.getByText('293 KiB')).toBeInTheDocument();
  });

  it('downloads the whole value as a JSON file under the name given', async () => {
    const user = userEvent.setup();
    const blobs: Blob[] = [];
    URL.createObjectURL = vi.fn((blob: Blob) => {
      blobs.push(blob);
      return 'blob:order-1';
    });
    URL.revokeObjectURL = vi.fn();
    const clicked: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });
    renderInConsole(<JsonBlock name="Payload" value={order} fileName="order-1-payload.json" />);

    await user.click(screen.getByText('Payload (JSON)'));
    await user.click(await screen.findByRole('button', { name: 'Download JSON' }));

    expect(clicked).toHaveLength(1);
    expect(clicked[0]!.download).toBe('order-1-payload.json');
    expect(clicked[0]!.href).toBe('blob:order-1');
    expect(blobs[0]!.type).toBe('application/json');
    expect(await blobs[0]!.text()).toBe(ORDER_JSON);
  });
});
