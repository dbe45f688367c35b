#include "models/navigator_rewrite_trace.hpp"

#include <QStandardItem>

#include <tuple>
#include <utility>
#include <vector>

#include "app/rewrite_trace_document.hpp"
#include "app/selection.hpp"
#include "models/navigator_model.hpp"
#include "wavescope/compiler/rewrite/rewrite_contexts.hpp"

namespace wavescope::gui {
namespace {

// Past this many steps a pass lists the first ones and a pointer to the rest (the view steps on).
constexpr int kMaxStepItems = 2000;

QString plural(std::size_t n, const char *one, const char *many) {
  return QStringLiteral("%1 %2").arg(n).arg(QString::fromUtf8(n == 1 ? one : many));
}

QStandardItem *pass_item(const compiler::rewrite::TraceRewrite &pass, const Focus &focus) {
  const QString name = QString::fromStdString(strip_ansi(pass.name));
  const QString text =
      pass.steps.empty() ? name : QStringLiteral("%1 - %2").arg(name).arg(pass.steps.size());
  QStandardItem *item = NavigatorModel::make_item(text, focus);
  item->setToolTip(QStringLiteral("%1\n%2 · depth %3 · %4%5")
                       .arg(name, QString::fromStdString(pass.loc))
                       .arg(pass.depth)
                       .arg(QString::fromStdString(pass.mode),
                            pass.walk ? QStringLiteral(" · walk") : QString()));
  const int shown = std::min(static_cast<int>(pass.steps.size()), kMaxStepItems);
  for (int s = 0; s < shown; ++s) {
    const auto &step = pass.steps[static_cast<std::size_t>(s)];
    Focus step_focus = focus;
    step_focus.step = s;
    QStandardItem *child =
        NavigatorModel::make_item(QStringLiteral("%1  %2").arg(s + 1).arg(
                                      QString::fromStdString(compiler::rewrite::rule_title(step))),
                                  step_focus);
    child->setToolTip(
        QStringLiteral("%1\n%2 · %3 us")
            .arg(QString::fromStdString(step.rule), QString::fromStdString(step.rule_loc))
            .arg(static_cast<double>(step.ns) / 1000.0, 0, 'f', 2));
    item->appendRow(child);
  }
  if (shown < static_cast<int>(pass.steps.size())) {
    Focus rest = focus;
    rest.step = shown;
    item->appendRow(
        NavigatorModel::make_item(QStringLiteral("… %1 more (→ steps on in the rewrite view)")
                                      .arg(static_cast<int>(pass.steps.size()) - shown),
                                  rest));
  }
  return item;
}

}  // namespace

void add_rewrite_trace_children(QStandardItem &root, const Document &document, int document_index) {
  const auto &trace = static_cast<const RewriteTraceDocument &>(document);
  for (int g = 0; g < trace.group_count(); ++g) {
    const auto &group = *trace.group(g);
    Focus focus;
    focus.document = document_index;
    focus.group = g;
    std::size_t steps = 0;
    for (const auto &pass : group.rewrites) steps += pass.steps.size();
    const QString name = QString::fromStdString(strip_ansi(group.name));
    QStandardItem *group_item = NavigatorModel::make_item(name, focus);
    group_item->setToolTip(QStringLiteral("%1\n%2, %3")
                               .arg(name, plural(group.rewrites.size(), "pass", "passes"),
                                    plural(steps, "step", "steps")));
    // A pass started inside a rule of another is one deeper: it nests under that pass.
    std::vector<std::pair<int, QStandardItem *>> open;  // (depth, item) of enclosing passes
    for (std::size_t p = 0; p < group.rewrites.size(); ++p) {
      const auto &pass = group.rewrites[p];
      Focus pass_focus = focus;
      pass_focus.pass = static_cast<int>(p);
      QStandardItem *item = pass_item(pass, pass_focus);
      while (!open.empty() && open.back().first >= pass.depth) open.pop_back();
      QStandardItem *parent = open.empty() ? group_item : open.back().second;
      parent->appendRow(item);
      open.emplace_back(pass.depth, item);
      // VIZ's view steps follow a kernel's linearize/render, at its depth.
      if (pass.name == "linearize/render")
        for (auto [page, title, tip] :
             {std::tuple{ProgramPage::UOpList, "View UOp List",
                         "The linearized list the renderer walked"},
              std::tuple{ProgramPage::Source, "View Source", "The program this kernel rendered"},
              std::tuple{ProgramPage::Disassembly, "View Disassembly",
                         "The code object it compiled to"}}) {
          Focus view_focus = pass_focus;
          view_focus.page = page;
          QStandardItem *view = NavigatorModel::make_item(QString::fromUtf8(title), view_focus);
          view->setToolTip(QString::fromUtf8(tip));
          parent->appendRow(view);
        }
    }
    root.appendRow(group_item);
  }
}

}  // namespace wavescope::gui
