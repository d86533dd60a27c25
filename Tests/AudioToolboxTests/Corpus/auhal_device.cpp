/*
 * An output stream on a device the user names, written the way C++ audio libraries drive AUHAL
 * on macOS: list the devices through the HAL, pick one by name, open kAudioUnitSubType_HALOutput
 * with output enabled and input disabled, point it at the device, read the device's format from
 * the output scope, give the unit Float32 non-interleaved at the device's rate, map the channels,
 * ask for a buffer size, and convert the application's 16-bit interleaved samples inside the
 * render callback with AudioConverterFillComplexBuffer.
 *
 *   auhal_device list
 *       one line per output device: "device ID|name|UID|output channels"
 *   auhal_device play NAME FRAMES REF.raw
 *       plays FRAMES frames of a stereo 16-bit signal to the device called NAME, with its two
 *       channels swapped by kAudioOutputUnitProperty_ChannelMap; writes what the device should
 *       play to REF.raw (interleaved Float32, in the device's channel order) and prints
 *       "device UID rate R channels C", "buffer frames N", "rendered N".
 */
#include <AudioToolbox/AudioToolbox.h>
#include <CoreAudio/CoreAudio.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

void check(OSStatus status, const char *what) {
    if (status != noErr) throw std::runtime_error(std::string(what) + " failed (" + std::to_string(status) + ")");
}

std::string stringProperty(AudioObjectID object, AudioObjectPropertySelector selector) {
    AudioObjectPropertyAddress address = { selector, kAudioObjectPropertyScopeGlobal, kAudioObjectPropertyElementMain };
    CFStringRef value = nullptr;
    UInt32 size = sizeof(value);
    if (AudioObjectGetPropertyData(object, &address, 0, nullptr, &size, &value) != noErr || value == nullptr) return "";
    char buffer[512];
    std::string result;
    if (CFStringGetCString(value, buffer, sizeof(buffer), kCFStringEncodingUTF8)) result = buffer;
    CFRelease(value);
    return result;
}

UInt32 outputChannels(AudioObjectID device) {
    AudioObjectPropertyAddress address = { kAudioDevicePropertyStreamConfiguration, kAudioObjectPropertyScopeOutput,
                                           kAudioObjectPropertyElementMain };
    UInt32 size = 0;
    if (AudioObjectGetPropertyDataSize(device, &address, 0, nullptr, &size) != noErr || size == 0) return 0;
    std::vector<char> storage(size);
    auto *list = reinterpret_cast<AudioBufferList *>(storage.data());
    if (AudioObjectGetPropertyData(device, &address, 0, nullptr, &size, list) != noErr) return 0;
    UInt32 channels = 0;
    for (UInt32 i = 0; i < list->mNumberBuffers; i++) channels += list->mBuffers[i].mNumberChannels;
    return channels;
}

std::vector<AudioDeviceID> allDevices() {
    AudioObjectPropertyAddress address = { kAudioHardwarePropertyDevices, kAudioObjectPropertyScopeGlobal, kAudioObjectPropertyElementMain };
    UInt32 size = 0;
    check(AudioObjectGetPropertyDataSize(kAudioObjectSystemObject, &address, 0, nullptr, &size), "listing the devices");
    std::vector<AudioDeviceID> ids(size / sizeof(AudioDeviceID));
    check(AudioObjectGetPropertyData(kAudioObjectSystemObject, &address, 0, nullptr, &size, ids.data()), "listing the devices");
    ids.resize(size / sizeof(AudioDeviceID));
    return ids;
}

/* The application's side: 16-bit interleaved stereo, converted to the unit's Float32 in the
   render callback. */
class Stream {
public:
    Stream(AudioDeviceID device, UInt32 frames) : device_(device), total_(frames) {}

    ~Stream() {
        if (converter_) AudioConverterDispose(converter_);
        if (unit_) {
            AudioUnitUninitialize(unit_);
            AudioComponentInstanceDispose(unit_);
        }
    }

    void open() {
        AudioComponentDescription desc = {};
        desc.componentType = kAudioUnitType_Output;
        desc.componentSubType = kAudioUnitSubType_HALOutput;
        desc.componentManufacturer = kAudioUnitManufacturer_Apple;
        AudioComponent component = AudioComponentFindNext(nullptr, &desc);
        if (!component) throw std::runtime_error("no AUHAL component");
        check(AudioComponentInstanceNew(component, &unit_), "AudioComponentInstanceNew");

        UInt32 enable = 1, disable = 0;
        check(AudioUnitSetProperty(unit_, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Output, 0, &enable, sizeof(enable)),
              "enabling output");
        check(AudioUnitSetProperty(unit_, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Input, 1, &disable, sizeof(disable)),
              "disabling input");
        check(AudioUnitSetProperty(unit_, kAudioOutputUnitProperty_CurrentDevice, kAudioUnitScope_Global, 0, &device_, sizeof(device_)),
              "setting the current device");

        AudioStreamBasicDescription deviceFormat = {};
        UInt32 size = sizeof(deviceFormat);
        check(AudioUnitGetProperty(unit_, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &deviceFormat, &size),
              "getting the device format");
        rate_ = deviceFormat.mSampleRate;
        deviceChannels_ = deviceFormat.mChannelsPerFrame;
        std::printf("device %s rate %.0f channels %u\n", stringProperty(device_, kAudioDevicePropertyDeviceUID).c_str(), rate_,
                    static_cast<unsigned>(deviceChannels_));
        if (deviceChannels_ < 2) throw std::runtime_error("the device has fewer than two channels");

        // The unit takes Float32, one buffer per channel, at the device's rate.
        AudioStreamBasicDescription client = {};
        client.mSampleRate = rate_;
        client.mFormatID = kAudioFormatLinearPCM;
        client.mFormatFlags = kAudioFormatFlagsNativeFloatPacked | kAudioFormatFlagIsNonInterleaved;
        client.mFramesPerPacket = 1;
        client.mChannelsPerFrame = kChannels;
        client.mBitsPerChannel = 32;
        client.mBytesPerFrame = sizeof(Float32);
        client.mBytesPerPacket = sizeof(Float32);
        check(AudioUnitSetProperty(unit_, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &client, sizeof(client)),
              "setting the client format");

        // Device channel 0 plays the right channel, device channel 1 the left, the rest nothing.
        std::vector<SInt32> map(deviceChannels_, -1);
        map[0] = 1;
        map[1] = 0;
        check(AudioUnitSetProperty(unit_, kAudioOutputUnitProperty_ChannelMap, kAudioUnitScope_Output, 0, map.data(),
                                   static_cast<UInt32>(map.size() * sizeof(SInt32))),
              "setting the channel map");

        UInt32 bufferFrames = 256;
        check(AudioUnitSetProperty(unit_, kAudioDevicePropertyBufferFrameSize, kAudioUnitScope_Global, 0, &bufferFrames, sizeof(bufferFrames)),
              "setting the buffer frame size");
        bufferFrames = 0;
        size = sizeof(bufferFrames);
        check(AudioUnitGetProperty(unit_, kAudioDevicePropertyBufferFrameSize, kAudioUnitScope_Global, 0, &bufferFrames, &size),
              "getting the buffer frame size");
        std::printf("buffer frames %u\n", static_cast<unsigned>(bufferFrames));

        AudioStreamBasicDescription source = {};
        source.mSampleRate = rate_;
        source.mFormatID = kAudioFormatLinearPCM;
        source.mFormatFlags = kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked;
        source.mFramesPerPacket = 1;
        source.mChannelsPerFrame = kChannels;
        source.mBitsPerChannel = 16;
        source.mBytesPerFrame = kChannels * sizeof(SInt16);
        source.mBytesPerPacket = source.mBytesPerFrame;
        check(AudioConverterNew(&source, &client, &converter_), "AudioConverterNew");

        AURenderCallbackStruct callback = { &Stream::render, this };
        check(AudioUnitSetProperty(unit_, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &callback, sizeof(callback)),
              "setting the render callback");
        check(AudioUnitInitialize(unit_), "AudioUnitInitialize");
    }

    /* A deterministic stereo signal: a falling tone on the left, a rising one on the right, each
       with noise from a linear congruential generator. */
    void makeSignal() {
        samples_.resize(static_cast<size_t>(total_) * kChannels);
        UInt32 seed = 777;
        for (UInt32 i = 0; i < total_; i++) {
            double t = i / rate_;
            for (UInt32 c = 0; c < kChannels; c++) {
                seed = seed * 1664525u + 1013904223u;
                double f = c == 0 ? 900.0 - 200.0 * t : 300.0 + 200.0 * t;
                long v = std::lround(0.3 * 32767.0 * std::sin(2.0 * M_PI * f * t)) + static_cast<long>(seed >> 25) - 64;
                samples_[i * kChannels + c] = static_cast<SInt16>(v);
            }
            if (samples_[i * kChannels] == 0 && samples_[i * kChannels + 1] == 0) samples_[i * kChannels] = 1;
        }
    }

    /* What the device plays: interleaved in its channel order, the map applied. */
    void writeReference(const char *path) const {
        std::vector<Float32> out(static_cast<size_t>(total_) * deviceChannels_, 0.0f);
        for (UInt32 i = 0; i < total_; i++) {
            out[static_cast<size_t>(i) * deviceChannels_ + 0] = samples_[i * kChannels + 1] / 32768.0f;
            out[static_cast<size_t>(i) * deviceChannels_ + 1] = samples_[i * kChannels + 0] / 32768.0f;
        }
        FILE *file = std::fopen(path, "wb");
        if (!file || std::fwrite(out.data(), sizeof(Float32), out.size(), file) != out.size()) throw std::runtime_error("cannot write the reference");
        std::fclose(file);
    }

    void play() {
        check(AudioOutputUnitStart(unit_), "AudioOutputUnitStart");
        for (int i = 0; i < 6000 && !finished_.load(); i++) std::this_thread::sleep_for(std::chrono::milliseconds(10));
        check(AudioOutputUnitStop(unit_), "AudioOutputUnitStop");
        std::printf("rendered %u\n", static_cast<unsigned>(position_.load()));
        if (badBuffers_) std::printf("%u callbacks with unexpected buffers\n", static_cast<unsigned>(badBuffers_));
        if (converterError_ != noErr) std::printf("AudioConverterFillComplexBuffer: %d\n", static_cast<int>(converterError_));
    }

    bool finished() const { return finished_.load(); }

private:
    static constexpr UInt32 kChannels = 2;

    static OSStatus render(void *refCon, AudioUnitRenderActionFlags *flags, const AudioTimeStamp *, UInt32, UInt32 frames,
                           AudioBufferList *data) {
        return static_cast<Stream *>(refCon)->fill(flags, frames, data);
    }

    OSStatus fill(AudioUnitRenderActionFlags *flags, UInt32 frames, AudioBufferList *data) {
        if (data->mNumberBuffers != kChannels || data->mBuffers[0].mDataByteSize < frames * sizeof(Float32)) {
            badBuffers_++;
            return noErr;
        }
        UInt32 left = total_ - position_.load();
        if (left == 0) {
            for (UInt32 b = 0; b < data->mNumberBuffers; b++) std::memset(data->mBuffers[b].mData, 0, data->mBuffers[b].mDataByteSize);
            *flags |= kAudioUnitRenderAction_OutputIsSilence;
            return noErr;
        }
        UInt32 packets = frames < left ? frames : left;
        for (UInt32 b = 0; b < data->mNumberBuffers; b++) data->mBuffers[b].mDataByteSize = packets * sizeof(Float32);
        OSStatus status = AudioConverterFillComplexBuffer(converter_, &Stream::supply, this, &packets, data, nullptr);
        if (status != noErr && converterError_ == noErr) converterError_ = status;
        for (UInt32 b = 0; b < data->mNumberBuffers; b++) {
            auto *channel = static_cast<Float32 *>(data->mBuffers[b].mData);
            std::fill(channel + packets, channel + frames, 0.0f);
            data->mBuffers[b].mDataByteSize = frames * sizeof(Float32);
        }
        if (position_.load() == total_) finished_.store(true);
        return noErr;
    }

    /* The converter's input: the next of the application's frames. */
    static OSStatus supply(AudioConverterRef, UInt32 *ioNumberDataPackets, AudioBufferList *ioData, AudioStreamPacketDescription **,
                           void *userData) {
        auto *self = static_cast<Stream *>(userData);
        UInt32 position = self->position_.load();
        UInt32 n = self->total_ - position;
        if (n > *ioNumberDataPackets) n = *ioNumberDataPackets;
        ioData->mBuffers[0].mData = &self->samples_[static_cast<size_t>(position) * kChannels];
        ioData->mBuffers[0].mDataByteSize = n * kChannels * sizeof(SInt16);
        ioData->mBuffers[0].mNumberChannels = kChannels;
        self->position_.store(position + n);
        *ioNumberDataPackets = n;
        return noErr;
    }

    AudioDeviceID device_;
    UInt32 total_;
    AudioUnit unit_ = nullptr;
    AudioConverterRef converter_ = nullptr;
    Float64 rate_ = 0;
    UInt32 deviceChannels_ = 0;
    std::vector<SInt16> samples_;
    std::atomic<UInt32> position_{0};
    std::atomic<bool> finished_{false};
    UInt32 badBuffers_ = 0;
    OSStatus converterError_ = noErr;
};

int list() {
    for (AudioDeviceID id : allDevices()) {
        UInt32 channels = outputChannels(id);
        if (channels == 0) continue;
        std::printf("device %u|%s|%s|%u\n", static_cast<unsigned>(id), stringProperty(id, kAudioObjectPropertyName).c_str(),
                    stringProperty(id, kAudioDevicePropertyDeviceUID).c_str(), static_cast<unsigned>(channels));
    }
    return 0;
}

int play(const std::string &name, UInt32 frames, const char *referencePath) {
    AudioDeviceID device = kAudioObjectUnknown;
    for (AudioDeviceID id : allDevices()) {
        if (outputChannels(id) > 0 && stringProperty(id, kAudioObjectPropertyName) == name) {
            device = id;
            break;
        }
    }
    if (device == kAudioObjectUnknown) {
        std::printf("no output device called %s\n", name.c_str());
        return 1;
    }
    Stream stream(device, frames);
    stream.open();
    stream.makeSignal();
    stream.writeReference(referencePath);
    stream.play();
    return stream.finished() ? 0 : 1;
}

} // namespace

int main(int argc, char **argv) {
    try {
        if (argc >= 2 && std::strcmp(argv[1], "list") == 0) return list();
        if (argc >= 5 && std::strcmp(argv[1], "play") == 0) return play(argv[2], static_cast<UInt32>(std::stoul(argv[3])), argv[4]);
        std::fprintf(stderr, "usage: %s list | play NAME FRAMES REF.raw\n", argv[0]);
        return 2;
    } catch (const std::exception &error) {
        std::fprintf(stderr, "error: %s\n", error.what());
        return 1;
    }
}
