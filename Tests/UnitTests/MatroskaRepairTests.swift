@testable import CaptureModel
@testable import LinuxIO
import Foundation
import PipcamTestSupport
import XCTest

/// The repair and the header reader on files made byte by byte: a cut-off recording as the muxer leaves
/// it is ended, and hostile bytes (any size, any time, any length) are refused or repaired, never a crash.
final class MatroskaRepairTests: XCTestCase {
    private static let unknownSize: [UInt8] = [0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]

    /// The head of a file as GStreamer's muxer starts one: a seek table of placeholders, info with a zero
    /// duration, one video track (number 1, 30 fps), and a segment of unknown size.
    private static func head(writingApp: String = "pipcam") -> [UInt8] {
        func seek(_ id: [UInt8]) -> [UInt8] { EBMLWriter.element(0x4DBB, EBMLWriter.element(0x53AB, id) + [0x53, 0xAC, 0x88] + [UInt8](repeating: 0xFF, count: 8)) }
        let seekHead = EBMLWriter.element(0x114D_9B74, seek([0x15, 0x49, 0xA9, 0x66]) + seek([0x1C, 0x53, 0xBB, 0x6B]) + seek([0x12, 0x54, 0xC3, 0x67]))
        let info = EBMLWriter.element(0x1549_A966, EBMLWriter.unsigned(0x2AD7B1, 1_000_000) + [0x44, 0x89, 0x88] + [UInt8](repeating: 0, count: 8)
            + EBMLWriter.element(0x5741, Array(writingApp.utf8) + [0]))
        let track = EBMLWriter.element(0xAE, EBMLWriter.unsigned(0xD7, 1) + EBMLWriter.unsigned(0x83, 1) + EBMLWriter.unsigned(0x73C5, 42)
            + EBMLWriter.unsigned(0x23E383, 33_333_333) + EBMLWriter.element(0x536E, Array("Picture".utf8) + [0]))
        let header = EBMLWriter.element(0x1A45_DFA3, EBMLWriter.element(0x4282, Array("matroska".utf8)))
        return header + [0x18, 0x53, 0x80, 0x67] + unknownSize + seekHead + info + EBMLWriter.element(0x1654_AE6B, track)
    }

    /// A cluster of unknown size at `time` ms with a key picture and `pictures - 1` others, 33 ms apart.
    private static func cluster(time: UInt64, pictures: Int) -> [UInt8] {
        var body = EBMLWriter.unsigned(0xE7, time)
        for index in 0..<pictures {
            let relative = UInt16(index * 33)
            body += EBMLWriter.element(0xA3, [0x81, UInt8(relative >> 8), UInt8(relative & 0xFF), index == 0 ? 0x80 : 0x00] + [UInt8](repeating: 0x55, count: 200))
        }
        return [0x1F, 0x43, 0xB6, 0x75] + unknownSize + body
    }

    private func write(_ bytes: [UInt8], _ name: String) throws -> String {
        let path = try Paths.scratch("matroska") + "/\(name).mkv"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    func testACutOffRecordingIsEndedWithItsWholeBlocksAndReadsAsFinished() throws {
        // Two clusters of 30 pictures, the last picture cut in the middle.
        var bytes = Self.head() + Self.cluster(time: 0, pictures: 30) + Self.cluster(time: 990, pictures: 30)
        bytes.removeLast(100)
        let path = try write(bytes, "cut")
        XCTAssertEqual(MatroskaHeader.read(path: path)?.isUnfinishedRecording, true)
        let result = try MatroskaRepair.repair(path: path)
        XCTAssertEqual(result.droppedBytes, 3 + 204 - 100, "what is left of the cut picture: its header and the first of its bytes")
        // 59 whole pictures: the last starts at 990 + 28 × 33 ms and lasts a thirtieth of a second.
        XCTAssertEqual(result.duration, .nanoseconds((990 + 28 * 33) * 1_000_000 + 33_333_333))
        let header = try XCTUnwrap(MatroskaHeader.read(path: path))
        XCTAssertTrue(header.isFinished)
        XCTAssertFalse(header.isUnfinishedRecording)
        XCTAssertEqual(header.duration, result.duration)
        XCTAssertThrowsError(try MatroskaRepair.repair(path: path)) { XCTAssertEqual($0 as? MatroskaRepair.Failure, .finished) }
    }

    func testZerosAfterTheLastWholeBlockAreCutOffWithTheBlockBeforeThem() throws {
        // What a power cut can leave: the file's length written, its last pages never.
        var bytes = Self.head() + Self.cluster(time: 0, pictures: 10)
        bytes.replaceSubrange((bytes.count - 150)..., with: [UInt8](repeating: 0, count: 150))
        bytes += [UInt8](repeating: 0, count: 4096)
        let path = try write(bytes, "zeros")
        let result = try MatroskaRepair.repair(path: path)
        XCTAssertEqual(result.duration, .nanoseconds(8 * 33 * 1_000_000 + 33_333_333), "nine whole pictures; the tenth is zeros")
    }

    func testHostileBytesAreRefusedOrRepairedNeverACrash() throws {
        var generator = SeededGenerator(seed: 19)
        let valid = Self.head() + Self.cluster(time: 0, pictures: 20) + Self.cluster(time: 660, pictures: 20)
        var outcomes: [String: Int] = [:]
        for trial in 0..<300 {
            var bytes = valid
            switch trial % 4 {
            case 0: bytes = (0..<Int.random(in: 0..<600, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            case 1: for _ in 0..<8 { bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator) }
            case 2: bytes.removeLast(Int.random(in: 0..<bytes.count, using: &generator))
            default:
                // Times, sizes and durations at their extremes.
                bytes += [0x1F, 0x43, 0xB6, 0x75] + Self.unknownSize + EBMLWriter.unsigned(0xE7, UInt64.max)
                    + EBMLWriter.element(0xA0, EBMLWriter.element(0xA1, [0x81, 0x7F, 0xFF, 0x80, 1]) + EBMLWriter.unsigned(0x9B, UInt64.max))
                    + [0xA3, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE]
            }
            let path = try write(bytes, "hostile-\(trial)")
            _ = MatroskaHeader.read(path: path)
            do {
                _ = try MatroskaRepair.repair(path: path)
                outcomes["repaired", default: 0] += 1
                _ = MatroskaHeader.read(path: path)
            } catch let failure as MatroskaRepair.Failure {
                outcomes["\(failure)", default: 0] += 1
            }
        }
        XCTAssertGreaterThan(outcomes["repaired"] ?? 0, 0, "\(outcomes)")
        XCTAssertGreaterThan(outcomes["is not a Matroska file"] ?? 0, 0, "\(outcomes)")
    }
}

/// The same "random" bytes on every run.
private struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state
    }
}
