// libpulse's asynchronous API on a threaded main loop, for AudioDevicePulse only.
#include <pulse/pulseaudio.h>
