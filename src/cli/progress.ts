/** A progress bar on stderr (a line per quarter when stderr is not a terminal, e.g. in CI logs). */
export function progressReporter(label: string, stream: NodeJS.WriteStream = process.stderr): (done: number, total: number) => void {
  let lastQuarter = -1;
  return (done, total) => {
    const ratio = total === 0 ? 1 : done / total;
    if (stream.isTTY) {
      const width = 30;
      const filled = Math.round(ratio * width);
      stream.write(`\r${label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${Math.round(ratio * 100)}% ${done}/${total}`);
      if (done >= total) stream.write('\n');
      return;
    }
    const quarter = Math.floor(ratio * 4);
    if (quarter !== lastQuarter) {
      lastQuarter = quarter;
      stream.write(`${label}: ${Math.round(ratio * 100)}% (${done}/${total})\n`);
    }
  };
}
