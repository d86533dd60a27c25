#ifndef CSOUNDTOUCH_SHIM_H
#define CSOUNDTOUCH_SHIM_H
// SoundTouch's API is C++: CSoundTouchShim wraps it in C. This target only carries the
// library's compiler and linker flags (pkg-config soundtouch).
#include <soundtouch_config.h>
#endif
