// libFuzzer target: the pickle reader on arbitrary bytes. It must read the input or throw
// wavescope::Error(BadInput); a read tree is walked through every accessor, iteratively.
// Seed it with the real pickles: fuzz_pickle ../shared/data/tinygrad-viz -max_total_time=600

#include <cstdint>
#include <cstdlib>
#include <vector>

#include "wavescope/base/error.hpp"
#include "wavescope/base/pickle_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  using namespace wavescope;
  try {
    const auto doc = pickle::PickleDocument::parse({data, size});
    std::vector<const pickle::Value *> work{&doc.root()};
    std::size_t visited = 0;
    while (!work.empty() && visited < 1'000'000) {
      const pickle::Value *v = work.back();
      work.pop_back();
      ++visited;
      (void)v->describe();
      switch (v->kind()) {
      case pickle::Kind::Int:
        if (v->int_fits_int64())
          (void)v->as_int64();
        else
          (void)v->big_int_bytes();
        break;
      case pickle::Kind::Str: (void)v->as_str(); break;
      case pickle::Kind::Bytes: (void)v->as_bytes(); break;
      case pickle::Kind::Dict:
        for (std::size_t i = 0; i < v->dict_size(); ++i) {
          work.push_back(v->dict_entry(i).key);
          work.push_back(v->dict_entry(i).value);
        }
        (void)v->find("device");
        break;
      case pickle::Kind::Object: {
        const auto *o = v->object();
        for (const auto *c : {o->callable, o->args, o->kwargs, o->state})
          if (c) work.push_back(c);
        (void)v->attr("name");
        break;
      }
      default:
        for (const auto *c : v->items()) work.push_back(c);
      }
    }
  } catch (const Error &e) {
    if (e.kind() != ErrorKind::BadInput) std::abort();
  }
  return 0;
}
