/*
 * AudioToolbox.h — Apple's AudioToolbox C API on Linux: Audio Queue Services, Audio File
 * Services, Audio File Stream Services, Extended Audio File Services and Audio Format Services
 * (with the audio converter properties a queue answers), and the CoreFoundation subset their
 * programs use; and, as Apple's umbrella includes them, the audio unit headers (AudioComponent.h,
 * AUComponent.h, AudioOutputUnit.h, AudioUnitProperties.h, AudioUnitParameters.h, MusicDevice.h)
 * and AUGraph.h, which brings in <AudioToolbox/AudioUnit.h>.
 * Compile and link with the flags `Scripts/audiotoolbox-config --cflags --libs` prints.
 *
 * swift-audio-queue. Apache License 2.0.
 */
#ifndef AudioToolbox_AudioToolbox_h
#define AudioToolbox_AudioToolbox_h

#include <AudioToolbox/ATBase.h>
#include <AudioToolbox/CoreAudioTypes.h>
#include <AudioToolbox/AudioFile.h>
#include <AudioToolbox/AudioFileStream.h>
#include <AudioToolbox/AudioQueue.h>
#include <AudioToolbox/AudioFormat.h>
#include <AudioToolbox/AudioConverter.h>
#include <AudioToolbox/ExtendedAudioFile.h>
#include <AudioToolbox/AudioServices.h>
#include <AudioToolbox/AudioComponent.h>
#include <AudioToolbox/AUComponent.h>
#include <AudioToolbox/AudioOutputUnit.h>
#include <AudioToolbox/AudioUnitProperties.h>
#include <AudioToolbox/AudioUnitParameters.h>
#include <AudioToolbox/MusicDevice.h>
#include <AudioToolbox/AUGraph.h>

#endif /* AudioToolbox_AudioToolbox_h */
