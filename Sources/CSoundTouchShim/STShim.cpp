// A C API over SoundTouch (LGPL-2.1, linked dynamically) for the TimeDomain processor.
#include "CSoundTouchShim.h"

#include <SoundTouch.h>
#include <new>

struct STShim {
    soundtouch::SoundTouch touch;
};

extern "C" STShim *stshim_create(unsigned channels, unsigned sampleRate) {
    if (channels < 1 || channels > 16 || sampleRate < 8000 || sampleRate > 384000) return nullptr;
    STShim *st = new (std::nothrow) STShim();
    if (st == nullptr) return nullptr;
    try {
        st->touch.setChannels(channels);
        st->touch.setSampleRate(sampleRate);
    } catch (...) {
        delete st;
        return nullptr;
    }
    return st;
}

extern "C" void stshim_destroy(STShim *st) { delete st; }

extern "C" void stshim_set_tempo(STShim *st, double tempo) { st->touch.setTempo(tempo); }

extern "C" int stshim_set_setting(STShim *st, int setting, int value) {
    return st->touch.setSetting(setting, value) ? 1 : 0;
}

extern "C" int stshim_get_setting(STShim *st, int setting) { return st->touch.getSetting(setting); }

extern "C" void stshim_put(STShim *st, const float *samples, unsigned frames) {
    st->touch.putSamples(samples, frames);
}

extern "C" unsigned stshim_receive(STShim *st, float *output, unsigned maxFrames) {
    return st->touch.receiveSamples(output, maxFrames);
}

extern "C" unsigned stshim_available(STShim *st) { return st->touch.numSamples(); }

extern "C" void stshim_flush(STShim *st) { st->touch.flush(); }

extern "C" void stshim_clear(STShim *st) { st->touch.clear(); }
