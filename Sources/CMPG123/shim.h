#ifndef CMPG123_SHIM_H
#define CMPG123_SHIM_H
#include <mpg123.h>
#endif
