#include "wavescope/compiler/rewrite/viz_substitute.hpp"

#include <unordered_set>
#include <vector>

#include "wavescope/base/error.hpp"

namespace wavescope::compiler::rewrite {
namespace {

constexpr std::size_t kStackLimit = 250000;  // tinygrad's REWRITE_STACK_LIMIT

// A CALL of one of these runs an opaque body; graph_rewrite does not enter it (nor a FUNCTION's).
bool has_opaque_body(const UOp &u) {
  if (u.op() == Op::FUNCTION) return u.size() > 0;
  if (u.op() != Op::CALL || u.size() == 0) return false;
  const Op body = u.src(0).op();
  return body == Op::SINK || body == Op::PROGRAM || body == Op::LINEAR || body == Op::COPY ||
         body == Op::CUSTOM_FUNCTION;
}

class Substitution {
public:
  Substitution(const std::unordered_map<UOp, UOp> &map, bool enter_calls)
      : map_(map), enter_calls_(enter_calls) {}

  const UOp *lookup(const UOp &u) const {
    auto it = map_.find(u);
    return it == map_.end() ? nullptr : &it->second;
  }

  // tinygrad's RewriteContext.unified_rewrite with bpm = the map and no pm.
  UOp unified(const UOp &root) {
    struct Item {
      UOp n;
      int stage;
      UOp new_n;
    };
    std::vector<Item> stack{{root, 0, root}};
    std::unordered_set<UOp> on_stack{root};
    std::unordered_map<UOp, std::vector<Item>> waitlist;
    auto release = [&](const UOp &n) {
      auto it = waitlist.find(n);
      if (it == waitlist.end()) return;
      for (auto &item : it->second) stack.push_back(std::move(item));
      waitlist.erase(it);
    };
    while (!stack.empty()) {
      if (stack.size() > kStackLimit)
        throw Error(ErrorKind::BadInput, "infinite loop in graph_rewrite (stack too big)");
      Item item = std::move(stack.back());
      stack.pop_back();
      if (replace_.count(item.n)) continue;
      if (item.stage == 0) {
        // The map applies again and again to what it returns (a fixed point).
        UOp new_n = item.n;
        std::unordered_set<UOp> seen;
        for (const UOp *next = &item.n; next;) {
          if (!seen.insert(*next).second)
            throw Error(ErrorKind::BadInput, "infinite loop in fixed_point_rewrite");
          new_n = *next;
          next = lookup(new_n);
        }
        stack.push_back({item.n, 1, new_n});
        if (!enter_calls_ && has_opaque_body(new_n)) replace_[new_n.src(0)] = new_n.src(0);
        for (auto it = new_n.src().rbegin(); it != new_n.src().rend(); ++it) {
          if (on_stack.count(*it)) continue;
          stack.push_back({*it, 0, *it});
          on_stack.insert(*it);
        }
      } else if (item.stage == 1) {
        std::vector<UOp> new_src;
        bool ready = true;
        for (const auto &x : item.new_n.src()) {
          auto it = replace_.find(x);
          if (it == replace_.end()) {
            waitlist[x].push_back(item);
            ready = false;
            break;
          }
          new_src.push_back(it->second);
        }
        if (!ready) continue;
        if (new_src == item.new_n.src()) {
          replace_[item.n] = item.new_n;
          release(item.n);
          continue;
        }
        UOp rebuilt = item.new_n.with_src(std::move(new_src));
        stack.push_back({item.n, 2, rebuilt});
        stack.push_back({rebuilt, 0, rebuilt});
      } else {
        auto it = replace_.find(item.new_n);
        if (it == replace_.end()) {
          UOp key = item.new_n;
          waitlist[key].push_back(std::move(item));
        } else {
          replace_[item.n] = it->second;
          release(item.n);
        }
      }
    }
    auto it = replace_.find(root);
    if (it == replace_.end())
      throw Error(ErrorKind::BadInput, "graph_rewrite left the root unresolved");
    return it->second;
  }

  // tinygrad's RewriteContext.walk_rewrite with bpm = the map: one pass, a replacement is taken
  // as it is, without walking into it.
  UOp walk(const UOp &root) {
    std::vector<std::pair<UOp, bool>> stack{{root, false}};
    while (!stack.empty()) {
      if (stack.size() > kStackLimit)
        throw Error(ErrorKind::BadInput, "infinite loop in graph_rewrite (stack too big)");
      auto [n, processed] = std::move(stack.back());
      stack.pop_back();
      if (replace_.count(n)) continue;
      if (!processed) {
        if (const UOp *to = lookup(n)) {
          replace_[n] = *to;
          continue;
        }
        stack.emplace_back(n, true);
        if (!enter_calls_ && has_opaque_body(n)) replace_[n.src(0)] = n.src(0);
        for (auto it = n.src().rbegin(); it != n.src().rend(); ++it)
          if (!replace_.count(*it)) stack.emplace_back(*it, false);
      } else {
        std::vector<UOp> new_src;
        for (const auto &x : n.src()) {
          auto it = replace_.find(x);
          new_src.push_back(it == replace_.end() ? x : it->second);
        }
        replace_[n] = n.with_src(std::move(new_src));
      }
    }
    auto it = replace_.find(root);
    return it == replace_.end() ? root : it->second;
  }

private:
  const std::unordered_map<UOp, UOp> &map_;
  bool enter_calls_;
  std::unordered_map<UOp, UOp> replace_;
};

}  // namespace

UOp viz_substitute(const UOp &root, const std::unordered_map<UOp, UOp> &replacements, bool walk,
                   bool enter_calls) {
  // tinygrad drops the pairs that map a node to itself, and returns the root when none are left.
  std::unordered_map<UOp, UOp> map;
  for (const auto &[from, to] : replacements)
    if (!(from == to)) map.emplace(from, to);
  if (map.empty()) return root;
  Substitution s(map, enter_calls);
  return walk ? s.walk(root) : s.unified(root);
}

}  // namespace wavescope::compiler::rewrite
