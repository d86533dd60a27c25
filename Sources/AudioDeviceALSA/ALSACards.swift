import AudioDevices
import CALSA
import Locking
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// The sound cards' PCMs, as the card drivers describe them: each card's control device
// (`snd_ctl_*`, opened non-blocking) gives the card's name and, for each PCM device, its name
// and whether it plays, records or both. Nothing here plays or records; the channel counts
// and rates come from a non-blocking open of the PCM's hardware parameters, made once per card
// and PCM for the process and skipped (no counts) when another program holds the PCM.

/// One PCM device of a card: `hw:card,device`, one way.
struct ALSACardPCM: Sendable, Equatable {
    var card: Int32
    var device: Int32
    var stream: PCMStream
    /// The card's name (`HDA Intel PCH`), and the PCM's (`ALC3246 Analog`).
    var cardName: String
    var pcmName: String
    /// The card's ID (`PCH`): what tells a card apart from one put in its place.
    var cardID: String
    /// The hardware's most channels and its rate, from its parameters; nil when it could not be
    /// opened to ask (held by another program).
    var channels: Int?
    var sampleRate: Double?

    var name: String { "hw:\(card),\(device)" }
}

enum ALSACards {
    /// The channel counts and rates found, by card ID, device and direction: probed once.
    private static let probed = Guarded<[String: (channels: Int, rate: Double)?]>([:])

    /// Every playback and capture PCM of every card, in card and device order.
    static func pcms() -> [ALSACardPCM] {
        var found: [ALSACardPCM] = []
        var card: Int32 = -1
        while snd_card_next(&card) >= 0, card >= 0 {
            found += pcms(ofCard: card)
        }
        return found
    }

    /// The PCMs of card `card`, from its control device.
    private static func pcms(ofCard card: Int32) -> [ALSACardPCM] {
        var ctl: OpaquePointer?
        let (opened, _) = ALSAMessages.collecting { snd_ctl_open(&ctl, "hw:\(card)", SND_CTL_NONBLOCK) }
        guard opened >= 0, let ctl else { return [] }
        defer { snd_ctl_close(ctl) }
        var cardInfo: OpaquePointer?
        guard snd_ctl_card_info_malloc(&cardInfo) >= 0, let cardInfo else { return [] }
        defer { snd_ctl_card_info_free(cardInfo) }
        guard snd_ctl_card_info(ctl, cardInfo) >= 0 else { return [] }
        let cardName = string(snd_ctl_card_info_get_name(cardInfo)) ?? "Card \(card)"
        let cardID = string(snd_ctl_card_info_get_id(cardInfo)) ?? "\(card)"
        var pcmInfo: OpaquePointer?
        guard snd_pcm_info_malloc(&pcmInfo) >= 0, let pcmInfo else { return [] }
        defer { snd_pcm_info_free(pcmInfo) }
        var found: [ALSACardPCM] = []
        var device: Int32 = -1
        while snd_ctl_pcm_next_device(ctl, &device) >= 0, device >= 0 {
            for stream in [PCMStream.playback, .capture] {
                snd_pcm_info_set_device(pcmInfo, UInt32(device))
                snd_pcm_info_set_subdevice(pcmInfo, 0)
                snd_pcm_info_set_stream(pcmInfo, stream.alsa)
                guard snd_ctl_pcm_info(ctl, pcmInfo) >= 0 else { continue }
                var pcm = ALSACardPCM(
                    card: card, device: device, stream: stream, cardName: cardName,
                    pcmName: string(snd_pcm_info_get_name(pcmInfo)) ?? "", cardID: cardID)
                if let format = format(of: pcm) {
                    pcm.channels = format.channels
                    pcm.sampleRate = format.rate
                }
                found.append(pcm)
            }
        }
        return found
    }

    /// The PCM's most channels and its rate (48 kHz when it can, else 44.1 kHz, else its
    /// highest), asked of its hardware parameters once; nil when it cannot be opened now.
    private static func format(of pcm: ALSACardPCM) -> (channels: Int, rate: Double)? {
        let key = "\(pcm.cardID)/\(pcm.device)/\(pcm.stream.noun)"
        if let known = probed.withLock({ $0[key] }) { return known }
        var handle: OpaquePointer?
        let (status, _) = ALSAMessages.collecting { snd_pcm_open(&handle, pcm.name, pcm.stream.alsa, SND_PCM_NONBLOCK) }
        // Held by another program (EBUSY) or gone: no counts, and asked again next time.
        guard status >= 0, let handle else { return nil }
        defer { snd_pcm_close(handle) }
        var params: OpaquePointer?
        guard snd_pcm_hw_params_malloc(&params) >= 0, let params else { return nil }
        defer { snd_pcm_hw_params_free(params) }
        guard snd_pcm_hw_params_any(handle, params) >= 0 else { return nil }
        var maxChannels: UInt32 = 0
        var minRate: UInt32 = 0, maxRate: UInt32 = 0
        var dir: Int32 = 0
        guard snd_pcm_hw_params_get_channels_max(params, &maxChannels) >= 0,
              snd_pcm_hw_params_get_rate_min(params, &minRate, &dir) >= 0,
              snd_pcm_hw_params_get_rate_max(params, &maxRate, &dir) >= 0
        else { return nil }
        let rate: UInt32 = [48000, 44100].first { (minRate...maxRate).contains($0) && snd_pcm_hw_params_test_rate(handle, params, $0, 0) == 0 } ?? maxRate
        let format = (channels: Int(min(maxChannels, 64)), rate: Double(rate))
        probed.withLock { $0[key] = format }
        return format
    }

    private static func string(_ text: UnsafePointer<CChar>?) -> String? {
        guard let text else { return nil }
        let value = String(cString: text)
        return value.isEmpty ? nil : value
    }

    /// Whether alsa-lib's configuration defines PCM `name` (`pcm.pulse`, `pcm.pipewire`): read
    /// from the configuration alsa-lib has loaded (loaded now when it has none).
    static func configurationDefines(_ name: String) -> Bool {
        var top: OpaquePointer?
        guard snd_config_update_ref(&top) >= 0, let top else { return false }
        defer { snd_config_unref(top) }
        var node: OpaquePointer?
        return snd_config_search(top, "pcm.\(name)", &node) >= 0
    }
}
