import AudioCore

/// Recording the info dictionary and pictures: where each container keeps them and when they
/// can change.
extension WriterState {
    mutating func setInfo(_ info: AudioFileInfo) throws(AudioFileError) {
        var changed = metadata
        changed.info = info.recordable
        try recordTags(changed)
    }

    mutating func setPictures(_ pictures: [AudioFilePicture]) throws(AudioFileError) {
        guard header.kind != .caf || pictures.isEmpty else {
            throw AudioFileError(.unsupportedProperty, "CAF files have no chunk for pictures")
        }
        var changed = metadata
        changed.pictures = pictures
        try recordTags(changed)
    }

    /// Checks that `changed`'s tags fit the container (by making them), then records them:
    /// MPEG-4 at close; CAF, WAVE and AIFF as their metadata chunks; FLAC, ADTS and Ogg in the header.
    private mutating func recordTags(_ changed: WriterMetadata) throws(AudioFileError) {
        try checkOpen()
        switch header.kind {
        case .mp4:
            let items = try MP4Tags.items(info: changed.info, pictures: changed.pictures)
            guard items.count < 0xF000_0000 else { throw AudioFileError(.parameter, "\(items.count) bytes of tags are more than a 'moov' box holds") }
            try prepareToChange()
            metadata = changed
        case .flac:
            try recordFLACTags(changed)
        case .adts:
            let tag = try ID3v2.tag(info: changed.info, pictures: changed.pictures) ?? []
            guard !hasData else {
                throw AudioFileError(
                    .operationNotSupported, "an ADTS file's ID3v2 tag comes before its audio: set the tags before writing packets")
            }
            try prepareToChange()
            try sink.write(tag, at: 0)
            try sink.truncate(to: Int64(tag.count))
            header = ContainerHeader(kind: .adts, fileType: .adts, bytes: tag, dataOffset: Int64(tag.count))
            metadata = changed
        case .wave, .aiff:
            if changed.hasTags { _ = try ID3v2.tag(info: changed.info, pictures: changed.pictures) }
            try prepareToChange()
            try setMetadata(changed, .info)
            try setMetadata(changed, .id3)
        case .caf:
            try prepareToChange()
            try setMetadata(changed, .info)
        case .ogg:
            // The comment header (OpusTags) lies between the identification header and the
            // audio, on pages of its own: made again while no audio follows it.
            guard !hasData && ogg == nil else {
                throw AudioFileError(
                    .operationNotSupported, "an Ogg file's comment header comes before its audio: set the tags before writing packets")
            }
            try prepareToChange()
            metadata = changed
            try rebuildOggHeader()
        }
    }

    /// FLAC: before the frames the header is made again with the tag blocks before its
    /// PADDING; once frames follow, the blocks are rewritten in place where they fit the space
    /// between STREAMINFO and the frames (the rest becomes PADDING), else `operationNotSupported`:
    /// the audio would have to move.
    private mutating func recordFLACTags(_ changed: WriterMetadata) throws(AudioFileError) {
        let blocks = try ContainerHeader.flacTagBlocks(info: changed.info, pictures: changed.pictures)
        let room = Int(header.dataOffset) - ContainerHeader.flacTagOffset
        if hasData {
            guard blocks.count + 4 <= room else {
                throw AudioFileError(
                    .operationNotSupported,
                    "FLAC tags of \(blocks.count + 4) bytes do not fit the \(room) bytes before the audio: set them before writing packets")
            }
            try prepareToChange()
            try sink.write(blocks + ContainerHeader.flacPaddingBlock(filling: room - blocks.count), at: Int64(ContainerHeader.flacTagOffset))
            metadata = changed
            return
        }
        try prepareToChange()
        var rebuilt = ContainerHeader.flac(format, tags: blocks)
        rebuilt.chunks = header.chunks
        try sink.write(rebuilt.bytes, at: 0)
        try sink.truncate(to: Int64(rebuilt.bytes.count))
        header = rebuilt
        metadata = changed
    }
}
