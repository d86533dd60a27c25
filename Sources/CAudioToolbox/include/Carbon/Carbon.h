/*
 * <Carbon/Carbon.h> — Carbon's umbrella as the audio programs that include it use it: CoreServices
 * (MacTypes, the classic result codes, the Component Manager's types and the calls that find and
 * open audio units, the CoreFoundation subset), Core Audio (<CoreAudio/CoreAudio.h>) and
 * AudioToolbox (<AudioToolbox/AudioToolbox.h>). The user-interface parts of Carbon (HIToolbox,
 * QuickDraw, Navigation Services) are not provided.
 *
 * swift-audio-queue. Apache License 2.0.
 */
#ifndef __CARBON__
#define __CARBON__

#include <CoreServices/CoreServices.h>
#include <CoreAudio/CoreAudio.h>
#include <AudioToolbox/AudioToolbox.h>

#endif /* __CARBON__ */
