import AudioCore

/// A two-way table between Apple's info dictionary keys and a tag format's own names (ID3v2
/// frame IDs, Vorbis comment field names, RIFF `INFO` IDs, iTunes item types): the readers look
/// names up in ``keys``, the writers keys in ``name(for:)``, so reading and writing map alike.
struct TagNameTable<Name: Hashable & Sendable>: Sendable {
    /// Each key with its names: every name is read as the key, the first is the one written.
    let rows: [(key: String, names: [Name])]
    /// The key each name is read as.
    let keys: [Name: String]

    init(_ rows: [(key: String, names: [Name])]) {
        self.rows = rows
        var keys: [Name: String] = [:]
        for row in rows {
            for name in row.names where keys[name] == nil { keys[name] = row.key }
        }
        self.keys = keys
    }

    /// The name `key` is written under, nil when the format has none for it.
    func name(for key: String) -> Name? {
        rows.first { $0.key == key }?.names.first
    }
}

extension AudioFileInfo {
    /// The entries a file records: `approximate duration in seconds` (which readers work out from
    /// the audio) left out, each key and value cut at its first NUL (C strings end there, and so
    /// do CAF's and RIFF's), empty ones dropped.
    var recordable: AudioFileInfo {
        var pairs: [(key: String, value: String)] = []
        for entry in entries where entry.key != .approximateDurationInSeconds {
            let key = Self.beforeNUL(entry.key.rawValue), value = Self.beforeNUL(entry.value)
            if !key.isEmpty && !value.isEmpty { pairs.append((key, value)) }
        }
        return AudioFileInfo(pairs)
    }

    private static func beforeNUL(_ text: String) -> String {
        guard let nul = text.utf8.firstIndex(of: 0) else { return text }
        return String(text[..<nul])
    }

    /// The entries for a tag format whose one date field is the year (ID3v2 `TDRC`, Vorbis
    /// `DATE`, MPEG-4 `©day`): `recorded date` stands in for `year` when there is no `year`
    /// (a RIFF `ICRD` date read from WAVE keeps its place as the date).
    var withRecordedDateAsYear: [Entry] {
        guard self[.year] == nil, entries.contains(where: { $0.key == .recordedDate }) else { return entries }
        return entries.map { $0.key == .recordedDate ? Entry(key: .year, value: $0.value) : $0 }
    }

    /// `track number` as its number and total (`3/12` or `3`), nil when it is not digits.
    var trackNumberAndTotal: (number: Int, total: Int?)? {
        guard let text = self[.trackNumber] else { return nil }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map { $0.filter { $0 != " " } }
        guard (1...2).contains(parts.count), let number = Int(parts[0]), number >= 0 else { return nil }
        if parts.count == 2 {
            guard let total = Int(parts[1]), total >= 0 else { return nil }
            return (number, total)
        }
        return (number, nil)
    }
}
