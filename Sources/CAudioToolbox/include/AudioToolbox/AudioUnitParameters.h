/*
 * AudioUnitParameters.h — the parameter IDs of Apple's units that programs set: the output
 * unit's volume (kHALOutputParam_Volume), the mixers' volume, enable, pan and meters, the
 * varispeed and time-pitch units' rate and pitch, the 3D mixer's position, and the filters',
 * delay's and limiter's controls.
 *
 * swift-audio-queue. Apache License 2.0.
 */
#ifndef AudioToolbox_AudioUnitParameters_h
#define AudioToolbox_AudioUnitParameters_h

#include <AudioToolbox/AUComponent.h>

AT_EXTERN_C_BEGIN

/* AUHAL and the default and system outputs: global scope, linear gain 0…1. */
CF_ENUM(AudioUnitParameterID) {
    kHALOutputParam_Volume = 14,
};

/* AUMultiChannelMixer: volume and enable per input or output bus, pan per input bus, meters. */
CF_ENUM(AudioUnitParameterID) {
    kMultiChannelMixerParam_Volume = 0,
    kMultiChannelMixerParam_Enable = 1,
    kMultiChannelMixerParam_Pan = 2,
    kMultiChannelMixerParam_PreAveragePower = 1000,
    kMultiChannelMixerParam_PrePeakHoldLevel = 2000,
    kMultiChannelMixerParam_PostAveragePower = 3000,
    kMultiChannelMixerParam_PostPeakHoldLevel = 4000,
};

/* AUMatrixMixer. */
CF_ENUM(AudioUnitParameterID) {
    kMatrixMixerParam_Volume = 0,
    kMatrixMixerParam_Enable = 1,
    kMatrixMixerParam_PreAveragePower = 1000,
    kMatrixMixerParam_PrePeakHoldLevel = 2000,
    kMatrixMixerParam_PostAveragePower = 3000,
    kMatrixMixerParam_PostPeakHoldLevel = 4000,
};

/* AUStereoMixer. */
CF_ENUM(AudioUnitParameterID) {
    kStereoMixerParam_Volume = 0,
    kStereoMixerParam_Pan = 1,
    kStereoMixerParam_PreAveragePower = 1000,
    kStereoMixerParam_PrePeakHoldLevel = 2000,
    kStereoMixerParam_PostAveragePower = 3000,
    kStereoMixerParam_PostPeakHoldLevel = 4000,
};

/* AU3DMixer (and the spatial mixer's first parameters). */
CF_ENUM(AudioUnitParameterID) {
    k3DMixerParam_Azimuth = 0,
    k3DMixerParam_Elevation = 1,
    k3DMixerParam_Distance = 2,
    k3DMixerParam_Gain = 3,
    k3DMixerParam_PlaybackRate = 4,
};

/* AUVarispeed. */
CF_ENUM(AudioUnitParameterID) {
    kVarispeedParam_PlaybackRate = 0,
    kVarispeedParam_PlaybackCents = 1,
};

/* AUTimePitch. */
CF_ENUM(AudioUnitParameterID) {
    kTimePitchParam_Rate = 0,
    kTimePitchParam_Pitch = 1,
    kTimePitchParam_EffectBlend = 2,
};

/* AUNewTimePitch. */
CF_ENUM(AudioUnitParameterID) {
    kNewTimePitchParam_Rate = 0,
    kNewTimePitchParam_Pitch = 1,
    kNewTimePitchParam_Overlap = 4,
    kNewTimePitchParam_EnablePeakLocking = 6,
};

/* Filters. */
CF_ENUM(AudioUnitParameterID) {
    kLowPassParam_CutoffFrequency = 0,
    kLowPassParam_Resonance = 1,
};
CF_ENUM(AudioUnitParameterID) {
    kHipassParam_CutoffFrequency = 0,
    kHipassParam_Resonance = 1,
};
CF_ENUM(AudioUnitParameterID) {
    kBandpassParam_CenterFrequency = 0,
    kBandpassParam_Bandwidth = 1,
};
CF_ENUM(AudioUnitParameterID) {
    kHighShelfParam_CutOffFrequency = 0,
    kHighShelfParam_Gain = 1,
};
CF_ENUM(AudioUnitParameterID) {
    kAULowShelfParam_CutoffFrequency = 0,
    kAULowShelfParam_Gain = 1,
};
CF_ENUM(AudioUnitParameterID) {
    kParametricEQParam_CenterFreq = 0,
    kParametricEQParam_Q = 1,
    kParametricEQParam_Gain = 2,
};

/* AUDelay, AUSampleDelay, AUPeakLimiter. */
CF_ENUM(AudioUnitParameterID) {
    kDelayParam_WetDryMix = 0,
    kDelayParam_DelayTime = 1,
    kDelayParam_Feedback = 2,
    kDelayParam_LopassCutoff = 3,
};
CF_ENUM(AudioUnitParameterID) {
    kSampleDelayParam_DelayFrames = 0,
};
CF_ENUM(AudioUnitParameterID) {
    kLimiterParam_AttackTime = 0,
    kLimiterParam_DecayTime = 1,
    kLimiterParam_PreGain = 2,
};

AT_EXTERN_C_END

#endif /* AudioToolbox_AudioUnitParameters_h */
