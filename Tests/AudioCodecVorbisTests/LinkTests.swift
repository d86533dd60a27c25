import CVorbis
import Testing

@Test func libvorbisLinks() {
    var info = vorbis_info()
    vorbis_info_init(&info)
    #expect(info.channels == 0)
    vorbis_info_clear(&info)
}
