#ifndef CSOUNDTOUCHSHIM_H
#define CSOUNDTOUCHSHIM_H

#ifdef __cplusplus
extern "C" {
#endif

/// A SoundTouch processor (interleaved float samples).
typedef struct STShim STShim;

/// A processor for `channels` channels at `sampleRate` Hz; NULL when SoundTouch refuses them.
STShim *_Nullable stshim_create(unsigned channels, unsigned sampleRate);
/// Frees the processor.
void stshim_destroy(STShim *_Nonnull st);
/// Output duration = input duration / tempo.
void stshim_set_tempo(STShim *_Nonnull st, double tempo);
/// Sets a SETTING_... value; returns nonzero when SoundTouch accepts it.
int stshim_set_setting(STShim *_Nonnull st, int setting, int value);
/// Reads a SETTING_... value.
int stshim_get_setting(STShim *_Nonnull st, int setting);
/// Takes `frames` interleaved frames.
void stshim_put(STShim *_Nonnull st, const float *_Nonnull samples, unsigned frames);
/// Copies up to `maxFrames` frames out; returns how many.
unsigned stshim_receive(STShim *_Nonnull st, float *_Nonnull output, unsigned maxFrames);
/// Frames ready to receive.
unsigned stshim_available(STShim *_Nonnull st);
/// Processes what is buffered (SoundTouch pads with silence).
void stshim_flush(STShim *_Nonnull st);
/// Drops all buffered samples.
void stshim_clear(STShim *_Nonnull st);

#ifdef __cplusplus
}
#endif

#endif
