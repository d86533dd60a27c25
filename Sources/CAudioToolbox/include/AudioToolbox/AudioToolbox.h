/*
 * AudioToolbox.h — Apple's AudioToolbox C API on Linux: Audio Queue Services, Audio File
 * Services, Audio File Stream Services, Extended Audio File Services and Audio Format Services
 * (with the audio converter properties a queue answers), and the CoreFoundation subset their
 * programs use.
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

#endif /* AudioToolbox_AudioToolbox_h */
