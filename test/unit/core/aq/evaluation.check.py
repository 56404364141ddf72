# Cross-check of src/core/aq/evaluation.ts with numpy/scipy/pandas on the test's generated minute data.
import math, numpy as np, pandas as pd
from scipy import stats
DAY0 = pd.Timestamp('2026-11-16T00:00:00Z')
GAINS = [1.0, 1.3, 0.9, 1.1, 1.2]; OFFS = [0.0, 2.0, -1.0, 0.5, 3.0]
def value(j, m):
    base = 12 + 8 * math.sin(2 * math.pi * m / 1440)
    noise = ((m * 7919 + j * 104729) % 1000) / 100 - 5
    return GAINS[j] * base + OFFS[j] + noise * (0.2 if j == 0 else 1)
def present(j, m):
    h = m // 60; d = m // 1440
    if (h + j) % 7 == 0 and m % 60 >= 30: return False   # 30 of 60 minutes: hour invalid
    if j == 2 and d == 2 and (h % 24) < 8: return False   # 16 of 24 hours that day: day invalid
    if j == 1 and h % 5 == 0 and m % 60 < 15: return False  # 45 of 60 minutes: hour valid (>= 75 %)
    return True
series = {}
for j in range(5):
    ms = [m for m in range(4 * 1440) if present(j, m)]
    idx = DAY0 + pd.to_timedelta(ms, unit='min')
    series[j] = pd.Series([value(j, m) for m in ms], index=idx)
def hourly(s):
    g = s.resample('h'); c = g.count(); mu = g.mean()
    return mu[c >= 45].dropna(), int(((c > 0) & (c < 45)).sum())
def daily(h):
    g = h.resample('D'); c = g.count(); mu = g.mean()
    return mu[c >= 18].dropna(), int(((c > 0) & (c < 18)).sum())
H = {j: hourly(series[j]) for j in range(5)}
D = {j: daily(H[j][0]) for j in range(5)}
def pair(j, avg):
    S, R = (H[j], H[0]) if avg == '1h' else (D[j], D[0])
    df = pd.concat([S[0], R[0]], axis=1, keys=['s', 'r']).dropna()
    lr = stats.linregress(df.r, df.s)
    rmse = float(np.sqrt(np.mean((df.s - df.r) ** 2)))
    print(avg, 'sensor', j, dict(n=len(df), slope=repr(lr.slope), intercept=repr(lr.intercept), r2=repr(lr.rvalue**2),
          rmse=repr(rmse), nrmse=repr(rmse / df.r.mean() * 100), incomplete=(S[1], R[1])))
for avg in ['1h', '24h']:
    pair(1, avg)
# Precision as sensortoolkit _calculate_cv: rows where all sensors report; SD over deviations from the row mean.
def cv(avg):
    cols = {str(j): (H[j][0] if avg == '1h' else D[j][0]) for j in range(1, 5)}
    df = pd.DataFrame(cols).dropna(how='any')
    dev = df.sub(df.mean(axis=1), axis=0) ** 2
    sd = float(np.sqrt(dev.values.sum() / (dev.count().sum() - 1)))
    mean = float(np.mean([df[c].mean() for c in df]))
    print(avg, 'precision', dict(n=len(df), sd=repr(sd), cv=repr(sd / mean * 100), mean=repr(mean)))
cv('1h'); cv('24h')
