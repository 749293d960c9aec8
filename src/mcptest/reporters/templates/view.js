"use strict";
// mcptest view: draws the report embedded above. Every text from the report goes into the page
// through textContent or a text node, never as markup (docs/view.md, "Inert text").
(function () {
  var report = JSON.parse(document.getElementById("report-data").textContent);
  var OPEN_AT_START = 50;

  function el(tag, cls, children) {
    var node = document.createElement(tag);
    if (cls) { node.className = cls; }
    (children || []).forEach(function (c) {
      if (c === null || c === undefined) { return; }
      node.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
    });
    return node;
  }
  function text(v) { return v === null || v === undefined ? "" : String(v); }
  function json(v) {
    if (typeof v === "string") { return v; }
    try { return JSON.stringify(v, null, 2); } catch (e) { return String(v); }
  }
  function num(v, digits) { return v === null || v === undefined ? "–" : Number(v).toFixed(digits); }
  function ms(v) { return v === null || v === undefined ? "" : (v >= 1000 ? (v / 1000).toFixed(2) + " s" : Math.round(v) + " ms"); }
  function usd(v) { return "$" + Number(v || 0).toFixed(4); }
  function section(title, content) { return [el("h3", null, [title]), content]; }
  function pre(v, cls) { return el("pre", cls, [json(v)]); }
  function table(head, rows, rowClass) {
    var t = el("table", null, [el("thead", null, [el("tr", null, head.map(function (h) { return el("th", null, [h]); }))])]);
    var body = el("tbody");
    rows.forEach(function (r, i) {
      body.appendChild(el("tr", rowClass ? rowClass(i) : null, r.map(function (c) {
        return el("td", null, [typeof c === "string" ? c : c === null || c === undefined ? "" : c]);
      })));
    });
    t.appendChild(body);
    return t;
  }

  // A replay that diverged says why with a unified diff: show its lines as a diff.
  function messageView(message) {
    var lines = message.split("\n");
    var at = lines.findIndex(function (l, i) { return l.indexOf("--- ") === 0 && (lines[i + 1] || "").indexOf("+++ ") === 0; });
    if (at < 0) { return [pre(message, "message")]; }
    var diff = el("pre", "diff");
    lines.slice(at).forEach(function (l) {
      var cls = l.indexOf("@@") === 0 ? "diff-hunk" : l[0] === "+" ? "diff-add" : l[0] === "-" ? "diff-del" : "diff-ctx";
      diff.appendChild(el("span", cls, [l + "\n"]));
    });
    return [pre(lines.slice(0, at).join("\n"), "message"), el("h3", null, ["diff (recorded → now)"]), diff];
  }

  function timelineView(t) {
    var list = el("ol", "timeline");
    t.timeline.forEach(function (s) {
      var arrow = s.direction === "sent" ? "→ " : "← ";
      var label = arrow + s.kind + (s.method ? " " + s.method : "") + (s.request_id !== null && s.request_id !== undefined ? " #" + s.request_id : "");
      var item = el("li", "step dir-" + s.direction + " kind-" + s.kind, [el("span", "at", ["+" + num(s.at_ms, 1) + " ms "]), el("span", "what", [label])]);
      item.setAttribute("data-kind", s.kind);
      item.setAttribute("data-direction", s.direction);
      if (s.body !== null && s.body !== undefined) { item.appendChild(el("details", null, [el("summary", null, ["body"]), pre(s.body)])); }
      list.appendChild(item);
    });
    var out = section("JSON-RPC timeline", list);
    if (t.timeline_dropped) { out.push(el("p", "meta", [t.timeline_dropped + " earlier message(s) not kept"])); }
    return out;
  }

  function agentView(response) {
    var out = [];
    var conv = response.conversation || {};
    out.push(el("p", "conversation", ["model " + text(conv.model) + " · " + text(conv.turns) + " turn(s) · stop: " + text(conv.stop) +
      (conv.tokens ? " · tokens " + conv.tokens.prompt + " in / " + conv.tokens.completion + " out" : "")]));
    var turns = el("ol", "turns");
    (response.tool_calls || []).forEach(function (c) {
      var li = el("li", "turn tool-call", [el("strong", null, [text(c.name)]), " " + json(c.args === undefined ? {} : c.args).replace(/\s+/g, " ")]);
      li.appendChild(pre(c.error !== null && c.error !== undefined ? c.error : c.result, c.is_error ? "tool-error" : "tool-result"));
      turns.appendChild(li);
    });
    if (response.final !== undefined && response.final !== null) { turns.appendChild(el("li", "turn final", [el("strong", null, ["final answer"]), pre(response.final)])); }
    out.push(turns);
    return section("agent turns", el("div", "agent", out));
  }

  function votesView(votes) {
    return table(["juror", "score", "vote", "reason", "evidence", "note"], votes.map(function (v) {
      var vote = v.label !== null && v.label !== undefined ? v.label : v.passed === true ? "pass" : v.passed === false ? "fail" : v.abstained ? "abstained" : "–";
      var note = [v.cached ? "cached" : "", v.deferred ? "deferred" : "", v.error ? "error: " + v.error : "", v.replacement_for ? "for " + v.replacement_for : "", v.latency_ms ? ms(v.latency_ms) : "", v.cost_usd ? usd(v.cost_usd) : ""].filter(Boolean).join(" · ");
      return [text(v.model) + (v.repetition ? " (rep " + v.repetition + ")" : ""), num(v.score, 2), vote, text(v.reason), text(v.evidence), note];
    }), function (i) { var v = votes[i]; return "ballot " + (v.passed === true ? "ballot-pass" : v.passed === false ? "ballot-fail" : "ballot-none"); });
  }

  function judgeView(j) {
    var out = [el("p", "judge-line", [j.kind + " · score " + num(j.score, 2) + (j.threshold !== null && j.threshold !== undefined ? " (threshold " + num(j.threshold, 2) + ")" : "") + (j.verdict ? " · verdict " + j.verdict : "")])];
    if (j.rubric) { out.push(el("p", "rubric", ["rubric: " + j.rubric])); }
    if (j.votes && j.votes.length) { out.push(votesView(j.votes)); }
    if (j.jury) {
      var a = j.jury;
      out.push(el("p", "jury", ["jury: " + a.verdict + " · " + a.passed_jurors + " of " + a.decisive + " decisive passed (quorum " + num(a.quorum, 2) + ") · agreement " + num(a.agreement, 2) + (a.confidence ? " (" + a.confidence + ")" : "") + (a.effective_jurors ? (a.effective_jurors.value === null ? " · effective jurors of " + a.effective_jurors.jurors + " not estimated" : " · rests on " + num(a.effective_jurors.value, 1) + " effective jurors of " + a.effective_jurors.jurors) : "") + (a.escalate ? " · to review" : "")]));
      (a.lost || []).forEach(function (l) { out.push(el("p", "lost", ["lost seat " + l.model + ": " + l.reason])); });
    }
    if (j.criteria && j.criteria.length) {
      out.push(table(["criterion", "score", "status", "reason"], j.criteria.map(function (c) { return [c.name, num(c.score, 2), c.status, text(c.reason)]; })));
    }
    if (j.path && j.path.length) {
      out.push(el("ol", "tree", j.path.map(function (p) { return el("li", null, [p.ask + " → " + text(p.answer)]); })));
    }
    if (j.escalation) {
      var e = j.escalation;
      out.push(el("h3", null, ["cascade: decided by tier " + text(e.decided_by) + (e.calibrated ? " (calibrated)" : " (uncalibrated)")]));
      out.push(table(["tier", "kind", "models", "ran", "verdict", "score", "confidence", "threshold", "reason"], e.tiers.map(function (s) {
        return [String(s.tier) + (s.decided ? " ✓" : ""), s.kind, s.models.join(", "), s.ran ? "yes" : "no", text(s.verdict), num(s.score, 2), num(s.confidence, 2), num(s.threshold, 2), s.reason];
      }), function (i) { return "tier" + (e.tiers[i].decided ? " decided" : ""); }));
      e.tiers.forEach(function (s) { if (s.votes && s.votes.length) { out.push(el("p", null, ["tier " + s.tier + " ballots"])); out.push(votesView(s.votes)); } });
    }
    return out;
  }

  function assertionsView(list) {
    var out = [el("h3", null, ["assertions"])];
    list.forEach(function (a) {
      var box = el("div", "assertion s-" + a.status, [el("p", null, [el("span", "status", [a.status]), " #" + a.index + " " + a.target + " · " + a.matcher + (a.user_message ? " · " + a.user_message : "")])]);
      if (a.message) { messageView(a.message).forEach(function (n) { box.appendChild(n); }); }
      if (a.status !== "passed" && (a.expected != null || a.actual != null)) {
        box.appendChild(table(["expected", "actual"], [[pre(a.expected), pre(a.actual)]]));
      }
      if (a.judge) { judgeView(a.judge).forEach(function (n) { box.appendChild(n); }); }
      if (a.calibration) { box.appendChild(el("p", "calibration", ["calibration: " + a.calibration.state + (a.calibration.advisory ? " (advisory)" : "")])); }
      out.push(box);
    });
    return out;
  }

  function baselineView(b) {
    var rows = [["change", b.change], ["status", text(b.old_status) + " → " + text(b.new_status)],
      ["pass rate", num(b.old_pass_rate, 2) + " → " + num(b.new_pass_rate, 2)],
      ["p (adjusted)", num(b.p_adjusted, 3)], ["score delta", num(b.score_delta, 2)],
      ["cost", usd(b.old_cost_usd) + " → " + usd(b.new_cost_usd)], ["wall delta", ms(b.duration_delta_ms)]];
    return section("against the baseline", table(["", ""], rows, function () { return "baseline-row"; }));
  }

  function body(t) {
    var parts = [];
    var where = t.location ? t.location.file + ":" + t.location.line : t.suite_file;
    parts.push(el("p", "meta", ["id " + t.id + " · " + where]));
    if (t.message) { parts = parts.concat(messageView(t.message)); }
    if (t.baseline) { parts = parts.concat(baselineView(t.baseline)); }
    if (t.args !== null && t.args !== undefined) { parts = parts.concat(section("arguments", pre(t.args))); }
    if (t.timeline && t.timeline.length) { parts = parts.concat(timelineView(t)); }
    if (t.kind === "agent" && t.response) { parts = parts.concat(agentView(t.response)); }
    else if (t.response !== null && t.response !== undefined) { parts = parts.concat(section("answer", pre(t.response, "response"))); }
    if (t.server_stderr) { parts = parts.concat(section(t.server_stderr_scope === "test" ? "server stderr while this test ran" : "server stderr", pre(t.server_stderr, "stderr"))); }
    if (t.assertions && t.assertions.length) { parts = parts.concat(assertionsView(t.assertions)); }
    if (t.judge) { parts = parts.concat([el("h3", null, ["judging"])], judgeView(t.judge)); }
    if (t.selection) { parts = parts.concat(section("selection", pre(t.selection))); }
    if (t.repetitions && t.repetitions.length) {
      parts = parts.concat(section("repetitions", el("ol", "repetitions", t.repetitions.map(function (r) {
        return el("li", "s-" + r.status, [r.status + (r.message ? ": " + r.message : "")]);
      }))));
    }
    return parts;
  }

  function testView(t) {
    var d = el("details", "test s-" + t.status);
    d.id = t.id;
    d.setAttribute("data-status", t.status);
    var bits = [t.kind, t.server, t.tool, t.model, ms(t.duration_ms), t.cost_usd ? usd(t.cost_usd) : "", t.gap ? "gap " + t.gap : "",
      t.baseline ? t.baseline.change : ""].filter(Boolean).join(" · ");
    var summary = el("summary", null, [el("span", "status", [t.status]), el("span", "name", [t.name]), el("span", "meta", [bits])]);
    (t.tags || []).forEach(function (g) { summary.appendChild(el("span", "tag", [g])); });
    var link = el("a", "link", ["#"]);
    link.href = "#" + encodeURIComponent(t.id);
    link.title = "link to this test";
    summary.appendChild(link);
    d.appendChild(summary);
    var built = false;
    function build() { if (!built) { built = true; d.appendChild(el("div", "body", body(t))); } }
    d.addEventListener("toggle", function () { if (d.open) { build(); } });
    d.buildBody = build;
    return d;
  }

  // header
  var s = report.summary, c = s.counts;
  document.getElementById("run").textContent = "mcptest " + report.tool.version + " · " + report.suites.join(", ") + " · " + report.started_at;
  document.getElementById("totals").textContent = c.passed + " passed, " + c.failed + " failed, " + c.error + " error(s) of " + c.total +
    " · " + ms(s.duration_ms) + " · cost " + usd(s.cost_usd) + " · exit " + s.exit_code;
  var notes = document.getElementById("run-notes");
  if (s.cassettes) { notes.appendChild(el("p", "cassettes", ["model cassettes (" + s.cassettes.mode + "): " + s.cassettes.replayed + " replayed, " + s.cassettes.recorded + " recorded, " + s.cassettes.diverged + " diverged"])); }
  if (report.comparison) {
    var cmp = report.comparison;
    notes.appendChild(el("p", "comparison", ["against " + cmp.baseline + ": " + Object.keys(cmp.counts).map(function (k) { return cmp.counts[k] + " " + k; }).join(", ")]));
  }
  if (s.interrupted) { notes.appendChild(el("p", "interrupted", ["interrupted: " + s.interrupted])); }
  if (s.internal_error) { notes.appendChild(el("p", "internal", ["internal error: " + s.internal_error])); }
  (report.servers || []).forEach(function (v) {
    if (v.status !== "ready") { notes.appendChild(el("div", "server-failed", [el("p", null, ["server " + v.name + ": " + v.status + (v.error ? " — " + v.error : "")]), v.stderr_tail ? pre(v.stderr_tail) : null])); }
  });
  (report.warnings || []).forEach(function (w) { notes.appendChild(el("p", "warning", ["warning: " + w])); });

  // tests: problems first, the first of them open
  var main = document.getElementById("tests");
  var rows = report.tests.slice().sort(function (a, b) { return (a.status === "passed") - (b.status === "passed"); });
  var views = rows.map(testView);
  var opened = 0;
  views.forEach(function (d, i) {
    main.appendChild(d);
    if (rows[i].status !== "passed" && opened < OPEN_AT_START) { opened += 1; d.open = true; d.buildBody(); }
  });

  // filters
  var state = { status: "", tag: "", find: "" };
  var statuses = {};
  var tags = {};
  rows.forEach(function (t) { statuses[t.status] = (statuses[t.status] || 0) + 1; (t.tags || []).forEach(function (g) { tags[g] = 1; }); });
  var box = document.getElementById("statuses");
  var buttons = [];
  [["", "all", rows.length], ["!passed", "not passed", rows.length - (statuses.passed || 0)]].concat(Object.keys(statuses).sort().map(function (k) { return [k, k, statuses[k]]; })).forEach(function (b) {
    var button = el("button", "filter", [b[1] + " " + b[2]]);
    button.type = "button";
    button.setAttribute("data-status", b[0]);
    button.setAttribute("aria-pressed", b[0] === "" ? "true" : "false");
    button.addEventListener("click", function () { state.status = b[0]; apply(); });
    buttons.push(button);
    box.appendChild(button);
  });
  var tagSelect = document.getElementById("tag");
  Object.keys(tags).sort().forEach(function (g) { var o = el("option", null, [g]); o.value = g; tagSelect.appendChild(o); });
  tagSelect.addEventListener("change", function () { state.tag = tagSelect.value; apply(); });
  var find = document.getElementById("find");
  find.addEventListener("input", function () { state.find = find.value.toLowerCase(); apply(); });
  function apply() {
    var shown = 0;
    rows.forEach(function (t, i) {
      var ok = (state.status === "" || (state.status === "!passed" ? t.status !== "passed" : t.status === state.status)) &&
        (state.tag === "" || (t.tags || []).indexOf(state.tag) >= 0) &&
        (state.find === "" || (t.name + " " + t.id).toLowerCase().indexOf(state.find) >= 0);
      views[i].classList.toggle("hidden", !ok);
      if (ok) { shown += 1; }
    });
    buttons.forEach(function (b) { b.setAttribute("aria-pressed", b.getAttribute("data-status") === state.status ? "true" : "false"); });
    document.getElementById("shown").textContent = shown + " of " + rows.length + " shown";
  }
  apply();

  // deep links: #<test id>
  function follow() {
    if (location.hash.length < 2) { return; }
    var id;
    try { id = decodeURIComponent(location.hash.slice(1)); } catch (e) { return; }
    var target = document.getElementById(id);
    if (!target || !target.classList.contains("test")) { return; }
    state = { status: "", tag: "", find: "" }; tagSelect.value = ""; find.value = ""; apply();
    target.open = true; target.buildBody();
    target.classList.add("linked");
    target.scrollIntoView();
  }
  window.addEventListener("hashchange", follow);
  follow();
}());
