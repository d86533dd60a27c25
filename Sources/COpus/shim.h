#ifndef COPUS_SHIM_H
#define COPUS_SHIM_H
#include <opus.h>
#include <opus_multistream.h>
#endif
