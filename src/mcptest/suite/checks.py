"""Cross-checks a schema cannot express: names that must refer to something declared.

They run on the interpolated plain data (not the models) so that a file with a type error
somewhere still gets every reference checked in the same pass; each check skips what it cannot
read, because validation reports that.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from mcptest.errors import SuiteError
from mcptest.suite.escalation_checks import escalation_errors
from mcptest.suite.interpolate import NAME
from mcptest.suite.models.matcher_kinds import LLM_MATCHER_KINDS, canonical_kind
from mcptest.suite.positions import KeyPath, Positions, format_path
from mcptest.suite.raw_walk import eval_generators, eval_judges, is_jury_target, walk_matcher

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class _Checker:
    def __init__(self, data: dict[str, Any], positions: Positions, base_dir: Path) -> None:
        self.data = data
        self.positions = positions
        self.base_dir = base_dir
        self.errors: list[SuiteError] = []

    def error(self, message: str, path: KeyPath, *, at_key: bool = False) -> None:
        pos = self.positions.key(path) if at_key else self.positions.value(path)
        self.errors.append(SuiteError(message, pos, format_path(path)))

    def section(self, key: str, kind: type) -> Any:
        value = self.data.get(key)
        return value if isinstance(value, kind) else kind()

    def tests(self, key: str) -> Iterator[tuple[int, dict[str, Any]]]:
        for i, test in enumerate(self.section(key, list)):
            if isinstance(test, dict):
                yield i, test

    # ------------------------------------------------------------------------------------

    def run(self) -> list[SuiteError]:
        servers = self.section("servers", dict)
        for i, test in self.tests("tools"):
            self.server_ref(test.get("server"), ("tools", i, "server"), servers)
        for i, test in self.tests("evals"):
            # (no `response` and no `server`: deferred at run time, docs/decisions.md)
            if "server" in test and test["server"] is not None:
                self.server_ref(test["server"], ("evals", i, "server"), servers)
        for i, test in self.tests("agents"):
            refs = test.get("servers")
            for j, ref in enumerate(refs if isinstance(refs, list) else []):
                self.server_ref(ref, ("agents", i, "servers", j), servers)
        for key in ("resources", "prompts", "lists"):
            for i, test in self.tests(key):
                self.server_ref(test.get("server"), (key, i, "server"), servers)
        for name in self.section("selection", dict):
            self.server_ref(name, ("selection", name), servers)
        surface = self.section("surface", dict)
        picked = surface.get("servers")
        for j, ref in enumerate(picked if isinstance(picked, list) else []):
            self.server_ref(ref, ("surface", "servers", j), servers)
        for key in ("tools", "evals", "agents", "resources", "prompts", "lists"):
            self.unique_names(key)
        self.rubric_refs()
        self.jury_targets()
        self.judged_nesting()
        self.strict_panels()
        self.impossible_juries()
        self.strict_eval_panels()
        self.names_and_dirs(servers)
        return self.errors

    def server_ref(self, ref: Any, path: KeyPath, servers: dict[str, Any]) -> None:
        if not isinstance(ref, str) or ref in servers:
            return
        import difflib  # a suggestion for a misspelt name: only a bad suite needs it

        hint = difflib.get_close_matches(ref, list(servers), n=1)
        if hint:
            also = f" (did you mean `{hint[0]}`?)"
        elif servers:
            also = f" (declared: {', '.join(sorted(servers))})"
        else:
            also = " (the suite declares no `servers:`)"
        self.error(f"unknown server `{ref}`{also}", path)

    def unique_names(self, key: str) -> None:
        first: dict[str, int] = {}
        for i, test in self.tests(key):
            name = test.get("name")
            if not isinstance(name, str):
                continue
            if name in first:
                line = self.positions.value((key, first[name], "name")).line
                self.error(f"duplicate test name `{name}` (first used on line {line})",
                           (key, i, "name"))
            else:
                first[name] = i

    def rubric_refs(self) -> None:
        rubrics = self.section("rubrics", dict)
        places: list[tuple[Any, KeyPath]] = [
            (test.get("rubric"), ("evals", i, "rubric")) for i, test in self.tests("evals")
        ]
        for key in ("tools", "agents", "resources", "prompts", "lists"):
            for path, matcher in self.matchers(key):
                for key in ("eval-rubric", "eval.rubric"):  # the older spelling loads too
                    if key in matcher:
                        places.append((matcher[key], (*path, key)))
        for rubric, path in places:
            if isinstance(rubric, dict) and isinstance(rubric.get("ref"), str):
                ref = rubric["ref"]
                if ref not in rubrics:
                    import difflib

                    hint = difflib.get_close_matches(ref, list(rubrics), n=1)
                    also = f" (did you mean `{hint[0]}`?)" if hint else (
                        f" (declared: {', '.join(sorted(rubrics))})" if rubrics
                        else " (the suite declares no `rubrics:`)")
                    self.error(f"unknown rubric `{ref}`{also}", (*path, "ref"))

    def matchers(self, key: str) -> Iterator[tuple[KeyPath, dict[str, Any]]]:
        """Every matcher mapping of every assertion of `key`, nested ones included."""
        for i, test in self.tests(key):
            expect = test.get("expect")
            for j, assertion in enumerate(expect if isinstance(expect, list) else []):
                if isinstance(assertion, dict):
                    yield from walk_matcher(assertion.get("matcher"), (key, i, "expect", j,
                                                                       "matcher"))

    def jury_targets(self) -> None:
        for key in ("tools", "agents", "resources", "prompts", "lists"):
            for i, test in self.tests(key):
                expect = test.get("expect")
                expect = expect if isinstance(expect, list) else []
                juries = sum(
                    any("llm-jury" in m for _, m in walk_matcher(a.get("matcher"), (), False))
                    for a in expect if isinstance(a, dict)
                )
                for j, a in enumerate(expect):
                    target = a.get("target") if isinstance(a, dict) else None
                    if is_jury_target(target) and juries != 1:
                        self.error(
                            f"`{target}` reads the analytics of the test's one `llm-jury`"
                            f" assertion, but this test has {juries}",
                            (key, i, "expect", j, "target"),
                        )

    def judged_nesting(self) -> None:
        """Judged matchers stand alone: inside `all`/`any`/`not` they would be paid for even
        when the deterministic members already decide, and their votes, cost and analytics have
        no row of their own (docs/decisions.md, "Matching")."""
        for key in ("tools", "agents"):
            for path, matcher in self.matchers(key):
                # (`not` around a judge is refused by the models already)
                nested = any(seg in ("all", "any") for seg in path[5:])
                kind = next((k for k in sorted(matcher, key=str)
                             if canonical_kind(str(k)) in LLM_MATCHER_KINDS), None)
                if nested and kind is not None:
                    self.error(f"`{kind}` cannot be nested inside `all` or `any`: give it "
                               "its own entry in `expect` (assertions of a test must all pass, "
                               "and judges are sent only when the deterministic ones did)", path)

    def strict_panels(self) -> None:
        """A strict jury on an agent test must not have a juror of the agent model's family."""
        from mcptest.suite.families import model_family  # pure and light; only when needed

        for i, test in self.tests("agents"):
            models = test.get("models")
            families = {
                f: m for m in (models if isinstance(models, list) else [])
                if isinstance(m, str) and (f := model_family(m)) is not None
            }
            for path, matcher in self.matchers("agents"):
                if path[1] != i:
                    continue
                jury = matcher.get("llm-jury")
                if not isinstance(jury, dict) or jury.get("strict_panel") is not True:
                    continue
                for seat in ("jurors", "replacements"):  # a stand-in judges like a juror
                    jurors = jury.get(seat)
                    for k, juror in enumerate(jurors if isinstance(jurors, list) else []):
                        model = juror.get("model") if isinstance(juror, dict) else None
                        family = model_family(model) if isinstance(model, str) else None
                        if family in families:
                            self.error(
                                f"juror `{model}` is from the {family} family, like agent model"
                                f" `{families[family]}`; `strict_panel: true` forbids that",
                                (*path, "llm-jury", seat, k, "model"),
                            )

    def strict_eval_panels(self) -> None:
        """`strict_panel: true` on an eval's `judge:` refuses a judge of the family of the model
        that writes a live eval's answer (docs/jury.md)."""
        from mcptest.suite.families import model_family

        for i, test in self.tests("evals"):
            judge = test.get("judge")
            if not isinstance(judge, dict) or judge.get("strict_panel") is not True:
                continue
            families = {f: m for m in eval_generators(test)
                        if (f := model_family(m)) is not None}
            for path, model in eval_judges(judge, ("evals", i, "judge")):
                family = model_family(model)
                if family in families:
                    self.error(f"judge `{model}` is from the {family} family, like the model "
                               f"`{families[family]}` that writes this eval's answer; "
                               "`strict_panel: true` forbids that", path)

    def impossible_juries(self) -> None:
        """`min_jurors` above the seats of the jury: every run would pay for calls that can
        never decide (replacements take a failed juror's seat, they add none; docs/jury.md)."""
        for key in ("tools", "agents"):
            for path, matcher in self.matchers(key):
                jury = matcher.get("llm-jury")
                if not isinstance(jury, dict):
                    continue
                need, jurors = jury.get("min_jurors"), jury.get("jurors")
                if not isinstance(need, int) or not isinstance(jurors, list):
                    continue
                if need > len(jurors):
                    spare = jury.get("replacements")
                    extra = (f" (its {len(spare)} replacement(s) only take a failed juror's "
                             "seat)") if isinstance(spare, list) and spare else ""
                    self.error(f"`min_jurors: {need}` can never be met: the jury has "
                               f"{len(jurors)} juror(s){extra}; lower `min_jurors` or add "
                               "jurors", (*path, "llm-jury", "min_jurors"))

    def names_and_dirs(self, servers: dict[str, Any]) -> None:
        for name in self.section("variables", dict):
            if not NAME.fullmatch(name):
                self.error(f"variable name `{name}` cannot be referenced: use letters, digits"
                           " and `_`, not starting with a digit", ("variables", name), at_key=True)
        for name, spec in self.section("variables", dict).items():
            if isinstance(spec, dict):
                self.env_name(spec.get("from_env"), ("variables", name, "from_env"))
        for name, server in servers.items():
            if not isinstance(server, dict):
                continue
            auth = server.get("auth")
            if isinstance(auth, dict):
                self.env_name(auth.get("bearer_token_env"),
                              ("servers", name, "auth", "bearer_token_env"))
            for key in ("env", "headers"):
                values = server.get(key)
                for k, v in (values.items() if isinstance(values, dict) else []):
                    if isinstance(v, dict):
                        self.env_name(v.get("env"), ("servers", name, key, k, "env"))
            cwd = server.get("cwd")
            if isinstance(cwd, str) and "command" in server:
                folder = self.base_dir / cwd
                try:
                    found = folder.is_dir()
                except OSError:  # a name longer than the system allows (3.11 raises)
                    found = False
                if not found:
                    self.error(f"working directory `{cwd}` does not exist (looked for {folder};"
                               " a relative `cwd` is relative to the suite file's folder)",
                               ("servers", name, "cwd"))

    def env_name(self, value: Any, path: KeyPath) -> None:
        if isinstance(value, str) and value and not ENV_NAME.fullmatch(value):
            self.error(f"`{value}` is not a valid environment variable name (letters, digits"
                       " and `_`, not starting with a digit)", path)


def cross_check(data: dict[str, Any], positions: Positions, base_dir: Path) -> list[SuiteError]:
    """Every reference and naming error of one suite's (interpolated) data."""
    return _Checker(data, positions, base_dir).run() + escalation_errors(data, positions)
