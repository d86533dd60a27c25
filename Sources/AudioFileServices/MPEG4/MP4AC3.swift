import AudioCore

extension MP4SampleDescription {
    /// An `ac-3` or `ec-3` sample entry's stream description, magic cookie and channel layout
    /// (ETSI TS 102 366 Annex F): the `dac3` or `dec3` box's body is the cookie, as a Mac's reader
    /// gives it; its first independent substream gives the rate (the entry's where the box's
    /// `fscod` is E-AC-3's reduced-rate code) and the channels, counted with those its dependent
    /// substreams add. 1536 frames per packet (an E-AC-3 sample holds six blocks of each substream).
    static func ac3(
        _ children: [UInt8], base: Int64, entry: MP4Box, rate: Double
    ) throws(AudioFileError) -> (format: AudioStreamBasicDescription, cookie: [UInt8], layout: AudioChannelLayout) {
        let enhanced = entry.type == "ec-3"
        let boxType: FourCharCode = enhanced ? "dec3" : "dac3"
        // The box follows the entry's fields, or sits inside QuickTime's 'wave' (ffmpeg's .mov).
        var found = findBox(children, base: base, type: boxType)
        if found == nil, let wave = findBox(children, base: base, type: "wave") {
            found = findBox(Array(wave.bytes.dropFirst(8)), base: wave.offset + 8, type: boxType)
        }
        guard let box = found else {
            throw AudioFileError(.invalidFile, "'\(entry.type)' sample entry without its '\(boxType)' box", chunk: entry.name, offset: entry.offset)
        }
        let body = Array(box.bytes.dropFirst(8))
        let configuration: AC3Configuration
        do {
            configuration = enhanced ? try AC3Configuration(dec3: body) : try AC3Configuration(dac3: body)
        } catch {
            throw AudioFileError(.invalidChunk, error.reason, chunk: boxType.description, offset: box.offset)
        }
        let sampleRate = configuration.sampleRate > 0 ? Double(configuration.sampleRate) : rate
        let format = AudioStreamBasicDescription(
            sampleRate: sampleRate, formatID: enhanced ? .enhancedAC3 : .ac3, formatFlags: [], bytesPerPacket: 0,
            framesPerPacket: 1536, bytesPerFrame: 0, channelsPerFrame: UInt32(configuration.channelCount), bitsPerChannel: 0)
        return (format, body, configuration.channelLayout)
    }
}
