#pragma once
// Linking one relocatable AMDGPU object (LLVM's AMDGPU backend output) into a code object: a
// shared ELF holding the kernel, its descriptor and its metadata note. With liblld-22-dev at build
// time this is LLVM 22's lld ELF driver called in process (lld::lldMain; lld keeps one global
// context per process, so links are serialized); without it, the ld.lld program of LLVM 22 runs
// as a child process. An older default ld.lld can reject LLVM 22's code-object version.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace wavescope::compiler::codegen {

// Links `object` into a code object. A link lld rejects is Error(BadInput) naming `origin` with
// lld's own messages; after a link lld cannot recover from (it says it cannot run again in this
// process), every further link is Error(Internal) saying why.
std::vector<std::uint8_t> link_code_object(std::span<const std::uint8_t> object,
                                           const std::string &origin);

// True when lld runs in process (wavescope built with liblld-22-dev).
bool links_in_process();

// The linker, for messages and reports: "lld 22.1.8 (in process)" or the ld.lld program's path.
std::string linker_description();

// The ld.lld program the child-process linker runs: $WAVESCOPE_LD_LLD, else LLVM 22's own (its
// tools folder), else ld.lld-22. Only used when lld is not linked in process.
std::string ld_lld_path();

}  // namespace wavescope::compiler::codegen
