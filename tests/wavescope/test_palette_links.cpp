// Keyboard-first navigation: fuzzy matching, the command palette over every action and view
// (Ctrl+Shift+P), the finder over everything open (Ctrl+K: kernels, tracks, spans, runs, buffers,
// PCs, rewrite passes), with QAbstractItemModelTester; and the links between a kernel's runs in
// a profile, its program (ISA/CFG), its SQTT waves and counters and its rewrite context, and
// between a TINY span and its rewrite step, both ways.

#include <catch2/catch.hpp>

#include <QAbstractItemModelTester>
#include <QLineEdit>
#include <QStringListModel>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "app/capture_document.hpp"
#include "app/main_window.hpp"
#include "app/rewrite_trace_document.hpp"
#include "app/selection.hpp"
#include "app/workspace.hpp"
#include "gui_test_app.hpp"
#include "models/fuzzy_filter.hpp"
#include "models/links.hpp"
#include "models/search_model.hpp"
#include "testdata.hpp"
#include "views/quick_open.hpp"
#include "wavescope/trace/profile/profile.hpp"

using namespace wavescope::gui;
namespace tp = wavescope::trace::profile;

namespace {

// Types `query` into the open chooser and takes its best match.
void choose(MainWindow &w, const QString &query) {
  w.quick_open().line().setText(query);
  w.quick_open().choose();
}

std::vector<QString> texts(const QAbstractItemModel &m) {
  std::vector<QString> out;
  for (int r = 0; r < m.rowCount(); ++r) out.push_back(m.index(r, 0).data().toString());
  return out;
}

bool has_link(const std::vector<Link> &links, const QString &kind) {
  return std::any_of(links.begin(), links.end(), [&](const Link &l) { return l.kind == kind; });
}

// The run's profile as document 0 and its rewrite trace as document 1: one at a time, since
// documents join the workspace as their loads finish.
void open_profile_and_trace(MainWindow &w, const std::filesystem::path &run) {
  w.open_path(QString::fromStdString((run / "profile.pkl").string()));
  w.wait_until_idle();
  w.open_path(QString::fromStdString((run / "rewrites.pkl").string()));
  w.wait_until_idle();
}

}  // namespace

TEST_CASE("fuzzy matching: substrings first, then characters in order at word starts") {
  CHECK(fuzzy_score("", "anything") == 0);
  CHECK(fuzzy_score("mem", "View › Memory").has_value());
  CHECK(fuzzy_score("vm", "View › Memory").has_value());
  CHECK_FALSE(fuzzy_score("mv", "View › Memory").has_value());
  CHECK(*fuzzy_score("memory", "View › Memory") > *fuzzy_score("vmy", "View › Memory"));
  CHECK(*fuzzy_score("r_32", "r_32_2_64") > *fuzzy_score("r_32", "E_r_32"));
  CHECK(*fuzzy_score("ft", "Find Track") > *fuzzy_score("ft", "left"));

  QStringListModel source({"File › Open File…", "View › Timeline", "View › Memory",
                           "Go › Find Anything…", "memory peak"});
  FuzzyFilterModel filter;
  QAbstractItemModelTester tester(&filter, QAbstractItemModelTester::FailureReportingMode::Fatal);
  filter.setSourceModel(&source);
  CHECK(filter.rowCount() == 5);
  filter.set_query("memory");
  REQUIRE(filter.rowCount() == 2);
  CHECK(filter.index(0, 0).data().toString() == "memory peak");  // at the start beats later
  filter.set_query("vt");
  REQUIRE(filter.rowCount() >= 1);
  CHECK(filter.index(0, 0).data().toString() == "View › Timeline");
  filter.set_query("zzz");
  CHECK(filter.rowCount() == 0);
}

TEST_CASE("command palette: every menu action and view, by menu path, and choosing runs it") {
  wavescope::testing::gui_app();
  MainWindow w;
  w.set_interactive(false);
  w.open_command_palette();
  QAbstractItemModelTester tester(&w.commands(),
                                  QAbstractItemModelTester::FailureReportingMode::Fatal);
  const auto names = texts(w.commands());
  auto has = [&](const QString &n) {
    return std::find(names.begin(), names.end(), n) != names.end();
  };
  for (const QString &view : w.view_names()) INFO(view.toStdString());
  CHECK(has("View › Timeline"));
  CHECK(has("View › Memory"));
  CHECK(has("View › Rewrites"));
  CHECK(has("Go › Find Anything…"));
  CHECK(has("Go › Back"));
  CHECK(has("File › Open Demo"));
  CHECK_FALSE(has("Go › Command Palette…"));
  // Every view is a command.
  std::size_t views = 0;
  for (const QString &n : names) views += n.startsWith("View › ");
  CHECK(views == static_cast<std::size_t>(w.view_names().size()));
  // A shortcut is shown beside its command.
  bool find_shortcut = false;
  for (int r = 0; r < w.commands().rowCount(); ++r)
    if (w.commands().command(r).name == "Go › Find Anything…")
      find_shortcut = w.commands().index(r).data(CommandModel::ShortcutRole).toString() == "Ctrl+K";
  CHECK(find_shortcut);
  CHECK_FALSE(w.quick_open().isHidden());
  choose(w, "view memory");
  CHECK(w.quick_open().isHidden());
  CHECK(w.current_view() == "memory");
  w.open_command_palette();
  choose(w, "timeline");
  CHECK(w.current_view() == "timeline");
}

TEST_CASE("finder: kernels, runs, buffers, tracks and rewrite passes of a profile and its trace") {
  wavescope::testing::gui_app();
  WAVESCOPE_REQUIRE_TESTDATA(root, "tinygrad-viz/matmul_relu_sum");
  MainWindow w;
  w.set_interactive(false);
  open_profile_and_trace(w, root);
  REQUIRE(w.errors().isEmpty());
  REQUIRE(w.workspace().size() == 2);
  w.open_finder();
  QAbstractItemModelTester tester(&w.search(),
                                  QAbstractItemModelTester::FailureReportingMode::Fatal);
  std::map<QString, int> kinds;
  for (int r = 0; r < w.search().rowCount(); ++r) ++kinds[w.search().entry(r).kind];
  const tp::Profile &p = *w.workspace().document(0)->profile();
  CHECK(kinds["run"] == static_cast<int>(p.executions.size()));
  CHECK(kinds["buffer"] == 9 + 3);
  CHECK(kinds["track"] == static_cast<int>(p.tracks.size()));
  CHECK(kinds["span"] > 20);
  CHECK(kinds["rewrite"] > 7);  // 7 contexts and their passes
  // A buffer by name: the memory view shows it selected.
  QString buffer_text;
  for (int r = 0; r < w.search().rowCount() && buffer_text.isEmpty(); ++r)
    if (w.search().entry(r).kind == "buffer") buffer_text = w.search().entry(r).text;
  choose(w, buffer_text);
  CHECK(w.current_view() == "memory");
  CHECK(w.selection().profile_item().is_buffer());
  // The matmul kernel: its rewrite context is the best match after the run? Both are listed.
  w.open_finder();
  w.quick_open().line().setText("r_32_2_64_16_4");
  const auto &filter = w.quick_open().filter();
  std::set<QString> found;
  for (int r = 0; r < filter.rowCount(); ++r)
    found.insert(w.search().entry(filter.mapToSource(filter.index(r, 0)).row()).kind);
  CHECK(found.count("run"));
  CHECK(found.count("rewrite"));
  w.quick_open().choose();
  CHECK((w.current_view() == "timeline" || w.current_view() == "rewrite"));
}

TEST_CASE("a rewrite trace opens on the rewrite view, a profile on the timeline") {
  wavescope::testing::gui_app();
  WAVESCOPE_REQUIRE_TESTDATA(run, "tinygrad-viz/softmax");
  MainWindow w;
  w.set_interactive(false);
  w.open_path(QString::fromStdString((run / "rewrites.pkl").string()));
  w.wait_until_idle();
  CHECK(w.current_view() == "rewrite");
  w.open_path(QString::fromStdString((run / "profile.pkl").string()));
  w.wait_until_idle();
  CHECK(w.current_view() == "timeline");
}

TEST_CASE("finder: a PC by address selects it in the ISA view") {
  wavescope::testing::gui_app();
  WAVESCOPE_REQUIRE_TESTDATA(file, "tinygrad-viz/amd-sqtt/gfx1100_plus.pkl");
  MainWindow w;
  w.set_interactive(false);
  w.open_path(QString::fromStdString(file.string()));
  w.wait_until_idle();
  REQUIRE(w.errors().isEmpty());
  const Document *doc = w.workspace().document(0);
  REQUIRE(doc->kernel_count() > 0);
  const auto &inst = doc->kernel(0)->instructions.at(3);
  w.open_finder();
  choose(w, QStringLiteral("0x%1").arg(inst.address, 0, 16));
  CHECK(w.current_view() == "isa");
  REQUIRE(w.selection().pc());
  CHECK(*w.selection().pc() == inst.address);
  CHECK(w.selection().focus().kernel == 0);
}

TEST_CASE("links: a GPU kernel span links to its ISA and CFG, and the kernel back to its runs") {
  wavescope::testing::gui_app();
  WAVESCOPE_REQUIRE_TESTDATA(file, "tinygrad-viz/amd-sqtt/gfx1100_gemm.pkl");
  MainWindow w;
  w.set_interactive(false);
  w.open_path(QString::fromStdString(file.string()));
  w.wait_until_idle();
  REQUIRE(w.errors().isEmpty());
  const Document *doc = w.workspace().document(0);
  const tp::Profile &p = *doc->profile();
  const tp::Track *amd = p.track("AMD");
  REQUIRE(amd);
  const int track = static_cast<int>(amd - p.tracks.data());
  int span = -1;
  for (std::size_t s = 0; s < amd->spans.size(); ++s)
    if (amd->spans[s].program >= 0) span = static_cast<int>(s);
  REQUIRE(span >= 0);
  // Span -> ISA (one selection: choosing the span in the timeline shows the links).
  ProfileItem item;
  item.document = 0;
  item.track = track;
  item.span = span;
  w.selection().select_profile_item(item);
  const auto links = w.links();
  REQUIRE(has_link(links, "isa"));
  CHECK(has_link(links, "cfg"));
  const auto isa =
      *std::find_if(links.begin(), links.end(), [](const Link &l) { return l.kind == "isa"; });
  const std::string program =
      p.programs[static_cast<std::size_t>(amd->spans[static_cast<std::size_t>(span)].program)].name;
  w.go_to(isa.target);
  CHECK(w.current_view() == "isa");
  CHECK(w.selection().focus().document == 0);
  REQUIRE(w.selection().focus().kernel >= 0);
  CHECK(tp::plain_text(doc->kernel(w.selection().focus().kernel)->name) == tp::plain_text(program));
  // ISA -> back to the span.
  const auto back = w.links();
  const auto run = std::find_if(back.begin(), back.end(), [&](const Link &l) {
    return l.kind == "run" && l.target.item && l.target.item->span == span;
  });
  REQUIRE(run != back.end());
  w.go_to(run->target);
  CHECK(w.current_view() == "timeline");
  CHECK(w.selection().profile_item() == item);
}

TEST_CASE("links: a CPU kernel run links to its rewrite context of the same run, and back") {
  wavescope::testing::gui_app();
  WAVESCOPE_REQUIRE_TESTDATA(root, "tinygrad-viz/matmul_relu_sum");
  MainWindow w;
  w.set_interactive(false);
  open_profile_and_trace(w, root);
  REQUIRE(w.workspace().size() == 2);
  const tp::Profile &p = *w.workspace().document(0)->profile();
  const auto x = std::find_if(p.executions.begin(), p.executions.end(), [](const tp::Execution &e) {
    return tp::plain_text(e.name) == "r_32_2_64_16_4";
  });
  REQUIRE(x != p.executions.end());
  ProfileItem moment;
  moment.document = 0;
  moment.time = x->time;
  const auto links = links_of_item(w.workspace(), moment);
  const auto rewrite =
      std::find_if(links.begin(), links.end(), [](const Link &l) { return l.kind == "rewrite"; });
  REQUIRE(rewrite != links.end());
  REQUIRE(rewrite->target.focus);
  CHECK(rewrite->target.focus->document == 1);
  w.go_to(rewrite->target);
  CHECK(w.current_view() == "rewrite");
  CHECK(w.selection().focus().group == rewrite->target.focus->group);
  // Back: the context's links hold the run's moment.
  const auto back = links_of_focus(w.workspace(), w.selection().focus());
  const auto run = std::find_if(back.begin(), back.end(), [&](const Link &l) {
    return l.kind == "run" && l.target.item && l.target.item->time == x->time;
  });
  REQUIRE(run != back.end());
  w.go_to(run->target);
  CHECK(w.current_view() == "timeline");
  CHECK(w.selection().profile_item().time == x->time);
  // E_2 with an upcast axis (yellow) is not E_2 with a global one (white): names match with
  // their colors, so no kernel links to a context of another.
  for (const tp::Execution &e : p.executions) {
    ProfileItem m;
    m.document = 0;
    m.time = e.time;
    for (const Link &l : links_of_item(w.workspace(), m)) {
      if (l.kind != "rewrite") continue;
      const auto *trace = w.workspace().document(1);
      (void)trace;
      CHECK(l.label.contains(QString::fromStdString(tp::plain_text(e.name))));
    }
  }
}

TEST_CASE("links: a GPU kernel span links to its SQTT waves and counters, and they link back") {
  wavescope::testing::gui_app();
  WAVESCOPE_REQUIRE_TESTDATA(file, "tinygrad-viz/amd-sqtt/gfx1100_gemm.pkl");
  MainWindow w;
  w.set_interactive(false);
  w.open_path(QString::fromStdString(file.string()));
  w.wait_until_idle();
  REQUIRE(w.errors().isEmpty());
  const auto *capture = dynamic_cast<const CaptureDocument *>(w.workspace().document(0));
  REQUIRE(capture);
  const tp::Profile &p = *capture->profile();
  const tp::Track *amd = p.track("AMD");
  REQUIRE(amd);
  ProfileItem item;
  item.document = 0;
  item.track = static_cast<int>(amd - p.tracks.data());
  for (std::size_t s = 0; s < amd->spans.size(); ++s)
    if (amd->spans[s].program >= 0) item.span = static_cast<int>(s);
  REQUIRE(item.span >= 0);
  w.selection().select_profile_item(item);
  const auto links = w.links();
  const auto waves =
      std::find_if(links.begin(), links.end(), [](const Link &l) { return l.kind == "waves"; });
  REQUIRE(waves != links.end());
  REQUIRE(waves->target.focus);
  const int kernel = waves->target.focus->kernel;
  const CaptureDispatch *dispatch = capture->dispatch(kernel);
  REQUIRE(dispatch);
  CHECK(dispatch->waves > 0);
  CHECK(waves->label.contains(QString::number(dispatch->waves)));
  CHECK(has_link(links, "counters") == !dispatch->counters.empty());
  w.go_to(waves->target);
  CHECK(w.current_view() == "waves");
  CHECK(w.selection().focus().kernel == kernel);
  // Back from the waves: the kernel's runs hold the span.
  const auto back = w.links();
  const auto run = std::find_if(back.begin(), back.end(), [&](const Link &l) {
    return l.kind == "run" && l.target.item && l.target.item->span == item.span;
  });
  REQUIRE(run != back.end());
  if (!dispatch->counters.empty()) {
    w.selection().select_profile_item({});
    w.selection().select_profile_item(item);
    const auto again = w.links();
    const auto counters = std::find_if(again.begin(), again.end(),
                                       [](const Link &l) { return l.kind == "counters"; });
    REQUIRE(counters != again.end());
    w.go_to(counters->target);
    CHECK(w.current_view() == "counters");
  }
  w.go_to(run->target);
  CHECK(w.current_view() == "timeline");
  CHECK(w.selection().profile_item() == item);
}

TEST_CASE("links: a TINY span links to its rewrite step of the same run, and back") {
  wavescope::testing::gui_app();
  WAVESCOPE_REQUIRE_TESTDATA(root, "tinygrad-viz/matmul_relu_sum");
  MainWindow w;
  w.set_interactive(false);
  open_profile_and_trace(w, root);
  REQUIRE(w.workspace().size() == 2);
  const tp::Profile &p = *w.workspace().document(0)->profile();
  const auto &trace = static_cast<const RewriteTraceDocument &>(*w.workspace().document(1));
  const tp::Track *tiny = p.track("TINY");
  REQUIRE(tiny);
  const int track = static_cast<int>(tiny - p.tracks.data());
  auto span_named = [&](const std::string &name, int nth = 0) {
    for (std::size_t s = 0; s < tiny->spans.size(); ++s)
      if (tp::plain_text(std::string(p.str(tiny->spans[s].name))) == name && nth-- == 0)
        return static_cast<int>(s);
    return -1;
  };
  auto rewrite_link = [&](int span) -> std::optional<Focus> {
    ProfileItem item;
    item.document = 0;
    item.track = track;
    item.span = span;
    for (const Link &l : links_of_item(w.workspace(), item))
      if (l.kind == "rewrite" && l.target.focus) return *l.target.focus;
    return std::nullopt;
  };
  // The outermost span is its context (viz.md: the span's ref), a nested one the pass of its name.
  const int schedule = span_named("Schedule 8 Kernels n1");
  REQUIRE(schedule >= 0);
  const auto context = rewrite_link(schedule);
  REQUIRE(context);
  CHECK(context->document == 1);
  CHECK(strip_ansi(trace.group(context->group)->name) == "Schedule 8 Kernels n1");
  CHECK(context->pass == -1);
  const int numbering = span_named("number the uops");
  REQUIRE(numbering >= 0);
  const auto step = rewrite_link(numbering);
  REQUIRE(step);
  CHECK(strip_ansi(trace.group(step->group)->name) == "Callify 7 Buffers n1");
  REQUIRE(step->pass >= 0);
  CHECK(trace.pass(step->group, step->pass)->name == "number the uops");
  // Kernels codegen'd twice under one name: the n-th "do_to_program for" the n-th context.
  std::vector<int> contexts;
  for (std::size_t s = 0; s < tiny->spans.size(); ++s)
    if (tiny->spans[s].depth == 0 &&
        std::string(p.str(tiny->spans[s].name)).starts_with("do_to_program for "))
      if (const auto f = rewrite_link(static_cast<int>(s))) contexts.push_back(f->group);
  CHECK(contexts.size() == 5);
  CHECK(std::set<int>(contexts.begin(), contexts.end()).size() == contexts.size());

  // Follow the step, then back to the span.
  ProfileItem item;
  item.document = 0;
  item.track = track;
  item.span = numbering;
  w.selection().select_profile_item(item);
  const auto links = w.links();
  const auto rewrite =
      std::find_if(links.begin(), links.end(), [](const Link &l) { return l.kind == "rewrite"; });
  REQUIRE(rewrite != links.end());
  w.go_to(rewrite->target);
  CHECK(w.current_view() == "rewrite");
  CHECK(w.selection().focus().pass == step->pass);
  const auto back = links_of_focus(w.workspace(), w.selection().focus());
  const auto span = std::find_if(back.begin(), back.end(), [&](const Link &l) {
    return l.kind == "run" && l.target.item && l.target.item->span == numbering;
  });
  REQUIRE(span != back.end());
  w.go_to(span->target);
  CHECK(w.current_view() == "timeline");
  CHECK(w.selection().profile_item() == item);
}
