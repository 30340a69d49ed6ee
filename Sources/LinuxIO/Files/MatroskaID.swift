/// The Matroska element ids the header reader, the repair and the finish read and write, by their names
/// in the Matroska specification.
enum MatroskaID {
    // The file's top level.
    static let ebml: UInt32 = 0x1A45_DFA3
    static let docType: UInt32 = 0x4282
    static let segment: UInt32 = 0x1853_8067
    static let seekHead: UInt32 = 0x114D_9B74
    static let info: UInt32 = 0x1549_A966
    static let tracks: UInt32 = 0x1654_AE6B
    static let cluster: UInt32 = 0x1F43_B675
    static let cues: UInt32 = 0x1C53_BB6B
    static let tags: UInt32 = 0x1254_C367
    static let chapters: UInt32 = 0x1043_A770
    static let attachments: UInt32 = 0x1941_A469
    static let void: UInt32 = 0xEC

    // The seek head's entries.
    static let seek: UInt32 = 0x4DBB
    static let seekID: UInt32 = 0x53AB
    static let seekPosition: UInt32 = 0x53AC

    // The segment's information.
    static let timestampScale: UInt32 = 0x2AD7B1
    static let duration: UInt32 = 0x4489
    static let writingApp: UInt32 = 0x5741

    // A track's entry.
    static let trackEntry: UInt32 = 0xAE
    static let trackNumber: UInt32 = 0xD7
    static let trackType: UInt32 = 0x83
    static let defaultDuration: UInt32 = 0x23E383
    static let trackUID: UInt32 = 0x73C5
    static let name: UInt32 = 0x536E
    static let flagDefault: UInt32 = 0x88

    // A cluster's children.
    static let timestamp: UInt32 = 0xE7
    static let position: UInt32 = 0xA7
    static let prevSize: UInt32 = 0xAB
    static let crc32: UInt32 = 0xBF
    static let simpleBlock: UInt32 = 0xA3
    static let blockGroup: UInt32 = 0xA0
    static let block: UInt32 = 0xA1
    static let blockDuration: UInt32 = 0x9B
    static let referenceBlock: UInt32 = 0xFB

    // The cues.
    static let cuePoint: UInt32 = 0xBB
    static let cueTime: UInt32 = 0xB3
    static let cueTrackPositions: UInt32 = 0xB7
    static let cueTrack: UInt32 = 0xF7
    static let cueClusterPosition: UInt32 = 0xF1

    // The chapters.
    static let editionEntry: UInt32 = 0x45B9
    static let editionUID: UInt32 = 0x45BC
    static let chapterAtom: UInt32 = 0xB6
    static let chapterUID: UInt32 = 0x73C4
    static let chapterTimeStart: UInt32 = 0x91
    static let chapterDisplay: UInt32 = 0x80
    static let chapString: UInt32 = 0x85
    static let chapLanguage: UInt32 = 0x437C

    // The tags.
    static let tag: UInt32 = 0x7373
    static let targets: UInt32 = 0x63C0
    static let tagTrackUID: UInt32 = 0x63C5
    static let simpleTag: UInt32 = 0x67C8
    static let tagName: UInt32 = 0x45A3
    static let tagString: UInt32 = 0x4487
}
