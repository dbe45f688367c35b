#include "layout/graph_layout.hpp"

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include <memory>
#include <mutex>
#include <string>

#include "wavescope/base/error.hpp"

namespace wavescope::gui {
namespace {

std::mutex &graphviz_mutex() {
  static std::mutex mutex;
  return mutex;
}

char *cstr(const std::string &s) { return const_cast<char *>(s.c_str()); }

}  // namespace

GraphLayout layout_graph(const std::vector<QSizeF> &node_sizes,
                         const std::vector<LayoutEdgeRequest> &edge_requests,
                         double node_separation, double rank_separation) {
  GraphLayout result;
  if (node_sizes.empty()) return result;
  std::lock_guard lock(graphviz_mutex());

  std::unique_ptr<GVC_t, int (*)(GVC_t *)> gvc(gvContext(), gvFreeContext);
  if (!gvc) throw Error(ErrorKind::Internal, "graphviz: cannot create a context");
  std::unique_ptr<Agraph_t, int (*)(Agraph_t *)> graph(agopen(cstr("g"), Agdirected, nullptr),
                                                       agclose);
  Agraph_t *g = graph.get();
  agattr(g, AGRAPH, cstr("rankdir"), cstr("TB"));
  agattr(g, AGRAPH, cstr("nodesep"), cstr(std::to_string(node_separation / 72.0)));
  agattr(g, AGRAPH, cstr("ranksep"), cstr(std::to_string(rank_separation / 72.0)));
  agattr(g, AGRAPH, cstr("splines"), cstr("spline"));
  agattr(g, AGNODE, cstr("shape"), cstr("box"));
  agattr(g, AGNODE, cstr("fixedsize"), cstr("true"));
  agattr(g, AGNODE, cstr("label"), cstr(""));
  agattr(g, AGNODE, cstr("width"), cstr("1"));
  agattr(g, AGNODE, cstr("height"), cstr("1"));
  agattr(g, AGEDGE, cstr("constraint"), cstr("true"));

  std::vector<Agnode_t *> nodes;
  nodes.reserve(node_sizes.size());
  for (std::size_t i = 0; i < node_sizes.size(); ++i) {
    Agnode_t *n = agnode(g, cstr("n" + std::to_string(i)), 1);
    agset(n, cstr("width"), cstr(std::to_string(node_sizes[i].width() / 72.0)));
    agset(n, cstr("height"), cstr(std::to_string(node_sizes[i].height() / 72.0)));
    nodes.push_back(n);
  }
  std::vector<Agedge_t *> edges;
  for (const auto &request : edge_requests) {
    if (request.from >= nodes.size() || request.to >= nodes.size())
      throw Error(ErrorKind::Internal, "graphviz: edge refers to a node that does not exist");
    Agedge_t *e = agedge(g, nodes[request.from], nodes[request.to], nullptr, 1);
    if (!request.constrain) agset(e, cstr("constraint"), cstr("false"));
    edges.push_back(e);
  }
  if (gvLayout(gvc.get(), g, "dot") != 0)
    throw Error(ErrorKind::Internal, "graphviz: dot layout failed");

  const boxf bb = GD_bb(g);
  auto flip = [&](pointf p) { return QPointF(p.x - bb.LL.x, bb.UR.y - p.y); };
  result.bounds = QRectF(0, 0, bb.UR.x - bb.LL.x, bb.UR.y - bb.LL.y);
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const QPointF center = flip(ND_coord(nodes[i]));
    const QSizeF size = node_sizes[i];
    result.nodes.emplace_back(center.x() - size.width() / 2, center.y() - size.height() / 2,
                              size.width(), size.height());
  }
  for (Agedge_t *e : edges) {
    std::vector<QPointF> points;
    QPointF tip;
    if (const splines *spl = ED_spl(e); spl && spl->size > 0) {
      const bezier &curve = spl->list[0];
      for (int k = 0; k < static_cast<int>(curve.size); ++k) points.push_back(flip(curve.list[k]));
      tip = curve.eflag ? flip(curve.ep) : (points.empty() ? QPointF() : points.back());
    }
    result.edges.push_back(std::move(points));
    result.arrow_tips.push_back(tip);
  }
  gvFreeLayout(gvc.get(), g);
  return result;
}

}  // namespace wavescope::gui
