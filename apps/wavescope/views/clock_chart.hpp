#pragma once
// The shader-clock chart (QtCharts): the clock estimate of every SE of a dispatch over the
// cycles since that SE's first instruction, averaged over a few marker pairs (single pairs are
// a few 10 ns ticks apart, so they are noisy; sqtt.md §13).

#include <QtCharts/QChartView>

namespace wavescope::gui {

struct CaptureDispatch;

class ClockChart : public QChartView {
  Q_OBJECT
public:
  static constexpr int kWindow = 4;  // marker pairs per average

  explicit ClockChart(QWidget *parent = nullptr);
  // Plots the dispatch's SEs (nullptr clears); `highlight` is drawn thicker (-1: none).
  void show_dispatch(const CaptureDispatch *dispatch, int highlight = -1);
  // SEs with a clock line in the chart.
  int plotted_engines() const { return plotted_; }
  // Shows the whole trace (markers reach far beyond the kernel) or, by default, the kernel and
  // about ten times its length around it.
  void set_whole_trace(bool whole);
  bool whole_trace() const { return whole_; }
  // The cycle range shown (in thousands of cycles since the SE's first instruction).
  std::pair<double, double> x_range() const;

private:
  void apply_range();
  int plotted_ = 0;
  bool whole_ = false;
  std::pair<double, double> data_range_{0, 1}, kernel_range_{0, 1};
};

}  // namespace wavescope::gui
