# Expected values of test/unit/core/aq/trend.test.ts: scipy.stats.theilslopes (Sen's 1968 rank-based interval)
# and scipy.stats.kendalltau(method='asymptotic') (the Mann–Kendall p-value) on the test's monthly series.
import math, numpy as np
from scipy import stats, special
M0 = (2023 - 1970) * 12  # 2023-01
def value(m):
    return round(10 + 0.05 * m + 3 * math.sin(2 * math.pi * m / 12) + ((m * 7919) % 100) / 50 - 1, 1)
months = np.arange(M0, M0 + 30)
y = np.array([value(m - M0) for m in months])
x = months / 12
print('y', list(y))
r = stats.theilslopes(y, x)
print('theilslopes', repr(r.slope), repr(r.intercept), repr(r.low_slope), repr(r.high_slope))
k = stats.kendalltau(x, y, method='asymptotic')
print('kendalltau p', repr(k.pvalue))
# Deseasonalised: less each calendar month's mean, plus the mean of the twelve.
cyc = np.array([y[(months % 12) == c].mean() for c in range(12)])
yd = y - cyc[months % 12] + cyc.mean()
rd = stats.theilslopes(yd, x)
print('deseason', repr(rd.slope), repr(rd.low_slope), repr(rd.high_slope), repr(stats.kendalltau(x, yd, method='asymptotic').pvalue))
res = y - (r.intercept + r.slope * x)
d = res - res.mean()
print('lag1', repr(float((d[:-1] * d[1:]).sum() / (d * d).sum())))
print('erfc', [repr(float(special.erfc(v))) for v in [0.1, 1.0, 1.9, 2.1, 4.0, 6.5]])
# Heavy ties (whole numbers): the ties' term of Sen's variance moves the interval's ends.
yt = np.array([1, 1, 2, 2, 2, 3, 1, 4, 4, 5, 3, 5, 6, 6, 5, 7, 2, 2, 8, 8], dtype=float)
xt = np.arange(20) / 12
rt = stats.theilslopes(yt, xt)
print('ties', repr(rt.slope), repr(rt.low_slope), repr(rt.high_slope), repr(stats.kendalltau(xt, yt, method='asymptotic').pvalue))
