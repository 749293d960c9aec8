"""Every fenced block of README.md, examples/README.md and docs/*.md runs as a reader would run
it, from a fresh clone after `make demo` with `. .venv/bin/activate` done once
(support/doc_sandbox.py: a copy of the repository per page with a `.venv` of its own, no provider
key, npx finding the prepared npm packages). A page's blocks run in order, in that page's clone.

What a block does, by its language:

- `sh`: each command (one per line; `\\` continues a line, `#` starts a comment) runs in a new
  shell at the clone's root (write `(cd DIR && …)` to run one elsewhere) and must exit 0.
- `yaml`: a suite, or a piece of one, that `mcptest validate` must accept, written to the clone's
  `examples/` (so `expected/`, `cases/`, `judges/` resolve as for the example suites). A piece
  goes where a reader would paste it: a list of assertions (`- target: …`) under a tool test's
  `expect` (an agent test's when a target reads `tool_calls`, `final`, `conversation` or
  `transcript`); a mapping with `matcher:` as one assertion on `result.content[0].text`; a lone
  matcher (`llm-jury: …`) as that assertion's matcher; other keys of a tool test (`reference:`)
  into a tool test. A suite without `servers:` gets each server it names as the example server.
  A block of comments only is left alone.
- `json`: must parse. `csv`, `ini`, `toml`: must be a `file` or an `excerpt` (below). `python`:
  runs with the venv's python.
- `text`: output, notation, formulas: never run, and no line may start with `$ ` or `mcptest `
  (a command goes in an `sh` block).

An annotation on the line right above a fence changes that: `<!-- doc-test: KIND [ARG]; … -->`,
parts separated by `;`:

- `file PATH`: the block is the file PATH of the clone (a suite, a labels file, a table), written
  before the page's first block runs; another block of the page must name the file.
- `excerpt PATH`: the block is part of PATH (an example file), verbatim; another block runs it.
- `run`: a suite block is also run (`mcptest run FILE --no-cache`).
- `exit N`: the block's commands (or its `run`) exit with N instead of 0.
- `judge`: a loopback OpenAI-compatible judge (tests/support/judge_server.py) answers every
  model with a passing verdict (score 0.9), reached as a gateway (`MCPTEST_JUDGE_BASE_URL`).
- `workflow`: a GitHub Actions workflow, never run here: actionlint must accept it, and every
  step that uses the Action says `mcptest/action@v1` with inputs action.yml declares.
- `docker`: docker commands. In CI (`CI` set; `.ci/run` has started the engine of ../shared/ci)
  they run, with BuildKit; elsewhere `docker build DIR` needs DIR/Dockerfile and
  `docker run [options] IMAGE ARGS` runs as `mcptest ARGS` (the image's entrypoint is the CLI).
- `skip REASON`: not run (a `yaml` or `json` block must still parse). It comes last, and its
  reason is required (it may hold `;`).

`test_a_broken_command_fails_the_page` breaks a documented command in a copy of a page and
checks that the page then fails (docs/decisions.md, "Documented commands run as written").
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from support.actionlint import actionlint
from support.cli_inproc import cli
from support.doc_blocks import REPO, Block, DocError, blocks, commands, pages
from support.doc_hosts import hosted_suite
from support.doc_sandbox import Ran, clone, docker_as_cli, docker_engine, docker_env, reader_env, sh
from support.judge_server import JudgeServer, Verdict

pytestmark = pytest.mark.slow  # copies the repository and runs the CLI per page

PAGES = [p.relative_to(REPO).as_posix() for p in pages()]


def _param(page: str) -> object:
    """Pages that build and run the image share one Docker engine and one `mcptest` tag: under
    pytest-xdist (`make test`, `--dist loadgroup`) they run one after the other on one worker."""
    if "doc-test: docker" in (REPO / page).read_text(encoding="utf-8"):
        return pytest.param(page, marks=pytest.mark.xdist_group("docker-engine"))
    return page
COMMAND_LINE = ("$ ", "mcptest ")


class Page:
    """One page's blocks run in one clone; every problem is collected, none stops the rest."""

    def __init__(self, page: Path, tmp: Path, js: JudgeServer, root: Path = REPO) -> None:
        self.blocks = blocks(page, root)
        self.root = clone(tmp / "clone")
        self.tmp = tmp
        self.js = js
        self.problems: list[str] = []

    def env(self, b: Block) -> dict[str, str]:
        return reader_env(self.js.gateway_env() if "judge" in b.notes else None)

    def check(self, b: Block, ran: Ran, expected: int) -> None:
        if ran.code != expected:
            self.problems.append(f"{b.where}: `{ran.command}` exited {ran.code}, expected "
                                 f"{expected}:\n{ran.tail()}")

    def run(self) -> list[str]:
        for b in self.blocks:
            if "file" in b.notes:
                self.write_file(b)
        workflows: dict[Path, Block] = {}
        for n, b in enumerate(self.blocks):
            if "skip" in b.notes:
                self.parses(b)
            elif "excerpt" in b.notes:
                self.excerpt(b)
            elif "workflow" in b.notes:
                workflows[self.workflow_file(b, n)] = b
            elif b.lang == "sh":
                self.shell(b)
            elif b.lang == "yaml" and "file" not in b.notes:
                self.suite(b, n)
            elif b.lang == "json":
                self.parses(b)
            elif b.lang == "python":
                path = self.root / f"doc_example_{n}.py"
                path.write_text(b.text, encoding="utf-8")
                self.check(b, sh(self.root, f"python {path.name}", self.env(b)),
                           int(b.notes.get("exit", 0)))
            elif b.lang == "text":
                self.no_command(b)
            elif "file" not in b.notes:
                self.problems.append(f"{b.where}: a {b.lang} block must be a `file`, an `excerpt` "
                                     "or a `skip`")
        if workflows:
            self.lint_workflows(workflows)
        return self.problems

    def write_file(self, b: Block) -> None:
        name = b.notes["file"]
        others = [o for o in self.blocks if o is not b]
        if not any(Path(name).name in o.text for o in others):
            self.problems.append(f"{b.where}: `file {name}`: no other block of the page uses it")
        path = self.root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(b.text, encoding="utf-8")

    def excerpt(self, b: Block) -> None:
        name = b.notes["excerpt"]
        path = self.root / name
        if not path.is_file() or b.text not in path.read_text(encoding="utf-8"):
            self.problems.append(f"{b.where}: `excerpt {name}`: the block is not part of {name} "
                                 "as written there")

    def parses(self, b: Block) -> None:
        try:
            if b.lang == "yaml":
                yaml.safe_load(b.text)
            elif b.lang == "json":
                json.loads(b.text)
        except (yaml.YAMLError, json.JSONDecodeError) as e:
            self.problems.append(f"{b.where}: not valid {b.lang}: {e}")

    def no_command(self, b: Block) -> None:
        for line in b.text.splitlines():
            if line.startswith(COMMAND_LINE):
                self.problems.append(f"{b.where}: a command in a text block ({line!r}): put it "
                                     "in an sh block")
                return

    def shell(self, b: Block) -> None:
        expected = int(b.notes.get("exit", 0))
        env = self.env(b)
        client = docker_engine() if "docker" in b.notes else None
        if client is not None:
            env = docker_env(env, client, self.tmp / "bin")
        for command in commands(b.text):
            if "docker" in b.notes and client is None:
                try:
                    command = docker_as_cli(self.root, command)  # type: ignore[assignment]
                except AssertionError as e:
                    self.problems.append(f"{b.where}: {e}")
                    continue
                if command is None:
                    continue
            self.check(b, sh(self.root, command, env, timeout=900 if client else 300), expected)

    def suite(self, b: Block, n: int) -> None:
        try:
            text = hosted_suite(b.text)
        except DocError as e:
            self.problems.append(f"{b.where}: {e}")
            return
        if text is None:
            return
        path = f"examples/doc_example_{n}.yml"
        (self.root / path).write_text(text, encoding="utf-8")
        # a block no reader types: validated in this process (`support.cli_inproc`), in the
        # clone, with the reader's environment; a new shell and interpreter per block cost ~0.4 s
        # of CPU, 31 times
        ran = cli("validate", path, cwd=self.root, env=self.env(b), inherit=False)
        if ran.returncode != 0:
            tail = "\n".join((ran.stdout + ran.stderr).splitlines()[-25:])
            self.problems.append(f"{b.where}: `mcptest validate` exited {ran.returncode}:\n"
                                 f"{tail}\n--- the suite validated:\n{text}")
        elif "run" in b.notes:
            self.check(b, sh(self.root, f"mcptest run {path} --no-cache", self.env(b)),
                       int(b.notes.get("exit", 0)))

    def workflow_file(self, b: Block, n: int) -> Path:
        path = self.tmp / "workflows" / f"doc-{n}.yml"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(b.text, encoding="utf-8")
        return path

    def lint_workflows(self, files: dict[Path, Block]) -> None:
        inputs = set(yaml.safe_load((REPO / "action.yml").read_text(encoding="utf-8"))["inputs"])
        for f in actionlint(*files):
            b = files[Path(str(f["file"]))]
            self.problems.append(f"{b.page}:{b.line + int(str(f['line']))}: actionlint: "
                                 f"{f['message']} [{f['kind']}]")
        for path, b in files.items():
            for job in (yaml.safe_load(path.read_text(encoding="utf-8")).get("jobs") or {}).values():
                for step in job.get("steps") or []:
                    uses = str(step.get("uses", ""))
                    if "mcptest" not in uses:
                        continue
                    if uses != "mcptest/action@v1":
                        self.problems.append(f"{b.where}: `uses: {uses}`: the Action is "
                                             "`mcptest/action@v1`")
                    unknown = set(step.get("with") or {}) - inputs
                    if unknown:
                        self.problems.append(f"{b.where}: inputs the Action does not have: "
                                             f"{sorted(unknown)}")


@pytest.fixture(scope="module")
def judge() -> JudgeServer:
    with JudgeServer() as js:
        js.script("*", Verdict(score=0.9, reason="the loopback judge of the doc test"))
        yield js


@pytest.mark.parametrize("page", [_param(p) for p in PAGES])
def test_page_runs_as_written(page: str, tmp_path: Path, judge: JudgeServer) -> None:
    problems = Page(REPO / page, tmp_path, judge).run()
    assert not problems, "\n\n".join(problems)


def test_a_broken_command_fails_the_page(tmp_path: Path, judge: JudgeServer) -> None:
    """The test can fail: a documented command broken in a temporary copy of README.md (a flag
    that does not exist) fails that page, naming the block and the command. The copy keeps
    README.md's suite file and the block that runs it, from the suite's annotation to that
    block's closing fence (the whole page runs in test_page_runs_as_written; running it all
    again here, its image build included, would only repeat that)."""
    copy = tmp_path / "repo"
    copy.mkdir()
    every = blocks(REPO / "README.md")
    suite = next(b for b in every if b.notes.get("file") == "suite.yml")
    runs = next(b for b in every if "mcptest validate suite.yml" in b.text)
    lines = (REPO / "README.md").read_text(encoding="utf-8").splitlines(keepends=True)
    end = next(n for n in range(runs.line, len(lines)) if lines[n].startswith("```"))
    text = "".join(lines[suite.line - 2:end + 1])  # from the annotation above the suite's fence
    broken = text.replace("mcptest validate suite.yml", "mcptest validate --strictly suite.yml")
    assert broken != text
    page = copy / "README.md"
    page.write_text(broken, encoding="utf-8")
    problems = Page(page, tmp_path, judge, root=copy).run()
    assert any("`mcptest validate --strictly suite.yml` exited 2" in p for p in problems), problems


def test_the_annotations_are_checked(tmp_path: Path) -> None:
    """A misspelt annotation, one that floats away from its fence, a skip without a reason and a
    block without a language are errors of the page, not silently run or skipped."""
    for text, error in (
        ("<!-- doc-test: skipp -->\n```sh\ntrue\n```\n", "unknown doc-test annotation"),
        ("<!-- doc-test: skip -->\n```sh\ntrue\n```\n", "needs a reason"),
        ("<!-- doc-test: judge -->\n\ntext\n\n```sh\ntrue\n```\n", "right above a fence"),
        ("```\nmcptest run x.yml\n```\n", "language 'none'"),
    ):
        page = tmp_path / "page.md"
        page.write_text(text, encoding="utf-8")
        with pytest.raises(DocError, match=error):
            blocks(page, tmp_path)
