//===- Version.cpp - tfc::version() ---------------------------------------===//
#include "tfc/Version.h"

// The library's own copy of the macro: a program compiled against other
// headers still learns which libtfc.so it loaded.
const char *tfc::version() { return TFC_VERSION_STRING; }
