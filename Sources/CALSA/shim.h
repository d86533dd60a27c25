// alsa-lib, for AudioDeviceALSA only.
#include <alsa/asoundlib.h>
