// A pre-flight check of a shared library before dlopen: glibc maps the
// segments an ELF file announces, and touching a segment that lies past the
// end of a truncated file kills the process with SIGBUS instead of failing.
// CheckSharedLibraryComplete reads the ELF headers and raises a RuntimeError
// ("'m.so' is truncated: ...") when the program headers, section headers or
// any loadable segment reach beyond the end of the file. Files that are not
// 64-bit ELF are left to dlopen, which reports them itself.
#pragma once

#include <string>

namespace rlx::runtime {

void CheckSharedLibraryComplete(const std::string& path);

}  // namespace rlx::runtime
