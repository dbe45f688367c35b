#pragma once
// The color legend above the wave timeline: one swatch per event category that occurs, plus
// the occupancy colors and the wave-state lane's.

#include <QWidget>

#include <vector>

#include "wavescope/trace/timeline/timeline_model.hpp"

namespace wavescope::gui {

class TimelineLegend : public QWidget {
  Q_OBJECT
public:
  explicit TimelineLegend(QWidget *parent = nullptr);
  void set_categories(std::vector<trace::timeline::EventCategory> categories, bool occupancy,
                      bool states = false);
  QSize sizeHint() const override;

protected:
  void paintEvent(QPaintEvent *event) override;

private:
  std::vector<trace::timeline::EventCategory> categories_;
  bool occupancy_ = false;
  bool states_ = false;
};

}  // namespace wavescope::gui
