"""The capability matrix (docs/lint.md#capability-matrix): server-everything listed under several
client capability sets, what appears only under some, the diff of that between two snapshots,
and the suite's `surface.client_capabilities` in `mcptest lint`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from support.servers import everything_command

from mcptest.cli.main import main
from mcptest.errors import UsageError
from mcptest.surface.diff import diff_servers
from mcptest.surface.matrix import merge, parse_set, set_name

GATED = {"get-roots-list": ["sampling,elicitation,roots", "roots"],
         "trigger-elicitation-request": ["sampling,elicitation,roots"],
         "trigger-sampling-request": ["sampling,elicitation,roots"],
         "trigger-url-elicitation": ["sampling,elicitation,roots"]}


def test_sets_are_named_in_one_order_and_unknown_names_are_refused() -> None:
    assert set_name(parse_set("roots, sampling")) == "sampling,roots"
    assert set_name(parse_set("none")) == set_name(parse_set("")) == "none"
    assert set_name(parse_set("all")) == "sampling,elicitation,roots,tasks"
    with pytest.raises(UsageError, match="unknown capability 'elicitaton'"):
        parse_set("sampling,elicitaton")


def test_merge_keeps_the_union_and_what_only_some_sets_listed() -> None:
    plain = {"tools": [{"name": "echo"}], "prompts": [{"name": "p"}]}
    more = {"tools": [{"name": "echo"}, {"name": "ask"}], "prompts": []}
    merged = merge([(frozenset(), plain), (frozenset({"elicitation"}), more)])
    assert [t["name"] for t in merged["tools"]] == ["ask", "echo"]
    assert merged["client_capabilities"] == {
        "sets": ["none", "elicitation"],
        "only": {"tools": {"ask": ["elicitation"]}, "prompts": {"p": ["none"]}}}


@pytest.mark.slow  # starts server-everything once per capability set
def test_server_everything_under_three_sets(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    suite = tmp_path / "s.yml"
    suite.write_text(f"servers:\n  everything:\n    command: {json.dumps(everything_command())}\n",
                     encoding="utf-8")
    snap = tmp_path / "now.json"
    assert main(["surface", "snapshot", str(suite), "--output", str(snap),
                 "--client-capabilities", "none", "--client-capabilities",
                 "sampling,elicitation,roots", "--client-capabilities", "roots"]) == 0
    err = capsys.readouterr().err
    assert "everything: tool get-roots-list appears only with: sampling,elicitation,roots | roots" in err
    doc = json.loads(snap.read_text(encoding="utf-8"))
    server = doc["servers"]["everything"]
    assert server["client_capabilities"] == {
        "sets": ["none", "sampling,elicitation,roots", "roots"], "only": {"tools": GATED}}
    names = {t["name"] for t in server["tools"]}
    assert set(GATED) | {"echo", "get-sum"} <= names
    # an older snapshot in which get-roots-list was listed for every client: the diff says the
    # tool now needs a capability (breaking for a client that declares none)
    older: dict[str, Any] = json.loads(snap.read_text(encoding="utf-8"))
    del older["servers"]["everything"]["client_capabilities"]["only"]["tools"]["get-roots-list"]
    changes = diff_servers(older["servers"], doc["servers"])
    assert [(c.kind, c.item, c.severity) for c in changes] == [
        ("capability-narrowed", "get-roots-list", "breaking")]
    assert changes[0].message == ("tool `get-roots-list` is no longer listed with none "
                                  "(now only with: sampling,elicitation,roots | roots)")
    old_path = tmp_path / "old.json"
    old_path.write_text(json.dumps(older), encoding="utf-8")
    assert main(["surface", "diff", str(old_path), str(snap)]) == 1
    assert "capability-narrowed" in capsys.readouterr().out


@pytest.mark.slow  # starts server-everything once per capability set
def test_lint_compares_the_suites_matrix_with_its_snapshot(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    suite = tmp_path / "s.yml"
    suite.write_text(f"""servers:
  everything:
    command: {json.dumps(everything_command())}
surface:
  snapshot: surface.json
  client_capabilities: [[], [sampling, elicitation, roots]]
""", encoding="utf-8")
    assert main(["lint", str(suite), "--update"]) in (0, 1)
    doc = json.loads((tmp_path / "surface.json").read_text(encoding="utf-8"))
    only = doc["servers"]["everything"]["client_capabilities"]["only"]["tools"]
    assert set(only) == set(GATED)
    # the same snapshot taken by `surface snapshot` from the suite's own sets is identical
    again = tmp_path / "again.json"
    assert main(["surface", "snapshot", str(suite), "--output", str(again)]) == 0
    assert again.read_bytes() == (tmp_path / "surface.json").read_bytes()
    capsys.readouterr()
    code = main(["lint", str(suite), "--reporter", "json", "--output", str(tmp_path / "r.json")])
    report = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    surface = [f for f in report["lint"]["findings"] if f["rule"].startswith("surface/")]
    assert surface == []
    assert code in (0, 1)  # the lint rules' own findings on server-everything decide
    # a committed snapshot in which trigger-sampling-request was listed for every client
    del doc["servers"]["everything"]["client_capabilities"]["only"]["tools"][
        "trigger-sampling-request"]
    (tmp_path / "surface.json").write_text(json.dumps(doc), encoding="utf-8")
    assert main(["lint", str(suite), "--reporter", "json", "--output",
                 str(tmp_path / "r.json")]) == 1
    report = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    (narrowed,) = [f for f in report["lint"]["findings"] if f["rule"].startswith("surface/")]
    assert narrowed["rule"] == "surface/capability-narrowed"
    assert narrowed["level"] == "error"
    assert "trigger-sampling-request` is no longer listed with none" in narrowed["message"]
