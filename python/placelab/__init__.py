"""placelab from Python: run scenarios and studies with the same engines as the ``placelab`` CLI
and the browser page, byte for byte.

A *scenario* is a versioned JSON document (``{"version": 1, "engine": "allocation", ...}``); a
*study* sweeps one over fields and seeds (docs/format.md, "Studies"). Either is given as a dict,
a JSON string, or a path (``pathlib.Path``) to a JSON file.

- :func:`run` -- a scenario's report, as a dict (:func:`run_json`: as the CLI prints it);
- :func:`check` -- validates a scenario without running it;
- :func:`study` -- a study's tidy table (or, with ``aggregate=True``, its aggregate table), a
  ``pandas.DataFrame`` when pandas is importable, else a list of dicts;
- :func:`run_study` -- both tables at once (and the CLI's CSV/JSON Lines texts);
- :func:`engines`, :func:`examples` -- the engines' field tables, the bundled examples.

Refused input raises :class:`ScenarioError` (a ``ValueError``) whose ``path`` names the bad
value's JSON path.
"""

from __future__ import annotations

import json
import os
import warnings
from typing import Any, Dict, List, Optional, Union


from . import _placelab
from ._placelab import DEFAULT_MAX_POINTS, ScenarioError

__all__ = [
    "DEFAULT_MAX_POINTS",
    "ScenarioError",
    "StudyResult",
    "check",
    "engines",
    "examples",
    "run",
    "run_json",
    "run_study",
    "study",
]

__version__ = _placelab.version()

#: A scenario or study: a dict, JSON text (str or bytes) or the path of a JSON file.
Document = Union[Dict[str, Any], str, bytes, "os.PathLike[str]"]
#: A table: a pandas.DataFrame when pandas is importable, else a list of rows (dicts).
Table = Union["pandas.DataFrame", List[Dict[str, Any]]]  # noqa: F821


def _json_default(value):
    # numpy scalars and arrays (say, a sweep built with numpy) have .tolist()
    tolist = getattr(value, "tolist", None)
    if callable(tolist):
        return tolist()
    raise TypeError(f"a value of type {type(value).__name__} is not JSON")


def _text(document, what):
    """A document given as a dict, JSON text or a path, as JSON text; and the directory a
    study's ``"baseFile"`` is relative to."""
    if isinstance(document, os.PathLike):
        path = os.fspath(document)
        with open(path, "rb") as f:
            data = f.read()
        return _placelab.decode(data), os.path.dirname(os.path.abspath(path))
    if isinstance(document, str):
        return document, os.getcwd()
    if isinstance(document, (bytes, bytearray)):
        return _placelab.decode(bytes(document)), os.getcwd()
    if isinstance(document, dict):
        # NaN and infinities are written as such: the parser refuses them naming the place
        return json.dumps(document, default=_json_default), os.getcwd()
    raise TypeError(
        f"the {what} must be a dict, a JSON string or a pathlib.Path, "
        f"not {type(document).__name__}"
    )


def run(scenario: Document) -> Dict[str, Any]:
    """Runs a scenario and returns its report as a dict: the parsed text of :func:`run_json`.

    >>> report = placelab.run({"version": 1, "engine": "allocation", ...})
    >>> report["report"]["runs"][0]["policy"]

    Raises :class:`ScenarioError` when the scenario is refused.
    """
    return json.loads(run_json(scenario))


def run_json(scenario: Document) -> str:
    """Runs a scenario and returns the report file's text: byte for byte what
    ``placelab run FILE`` prints (one line of JSON and its newline) and the page exports."""
    text, _ = _text(scenario, "scenario")
    return _placelab.run(text)


def check(scenario: Document) -> None:
    """Validates a scenario without running it: returns None, or raises
    :class:`ScenarioError` naming the bad value's path."""
    text, _ = _text(scenario, "scenario")
    _placelab.check(text)


def engines() -> List[Dict[str, Any]]:
    """The engines and their form fields (``placelab engines``): a list of
    ``{"id", "title", "params": [{"path", "default", "min", "max", "label", ...}]}``."""
    return json.loads(_placelab.engines_json())


def examples() -> Dict[str, Dict[str, Any]]:
    """The bundled examples (``playground-examples/``): a dict from id (the file name
    without ``.json``; a study's ``"example"`` field takes it) to the scenario as a dict."""
    return {id_: json.loads(text) for id_, text in _placelab.examples()}


def _table(jsonl: str, columns: List[str]) -> Table:
    rows = [json.loads(line) for line in jsonl.splitlines()]
    try:
        import pandas
    except ImportError:
        return rows
    return pandas.DataFrame(rows, columns=columns)


class StudyResult:
    """What :func:`run_study` returns.

    Attributes:
        tidy: one row per point and per group (policy, strategy, ...): a ``pandas.DataFrame``
            when pandas is importable, else a list of dicts (column name to value, columns in
            order); exactly the rows of the CLI's ``tidy.jsonl``.
        aggregate: one row per combination, group and metric (``n``, ``failed``, ``mean``,
            ``sd``, ``ciLow``, ``ciHigh``, ``min``, ``median``, ``max``); the CLI's
            ``aggregate.jsonl``.
        tidy_columns, aggregate_columns: the column names, in order.
        files: the texts the CLI writes into a results directory, by file name
            (``tidy.csv``, ``tidy.jsonl``, ``aggregate.csv``, ``aggregate.jsonl``,
            ``study.json``), byte for byte.
        points: the number of points; failed: how many ended as error rows.
        refused: ``[(point, description, message)]`` for points the engine refused before
            anything ran (they are error rows too).
        absent_metrics: metrics without a value in any point (a typo, or another mode).
        name, hash: the study's name and its 16-hex-digit hash (as in ``points.jsonl``).
    """

    def __init__(self, raw: Dict[str, Any]):
        self.tidy_columns = raw["tidy_columns"]
        self.aggregate_columns = raw["aggregate_columns"]
        self.tidy = _table(raw["tidy_jsonl"], self.tidy_columns)
        self.aggregate = _table(raw["aggregate_jsonl"], self.aggregate_columns)
        self.files = {
            "tidy.csv": raw["tidy_csv"],
            "tidy.jsonl": raw["tidy_jsonl"],
            "aggregate.csv": raw["aggregate_csv"],
            "aggregate.jsonl": raw["aggregate_jsonl"],
            "study.json": raw["canonical"],
        }
        self.points = raw["points"]
        self.failed = raw["failed"]
        self.refused = raw["refused"]
        self.absent_metrics = raw["absent_metrics"]
        self.name = raw["name"]
        self.hash = raw["hash"]

    def __repr__(self):
        return (
            f"<StudyResult {self.name!r}: {self.points} points, {self.failed} failed, "
            f"{len(self.tidy)} tidy rows, {len(self.aggregate)} aggregate rows>"
        )


def run_study(
    study: Document, threads: Optional[int] = None, max_points: int = DEFAULT_MAX_POINTS
) -> StudyResult:
    """Runs every point of a study on ``threads`` threads (default: one per core; the tables
    are the same whatever the number) and returns a :class:`StudyResult` with both tables.

    ``study`` is a dict, JSON text or a path; a ``"baseFile"`` is read relative to the study
    file (a path) or the working directory, an ``"example"`` is a bundled example's id.
    ``max_points`` is the admission limit (the CLI's ``--max-points``): a larger study is
    refused before anything runs.

    Raises :class:`ScenarioError` (its ``path`` inside the study document) when the study is
    refused; ``KeyboardInterrupt`` stops a running study. Warns (``UserWarning``) about points
    the engine refused (they are error rows) and metrics without a value in any point.
    """
    return _run_study(study, threads, max_points, stacklevel=3)


def _run_study(study, threads, max_points, stacklevel):
    # stacklevel: the user's frame for the warnings
    if threads is None:
        threads = 0
    elif isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise ValueError(f"threads must be a whole number from 1 (or None), not {threads!r}")
    if isinstance(max_points, bool) or not isinstance(max_points, int) or max_points < 0:
        raise ValueError(f"max_points must be a whole number from 0, not {max_points!r}")
    text, base_dir = _text(study, "study")
    result = StudyResult(_placelab.run_study(text, threads, max_points, base_dir))
    if result.refused:
        first = result.refused[0]
        warnings.warn(
            f"points refused by the engine are error rows ({len(result.refused)} of "
            f"{result.points}), e.g. point {first[0]} ({first[1]}): {first[2]}",
            stacklevel=stacklevel,
        )
    for metric in result.absent_metrics:
        warnings.warn(f"the metric {metric} has no value in any point", stacklevel=stacklevel)
    return result


def study(
    study: Document,
    threads: Optional[int] = None,
    max_points: int = DEFAULT_MAX_POINTS,
    aggregate: bool = False,
) -> Table:
    """Runs a study (see :func:`run_study`) and returns its tidy table, or with
    ``aggregate=True`` its aggregate table: a ``pandas.DataFrame`` when pandas is importable,
    else a list of dicts. For both tables from one run, use :func:`run_study`."""
    result = _run_study(study, threads, max_points, stacklevel=3)
    return result.aggregate if aggregate else result.tidy
