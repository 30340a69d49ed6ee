@testable import CaptureGraph
@testable import CaptureModel
import PipcamTestSupport
@testable import pipcam
import XCTest

/// A microphone's processing as a description writes it, the graph it becomes, what can change while
/// recording, and the meters' words: clipping, silence, the bar.
final class SoundTests: XCTestCase {
    private let processed = """
        cameras:
          - name: cam
            synthetic: ball
        microphones:
          - name: voice
            synthetic: sync
            noise: -30
            high-pass: 80
            noise-suppression: high
            gain: 6
            limiter: -1
            offset: 120
            delay: 120
          - name: room
            synthetic: 440
            track: raw
        output:
          audio: mixed-and-separate

        """

    private let camera = "cameras:\n  - name: c\n    synthetic: ball\n"

    private func configuration(_ text: String) throws -> SessionConfiguration {
        try PipelineDescription.parse(text, file: "t.yaml").configuration(devices: [], outputPath: "/tmp/x.mkv").0
    }

    func testADescriptionsSoundKeysBecomeTheMicrophonesProcessing() throws {
        let inputs = try configuration(processed).inputs
        let voice = try XCTUnwrap(inputs.first { $0.id == "voice" })
        XCTAssertEqual(voice.sound.gain, 6)
        XCTAssertEqual(voice.sound.highPass, 80)
        XCTAssertEqual(voice.sound.noiseSuppression, .high)
        XCTAssertEqual(voice.sound.limiter, -1)
        XCTAssertEqual(voice.sound.offset, .milliseconds(120))
        XCTAssertEqual(voice.addedNoise, -30)
        XCTAssertEqual(voice.beepDelay, .milliseconds(120))
        XCTAssertEqual(inputs.first { $0.id == "room" }?.sound.ownTrack, .raw)
        XCTAssertEqual(try configuration(camera + "microphones:\n  - name: m\n    synthetic: 440\n    noise-suppression: off\n").inputs[1].sound.noiseSuppression, .off)
        XCTAssertEqual(try configuration(camera + "microphones:\n  - name: m\n    synthetic: silence\n").inputs[1].device.source, .tone(frequency: 0))
    }

    /// Every key that takes a time reads it one way: a unit (`ms`, `s`, `m`) or a bare number in the
    /// key's own unit, as a network camera's `delay:` does.
    func testEveryTimeKeyTakesAUnitOrABareNumber() throws {
        for (offset, expected) in [("120", 120), ("120ms", 120), ("0.12s", 120), ("-35ms", -35)] {
            let sync = camera + "microphones:\n  - name: m\n    synthetic: sync\n    offset: \(offset)\n    delay: 40ms\n"
            let inputs = try configuration(sync).inputs
            XCTAssertEqual(inputs.first { $0.id == "m" }?.sound.offset, .milliseconds(expected), offset)
            XCTAssertEqual(inputs.first { $0.id == "m" }?.beepDelay, .milliseconds(40))
        }
        let policies = try PipelineDescription.parse(camera + "device-timeout: 1500ms\nthrottle:\n  step-down-after: 2s\n  restore-after: 1m\n", file: "t.yaml")
        XCTAssertEqual(policies.deviceLoss.silenceTimeout, .milliseconds(1500))
        XCTAssertEqual(policies.throttle.stepDownAfter, .seconds(2))
        XCTAssertEqual(policies.throttle.restoreAfter, .seconds(60))
        XCTAssertEqual(try PipelineDescription.parse(camera + "device-timeout: 3\n", file: "t.yaml").deviceLoss.silenceTimeout, .seconds(3))
        XCTAssertThrowsError(try configuration(camera + "microphones:\n  - name: m\n    synthetic: 440\n    offset: soon\n")) { error in
            XCTAssertTrue("\(error)".contains("expected a time from -400ms to 400ms (like 120ms, 2s or 2m; a bare number is milliseconds), got 'soon'"), "\(error)")
        }
    }

    func testSoundKeysOutOfRangeOrOnTheWrongMicrophoneAreOneLineAtTheirPlace() {
        let cases = [
            ("    gain: 30\n", "t.yaml:4:11", "20"),
            ("    high-pass: 5\n", "t.yaml:4:16", "20"),
            ("    noise-suppression: loud\n", "t.yaml:4:24", "very-high"),
            ("    limiter: 3\n", "t.yaml:4:14", "0"),
            ("    offset: 2000\n", "t.yaml:4:13", "400"),
            ("    track: both\n", "t.yaml:4:12", "raw"),
            ("    delay: 100\n", "t.yaml:4:12", "sync microphone"),
        ]
        for (line, place, hint) in cases {
            XCTAssertThrowsError(try PipelineDescription.parse("microphones:\n  - name: m\n    synthetic: 440\n" + line, file: "t.yaml"), line) { error in
                XCTAssertEqual("\(error)".split(separator: "\n").count, 1)
                XCTAssertTrue("\(error)".contains(place) && "\(error)".contains(hint), "\(line): \(error)")
            }
        }
        XCTAssertThrowsError(try PipelineDescription.parse("microphones:\n  - name: m\n    device: hw:0\n    noise: -20\n", file: "t.yaml")) { error in
            XCTAssertTrue("\(error)".contains("synthetic microphone"), "\(error)")
        }
    }

    /// High-pass, two passes of noise suppression, float, gain, limiter, then the meter; the raw track
    /// taken before them; the offset where each track joins its mixer, earlier by as much.
    func testTheStagesAreMadeInOrderAndARawTrackIsTakenBeforeThem() throws {
        let plan = try configuration(processed).graphPlan()
        func next(_ name: String) -> [String] { plan.links.filter { $0.from == name }.map(\.to) }
        var chain = ["mic1-queue"]
        while let last = chain.last, let following = next(last).first, chain.count < 13 { chain.append(following) }
        XCTAssertEqual(chain, ["mic1-queue", "mic1-input-level", "mic1-high-pass", "mic1-suppress-convert", "mic1-suppress-caps", "mic1-suppress-1", "mic1-suppress-2",
                               "mic1-float-convert", "mic1-float", "mic1-gain", "mic1-limiter", "mic1-level", "mic1-movie-queue"])
        XCTAssertEqual(plan.node("mic1-suppress-1")?.properties.first { $0.0 == "echo-cancel" }?.1, .bool(false))
        XCTAssertEqual(next("mic2-queue"), ["mic2-input-level"])
        XCTAssertEqual(next("mic2-input-level"), ["mic2-raw-tee"])
        XCTAssertEqual(Set(next("mic2-raw-tee")), ["mic2-float", "mic2-raw-queue"], "the raw track leaves before the stages")
        XCTAssertEqual(next("mic2-raw-queue"), ["mic2-movie-raw-valve"])
        XCTAssertEqual(next("mic2-movie-raw-valve"), ["mic2-movie-track-pace"])
        let offsets = plan.links.filter { $0.timeOffset != .zero }.map { "\($0.from)>\($0.to) \($0.timeOffset)" }
        XCTAssertEqual(Set(offsets), ["mic1-movie-mix-queue>mix -0.12 seconds", "mic1-movie-track-queue>mic1-movie-track-pace -0.12 seconds"])
        XCTAssertFalse(plan.launchLine.contains("offset"), "gst-launch cannot set a negative pad offset")
    }

    func testGainCutAndCeilingChangeLiveAndStagesTurnedOnOrOffRebuild() throws {
        var configuration = try configuration(processed)
        let before = try configuration.graphPlan()
        configuration.inputs[1].sound.gain = -6
        configuration.inputs[1].sound.highPass = 120
        configuration.inputs[1].sound.limiter = -3
        configuration.inputs[1].sound.offset = .milliseconds(-50)
        XCTAssertEqual(try configuration.graphPlan().structureKey, before.structureKey)
        let live = try configuration.graphPlan().structureKey
        for change in [{ (sound: inout SoundProcessing) in sound.noiseSuppression = .low }, { $0.noiseSuppression = .off }, { $0.limiter = nil },
                       { $0.highPass = nil }, { $0.ownTrack = .raw }] {
            var changed = configuration
            change(&changed.inputs[1].sound)
            XCTAssertNotEqual(try changed.graphPlan().structureKey, live, "\(changed.inputs[1].sound)")
        }
    }

    func testTheSoundCommandTakesTheDescriptionsRanges() throws {
        let command = try ControlCommand(jsonLine: #"{"command":"sound","id":"voice","gain":-3.5,"offset":80}"#)
        guard case .sound(let id, let change) = command else { return XCTFail("\(command)") }
        XCTAssertEqual(id, "voice")
        let next = try change.applied(to: SoundProcessing())
        XCTAssertEqual(next.gain, -3.5)
        XCTAssertEqual(next.offset, .milliseconds(80))
        guard case .sound("room", let up)? = ControlCommand(key: "}", cameras: ["c"], microphones: ["voice", "room"]),
              case .sound("voice", let down)? = ControlCommand(key: "bracketleft", cameras: ["c"], microphones: ["voice", "room"]) else {
            return XCTFail("the gain keys")
        }
        XCTAssertEqual(try up.applied(to: next).gain, -0.5)
        var loud = SoundProcessing()
        loud.gain = 19
        XCTAssertEqual(try up.applied(to: loud).gain, 20, "held within its range")
        XCTAssertEqual(try down.applied(to: SoundProcessing()).gain, -3)
        XCTAssertNil(ControlCommand(key: "{", cameras: ["c"], microphones: ["voice"]), "no second microphone")
        for (line, words) in [(#"{"command":"sound","id":"v","gain":21}"#, "\"gain\" is -40 to 20"), (#"{"command":"sound","id":"v","offset":900}"#, "-400 to 400 ms"),
                              (#"{"command":"sound","id":"v","noise-suppression":"max"}"#, "very-high"), (#"{"command":"sound","id":"v"}"#, "needs")] {
            XCTAssertThrowsError(try { () throws -> Void in
                guard case .sound(_, let change) = try ControlCommand(jsonLine: line) else { return }
                _ = try change.applied(to: SoundProcessing())
            }(), line) { error in XCTAssertTrue("\(error)".contains(words), "\(line): \(error)") }
        }
    }

    func testClippingIsSaidOnceAWhileAndSilenceAfterTenSecondsUntilHeardAgain() {
        var watch = SoundWatch()
        func observe(_ peak: Double, _ rms: Double, at seconds: Double) -> SoundAlert.Kind? {
            watch.observe(SoundLevel(peak: peak, rms: rms), of: "voice", at: .milliseconds(Int(seconds * 1000)))?.kind
        }
        XCTAssertNil(observe(-6, -9, at: 0), "a clean tone")
        XCTAssertEqual(observe(0, -3, at: 0.1), .clipping)
        XCTAssertNil(observe(0, -3, at: 0.2), "said once")
        XCTAssertEqual(watch.states(at: .milliseconds(1000)), ["voice": "clipping"])
        XCTAssertEqual(watch.states(at: .milliseconds(3300)), [:], "marked for a while after the last clip")
        XCTAssertEqual(observe(0, -3, at: 4), .clipping, "clean for the hold, then clipping again is said again")
        var silentAt: Double?
        for tenth in 50...170 where silentAt == nil {
            if observe(-100, -100, at: Double(tenth) / 10) == .silent { silentAt = Double(tenth) / 10 }
        }
        XCTAssertEqual(silentAt, 15, "ten seconds after it went quiet")
        XCTAssertEqual(watch.states(at: .seconds(16)), ["voice": "silent"])
        XCTAssertNil(observe(-100, -100, at: 16))
        XCTAssertEqual(observe(-20, -25, at: 16.1), .heard)
        XCTAssertEqual(watch.states(at: .seconds(17)), [:])
        // Clipping at the source, under a gain that turns the recorded sound down: said, with what to do.
        let atSource = watch.observe(SoundLevel(peak: 0, rms: -3), of: "voice", at: .seconds(30), atInput: true)
        XCTAssertEqual(atSource?.kind, .clipping)
        XCTAssertTrue(atSource?.text.contains("at its source") == true, atSource?.text ?? "")
    }

    func testTheMeterIsABarOnATerminalAndNumbersElsewhere() {
        let level = SoundLevel(peak: -12, rms: -30)
        XCTAssertEqual(SoundMeter.text("voice", level, bar: true), "voice [#####..|..] -12")
        XCTAssertEqual(SoundMeter.text("voice", level, bar: false), "voice peak -12 rms -30 dBFS")
        XCTAssertEqual(SoundMeter.text("m", SoundLevel(peak: -100, rms: -100), bar: true), "m [..........] -100")
        XCTAssertEqual(SoundMeter.text("m", SoundLevel(peak: 0, rms: 0), bar: true), "m [##########] 0")
    }

    /// A flash partly lit in its first picture is placed that far into it; beeps are found by their first
    /// loud sample, a beep under way at the start is not one; the median pair gives the offset.
    func testFlashesAndBeepsAreFoundFinerThanAPictureAndPaired() throws {
        var times: [Double] = [], luma: [Double] = []
        for index in 0..<150 {
            let start = Double(index) / 30, end = start + 1.0 / 30
            // A flash from 0.51 s for 100 ms at each second.
            let lit = (0..<5).map { second -> Double in
                let on = Double(second) + 0.51, off = on + 0.1
                return max(0, min(end, off) - max(start, on)) * 30
            }.reduce(0, +)
            times.append(start)
            luma.append(16 + 219 * lit)
        }
        let flashes = SyncOnsets.flashes(times: times, luma: luma)
        XCTAssertEqual(flashes.count, 5)
        for (index, flash) in flashes.enumerated() { XCTAssertEqual(flash, Double(index) + 0.51, accuracy: 0.001) }
        let rate = 48000
        let samples = (0..<(rate * 5)).map { index -> Float in
            let time = Double(index) / Double(rate)
            let into = time.truncatingRemainder(dividingBy: 1) - 0.63
            return (time < 0.05 || (0..<0.1).contains(into)) ? Float(0.5 * sin(2 * .pi * 1000 * max(0, into))) + 0.3 * (time < 0.05 ? 1 : 0) : 0.001
        }
        let buffers = stride(from: 0, to: samples.count, by: 480).map { (start: Double($0) / Double(rate), samples: Array(samples[$0..<min(samples.count, $0 + 480)])) }
        let beeps = SyncOnsets.beeps(buffers, rate: rate)
        XCTAssertEqual(beeps.count, 5, "\(beeps)")
        XCTAssertEqual(beeps.first ?? 0, 0.63, accuracy: 0.001)
        let measured = try XCTUnwrap(SyncOnsets.offset(flashes: flashes, beeps: beeps))
        XCTAssertEqual(measured.seconds, 0.12, accuracy: 0.002)
        XCTAssertEqual(measured.pairs, 5)
        XCTAssertNil(SyncOnsets.offset(flashes: [1.0], beeps: [1.1]), "one pair is not enough")
    }

    func testSyncCheckWritesTheOffsetIntoTheEntryKeepingTheRest() throws {
        let text = "# room 4\nmicrophones:\n  - name: voice\n    synthetic: sync   # the desk\n  - name: room\n    offset: 10\n    synthetic: 440\nlayout:\n  kind: side-by-side\n"
        let edited = try DescriptionEditor.settingOffsets(["voice": 120, "room": -35], in: text)
        XCTAssertEqual(edited, "# room 4\nmicrophones:\n  - name: voice\n    offset: 120\n    synthetic: sync   # the desk\n  - name: room\n    offset: -35\n    synthetic: 440\nlayout:\n  kind: side-by-side\n")
        let reread = try PipelineDescription.parse(edited, file: "t.yaml")
        XCTAssertEqual(reread.microphones.map(\.sound.offset), [.milliseconds(120), .milliseconds(-35)])
        XCTAssertThrowsError(try DescriptionEditor.settingOffsets(["desk": 5], in: text)) { error in
            XCTAssertTrue("\(error)".contains("'desk'") && "\(error)".contains("by hand"), "\(error)")
        }
        // An offset above the name is the one changed, its comment kept; a name with a comment, a name
        // that begins another's, and Windows line ends are read as written.
        let written = "cameras:\r\n  - name: c\r\n    synthetic: ball\r\nmicrophones:\r\n  - name: voices\r\n    synthetic: 440\r\n"
            + "  - offset: 50   # measured in May\r\n    name: \"voice\"  # the desk\r\n    synthetic: sync\r\n"
        XCTAssertEqual(try DescriptionEditor.settingOffsets(["voice": 130], in: written),
                       written.replacingOccurrences(of: "- offset: 50   # measured", with: "- offset: 130   # measured"))
        XCTAssertEqual(try PipelineDescription.parse(try DescriptionEditor.settingOffsets(["voice": 130], in: written), file: "t.yaml").microphones.map(\.sound.offset),
                       [.zero, .milliseconds(130)])
        XCTAssertThrowsError(try DescriptionEditor.settingOffsets(["voice": 5], in: "microphones:\n  - name:\n      voice\n"), "a name on the next line is left to the hand")
    }
}
