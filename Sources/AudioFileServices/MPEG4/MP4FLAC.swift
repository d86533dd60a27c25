import AudioCore

/// FLAC in MPEG-4 (xiph's "Encapsulation of FLAC in ISO Base Media File Format"): an `fLaC`
/// sample entry whose `dfLa` box (a full box, version 0) holds metadata blocks, STREAMINFO first.
/// Each sample is one FLAC frame.
enum MP4FLAC {
    /// The stream description (as ``FLACFormat`` gives for a `.flac` file) and the magic cookie —
    /// the whole `dfLa` box, the form Apple's cookie for `'flac'` takes — of an `fLaC` entry
    /// whose child boxes are `children`.
    static func describe(_ children: [UInt8], base: Int64, entry: MP4Box) throws(AudioFileError) -> (AudioStreamBasicDescription, [UInt8]) {
        guard let dfla = MP4SampleDescription.findBox(children, base: base, type: "dfLa") else {
            throw AudioFileError(.invalidFile, "FLAC sample entry without its 'dfLa' box", chunk: "fLaC", offset: entry.offset)
        }
        guard dfla.bytes.count >= 12 + 4 + FLACStreamInfo.size, dfla.bytes[8] == 0 else {
            throw AudioFileError(
                .invalidChunk, "'dfLa' box of \(dfla.bytes.count) bytes, version \(dfla.bytes.count > 8 ? dfla.bytes[8] : 0)",
                chunk: "dfLa", offset: dfla.offset)
        }
        guard let info = FLACStreamInfo(magicCookie: dfla.bytes) else {
            throw AudioFileError(.invalidChunk, "the 'dfLa' box does not start with a STREAMINFO block", chunk: "dfLa", offset: dfla.offset)
        }
        if let problem = info.problem {
            throw AudioFileError(.unsupportedDataFormat, "STREAMINFO: \(problem)", chunk: "dfLa", offset: dfla.offset)
        }
        return (FLACFormat.streamDescription(info), dfla.bytes)
    }
}
