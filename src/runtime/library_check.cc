// CheckSharedLibraryComplete (see library_check.h).
#include "library_check.h"

#include <elf.h>

#include <cstring>
#include <fstream>

#include "rlx/runtime/error.h"

namespace rlx::runtime {
namespace {

bool ReadAt(std::ifstream& in, uint64_t offset, void* data, size_t size) {
  in.clear();
  in.seekg(static_cast<std::streamoff>(offset));
  in.read(static_cast<char*>(data), static_cast<std::streamsize>(size));
  return static_cast<size_t>(in.gcount()) == size;
}

}  // namespace

void CheckSharedLibraryComplete(const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return;  // dlopen reports a missing or unreadable file
  auto file_size = static_cast<uint64_t>(in.tellg());
  Elf64_Ehdr header;
  if (!ReadAt(in, 0, &header, sizeof(header))) return;
  if (std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 || header.e_ident[EI_CLASS] != ELFCLASS64) return;
  auto truncated = [&](const std::string& what, uint64_t end) {
    throw RuntimeError(StrCat("cannot load '", path, "': the file is truncated (", what, " ends at byte ", end,
                              ", the file has ", file_size, ")"));
  };
  uint64_t ph_end = header.e_phoff + uint64_t{header.e_phnum} * header.e_phentsize;
  if (ph_end > file_size) truncated("the program header table", ph_end);
  uint64_t sh_end = header.e_shoff + uint64_t{header.e_shnum} * header.e_shentsize;
  if (sh_end > file_size) truncated("the section header table", sh_end);
  if (header.e_phentsize != sizeof(Elf64_Phdr)) return;
  for (int i = 0; i < header.e_phnum; ++i) {
    Elf64_Phdr segment;
    if (!ReadAt(in, header.e_phoff + uint64_t(i) * sizeof(Elf64_Phdr), &segment, sizeof(segment))) {
      truncated("the program header table", ph_end);
    }
    uint64_t end = segment.p_offset + segment.p_filesz;
    if (segment.p_type == PT_LOAD && end > file_size) truncated(StrCat("loadable segment ", i), end);
  }
}

}  // namespace rlx::runtime
