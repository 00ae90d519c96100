import { IntakeActivity } from './intake-activity.js';

describe('IntakeActivity', () => {
  it('is busy while an order is taken and for a moment after, then quiet', async () => {
    const intake = new IntakeActivity();
    expect(intake.busy()).toBe(false);
    let release!: () => void;
    const taken = intake.during(() => new Promise<void>((resolve) => (release = resolve)));
    expect(intake.busy()).toBe(true);
    release();
    await taken;
    const endedAt = performance.now();
    expect(intake.busy(endedAt + 10)).toBe(true);
    expect(intake.busy(endedAt + 1_000)).toBe(false);
  });

  it('counts an order that fails as ended', async () => {
    const intake = new IntakeActivity();
    await expect(intake.during(() => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    expect(intake.busy(performance.now() + 1_000)).toBe(false);
  });

  it('makes other work wait share times its step while intake is busy, within the limit, and not at all when quiet', async () => {
    const intake = new IntakeActivity();
    expect(await intake.yieldTo(20, 9, 10_000)).toBe(0);
    let release!: () => void;
    const taken = intake.during(() => new Promise<void>((resolve) => (release = resolve)));
    // 20 ms of work × 9 = 180 ms of waiting; a limit of 50 ms cuts it; a spent deadline waits nothing.
    const started = performance.now();
    expect(await intake.yieldTo(20, 9, 10_000)).toBe(180);
    expect(performance.now() - started).toBeGreaterThanOrEqual(170);
    expect(await intake.yieldTo(20, 9, 50)).toBe(50);
    expect(await intake.yieldTo(20, 9, -5)).toBe(0);
    release();
    await taken;
  });
});
