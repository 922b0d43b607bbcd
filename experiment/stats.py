# SPDX-License-Identifier: GPL-2.0
"""The statistics of experiment/report.py, with the standard library only
(no numpy, no scipy), so that the report runs anywhere Python does and
tests/host/test-experiment-stats.py can check every figure by hand.

- median, quantile (inclusive, linear interpolation: R type 7, as
  statistics.quantiles(method="inclusive"))
- mann_whitney_u: U of the first sample and a two-sided p, exact (the
  permutation distribution of the rank sum, ties at midranks) when both
  samples have at most EXACT_MAX values, else the normal approximation
  with tie and continuity correction
- bootstrap_diff_ci, bootstrap_did_ci: percentile bootstrap intervals of a
  difference of medians and of a difference of two such differences,
  seeded, so that a report is the same file every time
- holm: Holm-Bonferroni adjusted p values
- n_for_power, n_for_power_did: boots per cell for a given power, normal
  approximation, inflated for the rank test's efficiency
"""
import math
import random
import statistics

EXACT_MAX = 10
# asymptotic relative efficiency of the Wilcoxon-Mann-Whitney test to the
# t test on normal data: 3/pi
RANK_EFFICIENCY = 3 / math.pi
_NORMAL = statistics.NormalDist()


def median(xs):
    """the median of xs; None for no values"""
    xs = list(xs)
    return statistics.median(xs) if xs else None


def quantile(xs, q):
    """the q-quantile (0 <= q <= 1) of xs, linear interpolation between
    order statistics (inclusive method); None for no values"""
    xs = sorted(xs)
    if not xs:
        return None
    if not 0 <= q <= 1:
        raise ValueError(f"quantile {q} outside [0, 1]")
    h = (len(xs) - 1) * q
    lo = math.floor(h)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (h - lo) * (xs[hi] - xs[lo])


def midranks(values):
    """ranks 1..N of values, tied values all getting their mean rank"""
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def _tie_sizes(values):
    counts = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    return [t for t in counts.values() if t > 1]


def _exact_p(ranks, n1, r1):
    """two-sided p of the rank sum r1 of n1 values drawn from ranks: twice
    the smaller tail of the permutation distribution (every n1-subset of
    the ranks equally likely), at most 1.  Doubled ranks are integers, so
    the distribution is counted exactly by dynamic programming."""
    dr = [round(2 * r) for r in ranks]
    # ways[k][s]: subsets of k of the ranks seen so far with doubled sum s
    ways = [dict() for _ in range(n1 + 1)]
    ways[0][0] = 1
    for r in dr:
        for k in range(min(n1, len(dr)), 0, -1):
            prev, cur = ways[k - 1], ways[k]
            for s, c in prev.items():
                cur[s + r] = cur.get(s + r, 0) + c
    dist = ways[n1]
    total = sum(dist.values())
    obs = round(2 * r1)
    le = sum(c for s, c in dist.items() if s <= obs)
    ge = sum(c for s, c in dist.items() if s >= obs)
    return min(1.0, 2 * min(le, ge) / total)


def mw_exact(n1, n2):
    """whether mann_whitney_u computes p exactly for samples of n1, n2"""
    return n1 <= EXACT_MAX and n2 <= EXACT_MAX


def mann_whitney_u(xs, ys, exact=None):
    """(U, p): U = the number of pairs (x, y) with x > y, plus half the
    tied pairs (the U of xs: 0 when every x is below every y); p
    two-sided.  exact=None: exact when mw_exact(len(xs), len(ys)), else
    the normal approximation with tie and continuity correction (p = 1
    when every value is tied).  (None, None) when a sample is empty."""
    xs, ys = list(xs), list(ys)
    n1, n2 = len(xs), len(ys)
    if not n1 or not n2:
        return None, None
    ranks = midranks(xs + ys)
    r1 = sum(ranks[:n1])
    u = r1 - n1 * (n1 + 1) / 2
    if exact is None:
        exact = mw_exact(n1, n2)
    if exact:
        return u, _exact_p(ranks, n1, r1)
    n = n1 + n2
    ties = sum(t ** 3 - t for t in _tie_sizes(xs + ys))
    var = n1 * n2 / 12 * ((n + 1) - ties / (n * (n - 1)))
    if var <= 0:
        return u, 1.0
    z = max(0.0, abs(u - n1 * n2 / 2) - 0.5) / math.sqrt(var)
    return u, min(1.0, math.erfc(z / math.sqrt(2)))


def _resample(rng, xs):
    return rng.choices(xs, k=len(xs))


def _percentile_ci(values, level):
    values = sorted(values)
    a = (1 - level) / 2
    return quantile(values, a), quantile(values, 1 - a)


def _bootstrap_p(values):
    """two-sided p of "the statistic is 0" from its bootstrap
    distribution: twice the smaller share of resamples on either side of
    0, each side counting 0 itself, with the +1 of a resampled test; the
    smallest level at which the percentile interval leaves 0 out"""
    b = len(values)
    le = sum(1 for v in values if v <= 0)
    ge = sum(1 for v in values if v >= 0)
    return min(1.0, 2 * (min(le, ge) + 1) / (b + 1))


def bootstrap_diff_ci(xs, ys, stat=median, n=10000, seed=1, level=0.95):
    """(estimate, low, high, p): stat(xs) - stat(ys) and its percentile
    bootstrap interval, each sample resampled with replacement on its
    own, n times, from random.Random(seed); p as _bootstrap_p.  None for
    all four when a sample is empty."""
    xs, ys = list(xs), list(ys)
    if not xs or not ys:
        return None, None, None, None
    rng = random.Random(seed)
    diffs = [stat(_resample(rng, xs)) - stat(_resample(rng, ys))
             for _ in range(n)]
    lo, hi = _percentile_ci(diffs, level)
    return stat(xs) - stat(ys), lo, hi, _bootstrap_p(diffs)


def bootstrap_did_ci(a_on, a_off, b_on, b_off, stat=median, n=10000,
                     seed=1, level=0.95):
    """(estimate, low, high, p) of the difference of differences
    (stat(b_on) - stat(b_off)) - (stat(a_on) - stat(a_off)), each of the
    four cells resampled on its own; as bootstrap_diff_ci otherwise"""
    cells = [list(c) for c in (a_on, a_off, b_on, b_off)]
    if not all(cells):
        return None, None, None, None
    rng = random.Random(seed)

    def did(c):
        return (stat(c[2]) - stat(c[3])) - (stat(c[0]) - stat(c[1]))
    dids = [did([_resample(rng, c) for c in cells]) for _ in range(n)]
    lo, hi = _percentile_ci(dids, level)
    return did(cells), lo, hi, _bootstrap_p(dids)


def holm(pvalues):
    """Holm-Bonferroni adjusted p values, in the order given: the k-th
    smallest of m times (m - k + 1), made monotone, at most 1.  None
    entries stay None and are not counted in m."""
    idx = sorted((i for i, p in enumerate(pvalues) if p is not None),
                 key=lambda i: pvalues[i])
    m = len(idx)
    out = [None] * len(pvalues)
    running = 0.0
    for k, i in enumerate(idx):
        running = max(running, min(1.0, (m - k) * pvalues[i]))
        out[i] = running
    return out


def pooled_sd(*samples):
    """the pooled standard deviation of samples of at least 2 values
    each; None if a sample is shorter"""
    if any(len(s) < 2 for s in samples):
        return None
    ss = sum((len(s) - 1) * statistics.variance(s) for s in samples)
    return math.sqrt(ss / sum(len(s) - 1 for s in samples))


def _n(var_factor, sd, delta, alpha, power):
    if sd is None or not delta:
        return None
    z = _NORMAL.inv_cdf(1 - alpha / 2) + _NORMAL.inv_cdf(power)
    n = var_factor * (z * sd / delta) ** 2 / RANK_EFFICIENCY
    return max(2, math.ceil(n))


def n_for_power(xs, ys, alpha=0.05, power=0.8, delta=None):
    """boots per cell for the given power of a two-sided test at alpha to
    detect delta (default: the observed difference of means), normal
    approximation with the pooled SD, n = 2 (z(1-alpha/2) + z(power))^2
    SD^2 / delta^2, divided by the rank test's efficiency 3/pi (0.955);
    at least 2.  None if there is no difference to detect or a sample
    has fewer than 2 values."""
    xs, ys = list(xs), list(ys)
    if delta is None and xs and ys:
        delta = statistics.fmean(xs) - statistics.fmean(ys)
    return _n(2, pooled_sd(xs, ys), delta, alpha, power)


def n_for_power_did(a_on, a_off, b_on, b_off, alpha=0.05, power=0.8,
                    delta=None):
    """as n_for_power for the difference of differences of four cells of
    n each (its variance is 4 SD^2 / n: twice a two-sample difference's)"""
    cells = [list(c) for c in (a_on, a_off, b_on, b_off)]
    if delta is None and all(cells):
        m = [statistics.fmean(c) for c in cells]
        delta = (m[2] - m[3]) - (m[0] - m[1])
    return _n(4, pooled_sd(*cells), delta, alpha, power)
