/* <CoreAudio/CoreAudioTypes.h>, where older code includes it from. */
#include <AudioToolbox/CoreAudioTypes.h>
