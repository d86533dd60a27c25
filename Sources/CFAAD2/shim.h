#ifndef CFAAD2_SHIM_H
#define CFAAD2_SHIM_H
#include <neaacdec.h>
#endif
