// A C API over SoundTouch (LGPL-2.1, linked dynamically) for the TimeDomain processor.
#include "CSoundTouchShim.h"

#include <SoundTouch.h>
#include <new>

struct STShim {
    soundtouch::SoundTouch touch;
};

// No C++ exception crosses into the caller: each entry point catches everything (SoundTouch
// allocates with a throwing new and throws std::runtime_error on bad settings) and reports a
// failure as a null handle, zero frames or a no-op.

extern "C" STShim *stshim_create(unsigned channels, unsigned sampleRate) {
    if (channels < 1 || channels > 16 || sampleRate < 8000 || sampleRate > 384000) return nullptr;
    STShim *st = nullptr;
    try {
        st = new STShim();
        st->touch.setChannels(channels);
        st->touch.setSampleRate(sampleRate);
    } catch (...) {
        delete st;
        return nullptr;
    }
    return st;
}

extern "C" void stshim_destroy(STShim *st) { delete st; }

extern "C" void stshim_set_tempo(STShim *st, double tempo) {
    if (st == nullptr) return;
    try { st->touch.setTempo(tempo); } catch (...) {}
}

extern "C" int stshim_set_setting(STShim *st, int setting, int value) {
    if (st == nullptr) return 0;
    try { return st->touch.setSetting(setting, value) ? 1 : 0; } catch (...) { return 0; }
}

extern "C" int stshim_get_setting(STShim *st, int setting) {
    if (st == nullptr) return 0;
    try { return st->touch.getSetting(setting); } catch (...) { return 0; }
}

extern "C" void stshim_put(STShim *st, const float *samples, unsigned frames) {
    if (st == nullptr || samples == nullptr) return;
    try { st->touch.putSamples(samples, frames); } catch (...) {}
}

extern "C" unsigned stshim_receive(STShim *st, float *output, unsigned maxFrames) {
    if (st == nullptr || output == nullptr) return 0;
    try { return st->touch.receiveSamples(output, maxFrames); } catch (...) { return 0; }
}

extern "C" unsigned stshim_available(STShim *st) {
    if (st == nullptr) return 0;
    try { return st->touch.numSamples(); } catch (...) { return 0; }
}

extern "C" void stshim_flush(STShim *st) {
    if (st == nullptr) return;
    try { st->touch.flush(); } catch (...) {}
}

extern "C" void stshim_clear(STShim *st) {
    if (st == nullptr) return;
    try { st->touch.clear(); } catch (...) {}
}
