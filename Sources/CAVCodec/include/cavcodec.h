#ifndef CAVCODEC_H
#define CAVCODEC_H
#include <errno.h>
#include <stdint.h>
#include <libavcodec/avcodec.h>
#include <libavutil/channel_layout.h>
#include <libavutil/frame.h>

/* libavcodec is not linked: it is opened with dlopen (its soname from the headers' major
 * version, so the library matches the headers) the first time an encoder needs it. A program
 * that links AudioCodecAVCodec but encodes no AAC (afconvert to linear PCM, aqplay) then does not
 * load libavcodec and the hundred libraries it needs (video codecs, librsvg, libjxl, ...), which
 * took about 17 ms at every start. The functions below stand for libavcodec's and libavutil's
 * of the same name (cavcodec_free_context for avcodec_free_context, ...); each loads the library
 * when it is not loaded yet, and fails as the original fails for a missing object (NULL, a
 * negative error code, nothing done) when it cannot be loaded. */

/* 1 when libavcodec is loaded (loading it on the first call, once per process), else 0. */
int cavcodec_load(void);
/* Why libavcodec could not be loaded (dlerror's message), or NULL when it is loaded. */
const char *cavcodec_load_error(void);

/* AVERROR(EAGAIN) and AVERROR_EOF are macros Swift does not import. */
static inline int cavcodec_error_again(void) { return AVERROR(EAGAIN); }
static inline int cavcodec_error_eof(void) { return AVERROR_EOF; }

/* Lowers libavutil's log level to errors when it is still the library's default (info), so that
 * encoders do not print their statistics ("Qavg") to standard error; a level the program set
 * itself is kept. */
void cavcodec_quiet_default_log(void);

/* Opens libavcodec's native AAC-LC encoder for planar float input at `rate` Hz, `channels`
 * channels (libavcodec's default layout for the count, but 3.0 for three channels, so that the
 * stream has channel configuration 3) and `bitRate` bits per second, with the
 * AudioSpecificConfig in extradata. NULL when the encoder is missing or refuses. */
AVCodecContext *cavcodec_open_aac(int rate, int channels, int64_t bitRate);
void cavcodec_free_context(AVCodecContext **context);
int cavcodec_send_frame(AVCodecContext *context, const AVFrame *frame);
int cavcodec_receive_packet(AVCodecContext *context, AVPacket *packet);

/* A frame of `context`'s format, layout and rate with room for 1024 samples per channel. */
AVFrame *cavcodec_frame(const AVCodecContext *context);
void cavcodec_frame_free(AVFrame **frame);
int cavcodec_frame_make_writable(AVFrame *frame);

/* Decoding. Opens libavcodec's decoder named `name` ("ac3", "eac3", "vorbis", ...) for planar
 * float output, with a copy of `extradataSize` bytes at `extradata` as its extradata (none when
 * NULL or 0), and `channels` and `rate` where they are above 0 (libavcodec's default layout for
 * the count). NULL when libavcodec cannot be loaded, has no such decoder, or the decoder
 * refuses. */
AVCodecContext *cavcodec_open_decoder(const char *name, const uint8_t *extradata, int extradataSize, int channels, int rate);
/* 1 when libavcodec loads and has a decoder named `name`, else 0. */
int cavcodec_has_decoder(const char *name);
/* Sends `size` bytes at `data` as one packet (libavcodec copies them); data NULL ends the
 * stream. */
int cavcodec_send_bytes(AVCodecContext *context, AVPacket *packet, const uint8_t *data, int size);
int cavcodec_receive_frame(AVCodecContext *context, AVFrame *frame);
/* Drops the decoder's state (after a seek). */
void cavcodec_flush_buffers(AVCodecContext *context);
AVFrame *cavcodec_frame_alloc(void);
void cavcodec_frame_unref(AVFrame *frame);
/* A decoded frame's channel count, and its channel mask when the layout is in libavutil's
 * native order (else 0). */
int cavcodec_frame_channel_count(const AVFrame *frame);
uint64_t cavcodec_frame_channel_mask(const AVFrame *frame);
/* Lowers libavutil's log level to fatal errors when it is the library's default (info) or the
 * errors level cavcodec_quiet_default_log set, so that a damaged stream's packets, which the
 * decoders report through their results, do not print to standard error. */
void cavcodec_quiet_decoder_log(void);

AVPacket *cavcodec_packet_alloc(void);
void cavcodec_packet_free(AVPacket **packet);
void cavcodec_packet_unref(AVPacket *packet);
#endif
