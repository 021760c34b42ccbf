"""placelab.study / run_study: the CLI's tidy and aggregate tables, from Python."""

import json
import math
import subprocess
import sys
import warnings

import pytest

import placelab

STUDY = {
    "version": 1,
    "name": "small stream",
    "base": {
        "version": 1,
        "engine": "allocation",
        "seed": 3,
        "system": {"kind": "mesh", "width": 6, "height": 6},
        "policies": ["sequential", "hilbert", "closed-min-best"],
        "workload": {
            "kind": "generated",
            "count": 12,
            "minTasks": 1,
            "maxTasks": 9,
            "meanInterarrival": 2,
            "meanDuration": 20,
        },
    },
    "axes": [{"path": "system.width", "values": [4, 6, 8]}],
    "replicates": {"count": 4, "baseSeed": 11},
    "metrics": [
        "report.runs[*].summary.meanWait",
        "report.runs[*].summary.utilization",
        "report.topology.nodes",
    ],
}

FILES = ["tidy.csv", "tidy.jsonl", "aggregate.csv", "aggregate.jsonl", "study.json"]


def jsonl(text):
    return [json.loads(line) for line in text.splitlines()]


@pytest.fixture(scope="module")
def cli_files(cli, tmp_path_factory):
    """The files `placelab study` writes for STUDY."""
    d = tmp_path_factory.mktemp("cli")
    (d / "study.json").write_text(json.dumps(STUDY))
    out = subprocess.run(
        [cli, "study", str(d / "study.json"), "-o", str(d / "out"), "--threads", "2"],
        capture_output=True,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    return {f: (d / "out" / f).read_text() for f in FILES}


@pytest.fixture
def no_pandas(monkeypatch):
    # `import pandas` raises ImportError while sys.modules maps it to None
    monkeypatch.setitem(sys.modules, "pandas", None)


def test_run_study_writes_exactly_the_cli_files(cli_files):
    result = placelab.run_study(STUDY, threads=2)
    assert result.files == cli_files
    assert (result.points, result.failed, result.refused) == (12, 0, [])
    assert result.name == "small stream" and len(result.hash) == 16


def test_tidy_without_pandas_is_the_cli_rows(cli_files, no_pandas):
    rows = placelab.study(STUDY)
    assert isinstance(rows, list)
    assert rows == jsonl(cli_files["tidy.jsonl"])
    # 12 points x 3 policies; columns in the CLI's order
    assert len(rows) == 36
    header = cli_files["tidy.csv"].splitlines()[0].split(",")
    assert all(list(r) == header for r in rows)
    assert rows[0]["runs"] == "sequential" and rows[0]["status"] == "ok"
    aggregate = placelab.study(STUDY, aggregate=True)
    assert aggregate == jsonl(cli_files["aggregate.jsonl"])
    assert len(aggregate) == 3 * 3 * 3


def same_cell(a, b):
    if b is None:
        return a is None or (isinstance(a, float) and math.isnan(a))
    return a == b and type(a) is type(b) or (isinstance(b, float) and float(a) == b)


def test_tidy_with_pandas_is_a_dataframe_of_the_cli_rows(cli_files):
    pandas = pytest.importorskip("pandas")
    for table, name in [(placelab.study(STUDY), "tidy"), (placelab.study(STUDY, aggregate=True), "aggregate")]:
        assert isinstance(table, pandas.DataFrame)
        expected = jsonl(cli_files[f"{name}.jsonl"])
        assert list(table.columns) == list(expected[0])
        assert len(table) == len(expected)
        for got, want in zip(table.to_dict("records"), expected):
            for column, value in want.items():
                cell = got[column]
                cell = cell.item() if hasattr(cell, "item") else cell
                assert same_cell(cell, value), (name, column, cell, value)
    # seeds above 2^53 stay exact (not parsed as doubles)
    tidy = placelab.study(STUDY)
    assert [int(s) for s in tidy["seed"]] == [r["seed"] for r in jsonl(cli_files["tidy.jsonl"])]


def test_tables_are_the_same_on_one_and_two_threads_and_run_after_run():
    one = placelab.run_study(STUDY, threads=1).files
    assert placelab.run_study(STUDY, threads=2).files == one
    assert placelab.run_study(json.dumps(STUDY)).files == one


def test_study_errors_name_their_path_in_the_study():
    bad_axis = dict(STUDY, axes=[{"path": "system.widht", "values": [4]}])
    with pytest.raises(placelab.ScenarioError) as caught:
        placelab.study(bad_axis)
    assert caught.value.path == "$.axes[0].path"
    bad_base = dict(STUDY, base=dict(STUDY["base"], system={"kind": "mesh", "width": 6, "height": 0}))
    with pytest.raises(placelab.ScenarioError) as caught:
        placelab.study(bad_base)
    # refused at admission, as every point is: named by the first point
    assert caught.value.path == "$"
    assert "$.system.height: must be a whole number from 1" in caught.value.message
    with pytest.raises(placelab.ScenarioError) as caught:
        placelab.study(dict(STUDY, base=dict(STUDY["base"], engine="nope")))
    assert caught.value.path == "$.base.engine"
    with pytest.raises(placelab.ScenarioError) as caught:
        placelab.study(dict(STUDY, example="no-such-example"))
    assert caught.value.path == "$.example"


def test_over_the_point_limit_nothing_runs():
    with pytest.raises(placelab.ScenarioError) as caught:
        placelab.study(STUDY, max_points=11)
    assert caught.value.path == "$"
    assert caught.value.message == (
        "the study has 12 points (3 combinations x 4 replicates); the limit is 11 "
        "(raise it with max_points=)"
    )


@pytest.mark.parametrize("kwargs", [{"threads": 0}, {"threads": 1.5}, {"max_points": -1}])
def test_bad_options_raise_value_error(kwargs):
    with pytest.raises(ValueError):
        placelab.study(STUDY, **kwargs)


def test_refused_points_are_error_rows_with_a_warning(cli, tmp_path, no_pandas):
    study = {
        "version": 1,
        "base": {
            "version": 1,
            "engine": "allocation",
            "seed": 3,
            "system": {"kind": "mesh", "width": 4, "height": 4},
            "workload": {"kind": "set", "jobs": [{"tasks": 4}]},
        },
        "axes": [{"path": "system.kind", "values": ["mesh", "tree"]}],
        "metrics": ["report.runs[*].summary.meanHops"],
    }
    with pytest.warns(UserWarning, match="point 1 .*system.kind=\"tree\""):
        result = placelab.run_study(study)
    assert result.failed == 1
    assert result.refused[0][0] == 1 and result.refused[0][2].startswith("$.system.width: ")
    error_row = result.tidy[-1]
    assert error_row["status"] == "error" and error_row["error"] == result.refused[0][2]
    (tmp_path / "s.json").write_text(json.dumps(study))
    subprocess.run([cli, "study", str(tmp_path / "s.json"), "-o", str(tmp_path / "o")], capture_output=True, check=True)
    assert result.files["tidy.csv"] == (tmp_path / "o" / "tidy.csv").read_text()


def test_a_metric_without_any_value_warns():
    study = dict(STUDY, metrics=["report.runs[*].summary.meanHops", "report.runs[*].summary.noSuchFigure"])
    with pytest.warns(UserWarning, match="noSuchFigure has no value in any point"):
        placelab.run_study(study)


def test_a_study_file_reads_its_base_file_beside_it(tmp_path, no_pandas):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "base.json").write_text(json.dumps(STUDY["base"]))
    doc = {k: v for k, v in STUDY.items() if k != "base"}
    doc["baseFile"] = "base.json"
    (tmp_path / "sub" / "study.json").write_text(json.dumps(doc))
    inline = placelab.study(STUDY)
    assert placelab.study(tmp_path / "sub" / "study.json") == inline
    with pytest.raises(placelab.ScenarioError) as caught:
        placelab.study(dict(doc, baseFile="absent.json"))
    assert caught.value.path == "$.baseFile" and "absent.json" in caught.value.message


def test_an_example_can_be_the_base(no_pandas):
    study = {
        "version": 1,
        "example": "fig1-4x4",
        "axes": [{"path": "system.width", "values": [4, 8]}],
        "metrics": ["report.runs[*].summary.meanHops"],
    }
    rows = placelab.study(study, threads=1)
    assert [r["system.width"] for r in rows] == [4] * 3 + [8] * 3
    assert [r["runs"] for r in rows[:3]] == placelab.examples()["fig1-4x4"]["policies"]


def test_the_worked_example_runs_with_and_without_pandas(repo):
    example = str(repo / "docs" / "python-example.py")
    hidden = (
        "import runpy, sys; sys.modules['pandas'] = None; "
        f"runpy.run_path({example!r}, run_name='__main__')"
    )
    outputs = []
    for argv in ([example], ["-c", hidden]):
        out = subprocess.run([sys.executable, *argv], capture_output=True, text=True, check=False)
        assert out.returncode == 0, out.stderr
        outputs.append(out.stdout)
    assert outputs[0] == outputs[1]
    lines = outputs[0].splitlines()
    assert lines[0] == "Waiting against arrival rate on a 16x16 mesh: 32 points, 0 failed"
    # 4 arrival rates x 3 policies
    assert len(lines) == 2 + 12
    assert lines[2].split()[:2] == ["0.25", "sequential"]


def test_numpy_values_sweep_like_plain_ones(no_pandas):
    numpy = pytest.importorskip("numpy")
    swept = dict(STUDY, axes=[{"path": "system.width", "values": numpy.array([4, 6, 8])}])
    swept["base"] = dict(STUDY["base"], seed=numpy.uint64(3))
    assert placelab.study(swept) == placelab.study(STUDY)


def test_a_running_study_releases_the_gil_and_stops_on_ctrl_c():
    # 300 points of a 400-job stream on a 64x64 mesh: a minute of work or more. Another Python thread
    # sends SIGINT once the study runs; it can only do so while the study has released the GIL,
    # and the study must then stop with KeyboardInterrupt instead of finishing.
    import os
    import signal
    import threading

    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    study = {"version": 1, "example": "mesh64-random-stream", "replicates": {"count": 300}}
    timer = threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT))
    try:
        timer.start()
        with pytest.raises(KeyboardInterrupt):
            placelab.run_study(study, threads=2)
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)
