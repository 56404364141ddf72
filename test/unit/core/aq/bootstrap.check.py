# Expected values of test/unit/core/aq/bootstrap.test.ts: the same mulberry32 stream in Python, the same
# resampling (index floor(u * n)), numpy.percentile (type 7) of the resample means; and scipy.stats.bootstrap's
# percentile interval on the same data (another generator: close, not equal).
import numpy as np
from scipy import stats
M = 0xFFFFFFFF
def imul(a, b): return (a * b) & M
def mulberry32(seed):
    a = seed & M
    def r():
        nonlocal a
        a = (a + 0x6D2B79F5) & M
        t = a
        t = imul(t ^ (t >> 15), t | 1)
        t ^= (t + imul(t ^ (t >> 7), t | 61)) & M
        return ((t ^ (t >> 14)) & M) / 4294967296
    return r
r = mulberry32(42)
print('first', [repr(r()) for _ in range(3)])
values = [float((i * 37) % 23) + 0.5 * (i % 3) for i in range(30)]
print('values', values)
r = mulberry32(42)
means = []
for b in range(200):
    s = 0.0
    for i in range(30): s += values[int(r() * 30)]
    means.append(s / 30)
print('ci', repr(np.percentile(means, 2.5)), repr(np.percentile(means, 97.5)), 'mean', repr(np.mean(values)))
sb = stats.bootstrap((np.array(values),), np.mean, method='percentile', n_resamples=9999, random_state=1)
print('scipy percentile ci', sb.confidence_interval)
