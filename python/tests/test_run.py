"""placelab.run / run_json / check / engines / examples: the CLI's outputs, from Python."""

import json
import pathlib
import subprocess

import pytest

import placelab

# small examples of four engines: quick in the CLI's debug build
EXAMPLES = ["fig1-4x4", "moldable-small", "partition-disconnected", "select-table2-run2"]


def cli_run(cli, *args):
    return subprocess.run([cli, *args], capture_output=True, check=False)


@pytest.mark.parametrize("example", EXAMPLES)
def test_run_json_is_the_cli_report_byte_for_byte(cli, repo, example):
    path = repo / "playground-examples" / f"{example}.json"
    out = cli_run(cli, "run", str(path))
    assert out.returncode == 0, out.stderr
    assert placelab.run_json(path).encode() == out.stdout
    # the same scenario as text and as a dict
    text = path.read_text()
    assert placelab.run_json(text).encode() == out.stdout
    assert placelab.run(json.loads(text)) == json.loads(out.stdout)


def test_dict_and_string_inputs_give_the_same_report(repo):
    scenario = placelab.examples()["fig1-4x4"]
    as_text = json.dumps(scenario)
    assert placelab.run(scenario) == placelab.run(as_text) == placelab.run(as_text.encode())
    report = placelab.run(scenario)
    assert report["engine"] == "allocation"
    assert [r["policy"] for r in report["report"]["runs"]] == scenario["policies"]


def test_runs_are_deterministic():
    scenario = placelab.examples()["moldable-small"]
    assert len({placelab.run_json(scenario) for _ in range(3)}) == 1


def test_check_accepts_a_valid_scenario_and_names_the_path_of_a_bad_value(cli, tmp_path):
    scenario = placelab.examples()["fig1-4x4"]
    assert placelab.check(scenario) is None
    scenario["workload"]["jobs"][2]["tasks"] = 0
    with pytest.raises(placelab.ScenarioError) as caught:
        placelab.check(scenario)
    e = caught.value
    assert isinstance(e, ValueError)
    assert e.path == "$.workload.jobs[2].tasks"
    assert e.message and str(e) == f"{e.path}: {e.message}"
    # the CLI says the same
    f = tmp_path / "bad.json"
    f.write_text(json.dumps(scenario))
    out = cli_run(cli, "check", str(f))
    assert out.returncode == 1
    assert out.stderr.decode().strip() == f"placelab: {f}: {e}"
    with pytest.raises(placelab.ScenarioError) as again:
        placelab.run(scenario)
    assert again.value.path == e.path


@pytest.mark.parametrize(
    "scenario, path",
    [
        ('{"version": 1, "engine": "allocation",', "$"),
        ({"version": 1, "engine": "nope"}, "$.engine"),
        ({"version": 2, "engine": "allocation"}, "$.version"),
        ({"version": 1, "engine": "allocation", "seed": float("nan")}, "$.seed"),
        ({"version": 1, "engine": "allocation", "system": {"kind": "mesh", "width": 600}}, "$.system.width"),
    ],
)
def test_refused_scenarios_raise_scenario_error_at_their_path(scenario, path):
    with pytest.raises(placelab.ScenarioError) as caught:
        placelab.run(scenario)
    assert caught.value.path == path, caught.value


def test_bytes_that_are_not_utf8_are_refused_at_the_root_naming_the_offset(tmp_path):
    data = b'{"version": 1, "name": "\xff"}'
    with pytest.raises(placelab.ScenarioError) as caught:
        placelab.run(data)
    assert caught.value.path == "$"
    assert f"byte {data.index(0xFF)} (counting from 0) is 0xff" in caught.value.message
    f = tmp_path / "latin1.json"
    f.write_bytes(b'{"version": 1, "name": "\xe9"}')
    with pytest.raises(placelab.ScenarioError) as caught:
        placelab.check(f)
    assert caught.value.path == "$"


def test_values_from_numpy_like_objects_are_written_as_json():
    class Scalar:  # what numpy scalars and arrays offer
        def __init__(self, v):
            self.v = v

        def tolist(self):
            return self.v

    scenario = placelab.examples()["fig1-4x4"]
    plain = placelab.run_json(scenario)
    scenario["system"]["width"] = Scalar(4)
    assert placelab.run_json(scenario) == plain


def test_other_inputs_raise_type_error():
    for bad in [42, ["version", 1], None]:
        with pytest.raises(TypeError, match="dict, a JSON string or a pathlib.Path"):
            placelab.run(bad)
    with pytest.raises(TypeError, match="not JSON"):
        placelab.check({"version": 1, "engine": "allocation", "seed": object()})


def test_a_missing_file_raises_file_not_found(tmp_path):
    with pytest.raises(FileNotFoundError):
        placelab.run(tmp_path / "absent.json")


def test_engines_are_the_cli_field_tables(cli):
    out = cli_run(cli, "engines")
    assert placelab.engines() == json.loads(out.stdout)
    ids = [e["id"] for e in placelab.engines()]
    assert ids[0] == "allocation" and "moldable" in ids
    width = next(p for p in placelab.engines()[0]["params"] if p["path"] == "system.width")
    assert width["min"] == 1 and width["max"] == 512


def test_examples_are_the_playground_examples(repo):
    files = sorted(p.stem for p in (repo / "playground-examples").glob("*.json"))
    got = placelab.examples()
    assert sorted(got) == files
    assert got["fig1-4x4"] == json.loads((repo / "playground-examples" / "fig1-4x4.json").read_text())


def test_version_is_the_crate_version(cli):
    out = cli_run(cli, "--version")
    assert out.stdout.decode().strip() == f"placelab {placelab.__version__}"
