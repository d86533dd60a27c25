#ifndef CVORBIS_SHIM_H
#define CVORBIS_SHIM_H
/* libvorbis's decoding API (vorbis_synthesis*): packets are handed over one at a time as
   ogg_packet values; the package's own Ogg reader does the paging, so libvorbisfile is not used. */
#include <vorbis/codec.h>
#endif
