"""The Action's inputs: hyphenated INPUT_* names, defaults, and errors that name the input."""

from __future__ import annotations

import pytest

from mcptest.action.inputs import read_inputs, split_list
from mcptest.errors import UsageError


def env(**inputs: str) -> dict[str, str]:
    """INPUT_* variables the way the runner spells them: upper case, hyphens kept."""
    return {f"INPUT_{k.upper().replace('_', '-')}": v for k, v in inputs.items()}


def test_defaults_with_only_suites() -> None:
    got = read_inputs(env(suites="tests/mcp/*.yml"))
    assert got.suites == ["tests/mcp/*.yml"]
    assert (got.max_cost, got.concurrency, got.shard) == (None, None, None)
    assert got.sarif == "mcptest.sarif"
    assert got.comment and got.comment_mode == "update" and got.wants_comment
    assert got.output_dir == "mcptest-results" and got.working_directory == "."
    assert not got.require_judge and not got.with_evals


def test_hyphenated_names_are_read() -> None:
    got = read_inputs(env(
        suites="a.yml\n b.yml, c.yml\n\n", max_cost="$0.50", comment_mode="recreate",
        github_token="ghs_x", require_judge="true", with_evals="yes", concurrency="4", shard="2/3",
        working_directory="sub", output_dir="out", reporters="junit, html", sarif="x.sarif",
    ))
    assert got.suites == ["a.yml", "b.yml", "c.yml"]
    assert got.max_cost == 0.5 and got.concurrency == 4 and got.shard == "2/3"
    assert got.comment_mode == "recreate" and got.require_judge and got.with_evals
    assert got.github_token == "ghs_x" and got.working_directory == "sub"
    assert got.reporters == ["junit", "html"] and got.sarif == "x.sarif"


def test_token_is_not_in_repr() -> None:
    assert "ghs_secret" not in repr(read_inputs(env(suites="a.yml", github_token="ghs_secret")))


def test_empty_sarif_turns_it_off_and_comment_off_mode() -> None:
    got = read_inputs(env(suites="a.yml", sarif="", comment_mode="off"))
    assert got.sarif == "" and not got.wants_comment
    assert not read_inputs(env(suites="a.yml", comment="false")).wants_comment


@pytest.mark.parametrize(
    ("inputs", "named"),
    [
        ({}, "suites"),
        ({"suites": " , \n"}, "suites"),
        ({"max_cost": "lots"}, "max-cost"),
        ({"max_cost": "-1"}, "max-cost"),
        ({"max_cost": "nan"}, "max-cost"),
        ({"comment": "maybe"}, "comment"),
        ({"comment_mode": "append"}, "comment-mode"),
        ({"require_judge": "sure"}, "require-judge"),
        ({"concurrency": "0"}, "concurrency"),
        ({"concurrency": "two"}, "concurrency"),
        ({"shard": "3/2"}, "shard"),
        ({"shard": "1-2"}, "shard"),
        ({"reporters": "json, pdf"}, "reporters"),
        ({"working_directory": "a\nb"}, "working-directory"),
        ({"models": "playback"}, "models"),
    ],
)
def test_bad_inputs_name_the_input(inputs: dict[str, str], named: str) -> None:
    values = {"suites": "a.yml", **inputs} if "suites" not in inputs and inputs else inputs
    with pytest.raises(UsageError, match=f"input '{named}'"):
        read_inputs(env(**values))


def test_split_list_keeps_order_and_drops_blanks() -> None:
    assert split_list("b.yml,\na.yml ,, \n c/**/*.yml") == ["b.yml", "a.yml", "c/**/*.yml"]


def test_models_becomes_the_cli_flag() -> None:
    """`models: replay` on a pull request runs `mcptest run … --models replay`
    (docs/action.md, "Record on a schedule, replay on pull requests")."""
    import io

    from mcptest.action.main import cli_arguments

    for mode in ("record", "replay", "replay-or-record"):
        got = read_inputs(env(suites="a.yml", models=mode.upper()))
        assert got.models == mode
        argv = cli_arguments(got, ["a.yml"], "r.json", None, io.StringIO())
        assert argv[argv.index("--models") + 1] == mode
    plain = read_inputs(env(suites="a.yml"))
    assert plain.models is None
    assert "--models" not in cli_arguments(plain, ["a.yml"], "r.json", None, io.StringIO())
    with pytest.raises(UsageError, match="input 'models' applies to a run"):
        read_inputs(env(mode="merge", shard_reports="r.json", models="replay"))


def test_tags_become_the_cli_selection_flags() -> None:
    """`tag`/`skip-tag` are passed to `mcptest run` unchanged (docs/action.md): the Action does
    not select tests itself. `=` keeps a tag that starts with `-` a value."""
    import io

    from mcptest.action.main import cli_arguments

    got = read_inputs(env(suites="a.yml", tag="smoke\n fast, smoke", skip_tag="todo, -wip"))
    assert (got.tag, got.skip_tag) == (["smoke", "fast"], ["todo", "-wip"])
    argv = cli_arguments(got, ["a.yml"], "r.json", None, io.StringIO())
    assert [a for a in argv if a.startswith(("--tag", "--skip-tag"))] == [
        "--tag=smoke", "--tag=fast", "--skip-tag=todo", "--skip-tag=-wip"]
    plain = read_inputs(env(suites="a.yml", tag=" ", skip_tag=""))
    assert not any(a.startswith(("--tag", "--skip-tag"))
                   for a in cli_arguments(plain, ["a.yml"], "r.json", None, io.StringIO()))
    with pytest.raises(UsageError, match="input 'skip-tag' applies to a run"):
        read_inputs(env(mode="merge", shard_reports="r.json", skip_tag="todo"))
