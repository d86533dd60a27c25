#ifndef CFLAC_SHIM_H
#define CFLAC_SHIM_H
#include <FLAC/stream_decoder.h>
#include <FLAC/stream_encoder.h>
#endif
