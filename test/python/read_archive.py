"""Reads an archive written by `measnb archive` with pyarrow.dataset, Dask and Ray Data (a local Ray
cluster, ray.init(num_cpus=2)) and compares row counts, per-partition sums and column types with
DuckDB's reading (expected.json, written by scripts/python-lane.mjs). No pytest: each check prints
"ok <name>" or "FAIL <name>: why", the last line is "python: N passed, N failed", and the counts go
to the results file given as the third argument."""
import json
import math
import os
import sys
import traceback

ARCHIVE, EXPECTED, RESULTS, SNIPPETS = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
FREQUENCY = "hour"
BASE = os.path.join(ARCHIVE, f"frequency={FREQUENCY}")
with open(EXPECTED) as f:
    expected = json.load(f)

# DuckDB type -> the Arrow type the same column has in the files (partition columns are not in the files).
ARROW_OF_DUCKDB = {
    "TIMESTAMP WITH TIME ZONE": "timestamp[us, tz=UTC]",
    "DOUBLE": "double",
    "VARCHAR": "string",
}


def stats_of(df):
    """{ "<datasourceId>/<year>/<month>": {rows, lat, t} } from a pandas DataFrame of the archive."""
    df = df.copy()
    df["datasourceId"] = df["datasourceId"].astype(str)
    df["year"] = df["year"].astype(int)
    df["month"] = df["month"].astype(int)
    import pandas as pd

    df["t"] = (pd.to_datetime(df["startOfPeriod"], utc=True) - pd.Timestamp(0, tz="UTC")).dt.total_seconds()
    g = df.groupby(["datasourceId", "year", "month"]).agg(rows=("t", "size"), lat=("locationLatitude", "sum"), t=("t", "sum"))
    return {f"{k[0]}/{k[1]}/{k[2]}": {"rows": int(r.rows), "lat": float(r.lat), "t": float(r.t)} for k, r in g.iterrows()}


def compare(got, name):
    want = expected["partitions"]
    assert sorted(got) == sorted(want), f"{name}: partitions differ: {sorted(set(got) ^ set(want))[:5]}"
    for key, w in want.items():
        g = got[key]
        assert g["rows"] == w["rows"], f"{name} {key}: {g['rows']} rows, DuckDB {w['rows']}"
        assert math.isclose(g["lat"], w["lat"], rel_tol=1e-9), f"{name} {key}: sum(lat) {g['lat']} vs {w['lat']}"
        assert math.isclose(g["t"], w["t"], rel_tol=1e-12), f"{name} {key}: sum(time) {g['t']} vs {w['t']}"


def check_types(schema, name):
    for column, duck in expected["types"].items():
        if column in ("datasourceId", "year", "month", "frequency"):
            continue
        field = schema.field(column)
        want = ARROW_OF_DUCKDB[duck]
        got = str(field.type).replace("large_string", "string")
        assert got == want, f"{name}: {column} is {got}, DuckDB reads {duck} ({want})"


def pyarrow_checks():
    import pyarrow.dataset as ds

    dataset = ds.dataset(BASE, format="parquet", partitioning="hive")
    yield "pyarrow: column types", lambda: check_types(dataset.schema, "pyarrow")
    table = dataset.to_table()
    yield "pyarrow: rows and per-partition sums", lambda: compare(stats_of(table.to_pandas()), "pyarrow")
    one = dataset.to_table(filter=(ds.field("year") == 2026) & (ds.field("month") == 9))
    yield "pyarrow: a partition filter reads one month", lambda: compare_month(one.to_pandas(), 2026, 9)


def compare_month(df, year, month):
    got = stats_of(df)
    want = {k: v for k, v in expected["partitions"].items() if k.endswith(f"/{year}/{month}")}
    assert sorted(got) == sorted(want), f"month filter: {sorted(got)} vs {sorted(want)}"


def dask_checks():
    import dask.dataframe as dd

    df = dd.read_parquet(BASE, dataset={"partitioning": "hive"})
    yield "dask: rows and per-partition sums", lambda: compare(stats_of(df.compute()), "dask")
    yield "dask: row count (distributed over partitions)", lambda: check_count(int(df.shape[0].compute()), "dask")


def check_count(n, name):
    total = sum(v["rows"] for v in expected["partitions"].values())
    assert n == total, f"{name}: {n} rows, DuckDB {total}"


def ray_checks():
    import ray
    from ray.data.datasource.partitioning import Partitioning

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        data = ray.data.read_parquet(BASE, partitioning=Partitioning("hive"))
        yield "ray: row count on a local cluster", lambda: check_count(data.count(), "ray")
        yield "ray: rows and per-partition sums", lambda: compare(stats_of(data.to_pandas()), "ray")
        yield "ray: column types", lambda: check_types(data.schema().base_schema, "ray")
    finally:
        ray.shutdown()


def snippet_checks():
    """The snippets `measnb archive --snippet ENGINE` prints for this folder, run as a user pastes them."""
    with open(SNIPPETS) as f:
        snippets = json.load(f)
    total = sum(v["rows"] for v in expected["partitions"].values())

    def run(engine, check):
        scope = {}
        exec(compile(snippets[engine], f"<snippet {engine}>", "exec"), scope)  # noqa: S102 - our own snippet
        check(scope)

    def pandas_read(scope):
        want = sum(v["rows"] for k, v in expected["partitions"].items() if k.endswith("/2026/9"))
        assert len(scope["df"]) == want, f"pandas snippet: {len(scope['df'])} rows for 2026-09, DuckDB {want}"

    def dask_read(scope):
        assert int(scope["daily"].sum()) == total, f"dask snippet: {int(scope['daily'].sum())} rows, DuckDB {total}"

    def ray_read(scope):
        import ray

        try:
            assert scope["ds"].count() == total, f"ray snippet: {scope['ds'].count()} rows, DuckDB {total}"
        finally:
            ray.shutdown()

    yield "snippet pandas/pyarrow runs and filters one month", lambda: run("pandas", pandas_read)
    yield "snippet dask runs", lambda: run("dask", dask_read)
    yield "snippet ray runs", lambda: run("ray", ray_read)


def main():
    passed, failed, failures = 0, 0, []
    for engine in (pyarrow_checks, dask_checks, ray_checks, snippet_checks):
        try:
            for name, check in engine():
                try:
                    check()
                    passed += 1
                    print(f"ok {name}", flush=True)
                except Exception as e:  # noqa: BLE001 - every failure is reported, the others still run
                    failed += 1
                    failures.append({"title": name, "error": str(e)[:400]})
                    print(f"FAIL {name}: {e}", flush=True)
        except Exception as e:  # noqa: BLE001 - an engine that cannot even start fails once
            failed += 1
            failures.append({"title": engine.__name__, "error": traceback.format_exc()[-400:]})
            print(f"FAIL {engine.__name__}: {e}", flush=True)
    with open(RESULTS, "w") as f:
        json.dump({"lane": "python", "passes": passed, "failures": failed, "failed": failures}, f)
    print(f"python: {passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
