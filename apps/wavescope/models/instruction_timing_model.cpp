#include "models/instruction_timing_model.hpp"

#include <QLocale>
#include <QVariantList>

#include <algorithm>
#include <cmath>
#include <map>

#include "app/capture_document.hpp"
#include "app/selection.hpp"
#include "app/theme.hpp"

namespace wavescope::gui {

using trace::timeline::PcStat;

namespace {

// Mean cycles: a decimal below 100, where it tells.
QString cycles_text(double cycles) { return QLocale().toString(cycles, 'f', cycles < 100 ? 1 : 0); }

void take_totals(TimingTable &table, const trace::timeline::PcStatsAccumulator &stats) {
  table.rows = stats.rows();
  table.total_gap = stats.total_gap();
  table.total_hits = stats.total_hits();
}

// One wave's instruction stream folded per PC, the way PcStatsAccumulator folds a blob.
void fold_wave(TimingTable &table, const trace::timeline::WaveTrace &trace) {
  std::map<std::uint64_t, PcStat> by_pc;
  for (const auto &inst : trace.instructions) {
    if (!inst.instruction) continue;
    PcStat &s = by_pc[inst.pc];
    s.pc = inst.pc;
    s.instruction = inst.instruction;
    ++s.hits;
    s.gap_total += inst.issue_gap;
    s.gap_min = std::min(s.gap_min, inst.issue_gap);
    s.gap_max = std::max(s.gap_max, inst.issue_gap);
    s.exec_cycles += trace.exec_cycles(inst);
    s.exec_events += inst.exec_count;
    s.barrier_wait += inst.barrier_wait;
    if (inst.stall >= 0) {
      ++s.timed;
      s.stall_total += inst.stall;
      s.latency_total += inst.duration;
    }
    table.total_gap += inst.issue_gap;
    ++table.total_hits;
  }
  for (auto &[pc, s] : by_pc) table.rows.push_back(s);
}

}  // namespace

TimingTable timing_table_for(const CaptureDocument &document, const Focus &focus) {
  TimingTable table;
  const int kernel = std::max(0, focus.kernel);
  const CaptureDispatch *dispatch = document.dispatch(kernel);
  if (!dispatch) return table;
  const QString name = QString::fromStdString(dispatch->program->name);
  const ShaderEngineTrace *se = document.engine(kernel, focus.shader_engine);
  // Waves that issued at least one instruction mapped to a PC (non-itrace SEs only report the
  // ends of the traced SIMD's waves).
  const auto issued = [](const ShaderEngineTrace &e) {
    return static_cast<std::size_t>(std::count_if(
        e.mapped_waves.begin(), e.mapped_waves.end(), [](const trace::timeline::WaveTrace &w) {
          return std::any_of(w.instructions.begin(), w.instructions.end(),
                             [](const auto &i) { return i.instruction && !i.is_wave_end; });
        }));
  };
  if (!se) {
    take_totals(table, *dispatch->stats);
    for (const auto &e : dispatch->engines) table.waves += issued(e);
    table.scope = QObject::tr("%1 · all %2 SEs").arg(name).arg(dispatch->engines.size());
  } else if (focus.wave < 0) {
    take_totals(table, *se->stats);
    table.waves = issued(*se);
    table.scope = QObject::tr("%1 · SE %2").arg(name).arg(se->blob->se);
  } else {
    table.scope = QObject::tr("%1 · SE %2 · wave %3").arg(name).arg(se->blob->se).arg(focus.wave);
    if (const auto *trace = se->mapped_trace(focus.wave)) {
      fold_wave(table, *trace);
      table.waves = 1;
    }
  }
  for (const auto &row : table.rows) {
    table.total_exec += row.exec_cycles;
    table.total_barrier += row.barrier_wait;
  }
  return table;
}

InstructionTimingModel::InstructionTimingModel(QObject *parent) : QAbstractTableModel(parent) {}

void InstructionTimingModel::set_table(TimingTable table, const KernelCode *code) {
  beginResetModel();
  table_ = std::move(table);
  code_ = code;
  row_of_pc_.clear();
  category_of_pc_.clear();
  max_gap_total_ = max_gap_ = 0;
  max_latency_mean_ = 0;
  for (std::size_t i = 0; i < table_.rows.size(); ++i) {
    const auto &r = table_.rows[i];
    row_of_pc_[r.pc] = static_cast<int>(i);
    max_gap_total_ = std::max(max_gap_total_, r.gap_total);
    max_gap_ = std::max(max_gap_, r.gap_max);
    max_latency_mean_ = std::max(max_latency_mean_, r.latency_mean());
  }
  if (code_)
    for (const auto &inst : code_->instructions)
      category_of_pc_[inst.address] = static_cast<int>(inst.category);
  endResetModel();
}

int InstructionTimingModel::rowCount(const QModelIndex &parent) const {
  return parent.isValid() ? 0 : static_cast<int>(table_.rows.size());
}

int InstructionTimingModel::columnCount(const QModelIndex &parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

int InstructionTimingModel::row_of_pc(quint64 pc) const {
  const auto it = row_of_pc_.find(pc);
  return it == row_of_pc_.end() ? -1 : it->second;
}

QVariant InstructionTimingModel::data(const QModelIndex &index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const PcStat &r = table_.rows[static_cast<std::size_t>(index.row())];
  const double cost = table_.total_gap ? double(r.gap_total) / double(table_.total_gap) : 0.0;
  const auto number = [&](double v) -> QVariant {
    if (role == SortRole) return v;
    return QLocale().toString(v, 'f', 0);
  };
  switch (role) {
  case Qt::DisplayRole:
  case SortRole:
    switch (index.column()) {
    case AddressColumn:
      return role == SortRole ? QVariant::fromValue<quint64>(r.pc)
                              : QVariant(QStringLiteral("%1").arg(r.pc, 0, 16));
    case InstructionColumn:
      return r.instruction ? QString::fromStdString(r.instruction->text) : QStringLiteral("?");
    case HitsColumn: return number(double(r.hits));
    case MeanGapColumn:
      if (role == SortRole) return r.gap_mean();
      return r.hits ? cycles_text(r.gap_mean()) : QString();
    case MinGapColumn: return r.hits ? number(double(r.gap_min)) : QVariant();
    case MaxGapColumn: return r.hits ? number(double(r.gap_max)) : QVariant();
    case GapRangeColumn: return role == SortRole ? QVariant(r.gap_mean()) : QVariant();
    case StallColumn:
      if (role == SortRole) return r.stall_mean();
      return r.timed ? cycles_text(r.stall_mean()) : QString();
    case LatencyColumn:
    case StallLatencyBarColumn:
      if (role == SortRole) return r.latency_mean();
      return r.timed && index.column() == LatencyColumn ? cycles_text(r.latency_mean()) : QString();
    case ExecColumn: return r.exec_events ? number(double(r.exec_cycles)) : QVariant();
    case BarrierColumn: return r.barrier_wait ? number(double(r.barrier_wait)) : QVariant();
    case CostColumn:
      if (role == SortRole) return cost;
      return QStringLiteral("%1%").arg(cost * 100, 0, 'f', 1);
    }
    return {};
  case Qt::TextAlignmentRole:
    return index.column() >= HitsColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                        : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
  case Qt::FontRole: return theme::monospace_font(9);
  case Qt::ForegroundRole:
    if (index.column() == AddressColumn) return theme::muted_text();
    if (index.column() == InstructionColumn)
      return theme::category_color(
          static_cast<compiler::isa::InstCategory>(data(index, CategoryRole).toInt()));
    return {};
  case Qt::ToolTipRole: {
    QString tip = tr("%1 issues · issue gap mean %2, min %3, max %4 cycles · %5 exec cycles in %6 "
                     "events · %7% of the scope's issue-gap cycles")
                      .arg(r.hits)
                      .arg(r.gap_mean(), 0, 'f', 1)
                      .arg(r.hits ? r.gap_min : 0)
                      .arg(r.gap_max)
                      .arg(r.exec_cycles)
                      .arg(r.exec_events)
                      .arg(cost * 100, 0, 'f', 2);
    if (r.timed)
      tip += tr("\nlatency %1 cycles mean = stall %2 + execution %3, over %4 timed issues")
                 .arg(r.latency_mean(), 0, 'f', 1)
                 .arg(r.stall_mean(), 0, 'f', 1)
                 .arg(r.latency_mean() - r.stall_mean(), 0, 'f', 1)
                 .arg(r.timed);
    else
      tip += tr("\nno stall or latency: no hit of this instruction was timed (a wave end, or a "
                "walk that lost sync)");
    return tip;
  }
  case AddressRole: return QVariant::fromValue<quint64>(r.pc);
  case CategoryRole: {
    const auto it = category_of_pc_.find(r.pc);
    return it == category_of_pc_.end() ? static_cast<int>(compiler::isa::InstCategory::Other)
                                       : it->second;
  }
  case CostShareRole: return cost;
  case RelativeCostRole: return max_gap_total_ ? double(r.gap_total) / double(max_gap_total_) : 0.0;
  case StallLatencyRole:
    if (!r.timed || max_latency_mean_ <= 0) return {};
    return QVariantList{r.stall_mean() / max_latency_mean_, r.latency_mean() / max_latency_mean_};
  case GapRangeRole: {
    if (!r.hits || max_gap_ <= 0) return {};
    const double scale = std::log1p(double(max_gap_));
    return QVariantList{std::log1p(double(r.gap_min)) / scale, std::log1p(r.gap_mean()) / scale,
                        std::log1p(double(r.gap_max)) / scale};
  }
  default: return {};
  }
}

QVariant InstructionTimingModel::headerData(int section, Qt::Orientation orientation,
                                            int role) const {
  if (orientation != Qt::Horizontal) return {};
  if (role == Qt::ToolTipRole) {
    switch (section) {
    case HitsColumn: return tr("Times a traced wave issued the instruction");
    case MeanGapColumn:
    case MinGapColumn:
    case MaxGapColumn:
      return tr("Issue gap: cycles since the wave's previous issue (or its start), a bound on "
                "idle + stall before this instruction");
    case GapRangeColumn: return tr("Issue gap min · mean · max on a log scale across the table");
    case StallColumn:
      return tr("Stall: mean cycles the wave was ready to issue this instruction but could not "
                "(from its first issue attempt to its issue), as rocprof-trace-decoder and RGP "
                "define it; over the issues the trace times");
    case LatencyColumn:
      return tr("Latency: mean cycles from the first issue attempt to the instruction's end, "
                "stall + execution (RGP's latency; an RDNA3 s_barrier runs to the wave's next "
                "event); over the issues the trace times");
    case StallLatencyBarColumn:
      return tr("Mean latency on a linear scale across the table, its stall part in a distinct "
                "color");
    case ExecColumn: return tr("Cycles the execution units spent on it (linked exec events)");
    case BarrierColumn: return tr("Cycles waited at this barrier");
    case CostColumn: return tr("Share of all issue-gap cycles of the scope");
    }
    return {};
  }
  if (role != Qt::DisplayRole) return {};
  switch (section) {
  case AddressColumn: return tr("Address");
  case InstructionColumn: return tr("Instruction");
  case HitsColumn: return tr("Hits");
  case MeanGapColumn: return tr("Gap mean");
  case MinGapColumn: return tr("min");
  case MaxGapColumn: return tr("max");
  case GapRangeColumn: return tr("Issue gap (log)");
  case StallColumn: return tr("Stall");
  case LatencyColumn: return tr("Latency");
  case StallLatencyBarColumn: return tr("Stall · latency");
  case ExecColumn: return tr("Exec cyc");
  case BarrierColumn: return tr("Barrier");
  case CostColumn: return tr("Cost");
  }
  return {};
}

}  // namespace wavescope::gui
