"""The throughput table bench-upload.sh and bench-appstore.sh print (bench.sh reads its rows back)."""
import statistics


def header(width):
    print(f"{'tool':<{width}} {'throughput':>15} {'time':>10} {'peak RSS':>12}")


def row(name, times, rss_kb, mb, width):
    """Prints the median throughput, time and peak RSS of the runs, and returns the throughput in MB/s."""
    t = statistics.median(times)
    print(f"{name:<{width}} {mb / t:>10.0f} MB/s {t:>8.2f} s {statistics.median(rss_kb) / 1024:>9.1f} MB   "
          f"runs: {', '.join(f'{x:.2f}' for x in times)}")
    return mb / t
