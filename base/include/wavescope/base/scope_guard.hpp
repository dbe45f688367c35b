#pragma once
// Restore-on-failure without catch (...) blocks: an OnFailure guard runs its action only when the
// scope is left by an exception (the device registers, the firmware session, the descriptors are
// put back), and best_effort() runs cleanup whose own failure must not hide the first error.

#include <exception>
#include <utility>

namespace wavescope {

// Runs `action`, swallowing anything it throws: cleanup on a path that already failed, or in a
// destructor, where a second exception would replace or terminate the first.
template <class Action> void best_effort(Action &&action) noexcept {
  try {
    std::forward<Action>(action)();
  } catch (...) {
  }
}

// Runs its action (best effort) when destroyed during stack unwinding from an exception thrown
// after it was made; does nothing when the scope is left normally.
template <class Action> class OnFailure {
public:
  explicit OnFailure(Action action)
      : action_(std::move(action)), exceptions_(std::uncaught_exceptions()) {}
  OnFailure(const OnFailure &) = delete;
  OnFailure &operator=(const OnFailure &) = delete;
  ~OnFailure() {
    if (std::uncaught_exceptions() > exceptions_) best_effort(action_);
  }

private:
  Action action_;
  int exceptions_;
};

}  // namespace wavescope
