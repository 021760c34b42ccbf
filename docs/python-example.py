"""A worked example of the placelab Python package (docs/python.md): how long jobs wait on a
16x16 mesh under three allocation policies as jobs arrive faster, with 8 replicates (seeds) per
arrival rate; prints per policy the mean wait with its 95 % confidence interval, and the mean
number of hops between a job's nodes (compact allocations wait longer for a fitting block).

Run it with the package installed (scripts/test-python.sh does): python docs/python-example.py
"""

import placelab

STUDY = {
    "version": 1,
    "name": "Waiting against arrival rate on a 16x16 mesh",
    "base": {
        "version": 1,
        "engine": "allocation",
        "seed": 1,
        "system": {"kind": "mesh", "width": 16, "height": 16},
        "policies": ["sequential", "hilbert", "closed-min-best"],
        "workload": {
            "kind": "generated",
            "count": 120,
            "minTasks": 1,
            "maxTasks": 64,
            "sizeDistribution": "logUniform",
            "meanInterarrival": 1,
            "meanDuration": 50,
        },
    },
    # 4 arrival rates (mean time between arrivals, log-spaced) x 8 seeds = 32 points
    "axes": [{"path": "workload.meanInterarrival", "from": 0.25, "to": 2, "count": 4, "scale": "log"}],
    "replicates": {"count": 8, "baseSeed": 2024},
    "metrics": ["report.runs[*].summary.meanWait", "report.runs[*].summary.meanHops"],
}


def main():
    result = placelab.run_study(STUDY)  # every core; the same tables on any thread count
    print(f"{result.name}: {result.points} points, {result.failed} failed")
    rows = result.aggregate
    if not isinstance(rows, list):  # a pandas.DataFrame
        rows = rows.to_dict("records")
    print(f"{'interarrival':>12}  {'policy':<16} {'mean wait':>10}  {'95% CI':>19}  {'mean hops':>9}")
    hops = {
        (r["workload.meanInterarrival"], r["runs"]): r["mean"]
        for r in rows
        if r["metric"] == "report.runs[*].summary.meanHops"
    }
    for r in rows:
        if r["metric"] != "report.runs[*].summary.meanWait":
            continue
        key = (r["workload.meanInterarrival"], r["runs"])
        ci = f"[{r['ciLow']:8.2f}, {r['ciHigh']:8.2f}]"
        print(f"{key[0]:>12}  {key[1]:<16} {r['mean']:>10.2f}  {ci:>19}  {hops[key]:>9.2f}")


if __name__ == "__main__":
    main()
